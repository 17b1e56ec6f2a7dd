// Scratch micro-benchmark (session 49): PHAST's sweep on NY / luxembourg, variants side by side.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>
#include <string>
#include "kernels_base.cuh"
#include "staged_i.cuh"
#include "staged_v3.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

__device__ __forceinline__ u64 ld_relaxed(const u64 *p) {
    u64 v; asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st_relaxed(u64 *p, u64 v) {
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

// Dataflow sweep of positions lo..hi: one thread a position, blocks in ticket order; a tail
// t >= lo is waited for through ready[t] = (epoch << 32) | δ[t].
template <int B>
__global__ void phast_flow(const u32 *__restrict__ in_offsets, const u32 *__restrict__ in_tails,
                           const u32 *__restrict__ in_weights, u32 *dist, u64 *ready, u32 lo, u32 hi, u32 epoch,
                           u32 *ticket) {
    __shared__ u32 blk;
    if (threadIdx.x == 0) blk = atomicInc(ticket, gridDim.x - 1);
    __syncthreads();
    const u32 k = lo + blk * blockDim.x + threadIdx.x;
    if (k >= hi) return;
    u32 best = dist[k];
    const u32 a1 = __ldg(&in_offsets[k + 1]);
    for (u32 a = __ldg(&in_offsets[k]); a < a1; a += B) {
        u32 t[B], w[B];
        u64 v[B];
#pragma unroll
        for (int j = 0; j < B; ++j) {
            t[j] = a + j < a1 ? __ldg(&in_tails[a + j]) : 0u;
            w[j] = a + j < a1 ? __ldg(&in_weights[a + j]) : PHAST_INF;
        }
#pragma unroll
        for (int j = 0; j < B; ++j) v[j] = (a + j < a1 && t[j] >= lo) ? ld_relaxed(&ready[t[j]]) : 0ull;
#pragma unroll
        for (int j = 0; j < B; ++j) {
            if (a + j >= a1) continue;
            u32 d;
            if (t[j] < lo) d = dist[t[j]];
            else {
                while ((u32)(v[j] >> 32) != epoch) v[j] = ld_relaxed(&ready[t[j]]);
                d = (u32)v[j];
            }
            if (w[j] < PHAST_INF - d && d + w[j] < best) best = d + w[j];
        }
    }
    dist[k] = best;
    st_relaxed(&ready[k], ((u64)epoch << 32) | best);
}


constexpr u32 NOT_READY = 0xFFFFFFFEu;
__device__ __forceinline__ u32 ld_relaxed32(const u32 *p) {
    u32 v; asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st_relaxed32(u32 *p, u32 v) {
    asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
__global__ void phast_flow_prep(u32 lo, u32 n, u32 *seed, u32 *dist) {
    for (u32 k = lo + blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
        seed[k] = dist[k];
        dist[k] = NOT_READY;
    }
}
template <int B>
__global__ void phast_flowseg(const u32 *__restrict__ level_start, u32 levels, const u32 *__restrict__ in_offsets,
                              const u32 *__restrict__ in_tails, const u32 *__restrict__ in_weights,
                              const u32 *__restrict__ seed, u32 *dist, u32 lo, u32 n, u32 *ticket) {
    __shared__ u32 sh[2];
    if (threadIdx.x == 0) {
        const u32 b = atomicInc(ticket, gridDim.x - 1);
        const u32 c0 = lo + b * blockDim.x;
        u32 a = 0, z = levels;
        while (z - a > 1) { const u32 mid = (a + z) / 2; if (__ldg(&level_start[mid]) <= c0) a = mid; else z = mid; }
        sh[0] = b; sh[1] = a;
    }
    __syncthreads();
    const u32 c0 = lo + sh[0] * blockDim.x, c1 = min(c0 + blockDim.x, n);
    u32 l = sh[1];
    const u32 k = c0 + threadIdx.x;
    u32 best = PHAST_INF, a0 = 0, a1 = 0;
    if (k < c1) { best = seed[k]; a0 = __ldg(&in_offsets[k]); a1 = __ldg(&in_offsets[k + 1]); }
    for (u32 s = c0; s < c1; ++l) {
        const u32 e = min(__ldg(&level_start[l + 1]), c1);
        if (k >= s && k < e) {
            for (u32 a = a0; a < a1; a += B) {
                u32 t[B], w[B], d[B];
#pragma unroll
                for (int j = 0; j < B; ++j) {
                    t[j] = a + j < a1 ? __ldg(&in_tails[a + j]) : 0u;
                    w[j] = a + j < a1 ? __ldg(&in_weights[a + j]) : PHAST_INF;
                }
#pragma unroll
                for (int j = 0; j < B; ++j) d[j] = a + j < a1 ? ld_relaxed32(&dist[t[j]]) : 0u;
#pragma unroll
                for (int j = 0; j < B; ++j) {
                    if (a + j >= a1) continue;
                    while (d[j] == NOT_READY) d[j] = ld_relaxed32(&dist[t[j]]);
                    if (w[j] < PHAST_INF - d[j] && d[j] + w[j] < best) best = d[j] + w[j];
                }
            }
            st_relaxed32(&dist[k], best);
        }
        s = e;
        if (s < c1) __syncthreads();
    }
}

static std::vector<u32> A;
struct L { u32 first, last, blocks, staged; };

int main(int argc, char **argv) {
    const char *path = argv[1];
    int reps = argc > 2 ? atoi(argv[2]) : 30;
    FILE *f = fopen(path, "rb"); if (!f) { printf("no %s\n", path); return 2; }
    fseek(f, 0, SEEK_END); long sz = ftell(f); fseek(f, 0, SEEK_SET);
    A.resize(sz / 4); if (fread(A.data(), 4, A.size(), f) != A.size()) return 2; fclose(f);
    u32 n = A[0], levels = A[1], m = A[2], ns = A[3], np = A[4]; size_t p = 5;
    std::vector<u32> ls(A.begin() + p, A.begin() + p + levels + 1); p += levels + 1;
    std::vector<u32> off(A.begin() + p, A.begin() + p + n + 1); p += n + 1;
    std::vector<u32> tails(A.begin() + p, A.begin() + p + m); p += m;
    std::vector<u32> wts(A.begin() + p, A.begin() + p + m); p += m;
    std::vector<std::vector<u32>> pairs(ns);
    for (u32 s = 0; s < ns; ++s) { u32 c = A[p++]; pairs[s].assign(A.begin() + p, A.begin() + p + 2 * c); p += 2 * c; }
    std::vector<L> plan(np);
    for (u32 i = 0; i < np; ++i) plan[i] = {A[p], A[p + 1], A[p + 2], A[p + 3]}, p += 4;
    printf("%s: n %u levels %u arcs %u plan %u launches\n", path, n, levels, m, np);
    // CPU reference per source.
    std::vector<std::vector<u32>> ref(ns);
    for (u32 s = 0; s < ns; ++s) {
        std::vector<u32> d(n, PHAST_INF);
        for (size_t i = 0; i < pairs[s].size(); i += 2) d[pairs[s][i]] = pairs[s][i + 1];
        for (u32 k = 0; k < n; ++k)
            for (u32 a = off[k]; a < off[k + 1]; ++a) {
                u32 t = d[tails[a]], w = wts[a];
                if (w < PHAST_INF - t && t + w < d[k]) d[k] = t + w;
            }
        ref[s] = d;
    }
    u32 *dls, *doff, *dt, *dw, *dd, *tk, *seed; u64 *rdy;
    CK(cudaMalloc(&dls, 4 * ls.size())); CK(cudaMalloc(&doff, 4 * off.size()));
    CK(cudaMalloc(&dt, 4 * (size_t)m)); CK(cudaMalloc(&dw, 4 * (size_t)m)); CK(cudaMalloc(&dd, 4 * (size_t)n));
    CK(cudaMalloc(&rdy, 8 * (size_t)n)); CK(cudaMemset(rdy, 0, 8 * (size_t)n));
    CK(cudaMalloc(&seed, 4 * (size_t)n)); CK(cudaMalloc(&tk, 4)); CK(cudaMemset(tk, 0, 4));
    CK(cudaMemcpy(dls, ls.data(), 4 * ls.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(doff, off.data(), 4 * off.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dt, tails.data(), 4 * (size_t)m, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dw, wts.data(), 4 * (size_t)m, cudaMemcpyHostToDevice));
    int optin = 0; CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, phast_staged));
    CK(cudaFuncSetAttribute(phast_staged, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - (int)fa.sharedSizeBytes));
    cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    if (argc > 3 && std::string(argv[3]) == "clk") {
        CK(cudaFuncSetAttribute(staged_i<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - (int)fa.sharedSizeBytes));
        CK(cudaFuncSetAttribute(staged_i<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - (int)fa.sharedSizeBytes));
        cudaFuncAttributes f3; CK(cudaFuncGetAttributes(&f3, staged_v3));
        CK(cudaFuncSetAttribute(staged_v3, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - (int)f3.sharedSizeBytes));
        CK(cudaFuncSetAttribute(staged_i<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - (int)fa.sharedSizeBytes));
        long long *clk; CK(cudaMalloc(&clk, 8 * 1024));
        u32 last = plan[0].last; u32 hi = ls[last + 1]; u32 arcs = off[hi] - off[0];
        size_t bytes = (size_t)4 * hi + 4 * (hi + 1) + 4 * arcs + 2 * arcs;
        int clockkhz = 0; CK(cudaDeviceGetAttribute(&clockkhz, cudaDevAttrClockRate, 0));
        printf("staged levels 0-%u, %zu bytes, clock %d kHz\n", last, bytes, clockkhz);
        std::vector<std::vector<long long>> res(4);
        for (int v = 0; v < 4; ++v) {
            std::vector<std::vector<long long>> runs;
            for (int r = 0; r < 7; ++r) {
                phast_fill<<<(n + 255) / 256, 256, 0, s>>>(n, dd);
                if (v == 0) staged_i<0><<<1, 1024, bytes, s>>>(dls, doff, dt, dw, dd, 0, last, clk);
                if (v == 1) staged_i<1><<<1, 1024, bytes, s>>>(dls, doff, dt, dw, dd, 0, last, clk);
                if (v == 2) staged_i<2><<<1, 1024, bytes, s>>>(dls, doff, dt, dw, dd, 0, last, clk);
                if (v == 3) staged_v3<<<1, 1024, bytes, s>>>(dls, doff, dt, dw, dd, 0, last, clk);
                CK(cudaStreamSynchronize(s)); CK(cudaGetLastError());
                std::vector<long long> c(last + 2); CK(cudaMemcpy(c.data(), clk, 8 * (last + 2), cudaMemcpyDeviceToHost));
                runs.push_back(c);
            }
            res[v] = runs[3];
        }
        for (u32 l = 0; l <= last; ++l) {
            u32 sz = ls[l + 1] - ls[l]; u32 md = 0, sa = 0;
            for (u32 k = ls[l]; k < ls[l + 1]; ++k) { md = std::max(md, off[k + 1] - off[k]); sa += off[k + 1] - off[k]; }
            printf("level %3u size %5u arcs %6u maxdeg %3u cycles v0 %6lld v1 %6lld v2 %6lld v3 %6lld\n", l, sz, sa, md,
                   res[0][l + 1] - res[0][l], res[1][l + 1] - res[1][l], res[2][l + 1] - res[2][l], res[3][l + 1] - res[3][l]);
        }
        for (int v = 0; v < 4; ++v) printf("v%d total %lld cycles\n", v, res[v][last + 1] - res[v][0]);
        return 0;
    }
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    u32 epoch = 0;
    const u32 block = 256;
    auto reset = [&](u32 src) {
        phast_fill<<<(n + block - 1) / block, block, 0, s>>>(n, dd);
        PhastPairs pp; memset(&pp, 0, sizeof pp);
        u32 c = pairs[src].size() / 2;
        if (c > PHAST_INLINE_WORDS / 2) { printf("too many pairs\n"); exit(2); }
        memcpy(pp.w, pairs[src].data(), 8 * c);
        phast_scatter_inline<<<(c + block - 1) / block, block, 0, s>>>(pp, c, dd);
    };
    auto staged_bytes = [&](u32 first, u32 last) {
        u32 lo = ls[first], hi = ls[last + 1]; u32 arcs = off[hi] - off[lo];
        return (size_t)4 * hi + 4 * (hi - lo + 1) + 4 * arcs + 2 * arcs;
    };
    auto launch = [&](const L &x) {
        if (x.staged) phast_staged<<<1, 1024, staged_bytes(x.first, x.last), s>>>(dls, doff, dt, dw, dd, x.first, x.last);
        else phast_levels<<<x.blocks, block, 0, s>>>(dls, doff, dt, dw, dd, x.first, x.last, ls[x.first], ls[x.first + 1]);
    };
    auto flow = [&](u32 fromlevel, int b) {
        u32 lo = ls[fromlevel], hi = n; u32 g = (hi - lo + block - 1) / block;
        ++epoch;
        if (b == 4) phast_flow<4><<<g, block, 0, s>>>(doff, dt, dw, dd, rdy, lo, hi, epoch, tk);
        else if (b == 8) phast_flow<8><<<g, block, 0, s>>>(doff, dt, dw, dd, rdy, lo, hi, epoch, tk);
        else phast_flow<1><<<g, block, 0, s>>>(doff, dt, dw, dd, rdy, lo, hi, epoch, tk);
    };
    auto flowseg = [&](u32 fromlevel, int b) {
        u32 lo = ls[fromlevel]; u32 g = (n - lo + block - 1) / block;
        phast_flow_prep<<<std::min(g, 1024u), block, 0, s>>>(lo, n, seed, dd);
        if (b == 4) phast_flowseg<4><<<g, block, 0, s>>>(dls, levels, doff, dt, dw, seed, dd, lo, n, tk);
        else phast_flowseg<8><<<g, block, 0, s>>>(dls, levels, doff, dt, dw, seed, dd, lo, n, tk);
    };
    // Variants: each a function queuing reset(src) + sweep on s. mode: how it is submitted.
    struct V { std::string name; int kind; };
    std::vector<V> vs = {
        {"base: reset launches + graph(plan)", 0},
        {"base, no graph", 1},
        {"reset+plan all in one graph (per source)", 2},
    };
    cudaGraphExec_t plang = nullptr;
    {
        cudaGraph_t g; CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        for (auto &x : plan) launch(x);
        CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&plang, g, 0)); CK(cudaGraphUpload(plang, s));
    }
    u32 top_last = plan[0].staged ? plan[0].last : 0;
    for (auto &v : vs) {
        std::vector<double> gpu, wall; int bad = 0;
        for (u32 src = 0; src < ns; ++src) {
            std::vector<double> gs, ws;
            cudaGraphExec_t ge = nullptr;
            auto body = [&]() {
                switch (v.kind) {
                case 0: reset(src); CK(cudaGraphLaunch(plang, s)); break;
                case 1: reset(src); for (auto &x : plan) launch(x); break;
                case 3: reset(src); flow(0, 4); break;
                case 4: reset(src); flow(0, 1); break;
                case 5: reset(src); flow(0, 8); break;
                case 6: reset(src); launch(plan[0]); flow(top_last + 1, 4); break;
                case 9: reset(src); flowseg(0, 4); break;
                }
            };
            for (int r = 0; r < reps + 5; ++r) {
                if (v.kind == 2 || v.kind == 7 || v.kind == 8 || v.kind >= 10) {
                    // Captured per run (the epoch changes): the capture is untimed.
                    cudaGraph_t g; CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
                    reset(src);
                    if (v.kind == 2) for (auto &x : plan) launch(x);
                    else if (v.kind == 7) flow(0, 4);
                    else if (v.kind == 8) { launch(plan[0]); flow(top_last + 1, 4); }
                    else if (v.kind == 10) flowseg(0, 4);
                    else if (v.kind == 11) { launch(plan[0]); flowseg(top_last + 1, 4); }
                    else flowseg(0, 8);
                    CK(cudaStreamEndCapture(s, &g));
                    if (ge) cudaGraphExecDestroy(ge);
                    CK(cudaGraphInstantiate(&ge, g, 0)); CK(cudaGraphUpload(ge, s)); CK(cudaStreamSynchronize(s));
                    cudaGraphDestroy(g);
                }
                auto t0 = std::chrono::steady_clock::now();
                CK(cudaEventRecord(e0, s));
                if (ge) CK(cudaGraphLaunch(ge, s)); else body();
                CK(cudaEventRecord(e1, s));
                CK(cudaStreamSynchronize(s));
                auto t1 = std::chrono::steady_clock::now();
                CK(cudaGetLastError());
                float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
                if (r >= 5) { gs.push_back(ms * 1e3); ws.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count()); }
            }
            std::vector<u32> got(n); CK(cudaMemcpy(got.data(), dd, 4 * (size_t)n, cudaMemcpyDeviceToHost));
            for (u32 k = 0; k < n; ++k) bad += got[k] != ref[src][k];
            std::sort(gs.begin(), gs.end()); std::sort(ws.begin(), ws.end());
            gpu.push_back(gs[gs.size() / 2]); wall.push_back(ws[ws.size() / 2]);
            if (ge) cudaGraphExecDestroy(ge);
        }
        double g = 0, w = 0; for (double x : gpu) g += x; for (double x : wall) w += x; g /= ns; w /= ns;
        printf("%-44s GPU %7.1f us (%.2f us/level)  wall %7.1f us  wrong %d  [", v.name.c_str(), g, g / levels, w, bad);
        for (double x : gpu) printf(" %.1f", x);
        printf(" ]\n");
    }
    return 0;
}
