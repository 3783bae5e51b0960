set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'bytes-per-vnode.svg'
DAT = 'bytes-per-vnode.dat'
set grid lc rgb '#dddddd'
set key below horizontal

set title "Bytes held per vnode (jemalloc thread counters, xxh3; algorithms with vnodes)"
set logscale xy 10
set format x '10^{%L}'
set xlabel 'points on the ring (N x V)'
set ylabel 'bytes per vnode'
plot DAT index 0 using 1:2 with linespoints pt 1 title 'linear', DAT index 1 using 1:2 with linespoints pt 2 title 'binary', DAT index 2 using 1:2 with linespoints pt 3 title 'front', DAT index 3 using 1:2 with linespoints pt 4 title 'table', DAT index 4 using 1:2 with linespoints pt 5 title 'bounded'
