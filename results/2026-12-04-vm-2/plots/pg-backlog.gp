set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'pg-backlog.svg'
DAT = 'pg-backlog.dat'
set grid lc rgb '#dddddd'
set key below horizontal

set title "Claim p50 against the backlog (W 2, batch 8; one key holds 10% of it)"
set logscale x 10
set xlabel 'pending rows'
set ylabel 'claim p50 (µs; bars: min..max of the repetitions)'
set yrange [0:*]
plot DAT index 0 using 1:2:3:4 with yerrorlines lw 2 title 'competing', DAT index 1 using 1:2:3:4 with yerrorlines lw 2 title 'affinity', DAT index 2 using 1:2:3:4 with yerrorlines lw 2 title 'ordered (hot key head in flight)'
