// Functional executor and allocation check (compiler/schedule/functional.h).
//
// The executor gives a Schedule its one functional meaning (docs/schedule.md) without time:
// every memory level is a plain byte array as large as the level's high-water mark; constants
// and graph inputs are written to their placements first, then the commands run in list order
// (a list order is always a valid sequential execution). Every byte range a command touches is
// checked against its buffer, so a wrong offset in the schedule builder surfaces as an error
// naming the step and command instead of silently corrupting a neighbour.
//
// Each placed tensor is read back ("snapshotted") at the end of the last step of its home
// buffer's lifetime, i.e. the last moment the schedule promises the bytes are still that
// tensor's; after that the allocator may reuse them. A schedule whose lifetimes are too short
// therefore yields wrong values here and fails the bit-exact comparison in the tests.
#include "compiler/schedule/functional.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "kernels/interpreter/interpreter.h"

namespace edgesim {

namespace {

using Memory = std::array<std::vector<std::byte>, 4>;

size_t level_index(Level l) { return static_cast<size_t>(l); }

std::string buffer_label(const Buffer& b) {
  return fmt::format("buffer {} '{}' ({} {} B at {})", b.id, b.name, level_name(b.level), b.bytes, b.offset);
}

std::string buffer_label(const Schedule& s, int id) {
  if (id < 0 || static_cast<size_t>(id) >= s.buffers.size()) return fmt::format("buffer {} (no such buffer)", id);
  return buffer_label(s.buffers[static_cast<size_t>(id)]);
}

const Buffer& buffer_at(const Schedule& s, int id, const std::string& who) {
  if (id < 0 || static_cast<size_t>(id) >= s.buffers.size())
    throw std::runtime_error(who + ": buffer id " + std::to_string(id) + " out of range (" +
                             std::to_string(s.buffers.size()) + " buffers)");
  return s.buffers[static_cast<size_t>(id)];
}

// Throws unless bytes [lo, hi) relative to the start of buffer `id` lie inside it.
void check_range(const Schedule& s, int id, int64_t lo, int64_t hi, const std::string& who) {
  const Buffer& b = buffer_at(s, id, who);
  if (lo < 0 || hi > b.bytes)
    throw std::runtime_error(fmt::format("{}: bytes [{}, {}) outside {}", who, lo, hi, buffer_label(s, id)));
}

std::byte* buffer_base(Memory& mem, const Schedule& s, int id, const std::string& who) {
  const Buffer& b = buffer_at(s, id, who);
  return mem[level_index(b.level)].data() + b.offset;
}

// Byte extent [lo, hi) of a strided view relative to its base pointer.
std::pair<int64_t, int64_t> view_extent(DType t, const Shape& shape, const Shape& strides) {
  const auto es = static_cast<int64_t>(dtype_size(t));
  int64_t lo = 0, hi = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] <= 0) return {0, 0};
    const int64_t span = (shape[d] - 1) * strides[d];
    (span < 0 ? lo : hi) += span;
  }
  return {lo * es, (hi + 1) * es};
}

View make_view(Memory& mem, const Schedule& s, int buffer, int64_t offset, DType t, const Shape& shape,
               const Shape& strides, const std::string& who) {
  if (shape.size() != strides.size())
    throw std::runtime_error(fmt::format("{}: shape {} and strides {} differ in rank", who, shape_str(shape),
                                         shape_str(strides)));
  const auto [lo, hi] = view_extent(t, shape, strides);
  if (hi > lo) check_range(s, buffer, offset + lo, offset + hi, who);
  return View{t, buffer_base(mem, s, buffer, who) + offset, shape, strides};
}

void copy_values(const View& src, const View& dst) {
  if (dst.dtype == DType::F32) dst.from_f64(src.to_f64());
  else dst.from_ints(src.to_ints());
}

void run_dma(Memory& mem, const Schedule& s, const Command& c, const std::string& who) {
  if (c.count[0] < 0 || c.count[1] < 0 || c.count[2] < 0)
    throw std::runtime_error(fmt::format("{}: negative dma count [{}, {}, {}]", who, c.count[0], c.count[1], c.count[2]));
  if (c.bytes() == 0) return;
  auto extent = [&](const DmaSide& d) {
    int64_t lo = d.offset, hi = d.offset + c.count[2];
    for (int k = 0; k < 2; ++k) {
      const int64_t span = (c.count[k] - 1) * d.stride[k];
      (span < 0 ? lo : hi) += span;
    }
    return std::pair{lo, hi};
  };
  const auto [slo, shi] = extent(c.src);
  const auto [dlo, dhi] = extent(c.dst);
  check_range(s, c.src.buffer, slo, shi, who + " dma src");
  check_range(s, c.dst.buffer, dlo, dhi, who + " dma dst");
  const std::byte* src = buffer_base(mem, s, c.src.buffer, who);
  std::byte* dst = buffer_base(mem, s, c.dst.buffer, who);
  for (int64_t i = 0; i < c.count[0]; ++i)
    for (int64_t j = 0; j < c.count[1]; ++j)
      std::memmove(dst + c.dst.offset + i * c.dst.stride[0] + j * c.dst.stride[1],
                   src + c.src.offset + i * c.src.stride[0] + j * c.src.stride[1],
                   static_cast<size_t>(c.count[2]));
}

void run_command(Memory& mem, const Schedule& s, const Command& c, const std::string& who) {
  if (c.kind == Command::Kind::Dma) {
    run_dma(mem, s, c, who);
    return;
  }
  auto views = [&](const std::vector<BufView>& bvs, const char* what) {
    std::vector<View> r;
    for (size_t k = 0; k < bvs.size(); ++k) {
      const BufView& b = bvs[k];
      r.push_back(make_view(mem, s, b.buffer, b.offset, b.dtype, b.shape, b.strides,
                            fmt::format("{} {} {}", who, what, k)));
    }
    return r;
  };
  const std::vector<View> in = views(c.inputs, "input");
  const std::vector<View> out = views(c.outputs, "output");
  if (out.size() != 1)
    throw std::runtime_error(fmt::format("{}: compute has {} outputs, expects 1", who, out.size()));
  try {
    run_reference(c.params, in, out[0]);
  } catch (const std::exception& e) {
    throw std::runtime_error(who + ": " + e.what());
  }
}

View placement_view(Memory& mem, const Graph& g, const Schedule& s, const Placement& p) {
  const TensorDesc& d = g.tensor(p.tensor);
  return make_view(mem, s, p.buffer, p.offset, d.dtype, d.shape, p.strides,
                   fmt::format("placement of tensor %{} '{}'", p.tensor, d.name));
}

Tensor read_back(const View& v) {
  Tensor t(v.dtype, v.shape);
  copy_values(v, t.view());
  return t;
}

}  // namespace

FunctionalResult execute_functional(const Graph& g, const Schedule& s, const std::vector<Tensor>& inputs) {
  if (inputs.size() != g.inputs.size())
    throw std::runtime_error(fmt::format("execute_functional: graph '{}' has {} inputs, {} given", g.name,
                                         g.inputs.size(), inputs.size()));
  Memory mem;
  for (size_t l = 0; l < mem.size(); ++l) {
    if (s.high_water[l] < 0) throw std::runtime_error(fmt::format("execute_functional: negative high water of {}",
                                                                  level_name(static_cast<Level>(l))));
    mem[l].assign(static_cast<size_t>(s.high_water[l]), std::byte{0});
  }
  for (size_t i = 0; i < s.buffers.size(); ++i) {
    const Buffer& b = s.buffers[i];
    if (b.id != static_cast<int>(i))
      throw std::runtime_error(fmt::format("execute_functional: buffer at index {} has id {}", i, b.id));
    if (b.offset < 0 || b.bytes < 0 || b.offset + b.bytes > s.high_water[level_index(b.level)])
      throw std::runtime_error(fmt::format("execute_functional: {} lies outside the {} high water {}",
                                           buffer_label(b), level_name(b.level),
                                           s.high_water[level_index(b.level)]));
  }
  for (const Placement& p : s.placements)
    if (p.tensor < 0 || static_cast<size_t>(p.tensor) >= g.tensors.size())
      throw std::runtime_error(fmt::format("execute_functional: placement of unknown tensor id {}", p.tensor));

  // Constants and graph inputs to their placements.
  for (const Placement& p : s.placements) {
    const TensorDesc& d = g.tensor(p.tensor);
    if (d.is_const()) copy_values(d.constant->view(), placement_view(mem, g, s, p));
  }
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const Placement* p = s.placement_of(g.inputs[i]);
    if (!p)
      throw std::runtime_error(fmt::format("execute_functional: graph input {} '{}' has no placement", i,
                                           g.tensor(g.inputs[i]).name));
    copy_values(convert_graph_input(g.tensor(g.inputs[i]), inputs[i], i).view(), placement_view(mem, g, s, *p));
  }

  // Placements to snapshot after each step (at the end of the home buffer's lifetime).
  const int nsteps = static_cast<int>(s.steps.size());
  std::vector<std::vector<const Placement*>> snap(static_cast<size_t>(nsteps) + 1);
  for (const Placement& p : s.placements) {
    const int last = buffer_at(s, p.buffer, "placement").last_step;
    snap[static_cast<size_t>(std::clamp(last, 0, nsteps))].push_back(&p);
  }

  FunctionalResult res;
  res.values.resize(g.tensors.size());
  auto take = [&](int k) {
    for (const Placement* p : snap[static_cast<size_t>(k)])
      res.values[static_cast<size_t>(p->tensor)] = read_back(placement_view(mem, g, s, *p));
  };
  for (int k = 0; k < nsteps; ++k) {
    const Step& st = s.steps[static_cast<size_t>(k)];
    for (const Command& c : st.commands)
      run_command(mem, s, c, fmt::format("step {} '{}' command {} ({})", k, st.name, c.id, c.note));
    take(k);
  }
  take(nsteps);

  for (size_t j = 0; j < g.outputs.size(); ++j) {
    const Placement* p = s.placement_of(g.outputs[j]);
    if (!p)
      throw std::runtime_error(fmt::format("execute_functional: graph output {} '{}' has no placement", j,
                                           g.tensor(g.outputs[j]).name));
    res.outputs.push_back(read_back(placement_view(mem, g, s, *p)));
  }
  return res;
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
