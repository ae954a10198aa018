# ns per call against request size, from `vrandom bench --csv`:
#   size,vrandom_ns,vdso_ns,syscall_ns,urandom_ns
# Run as: gnuplot -e "csv='bench.csv'; png='bench.png'; title='...'" bench.gp
set terminal pngcairo size 800,500 font ",10" noenhanced
set output png
set datafile separator ","
set title title
set xlabel "bytes per call"
set ylabel "ns per call"
set logscale xy 2
set format y "%.0f"
set format x "%.0f"
set grid
set key top left
set style data linespoints
plot csv using 1:2 skip 1 title "vrandom" lw 2 pt 7, \
     csv using 1:3 skip 1 title "raw vDSO call" lw 1 pt 6 dt 2, \
     csv using 1:4 skip 1 title "getrandom system call" lw 2 pt 5, \
     csv using 1:5 skip 1 title "read /dev/urandom" lw 2 pt 9
