#!/bin/bash
# compute-sanitizer over the batched many-source kernels (kernels/batch.cu): R-MAT 10 and a 32² grid, K = 8 and chosen.
d=.dev/san; xz -d $d/sssp-lab.xz; chmod +x $d/sssp-lab
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
$d/sssp-lab gen -o $OUT/rmat10.gr rmat --scale 10 --edge-factor 8 --seed 3 > /dev/null 2>&1
$d/sssp-lab gen -o $OUT/grid32.gr grid --width 32 --height 32 --max-weight 100 --seed 2 > /dev/null 2>&1
for tool in memcheck racecheck synccheck; do
  for f in rmat10 grid32; do
    for w in cuda:0:batch=8 cuda:0:batch; do
      echo "== $tool $f $w" | tee -a $OUT/summary.txt
      timeout 60 "$cs" --tool $tool $d/sssp-lab apsp $OUT/$f.gr --sources 24:1 --workers $w -o $OUT/$f.tsv > $OUT/san-$tool-$f-${w##*:}.txt 2>&1
      echo "rc=$?" | tee -a $OUT/summary.txt; grep -E "ERROR SUMMARY|HAZARD|RACECHECK SUMMARY|SYNCCHECK" $OUT/san-$tool-$f-${w##*:}.txt | tail -2 | tee -a $OUT/summary.txt
    done
  done
done
rm -f $OUT/*.gr $OUT/*.tsv
