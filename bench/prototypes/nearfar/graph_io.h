// graph_io.h — host side of the near-far prototype: the graph (CSR of (head, weight) arcs), its
// readers (DIMACS .gr[.gz], GAP .wel text and .wsg serialized), the W×W grid generator, the .wsg
// writer (so GAP's sssp reads the same grid), the host Dijkstra every GPU run is checked against,
// the CUDA error check CK and a median.
// Included once, by nearfar.cu, after <cuda_runtime.h> (uint2).
#pragma once

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t err_ = (x);                                                                        \
        if (err_ != cudaSuccess) {                                                                     \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(2);                                                                                   \
        }                                                                                              \
    } while (0)

struct Graph {
    u32 n = 0;
    std::vector<u32> rowptr;
    std::vector<uint2> arcs;
};

static u64 splitmix64(u64 x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static void build_csr(Graph &g, u32 n, const std::vector<u32> &src, const std::vector<uint2> &dst) {
    g.n = n;
    g.rowptr.assign((size_t)n + 1, 0);
    for (u32 s : src) g.rowptr[s + 1]++;
    for (u32 v = 0; v < n; ++v) g.rowptr[v + 1] += g.rowptr[v];
    g.arcs.resize(dst.size());
    std::vector<u32> fill(g.rowptr.begin(), g.rowptr.end() - 1);
    for (size_t i = 0; i < src.size(); ++i) g.arcs[fill[src[i]]++] = dst[i];
}

static bool ends_with(const std::string &s, const char *suf) {
    const size_t k = strlen(suf);
    return s.size() >= k && s.compare(s.size() - k, k, suf) == 0;
}

// Reads whitespace-separated unsigned integers quickly (DIMACS .gr and GAP .wel).
struct Reader {
    FILE *f;
    std::vector<char> buf;
    size_t pos = 0, len = 0;
    explicit Reader(FILE *fp) : f(fp), buf(1 << 22) {}
    int peek() {
        if (pos == len) {
            len = fread(buf.data(), 1, buf.size(), f);
            pos = 0;
            if (len == 0) return -1;
        }
        return (unsigned char)buf[pos];
    }
    int get() {
        const int c = peek();
        if (c >= 0) pos++;
        return c;
    }
    void skip_line() {
        int c;
        while ((c = get()) >= 0 && c != '\n') {}
    }
    bool num(u64 &x) { // skips spaces/tabs/CR, not newlines
        int c;
        while ((c = peek()) == ' ' || c == '\t' || c == '\r') get();
        if (c < '0' || c > '9') return false;
        x = 0;
        while ((c = peek()) >= '0' && c <= '9') {
            x = x * 10 + (u64)(c - '0');
            get();
        }
        return true;
    }
};

static Graph load(const std::string &path) {
    Graph g;
    if (path.rfind("grid:", 0) == 0) {
        const u32 w = (u32)atoi(path.c_str() + 5);
        const u32 n = w * w;
        std::vector<u32> src;
        std::vector<uint2> dst;
        src.reserve((size_t)4 * n);
        dst.reserve((size_t)4 * n);
        for (u32 r = 0; r < w; ++r)
            for (u32 c = 0; c < w; ++c) {
                const u32 v = r * w + c;
                if (c + 1 < w) {
                    const u32 wt = 1 + (u32)(splitmix64(1ull ^ (2ull * v)) % 1000);
                    src.push_back(v); dst.push_back(make_uint2(v + 1, wt));
                    src.push_back(v + 1); dst.push_back(make_uint2(v, wt));
                }
                if (r + 1 < w) {
                    const u32 wt = 1 + (u32)(splitmix64(1ull ^ (2ull * v + 1)) % 1000);
                    src.push_back(v); dst.push_back(make_uint2(v + w, wt));
                    src.push_back(v + w); dst.push_back(make_uint2(v, wt));
                }
            }
        build_csr(g, n, src, dst);
        return g;
    }
    if (ends_with(path, ".wsg")) {
        FILE *f = fopen(path.c_str(), "rb");
        if (!f) { fprintf(stderr, "cannot open %s\n", path.c_str()); exit(1); }
        bool directed = false;
        int64_t m = 0, n = 0;
        if (fread(&directed, 1, 1, f) != 1 || fread(&m, 8, 1, f) != 1 || fread(&n, 8, 1, f) != 1) {
            fprintf(stderr, "%s: short header\n", path.c_str());
            exit(1);
        }
        std::vector<int64_t> off((size_t)n + 1);
        std::vector<int32_t> nb((size_t)m * 2);
        if (fread(off.data(), 8, off.size(), f) != off.size() || fread(nb.data(), 4, nb.size(), f) != nb.size()) {
            fprintf(stderr, "%s: short body\n", path.c_str());
            exit(1);
        }
        fclose(f);
        g.n = (u32)n;
        g.rowptr.resize((size_t)n + 1);
        for (size_t i = 0; i <= (size_t)n; ++i) g.rowptr[i] = (u32)(off[i] - off[0]);
        g.arcs.resize((size_t)m);
        for (size_t i = 0; i < (size_t)m; ++i) g.arcs[i] = make_uint2((u32)nb[2 * i], (u32)nb[2 * i + 1]);
        (void)directed; // out-arcs are all SSSP needs
        return g;
    }
    const bool gz = ends_with(path, ".gz");
    FILE *f = gz ? popen(("gzip -dc '" + path + "'").c_str(), "r") : fopen(path.c_str(), "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", path.c_str()); exit(1); }
    Reader rd(f);
    std::vector<u32> src;
    std::vector<uint2> dst;
    u32 n = 0;
    const bool dimacs = ends_with(path, ".gr") || ends_with(path, ".gr.gz");
    while (true) {
        const int c = rd.peek();
        if (c < 0) break;
        if (dimacs) {
            if (c == 'a') {
                rd.get();
                u64 a, b, w;
                if (!rd.num(a) || !rd.num(b) || !rd.num(w)) { fprintf(stderr, "bad arc line\n"); exit(1); }
                src.push_back((u32)(a - 1));
                dst.push_back(make_uint2((u32)(b - 1), (u32)w));
            } else if (c == 'p') {
                rd.get();
                while (rd.peek() == ' ') rd.get();
                while (rd.peek() >= 'a' && rd.peek() <= 'z') rd.get();
                u64 nn, mm;
                if (rd.num(nn) && rd.num(mm)) { n = (u32)nn; src.reserve(mm); dst.reserve(mm); }
            }
            rd.skip_line();
        } else {
            u64 a, b, w;
            if (rd.num(a) && rd.num(b) && rd.num(w)) {
                src.push_back((u32)a);
                dst.push_back(make_uint2((u32)b, (u32)w));
                if ((u32)a + 1 > n) n = (u32)a + 1;
                if ((u32)b + 1 > n) n = (u32)b + 1;
            }
            rd.skip_line();
        }
    }
    if (gz) pclose(f); else fclose(f);
    build_csr(g, n, src, dst);
    return g;
}

static void write_wsg(const Graph &g, const std::string &path) {
    FILE *f = fopen(path.c_str(), "wb");
    if (!f) { fprintf(stderr, "cannot write %s\n", path.c_str()); exit(1); }
    const bool directed = false; // grid and road inputs are symmetric
    const int64_t m = (int64_t)g.arcs.size(), n = g.n;
    fwrite(&directed, 1, 1, f);
    fwrite(&m, 8, 1, f);
    fwrite(&n, 8, 1, f);
    for (u32 v = 0; v <= g.n; ++v) { const int64_t o = g.rowptr[v]; fwrite(&o, 8, 1, f); }
    std::vector<int32_t> nb(2 * g.arcs.size());
    for (size_t i = 0; i < g.arcs.size(); ++i) { nb[2 * i] = (int32_t)g.arcs[i].x; nb[2 * i + 1] = (int32_t)g.arcs[i].y; }
    fwrite(nb.data(), 4, nb.size(), f);
    fclose(f);
}

static std::vector<u32> dijkstra(const Graph &g, u32 s) {
    std::vector<u32> d(g.n, INF32);
    typedef std::pair<u64, u32> E;
    std::priority_queue<E, std::vector<E>, std::greater<E>> q;
    d[s] = 0;
    q.push(E(0, s));
    while (!q.empty()) {
        const E t = q.top();
        q.pop();
        if (t.first != d[t.second]) continue;
        for (u32 e = g.rowptr[t.second]; e < g.rowptr[t.second + 1]; ++e) {
            const u64 nd = t.first + g.arcs[e].y;
            if (nd < d[g.arcs[e].x]) { d[g.arcs[e].x] = (u32)nd; q.push(E(nd, g.arcs[e].x)); }
        }
    }
    return d;
}


static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t k = v.size();
    return k == 0 ? 0 : (k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]));
}
