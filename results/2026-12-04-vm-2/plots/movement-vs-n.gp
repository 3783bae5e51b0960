set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'movement-vs-n.svg'
DAT = 'movement-vs-n.dat'
set grid lc rgb '#dddddd'
set key below horizontal

set title "Moved fraction of buckets on adding one member (xxh3, V = 128, key set npm-names)"
set logscale x 2
set xlabel 'members before the add, N'
set ylabel 'moved fraction (mean over seeds)'
set yrange [0:1]
plot DAT index 0 using 1:2 with linespoints title 'modn', DAT index 1 using 1:2 with linespoints title 'linear', DAT index 2 using 1:2 with linespoints title 'binary', DAT index 3 using 1:2 with linespoints title 'front', DAT index 4 using 1:2 with linespoints title 'jump', DAT index 5 using 1:2 with linespoints title 'rendezvous', DAT index 6 using 1:2 with linespoints title 'table', DAT index 7 using 1:2 with linespoints title 'maglev', DAT index 8 using 1:2 with linespoints title 'ketama', DAT index 9 using 1:2 with linespoints title 'anchor', DAT index 10 using 1:2 with linespoints title 'memento', DAT index 11 using 1:2 with linespoints title 'dx', DAT index 12 using 1:2 with linespoints title 'jumpback', DAT index 13 using 1:2 with linespoints title 'fliphash', DAT index 14 using 1:2 with linespoints title 'powerch', DAT index 15 using 1:2 with linespoints title 'binomial', DAT index 16 using 1:2 with linespoints title 'multiprobe', DAT index 17 using 1:2 with linespoints title 'bounded', DAT index 18 using 1:2 with linespoints title 'skeleton', 1/(x+1) with lines lw 2 dt 2 lc rgb 'black' title 'ideal 1/(N+1)'
