#include "compiler/budget/memory.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace edgesim {

namespace {

// Saturating addition and multiplication: shapes from a file may be absurd.
int64_t add_sat(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
int64_t mul_sat(int64_t a, int64_t b) { return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b; }

int64_t numel_sat(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n = mul_sat(n, std::max<int64_t>(d, 0));
  return n;
}

std::string size_str(int64_t b) {
  char buf[32];
  const double v = static_cast<double>(b);
  if (b >= (int64_t{1} << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", v / (1 << 30));
  else if (b >= (int64_t{1} << 20)) std::snprintf(buf, sizeof buf, "%.0f MiB", v / (1 << 20));
  else if (b >= 1024) std::snprintf(buf, sizeof buf, "%.0f KiB", v / 1024);
  else std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return buf;
}

}  // namespace

int64_t MemoryEstimate::total() const {
  return add_sat(add_sat(add_sat(mul_sat(tensors, copies), inputs), scratch), schedule);
}

std::string MemoryEstimate::str() const {
  std::string s = size_str(total()) + " (tensors " + size_str(tensors) + (copies > 1 ? " x" + std::to_string(copies) : "");
  s += ", inputs " + size_str(inputs) + ", largest kernel working set " + size_str(scratch);
  if (schedule > 0) s += ", schedule " + size_str(schedule);
  return s + ")";
}

MemoryEstimate estimate_memory(const Graph& g, int copies) {
  MemoryEstimate e;
  e.copies = copies;
  std::vector<int64_t> numel(g.tensors.size());
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    numel[i] = numel_sat(g.tensors[i].shape);
    e.tensors = add_sat(e.tensors, mul_sat(numel[i], static_cast<int64_t>(dtype_size(g.tensors[i].dtype))));
  }
  for (int id : g.inputs)
    if (id >= 0 && static_cast<size_t>(id) < numel.size()) e.inputs = add_sat(e.inputs, mul_sat(numel[id], 8));
  for (const Node& n : g.nodes) {
    int64_t elems = 0;
    for (int id : n.inputs)
      if (id >= 0 && static_cast<size_t>(id) < numel.size()) elems = add_sat(elems, numel[id]);
    for (int id : n.outputs)
      if (id >= 0 && static_cast<size_t>(id) < numel.size()) elems = add_sat(elems, numel[id]);
    e.scratch = std::max(e.scratch, mul_sat(elems, 8));
  }
  return e;
}

void add_schedule_estimate(MemoryEstimate& e, const Graph& g, const std::vector<LayerTiling>& tilings) {
  int64_t tiles = 0, layers = 0;
  for (const LayerTiling& t : tilings)
    if (t.node >= 0 && static_cast<size_t>(t.node) < g.nodes.size()) {
      tiles = add_sat(tiles, tile_count(layer_geom(g, t.node), t));
      ++layers;
    }
  e.schedule = add_sat(mul_sat(tiles, kScheduleBytesPerTile), mul_sat(layers, kScheduleBytesPerLayer));
}

int64_t& memory_limit() {
  static int64_t limit = kDefaultMemoryLimit;
  return limit;
}

void check_memory(const MemoryEstimate& e, const Graph& g, const std::string& what) {
  const int64_t limit = memory_limit();
  if (limit <= 0 || e.total() <= limit) return;
  std::string batch;
  for (int id : g.inputs)
    if (id >= 0 && static_cast<size_t>(id) < g.tensors.size()) {
      const TensorDesc& d = g.tensors[static_cast<size_t>(id)];
      if (d.shape.size() >= 2 && d.shape[0] > 1) {
        batch = " (input '" + d.name + "' has batch " + std::to_string(d.shape[0]) + ")";
        break;
      }
    }
  throw MemoryLimitError(what + ": needs an estimated " + e.str() + " of memory, above the limit of " +
                         size_str(limit) + batch + "; raise it with --memory-limit SIZE (0: no limit)");
}

int64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  return n == 2 ? static_cast<int64_t>(resident) * ::sysconf(_SC_PAGESIZE) : 0;
}

void check_resident(const std::string& what) {
  const int64_t limit = memory_limit();
  if (limit <= 0) return;
  const int64_t rss = resident_bytes();
  if (rss <= limit) return;
  throw MemoryLimitError(what + ": the process reached " + size_str(rss) + " of memory, above the limit of " +
                         size_str(limit) + "; raise it with --memory-limit SIZE (0: no limit)");
}

}  // namespace edgesim
