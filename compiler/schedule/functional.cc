// Functional executor and allocation check (compiler/schedule/functional.h).
//
// The executor gives a Schedule its one functional meaning (docs/schedule.md) without time:
// a ScheduleMachine (machine.h) holds one byte array per memory level; constants and graph
// inputs are written to their placements first, then the commands run in list order (a list
// order is always a valid sequential execution).
//
// Each placed tensor is read back ("snapshotted") at the end of the last step of its home
// buffer's lifetime, i.e. the last moment the schedule promises the bytes are still that
// tensor's; after that the allocator may reuse them. A schedule whose lifetimes are too short
// therefore yields wrong values here and fails the bit-exact comparison in the tests.
#include "compiler/schedule/functional.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "compiler/schedule/machine.h"

namespace edgesim {

namespace {

size_t level_index(Level l) { return static_cast<size_t>(l); }

std::string buffer_label(const Buffer& b) {
  return fmt::format("buffer {} '{}' ({} {} B at {})", b.id, b.name, level_name(b.level), b.bytes, b.offset);
}

}  // namespace

FunctionalResult execute_functional(const Graph& g, const Schedule& s, const std::vector<Tensor>& inputs) {
  ScheduleMachine m(g, s);
  m.load(inputs);
  for (size_t k = 0; k < s.steps.size(); ++k) {
    const Step& st = s.steps[k];
    for (const Command& c : st.commands) {
      const std::string who = fmt::format("step {} '{}' command {} ({})", k, st.name, c.id, c.note);
      if (c.kind == Command::Kind::Dma) m.run_dma(c, who);
      else m.run_compute(c, who);
    }
    m.end_step(static_cast<int>(k));
  }
  return m.finish();
}

void check_allocation(const Schedule& s) {
  std::array<std::vector<const Buffer*>, 4> per_level;
  for (const Buffer& b : s.buffers) {
    const int64_t hw = s.high_water[level_index(b.level)];
    if (b.offset < 0)
      throw std::runtime_error(fmt::format("allocation: {} was never allocated", buffer_label(b)));
    if (b.bytes < 0 || b.offset + b.bytes > hw)
      throw std::runtime_error(fmt::format("allocation: {} ends at {}, beyond the {} high water {}",
                                           buffer_label(b), b.offset + b.bytes, level_name(b.level), hw));
    if (b.first_step > b.last_step)
      throw std::runtime_error(fmt::format("allocation: {} has lifetime [{}, {}]", buffer_label(b),
                                           b.first_step, b.last_step));
    if (b.bytes > 0) per_level[level_index(b.level)].push_back(&b);
  }
  // Sweep in address order: a buffer can only collide with earlier-starting ones still open.
  for (auto& v : per_level) {
    std::sort(v.begin(), v.end(), [](const Buffer* a, const Buffer* b) {
      return a->offset != b->offset ? a->offset < b->offset : a->id < b->id;
    });
    for (size_t i = 0; i < v.size(); ++i)
      for (size_t j = i + 1; j < v.size() && v[j]->offset < v[i]->offset + v[i]->bytes; ++j) {
        const Buffer& a = *v[i];
        const Buffer& b = *v[j];
        if (a.first_step <= b.last_step && b.first_step <= a.last_step)
          throw std::runtime_error(fmt::format(
              "allocation: {} and {} overlap in {} bytes [{}, {}) while both live (steps [{}, {}] and [{}, {}])",
              buffer_label(a), buffer_label(b), level_name(a.level), b.offset,
              std::min(a.offset + a.bytes, b.offset + b.bytes), a.first_step, a.last_step, b.first_step,
              b.last_step));
      }
  }
}

}  // namespace edgesim
