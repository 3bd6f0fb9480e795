// L3 slab planning (docs/schedule.md §4.3): an operand of a layer whose
// home is in L3 is staged through one or two L2 slab buffers. For each L2 slab of the layer the
// operand needs the bounding box of what the slab's L1 tiles read (input rows with their halo,
// a weight Cout range) or write (output rows); an input slab is (re)loaded only when that box
// differs from the previous slab's. Slab buffers rotate per load when there are several
// (L3Tiling::db_x / db_w / db_o, clamped to 1..kMaxSlabBuffers and to the number of loads; the
// policies use 1 or 2, the tuned flow's weight rings up to 64). The commands
// themselves are emitted by the layer step (build_layer.cc).
#include <algorithm>

#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

Box bounding(const std::vector<Box>& boxes) {
  Box b = boxes.front();
  for (const Box& o : boxes)
    for (size_t d = 0; d < b.ext.size(); ++d) {
      const int64_t lo = std::min(b.start[d], o.start[d]);
      const int64_t hi = std::max(b.start[d] + b.ext[d], o.start[d] + o.ext[d]);
      b.start[d] = lo, b.ext[d] = hi - lo;
    }
  return b;
}

SlabPlan plan_slabs(Schedule& s, const Region& home, const std::vector<std::vector<Box>>& tile_boxes, int db,
                    bool output, const std::string& tag, const std::string& node_name, int step) {
  SlabPlan p;
  p.active = true;
  int loads = 0;
  int64_t max_bytes = 0;
  const int64_t es = static_cast<int64_t>(dtype_size(home.dtype));
  for (size_t j = 0; j < tile_boxes.size(); ++j) {
    p.box.push_back(bounding(tile_boxes[j]));
    p.load.push_back(output || j == 0 || p.box[j] != p.box[j - 1]);
    loads += p.load.back() ? 1 : 0;
    max_bytes = std::max(max_bytes, p.box[j].numel() * es);
  }
  const int nb = std::min(std::clamp(db, 1, kMaxSlabBuffers), std::max(loads, 1));
  for (int i = 0; i < nb; ++i)
    p.bufs.push_back(add_buffer(s, Level::L2, max_bytes, tag + "[" + std::to_string(i) + "] L2 " + node_name, step, step));
  int count = -1;
  for (size_t j = 0; j < tile_boxes.size(); ++j) {
    if (p.load[j]) ++count;
    p.buf.push_back(p.bufs[static_cast<size_t>(count) % p.bufs.size()]);
  }
  return p;
}

}  // namespace edgesim::sched
