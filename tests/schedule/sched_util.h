// Test-only helpers for the schedule builder: hand-made tilings, a deliberately small
// re-implementation of the schedule's functional meaning (docs/schedule.md) used to prove
// tiled == untiled independently of compiler/schedule/functional*.cc, and an allocation
// overlap check. The executor can run commands in list order or in the "latest ready first"
// topological order of their deps, which exposes missing dependencies (a buffer overwritten
// before its reader ran shows up as a wrong output).
#pragma once
#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/schedule/schedule.h"
#include "compiler/tiler/tiling.h"
#include "kernels/interpreter/interpreter.h"
#include "kernels/reference.h"

namespace edgesim::test {

// One LayerTiling per layer node: whole layer, or fixed output tile extents (0 = whole dim).
inline std::vector<LayerTiling> fixed_tilings(const Graph& g, int64_t n_out, int64_t h_out, int64_t w_out,
                                              bool whole = false) {
  std::vector<LayerTiling> r;
  for (int node : g.layer_nodes()) {
    LayerTiling t;
    t.node = node;
    t.policy = "test";
    t.l1.whole = whole;
    const Node& n = g.nodes[node];
    int64_t n_o = n_out;
    if (n.kind() == OpKind::Conv) {
      // Grouped convs need whole groups per Cout tile.
      const int64_t cout = g.tensor(n.outputs[0]).shape[1];
      const int64_t cg = cout / n.as<ConvParams>().groups;
      if (n_o > 0 && n.as<ConvParams>().groups > 1 && cg > 1) n_o = std::max<int64_t>(cg, n_o / cg * cg);
    }
    t.l1.n_out = n_o;
    t.l1.h_out = h_out;
    t.l1.w_out = w_out;
    r.push_back(t);
  }
  return r;
}

inline std::vector<Tensor> random_inputs(const Graph& g, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Tensor> r;
  for (int id : g.inputs) {
    const TensorDesc& d = g.tensor(id);
    Tensor t(d.dtype, d.shape);
    const int64_t lo = std::max<int64_t>(dtype_min(d.dtype), -100), hi = std::min<int64_t>(dtype_max(d.dtype), 200);
    std::uniform_int_distribution<int64_t> dist(lo, hi);
    for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, dist(rng));
    r.push_back(std::move(t));
  }
  return r;
}

class MiniExec {
 public:
  MiniExec(const Graph& g, const Schedule& s) : g_(g), s_(s) {
    for (size_t l = 0; l < 4; ++l) {
      int64_t top = s.high_water[l];
      for (const Buffer& b : s.buffers)
        if (static_cast<size_t>(b.level) == l) top = std::max(top, b.offset + b.bytes);
      mem_[l].assign(static_cast<size_t>(top), std::byte{0xA5});   // garbage, not zeros
    }
  }

  std::vector<Tensor> run(const std::vector<Tensor>& inputs, bool latest_first) {
    for (const Placement& p : s_.placements) {
      const TensorDesc& d = g_.tensor(p.tensor);
      const Tensor* v = d.is_const() ? &*d.constant : nullptr;
      for (size_t i = 0; i < g_.inputs.size(); ++i)
        if (g_.inputs[i] == p.tensor) v = &inputs.at(i);
      if (v) placed_view(p).from_ints(v->to_ints());
    }
    std::vector<const Command*> cmds;
    for (const Step& st : s_.steps)
      for (const Command& c : st.commands) cmds.push_back(&c);
    for (const Command* c : order(cmds, latest_first)) exec(*c);
    std::vector<Tensor> outs;
    for (int id : g_.outputs) {
      const TensorDesc& d = g_.tensor(id);
      Tensor t(d.dtype, d.shape);
      t.view().from_ints(placed_view(*s_.placement_of(id)).to_ints());
      outs.push_back(std::move(t));
    }
    return outs;
  }

 private:
  std::byte* at(int buffer, int64_t offset, int64_t span) {
    const Buffer& b = s_.buffers.at(buffer);
    if (offset < 0 || span < 0 || offset + span > b.bytes)
      throw std::runtime_error("access [" + std::to_string(offset) + ", +" + std::to_string(span) +
                               ") outside buffer '" + b.name + "' of " + std::to_string(b.bytes) + " B");
    return mem_[static_cast<size_t>(b.level)].data() + b.offset + offset;
  }
  View make_view(int buffer, int64_t offset, DType t, const Shape& shape, const Shape& strides) {
    int64_t last = 0;
    for (size_t d = 0; d < shape.size(); ++d) last += (shape[d] - 1) * strides[d];
    const int64_t es = static_cast<int64_t>(dtype_size(t));
    View v;
    v.dtype = t;
    v.base = shape_numel(shape) == 0 ? at(buffer, offset, 0) : at(buffer, offset, (last + 1) * es);
    v.shape = shape;
    v.strides = strides;
    return v;
  }
  View placed_view(const Placement& p) {
    const TensorDesc& d = g_.tensor(p.tensor);
    return make_view(p.buffer, p.offset, d.dtype, d.shape, p.strides);
  }
  std::vector<const Command*> order(const std::vector<const Command*>& cmds, bool latest_first) {
    if (!latest_first) return cmds;
    std::map<int, size_t> pos;
    for (size_t i = 0; i < cmds.size(); ++i) pos[cmds[i]->id] = i;
    std::vector<int> missing(cmds.size(), 0);
    std::vector<std::vector<size_t>> users(cmds.size());
    for (size_t i = 0; i < cmds.size(); ++i)
      for (int d : cmds[i]->deps) {
        users.at(pos.at(d)).push_back(i);
        ++missing[i];
      }
    std::set<size_t> ready;
    for (size_t i = 0; i < cmds.size(); ++i)
      if (!missing[i]) ready.insert(i);
    std::vector<const Command*> out;
    while (!ready.empty()) {
      const size_t i = *ready.rbegin();
      ready.erase(i);
      out.push_back(cmds[i]);
      for (size_t u : users[i])
        if (--missing[u] == 0) ready.insert(u);
    }
    if (out.size() != cmds.size()) throw std::runtime_error("dependency cycle");
    return out;
  }
  void exec(const Command& c) {
    if (c.kind == Command::Kind::Dma) {
      const int64_t span_s = (c.count[0] - 1) * c.src.stride[0] + (c.count[1] - 1) * c.src.stride[1] + c.count[2];
      const int64_t span_d = (c.count[0] - 1) * c.dst.stride[0] + (c.count[1] - 1) * c.dst.stride[1] + c.count[2];
      std::byte* s = at(c.src.buffer, c.src.offset, span_s);
      std::byte* d = at(c.dst.buffer, c.dst.offset, span_d);
      for (int64_t i = 0; i < c.count[0]; ++i)
        for (int64_t j = 0; j < c.count[1]; ++j)
          std::memmove(d + i * c.dst.stride[0] + j * c.dst.stride[1], s + i * c.src.stride[0] + j * c.src.stride[1],
                       static_cast<size_t>(c.count[2]));
      return;
    }
    std::vector<View> in;
    for (const BufView& v : c.inputs) in.push_back(make_view(v.buffer, v.offset, v.dtype, v.shape, v.strides));
    const BufView& ov = c.outputs.at(0);
    const View out = make_view(ov.buffer, ov.offset, ov.dtype, ov.shape, ov.strides);
    run_reference(c.params, in, out);   // the one dispatch from params to reference kernels
  }

  const Graph& g_;
  const Schedule& s_;
  std::vector<std::byte> mem_[4];
};

// Test-only overlap check: returns "" or a description of the first violation.
inline std::string allocation_problem(const Schedule& s) {
  for (const Buffer& a : s.buffers) {
    if (a.offset < 0) return "buffer '" + a.name + "' not allocated";
    if (a.offset + a.bytes > s.high_water[static_cast<size_t>(a.level)])
      return "buffer '" + a.name + "' above the high-water mark";
    for (const Buffer& b : s.buffers) {
      if (b.id <= a.id || b.level != a.level || a.bytes == 0 || b.bytes == 0) continue;
      const bool live = a.first_step <= b.last_step && b.first_step <= a.last_step;
      const bool addr = a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
      if (live && addr) return "buffers '" + a.name + "' and '" + b.name + "' overlap";
    }
  }
  return "";
}

}  // namespace edgesim::test
