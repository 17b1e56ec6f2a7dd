#!/bin/bash
# One device call: build the prototype, run it and GAP's sssp on NY, grid 4096², Kronecker 21, urand 21.
# Usage (repo root): bash .dev/gpu30/run.sh [all|ny]
cd "$(dirname "$0")"
R=/tmp/res; G=/tmp/g; mkdir -p $R $G
MODE=${1:-all}
log() { echo "== $(date +%T) $*" | tee -a $R/steps.txt; }
finish() { cp $R/*.csv $OUT/ 2>/dev/null; tar czf $OUT/res.tar.gz -C /tmp res; cp $R/summary.txt $OUT/ 2>/dev/null; }
trap finish EXIT
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
log build; nvcc -O3 -std=c++17 -arch=sm_90 -o nearfar_v1 nearfar_v1.cu -lpthread > $R/build-v1.log 2>&1 &
./build.sh > $R/build.log 2>&1 || { cat $R/build.log; exit 1; }; wait
if [ "$MODE" = all ]; then
  ( ./converter -g 21 -k 16 -w -b $G/k21.wsg > $R/conv-k21.log 2>&1; ./converter -u 21 -k 16 -w -b $G/u21.wsg > $R/conv-u21.log 2>&1 ) &
  CONV=$!
fi
NY=../../assets/USA-road-d.NY.gr.gz
ours() { local lab=$1; shift; log "ours $lab $*"; timeout ${TMO:-90} ./nearfar "$@" --label $lab --csv $R/nearfar.csv >> $R/ours-$lab.txt 2>&1; echo "rc=$?" >> $R/ours-$lab.txt; grep -h "SUMMARY\|TOTAL\|MISMATCH\|graph \|device\|rc=" $R/ours-$lab.txt | tail -n 40 > /dev/null; }
ours NY $NY --factors 4,8,16,32,64 --sources 8 --reps 3 --trace $R/trace-NY.csv
ours NY $NY --factors 16,32 --sources 8 --reps 3 --solo-work 2048
ours NY $NY --factors 16,32 --sources 8 --reps 3 --solo-work 32768
log "v1 NY"; timeout 60 ./nearfar_v1 $NY --label NY-v1 --factors 32 --sources 8 --reps 3 --csv $R/nearfar-v1.csv > $R/ours-NY-v1.txt 2>&1
gunzip -c $NY > $G/NY.gr; ./converter -f $G/NY.gr -w -b $G/NY.wsg > $R/conv-NY.log 2>&1
gap() { local g=$1 n=$2; shift 2; for d in "$@"; do log "gap $g d=$d"; echo "### $g delta=$d" >> $R/gapbs.txt; OMP_NUM_THREADS=16 timeout 120 ./sssp -f $G/$g.wsg -d $d -n $n >> $R/gapbs.txt 2>&1; done; }
gap NY 16 12500 25000 50000
if [ "$MODE" = all ]; then
  TMO=150 ours grid4096 grid:4096 --write-wsg $G/grid4096.wsg --factors 8,16,32,64,128 --sources 3 --reps 2
  TMO=100 ours grid4096 $G/grid4096.wsg --factors 32,64 --sources 3 --reps 2 --solo-work 65536
  gap grid4096 8 500 1000 2000 4000
  wait $CONV
  TMO=100 ours kron21 $G/k21.wsg --factors 0.25,0.5,2,8,1000 --sources 4 --reps 2
  gap k21 16 1 2
  TMO=100 ours urand21 $G/u21.wsg --factors 0.125,0.25,0.5,1,2 --sources 4 --reps 2
  gap u21 16 1 2 4
fi
grep -h "SUMMARY\|TOTAL\|MISMATCH\|^graph \|^device\|rc=\|overflow\|error" $R/ours-*.txt > $R/summary.txt
grep -h "###\|Average" $R/gapbs.txt >> $R/summary.txt
cat $R/summary.txt
