set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'pg-claims.svg'
DAT = 'pg-claims.dat'
set grid lc rgb '#dddddd'
set key below horizontal
set multiplot layout 1,3 title "Claimed rows/s against W (uniform keys); dashed: pgbench simple-update TPS"
set logscale x 2
set xlabel 'W'
set yrange [0:*]
set title 'batch 1'
set ylabel 'rows/s'
plot DAT index 0 using 1:2 with linespoints lw 2 title 'competing', DAT index 1 using 1:2 with linespoints lw 2 title 'affinity', DAT index 2 using 1:2 with linespoints lw 2 title 'ordered', DAT index 9 using 1:2 with linespoints lw 2 dt 2 lc rgb 'black' title 'pgbench'
set title 'batch 8'
set ylabel 'rows/s'
plot DAT index 3 using 1:2 with linespoints lw 2 title 'competing', DAT index 4 using 1:2 with linespoints lw 2 title 'affinity', DAT index 5 using 1:2 with linespoints lw 2 title 'ordered', DAT index 10 using 1:2 with linespoints lw 2 dt 2 lc rgb 'black' title 'pgbench'
set title 'batch 32'
set ylabel 'rows/s'
plot DAT index 6 using 1:2 with linespoints lw 2 title 'competing', DAT index 7 using 1:2 with linespoints lw 2 title 'affinity', DAT index 8 using 1:2 with linespoints lw 2 title 'ordered', DAT index 11 using 1:2 with linespoints lw 2 dt 2 lc rgb 'black' title 'pgbench'
unset multiplot
