set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output 'headline.svg'
DAT = 'headline.dat'
set grid lc rgb '#dddddd'
set key below horizontal

set title "The seed's scale event: 3 -> 4 workers, B = 1024, V = 128"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'buckets that changed owner'
set yrange [0:*]
plot DAT using 2:xtic(1) title 'fnv1a32 (moved)', DAT using 3:xtic(1) title 'xxh3 (moved)', 256 with lines lw 2 dt 2 lc rgb 'black' title 'ideal 256 = B/(N+1)'
