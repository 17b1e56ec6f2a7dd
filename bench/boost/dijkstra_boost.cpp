// Boost Graph Library Dijkstra as the sequential baseline of seed 000 §5.2D ("Boost library vs
// GPU Crauser optimized"; docs/references.md [boost-dijkstra], [seed000]). Launched by
// src/lab/boost.rs, which builds it with
//   g++ -O3 -std=c++17 -o target/boost/dijkstra_boost bench/boost/dijkstra_boost.cpp
// when /usr/include/boost/graph/dijkstra_shortest_paths.hpp exists (Debian libboost-graph-dev).
//
// Usage: dijkstra_boost GRAPH.gr DIST_DIR REPETITIONS SOURCE...
//   GRAPH.gr     DIMACS 9th challenge shortest-path file, plain text (`p sp N M`, `a U V W`, 1-based)
//   DIST_DIR     where each run writes its distances: dist-<source>-<rep>.bin, N little-endian u64,
//                2^64-1 for unreachable vertices (sssp-lab's INF)
//   SOURCE       0-based vertex indices (sssp-lab's ids)
// Prints one JSON object per run on stdout:
//   {"source":S,"rep":R,"ms":T,"peak_rss_bytes":B,"reached":K,"checksum":C,"boost_version":"1_74",
//    "dist_file":"…"}
// ms = wall time of the dijkstra_shortest_paths call (it initialises the distances and allocates
// its own heap and colour map inside); peak_rss_bytes = VmHWM after resetting it with
// `echo 5 > /proc/self/clear_refs` just before the call (the graph is resident: this is the
// memory the whole computation needs), or getrusage's ru_maxrss when the reset is refused.
// The graph is a compressed_sparse_row_graph with u32 vertex and edge indices and u32 weights;
// distances are u64. Modern Boost's dijkstra_shortest_paths uses a 4-ary indirect heap (the paper
// mentions relaxed heaps, which older versions used).
// Errors go to stderr with exit status 1.

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/version.hpp>

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

struct Arc {
  uint32_t w;
};
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, Arc, boost::no_property,
                                                 uint32_t, uint32_t>;

static void die(const std::string& msg) {
  std::fprintf(stderr, "dijkstra_boost: %s\n", msg.c_str());
  std::exit(1);
}

// Streams the .gr file in 4 MiB chunks; parses `p` and `a` lines, skips `c` lines.
static Graph read_gr(const char* path, uint32_t& n_out) {
  FILE* f = std::fopen(path, "rb");
  if (!f) die(std::string("cannot open ") + path + ": " + std::strerror(errno));
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  std::vector<Arc> weights;
  uint64_t n = 0, m = 0, line_no = 0;
  bool header = false;
  std::string carry;
  std::vector<char> buf(4 << 20);
  auto parse_line = [&](const char* s, const char* end) {
    ++line_no;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) ++s;
    if (s == end || *s == 'c') return;
    char* p = nullptr;
    if (*s == 'p') {
      const char* q = s + 1;
      while (q < end && *q == ' ') ++q;
      if (end - q < 2 || q[0] != 's' || q[1] != 'p') die("line " + std::to_string(line_no) + ": expected `p sp N M`");
      n = std::strtoull(q + 2, &p, 10);
      m = std::strtoull(p, &p, 10);
      if (n == 0 || n >= (1ull << 32) || m >= (1ull << 32)) die("bad header on line " + std::to_string(line_no));
      edges.reserve(m);
      weights.reserve(m);
      header = true;
    } else if (*s == 'a') {
      if (!header) die("line " + std::to_string(line_no) + ": arc before the `p sp` header");
      uint64_t u = std::strtoull(s + 1, &p, 10);
      uint64_t v = std::strtoull(p, &p, 10);
      uint64_t w = std::strtoull(p, &p, 10);
      if (u < 1 || u > n || v < 1 || v > n || w > 0xffffffffull) die("line " + std::to_string(line_no) + ": bad arc");
      edges.emplace_back(uint32_t(u - 1), uint32_t(v - 1));
      weights.push_back(Arc{uint32_t(w)});
    } else {
      die("line " + std::to_string(line_no) + ": unexpected line");
    }
  };
  size_t got;
  while ((got = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
    const char* s = buf.data();
    const char* end = s + got;
    while (s < end) {
      const char* nl = static_cast<const char*>(std::memchr(s, '\n', end - s));
      if (!nl) {
        carry.append(s, end);
        break;
      }
      if (!carry.empty()) {
        carry.append(s, nl);
        parse_line(carry.data(), carry.data() + carry.size());
        carry.clear();
      } else {
        parse_line(s, nl);
      }
      s = nl + 1;
    }
  }
  if (std::ferror(f)) die(std::string("reading ") + path + " failed");
  std::fclose(f);
  if (!carry.empty()) parse_line(carry.data(), carry.data() + carry.size());
  if (!header) die("no `p sp N M` header");
  if (edges.size() != m) die("header says " + std::to_string(m) + " arcs, file has " + std::to_string(edges.size()));
  n_out = uint32_t(n);
  Graph g(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), weights.begin(), uint32_t(n));
  return g;
}

static bool reset_peak() {
  FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  bool ok = std::fputs("5", f) >= 0;
  ok = (std::fclose(f) == 0) && ok;
  return ok;
}

static uint64_t peak_rss(bool reset_ok) {
  if (reset_ok) {
    std::ifstream st("/proc/self/status");
    std::string line;
    while (std::getline(st, line)) {
      if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
    }
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return uint64_t(ru.ru_maxrss) * 1024;
}

int main(int argc, char** argv) {
  if (argc < 5) die("usage: dijkstra_boost GRAPH.gr DIST_DIR REPETITIONS SOURCE...");
  uint32_t n = 0;
  Graph g = read_gr(argv[1], n);
  const std::string dir = argv[2];
  const long reps = std::strtol(argv[3], nullptr, 10);
  if (reps < 1) die("REPETITIONS must be at least 1");
  const uint64_t inf = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> dist(n);
  auto index = boost::get(boost::vertex_index, g);
  for (int a = 4; a < argc; ++a) {
    char* end = nullptr;
    unsigned long long s = std::strtoull(argv[a], &end, 10);
    if (*end != '\0' || s >= n) die(std::string("bad source ") + argv[a]);
    for (long r = 0; r < reps; ++r) {
      bool reset_ok = reset_peak();
      auto t0 = std::chrono::steady_clock::now();
      boost::dijkstra_shortest_paths(g, uint32_t(s),
                                     boost::weight_map(boost::get(&Arc::w, g))
                                         .distance_map(boost::make_iterator_property_map(dist.begin(), index))
                                         .distance_inf(inf)
                                         .distance_zero(uint64_t(0)));
      auto t1 = std::chrono::steady_clock::now();
      double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
      uint64_t peak = peak_rss(reset_ok);
      uint64_t reached = 0, checksum = 0;
      for (uint64_t d : dist) {
        if (d != inf) {
          ++reached;
          checksum += d;
        }
      }
      std::string file = dir + "/dist-" + std::to_string(s) + "-" + std::to_string(r) + ".bin";
      FILE* out = std::fopen(file.c_str(), "wb");
      if (!out) die("cannot create " + file);
      // The harness runs on little-endian machines only (x86-64, aarch64).
      if (std::fwrite(dist.data(), sizeof(uint64_t), dist.size(), out) != dist.size() || std::fclose(out) != 0)
        die("cannot write " + file);
      std::printf(
          "{\"source\":%llu,\"rep\":%ld,\"ms\":%.6f,\"peak_rss_bytes\":%llu,\"reached\":%llu,\"checksum\":%llu,"
          "\"boost_version\":\"%s\",\"dist_file\":\"%s\"}\n",
          s, r, ms, (unsigned long long)peak, (unsigned long long)reached, (unsigned long long)checksum,
          BOOST_LIB_VERSION, file.c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}
