#!/bin/sh
# Builds the near-far prototype for the H100 (sm_90). Usage: ./build.sh [OUTPUT]
set -e
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o "${1:-nearfar}" nearfar.cu -lpthread
