#!/bin/bash
# coord call 1 (session 38): near-far NF_SKIP / NF_CONTIG / NF_BAL_U=8 on CUDA; tests; sanitizers.
# (Round 2's times went to /dev/null with the records: only round 1's, in rec-*.jsonl.gz, count;
# the call was cut at 480 s during round 2's uniform 21.)
set -u
D=.dev/coord; o=$OUT/c1; mkdir -p $o /tmp/g
pack() { ( cd $OUT && tar czf c1.tgz c1 ); }
log() { echo "== $(date -u +%T) $*" | tee -a $o/steps.txt; }
cd $D && xz -d *.xz && chmod +x sssp-lab nearfar-test conf-test converter && cd - > /dev/null
S=$D/sssp-lab; A=delta-stepping:worklist=near-far
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
log compile-check
if ! timeout 60 $S solve $D/rmat14.gr -s 1 -a $A -d cuda -o /tmp/g/r14.dist > $o/compile.txt 2>&1; then
  log "compile/solve FAILED"; tail -30 $o/compile.txt; pack; exit 1; fi
for spec in "kron21 -g" "urand21 -u"; do read -r f fl <<< "$spec"
  ( $D/converter $fl 21 -k 16 -w -e /tmp/g/$f.wel ) > $o/conv-$f.log 2>&1 &
done
log tests
SSSP_LAB_REQUIRE_GPU=cuda SSSP_LAB_NY=assets/USA-road-d.NY.gr.gz timeout 100 $D/nearfar-test --test-threads=1 > $o/tests-nearfar.txt 2>&1; echo "rc=$?" >> $o/tests-nearfar.txt
SSSP_LAB_REQUIRE_GPU=cuda SSSP_LAB_NY=assets/USA-road-d.NY.gr.gz timeout 120 $D/conf-test --test-threads=1 > $o/tests-conformance.txt 2>&1; echo "rc=$?" >> $o/tests-conformance.txt
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do for f in rmat14 rmat15h fan16; do
  log "sanitizer $tool $f"
  timeout 100 $cs --tool $tool $S solve $D/$f.gr -s 1 -a $A -d cuda -o /tmp/g/$f-$tool.dist > $o/sanitize-$tool-$f.txt 2>&1; echo "rc=$?" >> $o/sanitize-$tool-$f.txt
done; done
for f in rmat14 rmat15h fan16; do $S solve $D/$f.gr -s 1 -a dijkstra -o /tmp/g/$f-ref.dist > /dev/null 2>&1
  for tool in memcheck racecheck synccheck; do cmp -s /tmp/g/$f-ref.dist /tmp/g/$f-$tool.dist && echo "$f $tool = dijkstra" >> $o/steps.txt || echo "$f $tool DIFFERS" >> $o/steps.txt; done; done
pack
wait; ls -l /tmp/g >> $o/steps.txt
declare -A SRC=( [kron21.1]=1433988 [kron21.2]=203271 [urand21.1]=1433990 [urand21.2]=2030955 )
for g in kron21 urand21; do for r in 1 2; do s=${SRC[$g.$r]}
  log "ref $g $s"; $S solve /tmp/g/$g.wel -s $s -a dijkstra -o /tmp/g/$g-$s.ref > /dev/null 2>&1
done; done
VARS=("old:NF_SKIP=0 NF_CONTIG=0" "skip:NF_CONTIG=0" "contig:NF_SKIP=0" "both:" "both-u8:NF_BAL_U=8")
for r in 1 2; do for g in kron21 urand21; do s=${SRC[$g.$r]}
  for v in "${VARS[@]}"; do name=${v%%:*}; defs=${v#*:}
    log "round $r $g src $s $name"
    rec=/dev/null; [ $r = 1 ] && rec=$o/rec-$g-$name.jsonl
    SSSP_NF_DEFINES="$defs" timeout 60 $S solve /tmp/g/$g.wel -s $s -a $A -d cuda --repeat 10 -o /tmp/g/out.dist --records > $o/t-r$r-$g-$name.txt 2> $rec
    echo "rc=$?" >> $o/t-r$r-$g-$name.txt
    cmp -s /tmp/g/out.dist /tmp/g/$g-$s.ref && echo "r$r $g $name = dijkstra" >> $o/check.txt || echo "r$r $g $name DIFFERS" >> $o/check.txt
    [ $r = 1 ] && gzip -f $o/rec-$g-$name.jsonl
    pack
  done
done; done
