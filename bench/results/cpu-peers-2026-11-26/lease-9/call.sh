#!/usr/bin/env bash
# Lease 9 (issue 31): split hubs (SSSP_DS_SPLIT, the default 2048 arcs where the mean degree
# exceeds 4: Kronecker and uniform 21) and fused-bin overflow for idle threads (SSSP_DS_STEAL,
# off by default) against GAP on all four graphs, two back-to-back calls on one warm machine's
# 16 cores (copied from lease-8/call.sh). Sides per round (scripts/cpu-ab-interleave.sh):
# GAP(Δa) · ours (the default) · GAP(Δb) · ours with each switch — roads: SSSP_DS_STEAL=32 and
# =128 every round; the 21-scale graphs: SSSP_DS_SPLIT=0 (no split, the lease-8 default) every
# AB_EVERY-th round.
# Call 1: `CALL=1 bash .dev/cpu5/call.sh` — roads 15 rounds, then Kronecker 21 until STOP_kron21,
# uniform 21 until the end. It leaves its log in bench/graphs/ (ignored, kept on a warm machine).
# Call 2: `CALL=2 bash .dev/cpu5/call.sh` — no roads (15 rounds done), ROUND0=100, the graphs
# kept (REUSE_GRAPHS=1); from call 1's log it takes the rounds still missing to 16 per 21-scale
# graph and the seconds a round took there, so that both graphs reach 15+ and the A/B side runs
# as often as the time left allows.
# The raw output is tarred into $OUT every 20 s, so a call cut short still brings back what ran.
# As run (lease 9): call 1 only, `CALL=1 CALL_S=370 bash .dev/cpu5/call.sh` (09:40 UTC, 322 s, an
# H100 host); call 2 was never placed (README, lease 9).
set -uo pipefail
C=${CALL_S:-418}
N=${CALL:-1}
D=.dev/cpu5
o=/tmp/call$N; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C /tmp "call$N" 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/call$N.tgz"; }
xz -dc $D/sssp-lab.xz > /tmp/sssp-lab && chmod +x /tmp/sssp-lab
chmod +x $D/gapbs/* $D/wsg2wel 2>/dev/null
{ date -u; nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz'; uptime; free -g
  cat /sys/kernel/mm/transparent_hugepage/enabled /proc/sys/kernel/numa_balancing 2>/dev/null
  ls -la bench/graphs; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } > "$o/machine.txt" 2>&1
B=$(( C - 25 ))  # seconds the interleave script gets
if [[ $N == 1 ]]; then
  GRAPHS=${GRAPHS:-ny lux kron21 urand21}
  export ROUND0=0 ROUNDS=15 STOP_kron21=${STOP_kron21:-205} STOP_urand21=$(( B - 45 )) AB_EVERY=4
else
  # What call 1 did (its log, if this is the same machine): rounds per graph and seconds per
  # round without (base) and with (ab) the A/B side; lease 8's numbers where it left none.
  l=bench/graphs/lease9-call1-log.txt
  est() { # GRAPH DEFAULT_BASE DEFAULT_AB -> "rounds base ab"
    awk -v g="$2" -v db="$3" -v da="$4" '
      $0 ~ "^## ours=new-" g " " { split($3, r, "="); split($4, a, "="); n[r[2]] = a[2]; last = r[2] }
      $0 ~ "^## ours=ab-.*-" g " " { split($3, r, "="); split($4, a, "="); ab[r[2]] = a[2] }
      END { k = 0; for (i in n) k++
        b = 0; nb = 0; s = 0; ns = 0
        for (i in n) { j = i + 1; if (!(j in n)) continue
          if (i in ab) { s += n[j] - n[i]; ns++ } else { b += n[j] - n[i]; nb++ } }
        base = nb ? b / nb : db; abc = ns ? s / ns - base : da
        if (abc < 5) abc = da
        printf "%d %.0f %.0f\n", k, base, abc }' "$1"
  }
  read -r k1 ck ak <<< "$( [[ -s $l ]] && est "$l" kron21 19 17 || echo "0 19 17")"
  read -r u1 cu au <<< "$( [[ -s $l ]] && est "$l" urand21 21 20 || echo "0 21 20")"
  nk=$(( 16 - k1 )); (( nk < 6 )) && nk=6
  nu=$(( 16 - u1 )); (( nu < 6 )) && nu=6
  gen=$([[ -s bench/graphs/kron21.wel && -s bench/graphs/urand21.wel ]] && echo 3 || echo 25)
  spare=$(( B - gen - 10 - nk * ck - nu * cu ))
  # A/B rounds affordable on each graph (one of each per pair), never more than every 2nd round.
  pairs=$(( spare > 0 ? spare / (ak + au) : 0 ))
  ev=1000; (( pairs > 0 )) && ev=$(( (nk > nu ? nk : nu) / pairs + 1 )); (( ev < 2 )) && ev=2
  GRAPHS=${GRAPHS:-kron21 urand21}
  export ROUND0=100 REUSE_GRAPHS=1 ROUNDS_kron21=$nk ROUNDS_urand21=$nu AB_EVERY=$ev \
    STOP_kron21=$(( B - 10 - nu * cu - (pairs > 0 ? (nu / ev + 1) * au : 0) )) STOP_urand21=$(( B - cu - 8 ))
  echo "call 1: kron21 $k1 rounds, ${ck}+${ak} s; urand21 $u1 rounds, ${cu}+${au} s -> kron21 $nk, urand21 $nu rounds, A/B every $ev, STOP kron21 $STOP_kron21 urand21 $STOP_urand21" >> "$o/machine.txt"
fi
PEERS=$D LUX_GZ=$D/lux.gr.gz WSG2WEL=$D/wsg2wel BIG_ROUNDS=30 BIG_REPS=8 BIG_AB_EVERY=$AB_EVERY \
  AB_ENVS="SSSP_DS_STEAL=32;SSSP_DS_STEAL=128" BIG_AB="SSSP_DS_SPLIT=0" \
  timeout "$B" bash $D/cpu-ab-interleave.sh /tmp/sssp-lab "$o" $GRAPHS &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
[[ $N == 1 ]] && cp "$o/log.txt" bench/graphs/lease9-call1-log.txt
{ uptime; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } >> "$o/machine.txt" 2>&1
pack
