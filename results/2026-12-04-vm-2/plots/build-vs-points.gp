set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'build-vs-points.svg'
DAT = 'build-vs-points.dat'
set grid lc rgb '#dddddd'
set key below horizontal

set title "Time to build a ring against its points N x V (xxh3)"
set logscale xy 10
set format x '10^{%L}'
set xlabel 'points on the ring (N x V; N for algorithms without vnodes)'
set ylabel 'build CPU time, µs'
plot DAT index 0 using 1:2 with points pt 1 ps 1.2 title 'modn', DAT index 1 using 1:2 with points pt 2 ps 1.2 title 'linear', DAT index 2 using 1:2 with points pt 3 ps 1.2 title 'binary', DAT index 3 using 1:2 with points pt 4 ps 1.2 title 'front', DAT index 4 using 1:2 with points pt 5 ps 1.2 title 'jump', DAT index 5 using 1:2 with points pt 6 ps 1.2 title 'rendezvous', DAT index 6 using 1:2 with points pt 7 ps 1.2 title 'table', DAT index 7 using 1:2 with points pt 8 ps 1.2 title 'maglev', DAT index 8 using 1:2 with points pt 9 ps 1.2 title 'ketama', DAT index 9 using 1:2 with points pt 10 ps 1.2 title 'anchor', DAT index 10 using 1:2 with points pt 11 ps 1.2 title 'memento', DAT index 11 using 1:2 with points pt 12 ps 1.2 title 'dx', DAT index 12 using 1:2 with points pt 13 ps 1.2 title 'jumpback', DAT index 13 using 1:2 with points pt 14 ps 1.2 title 'fliphash', DAT index 14 using 1:2 with points pt 15 ps 1.2 title 'powerch', DAT index 15 using 1:2 with points pt 16 ps 1.2 title 'binomial', DAT index 16 using 1:2 with points pt 17 ps 1.2 title 'multiprobe', DAT index 17 using 1:2 with points pt 18 ps 1.2 title 'bounded', DAT index 18 using 1:2 with points pt 19 ps 1.2 title 'skeleton', DAT index 19 using 1:2 with points pt 20 ps 1.2 title 'qsort of N*V u64 (control)'
