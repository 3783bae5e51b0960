set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'spread-vs-vnodes.svg'
DAT = 'spread-vs-vnodes.dat'
set grid lc rgb '#dddddd'
set key below horizontal

set title "Peak-to-mean bucket load against vnodes per member (binary, xxh3, B = 1024)"
set logscale x 2
set xlabel 'vnodes per member, V'
set ylabel 'peak-to-mean (max/mean buckets per member)'
set yrange [1:*]
plot DAT index 0 using 1:2 with linespoints title 'N = 3', DAT index 1 using 1:2 with linespoints title 'N = 4', DAT index 2 using 1:2 with linespoints title 'N = 8', DAT index 3 using 1:2 with linespoints title 'N = 16', DAT index 4 using 1:2 with linespoints title 'N = 32', DAT index 5 using 1:2 with linespoints title 'N = 64'
