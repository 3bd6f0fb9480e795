// retype_from_inputs (import.h): once the real dtypes of inferred graph inputs are known,
// walk the nodes in order and give every value-preserving op the dtype its inputs imply.
// The rules are the importer's own: a Pad adds its pad value to the input range, a Concat
// takes the union of its inputs' ranges, Clip and a plain MaxPool intersect with their clamp,
// Reshape and Transpose keep the input type.
#include <algorithm>

#include "compiler/frontend/import.h"
#include "compiler/frontend/requant_chain.h"

namespace edgesim {

void retype_from_inputs(Graph& g) {
  auto dt = [&](int id) { return g.tensor(id).dtype; };
  for (const Node& n : g.nodes) {
    if (n.inputs.empty() || n.outputs.size() != 1) continue;
    const DType in = dt(n.inputs[0]);
    if (!dtype_is_int(in)) continue;
    const int64_t lo = dtype_min(in), hi = dtype_max(in);
    DType out;
    switch (n.kind()) {
      case OpKind::Reshape: case OpKind::Transpose:
        out = in;
        break;
      case OpKind::Pad: {
        const int64_t v = n.as<PadParams>().value;
        out = dtype_for_range(std::min(lo, v), std::max(hi, v));
        break;
      }
      case OpKind::Concat: {
        int64_t l = lo, h = hi;
        for (int id : n.inputs) {
          if (!dtype_is_int(dt(id))) { l = INT64_MIN; break; }
          l = std::min(l, dtype_min(dt(id)));
          h = std::max(h, dtype_max(dt(id)));
        }
        if (l == INT64_MIN) continue;
        out = dtype_for_range(l, h);
        break;
      }
      case OpKind::Clip: {
        const auto& p = n.as<ClipParams>();
        out = dtype_for_range(std::max(lo, p.lo), std::min(hi, p.hi));
        break;
      }
      case OpKind::Pool: {
        const auto& p = n.as<PoolParams>();
        if (p.kind != PoolParams::Kind::Max || p.rq.kind != Requant::Kind::None || p.x_zp != 0) continue;
        out = dtype_for_range(std::max(lo, p.rq.lo), std::min(hi, p.rq.hi));
        break;
      }
      default:
        continue;
    }
    g.tensors.at(static_cast<size_t>(n.outputs[0])).dtype = out;
  }
  // With the real types known, a Deeploy RequantShift that is a unity on its input's range (after
  // a Concat of int8 KV caches) passes values through: Deeploy's SkipUnityRequantPass removes it.
  if (g.dialect != "deeploy") return;
  for (size_t k = g.nodes.size(); k-- > 0;) {
    const Node& n = g.nodes[k];
    if (n.kind() != OpKind::Requant || n.inputs.size() != 1) continue;
    const DType in = dt(n.inputs[0]);
    if (!dtype_is_int(in) || in != dt(n.outputs[0])) continue;
    if (frontend::is_identity_requant(n.as<RequantParams>().rq, dtype_min(in), dtype_max(in)))
      g.bypass_node(static_cast<int>(k));
  }
}

}  // namespace edgesim
