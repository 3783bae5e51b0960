set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'pg-scale.svg'
DAT = 'pg-scale.dat'
set grid lc rgb '#dddddd'
set key below horizontal

set title "Scale event: 3 workers, one joins at t = 0 (rows/s per 100 ms, batch 8)"
set xlabel 'seconds from the join'
set ylabel 'rows/s'
set yrange [0:*]
set arrow from 0, graph 0 to 0, graph 1 nohead dt 3 lc rgb 'black'
plot DAT index 0 using 1:2 with lines lw 2 title 'binary ownership', DAT index 1 using 1:2 with lines lw 2 title 'modn ownership'
