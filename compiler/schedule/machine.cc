// ScheduleMachine (machine.h): memory levels, loading, checked commands, read-back.
#include "compiler/schedule/machine.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "kernels/core/dense.h"
#include "kernels/interpreter/interpreter.h"

namespace edgesim {

namespace {

size_t level_index(Level l) { return static_cast<size_t>(l); }

std::string buffer_label(const Buffer& b) {
  return fmt::format("buffer {} '{}' ({} {} B at {})", b.id, b.name, level_name(b.level), b.bytes, b.offset);
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
    throw std::runtime_error(fmt::format("{}: bytes [{}, {}) outside {}", who, lo, hi, buffer_label(b)));
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

void copy_values(const View& src, const View& dst) {
  if (dense::copy_same(src, dst)) return;
  if (dst.dtype == DType::F32) dst.from_f64(src.to_f64());
  else dst.from_ints(src.to_ints());
}

Tensor read_back(const View& v) {
  Tensor t(v.dtype, v.shape);
  copy_values(v, t.view());
  return t;
}

}  // namespace

ScheduleMachine::ScheduleMachine(const Graph& g, const Schedule& s, bool storage) : g_(g), s_(s) {
  for (size_t l = 0; l < mem_.size(); ++l) {
    if (s.high_water[l] < 0)
      throw std::runtime_error(fmt::format("execute: negative high water of {}", level_name(static_cast<Level>(l))));
    if (storage) mem_[l].assign(static_cast<size_t>(s.high_water[l]), std::byte{0});
  }
  for (size_t i = 0; i < s.buffers.size(); ++i) {
    const Buffer& b = s.buffers[i];
    if (b.id != static_cast<int>(i))
      throw std::runtime_error(fmt::format("execute: buffer at index {} has id {}", i, b.id));
    if (b.offset < 0 || b.bytes < 0 || b.offset + b.bytes > s.high_water[level_index(b.level)])
      throw std::runtime_error(fmt::format("execute: {} lies outside the {} high water {}", buffer_label(b),
                                           level_name(b.level), s.high_water[level_index(b.level)]));
  }
  const int nsteps = static_cast<int>(s.steps.size());
  snap_.resize(static_cast<size_t>(nsteps) + 1);
  for (const Placement& p : s.placements) {
    if (p.tensor < 0 || static_cast<size_t>(p.tensor) >= g.tensors.size())
      throw std::runtime_error(fmt::format("execute: placement of unknown tensor id {}", p.tensor));
    const int last = buffer_at(s, p.buffer, "placement").last_step;
    snap_[static_cast<size_t>(std::clamp(last, 0, nsteps))].push_back(&p);
  }
  values_.resize(g.tensors.size());
}

View ScheduleMachine::view(int buffer, int64_t offset, DType t, const Shape& shape, const Shape& strides,
                           const std::string& who) {
  if (shape.size() != strides.size())
    throw std::runtime_error(fmt::format("{}: shape {} and strides {} differ in rank", who, shape_str(shape),
                                         shape_str(strides)));
  const auto [lo, hi] = view_extent(t, shape, strides);
  if (hi > lo) check_range(s_, buffer, offset + lo, offset + hi, who);
  const Buffer& b = buffer_at(s_, buffer, who);
  return View{t, mem_[level_index(b.level)].data() + b.offset + offset, shape, strides};
}

std::byte* ScheduleMachine::encoded_bytes(const Placement& p) {
  const TensorDesc& d = g_.tensor(p.tensor);
  return view(p.buffer, p.offset, DType::U8, {p.npu_weights->bytes()}, {1},
              fmt::format("encoded placement of tensor %{} '{}'", p.tensor, d.name))
      .base;
}

Tensor ScheduleMachine::read_placement(const Placement& p) {
  if (!p.npu_weights) return read_back(placement_view(p));
  const TensorDesc& d = g_.tensor(p.tensor);
  return npu_logical_weights(decode_npu_weights(encoded_bytes(p), 0, p.npu_weights->rows, *p.npu_weights), *p.npu_weights)
      .reshaped(d.shape);
}

View ScheduleMachine::placement_view(const Placement& p) {
  const TensorDesc& d = g_.tensor(p.tensor);
  return view(p.buffer, p.offset, d.dtype, d.shape, p.strides,
              fmt::format("placement of tensor %{} '{}'", p.tensor, d.name));
}

void ScheduleMachine::load(const std::vector<Tensor>& inputs) {
  if (inputs.size() != g_.inputs.size())
    throw std::runtime_error(fmt::format("execute: graph '{}' has {} inputs, {} given", g_.name,
                                         g_.inputs.size(), inputs.size()));
  for (const Placement& p : s_.placements) {
    const TensorDesc& d = g_.tensor(p.tensor);
    if (d.is_const() && p.npu_weights) {
      const std::vector<std::byte> enc = encode_npu_weights(d.constant->view(), *p.npu_weights);
      std::memcpy(encoded_bytes(p), enc.data(), enc.size());
    } else if (d.is_const()) {
      copy_values(d.constant->view(), placement_view(p));
    }
  }
  for (size_t i = 0; i < g_.inputs.size(); ++i) {
    const Placement* p = s_.placement_of(g_.inputs[i]);
    if (!p)
      throw std::runtime_error(fmt::format("execute: graph input {} '{}' has no placement", i,
                                           g_.tensor(g_.inputs[i]).name));
    copy_values(convert_graph_input(g_.tensor(g_.inputs[i]), inputs[i], i).view(), placement_view(*p));
  }
}

DmaAddresses ScheduleMachine::dma_addresses(const Command& c, const std::string& who) const {
  if (c.count[0] < 0 || c.count[1] < 0 || c.count[2] < 0)
    throw std::runtime_error(fmt::format("{}: negative dma count [{}, {}, {}]", who, c.count[0], c.count[1], c.count[2]));
  const Buffer& sb = buffer_at(s_, c.src.buffer, who + " dma src");
  const Buffer& db = buffer_at(s_, c.dst.buffer, who + " dma dst");
  if (c.bytes() > 0) {
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
    check_range(s_, c.src.buffer, slo, shi, who + " dma src");
    check_range(s_, c.dst.buffer, dlo, dhi, who + " dma dst");
  }
  return DmaAddresses{sb.level, db.level, sb.offset + c.src.offset, db.offset + c.dst.offset};
}

void ScheduleMachine::run_dma(const Command& c, const std::string& who) {
  const DmaAddresses a = dma_addresses(c, who);
  if (c.bytes() == 0) return;
  const std::byte* src = mem_[level_index(a.src_level)].data() + a.src;
  std::byte* dst = mem_[level_index(a.dst_level)].data() + a.dst;
  for (int64_t i = 0; i < c.count[0]; ++i)
    for (int64_t j = 0; j < c.count[1]; ++j)
      std::memmove(dst + i * c.dst.stride[0] + j * c.dst.stride[1], src + i * c.src.stride[0] + j * c.src.stride[1],
                   static_cast<size_t>(c.count[2]));
}

void ScheduleMachine::run_compute(const Command& c, const std::string& who) {
  auto views = [&](const std::vector<BufView>& bvs, const char* what) {
    std::vector<View> r;
    for (size_t k = 0; k < bvs.size(); ++k) {
      const BufView& b = bvs[k];
      r.push_back(view(b.buffer, b.offset, b.dtype, b.shape, b.strides, fmt::format("{} {} {}", who, what, k)));
    }
    return r;
  };
  std::vector<View> in = views(c.inputs, "input");
  const std::vector<View> out = views(c.outputs, "output");
  if (out.size() != 1)
    throw std::runtime_error(fmt::format("{}: compute has {} outputs, expects 1", who, out.size()));
  try {
    // The NPU decodes its weight rows: the reference then runs on the channels of the tile.
    Tensor w;
    OpParams params = c.params;
    if (c.npu_weights) {
      // A Gemm on the NPU is a 1x1 conv over its rows: the decoded rows are B as [N, K].
      const bool gemm = std::holds_alternative<GemmParams>(c.params);
      if (in.size() != 2 || in[1].shape.size() != 2 || out[0].shape.size() != (gemm ? out[0].shape.size() : 4))
        throw std::runtime_error("NPU compute expects inputs x and encoded weight rows and a 4-D output");
      const Tensor all = decode_npu_weights(in[1].base, c.npu_row0, in[1].shape[0], *c.npu_weights);
      const int64_t per = all.numel() / std::max<int64_t>(1, all.shape()[0]);
      const int64_t nc = gemm ? out[0].shape.back() : out[0].shape[1];
      if (c.npu_skip < 0 || c.npu_skip + nc > all.shape()[0])
        throw std::runtime_error(fmt::format("NPU weight rows hold {} channels, the tile needs {} from {}",
                                             all.shape()[0], nc, c.npu_skip));
      Shape ws = all.shape();
      ws[0] = nc;
      w = Tensor(all.dtype(), ws);
      std::memcpy(w.data(), all.data() + c.npu_skip * per * static_cast<int64_t>(dtype_size(all.dtype())), w.nbytes());
      if (gemm) {
        w = w.reshaped({nc, per});
        std::get<GemmParams>(params).trans_b = true;
      }
      in[1] = w.view();
    }
    run_kernel(params, in, out[0], arith_);
  } catch (const std::exception& e) {
    throw std::runtime_error(who + ": " + e.what());
  }
}

void ScheduleMachine::end_step(int k) {
  if (k < 0 || static_cast<size_t>(k) >= snap_.size()) return;
  for (const Placement* p : snap_[static_cast<size_t>(k)])
    values_[static_cast<size_t>(p->tensor)] = read_placement(*p);
}

FunctionalResult ScheduleMachine::finish() {
  end_step(static_cast<int>(s_.steps.size()));
  FunctionalResult res;
  for (size_t j = 0; j < g_.outputs.size(); ++j) {
    const Placement* p = s_.placement_of(g_.outputs[j]);
    if (!p)
      throw std::runtime_error(fmt::format("execute: graph output {} '{}' has no placement", j,
                                           g_.tensor(g_.outputs[j]).name));
    res.outputs.push_back(read_back(placement_view(*p)));
  }
  res.values = values_;
  return res;
}

}  // namespace edgesim
