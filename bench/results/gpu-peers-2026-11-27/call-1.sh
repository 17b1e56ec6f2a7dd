#!/bin/bash
# Coordinator call 1 (2026-11-27): near-far's new auto Δ on Kronecker / uniform 21 (A/B with the
# other width pinned), luxembourg beside GAP-16, NY again, and the near-far CUDA tests.
set -u
D=.dev/coord
cd $D && xz -d *.xz && chmod +x sssp-lab nearfar-test sssp converter && cd ../..
o=$OUT/gpu-peers-2026-11-27
GRAPHS="ny lux kron21 urand21" timeout 540 bash $D/gpu-peer-bench.sh $D $o test graphs gapbs ours > $OUT/log.txt 2>&1
echo "rc=$?" >> $OUT/log.txt
find $o -name plots -type d -prune -exec rm -rf {} +
cd $OUT && tar czf gpu-peers-2026-11-27.tgz gpu-peers-2026-11-27 && rm -rf gpu-peers-2026-11-27
