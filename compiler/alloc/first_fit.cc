// First-fit lifetime planner: buffers are placed largest first (ties: earlier first_step, then
// lower id), each at the lowest aligned offset where it overlaps no already-placed buffer whose
// lifetime [first_step, last_step] intersects its own. Deterministic; O(n^2) in the buffers of
// one level, which is a few hundred at most.
#include <algorithm>
#include <stdexcept>

#include "compiler/alloc/planner.h"

namespace edgesim {

namespace {

int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

class FirstFitPlanner : public Planner {
 public:
  std::string name() const override { return "first-fit"; }

  int64_t place(std::vector<Buffer>& buffers, const std::vector<int>& ids, int64_t align) const override {
    if (align < 1) throw std::invalid_argument("planner: alignment must be >= 1");
    std::vector<int> order = ids;
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      const Buffer& x = buffers.at(a);
      const Buffer& y = buffers.at(b);
      if (x.bytes != y.bytes) return x.bytes > y.bytes;
      if (x.first_step != y.first_step) return x.first_step < y.first_step;
      return x.id < y.id;
    });
    std::vector<int> placed;
    int64_t high = 0;
    for (int id : order) {
      Buffer& b = buffers.at(id);
      // Address intervals of placed buffers alive at the same time, sorted by offset.
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (int p : placed) {
        const Buffer& o = buffers.at(p);
        if (o.first_step <= b.last_step && b.first_step <= o.last_step && o.bytes > 0)
          busy.emplace_back(o.offset, o.offset + o.bytes);
      }
      std::sort(busy.begin(), busy.end());
      int64_t off = 0;
      for (const auto& [lo, hi] : busy) {
        if (off + b.bytes <= lo) break;
        off = std::max(off, align_up(hi, align));
      }
      b.offset = off;
      high = std::max(high, off + b.bytes);
      placed.push_back(id);
    }
    return high;
  }
};

}  // namespace

std::unique_ptr<Planner> make_planner(const std::string& name) {
  if (name == "first-fit") return std::make_unique<FirstFitPlanner>();
  throw std::invalid_argument("unknown planner '" + name + "' (known: first-fit)");
}

}  // namespace edgesim
