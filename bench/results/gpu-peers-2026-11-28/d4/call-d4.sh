#!/bin/bash
# Diagnostic d4 (session 49): a standalone CUDA micro-benchmark of PHAST's sweep on NY and
# luxembourg (micro.cu, built with nvcc on the GPU machine; the data from phast_dump.rs), three
# calls. kernels_base.cuh is kernels/phast.cu from `constexpr u32 PHAST_INF` on, after a
# `typedef unsigned int u32; typedef unsigned long long u64;` line (call 1: the session-48
# kernel; call 3: the shift version now in the repository).
#  call 1 (micro-call1.txt, memcheck-call1.txt): the session-48 plan with the reset outside or
#    inside the CUDA graph, and a dataflow sweep without barriers (phast_flow / phast_flowseg:
#    a vertex waits for its tails' δ through a ready word in global memory) — not kept.
#  call 2 (clk-call2.txt): clock64 per staged level, the division version (v0) against shifts
#    (v1) and shifts without the shuffle when g = 1 (v2).
#  call 3 (clk-call3.txt, micro-call3.txt; micro.cu as committed, its list of timed variants cut to
#    the first three): v3 (a per-level table of shifts and active warps)
#    beside them, and the plan's timing with the shift kernel.
set -u
cd .dev/micro && nvcc -O3 -arch=sm_90 -std=c++17 -o micro micro.cu
for g in NY lux; do ./micro $g.bin 1 clk; ./micro $g.bin 30; done
compute-sanitizer --tool racecheck ./micro lux.bin 1 | tail -3
compute-sanitizer --tool synccheck ./micro lux.bin 1 | tail -2
