// First-fit lifetime planner: buffers are placed largest first (ties: earlier first_step, then
// lower id), each at the lowest aligned offset where it overlaps no already-placed buffer whose
// lifetime [first_step, last_step] intersects its own. Deterministic; O(n^2) comparisons in the
// buffers of one level (no sort per buffer: a chain of 10,000 layers once spent most of its
// tuning here).
#include <algorithm>
#include <stdexcept>

#include "compiler/schedule/planner.h"

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
    // Placed buffers in the order of their offsets: the scan below meets the address intervals of
    // those alive at the same time in ascending order without sorting them for every buffer (the
    // order among equal offsets does not change the result). O(placed) per buffer.
    std::vector<int> placed;
    int64_t high = 0;
    for (int id : order) {
      Buffer& b = buffers.at(id);
      int64_t off = 0;
      for (int p : placed) {
        const Buffer& o = buffers.at(p);
        if (o.first_step > b.last_step || b.first_step > o.last_step || o.bytes <= 0) continue;
        if (off + b.bytes <= o.offset) break;
        off = std::max(off, align_up(o.offset + o.bytes, align));
      }
      b.offset = off;
      high = std::max(high, off + b.bytes);
      const auto at = std::upper_bound(placed.begin(), placed.end(), off,
                                       [&](int64_t v, int q) { return v < buffers.at(q).offset; });
      placed.insert(at, id);
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
