// Tile params and constant vectors of a rows layer (compiler/ir/layout_domain.h) in the 2-D view
// [rows, last axis] the layer step uses: a tile is whole rows, so the last-axis vectors (norm
// weight and bias, a per-channel requant along the last axis) are the node's own, moved to axis 1
// of the view; every input reads exactly the output's box.
#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

TileParams rows_tile_params(const Node& n, const std::vector<Shape>& in_shapes, const Box& ob) {
  TileParams t;
  t.params = n.params;
  if (Requant* rq = fused_requant(t.params); rq && rq->axis >= 0) rq->axis = 1;
  for (size_t k = 0; k < in_shapes.size(); ++k) t.in_boxes.push_back(ob);
  return t;
}

std::vector<ConstVec> rows_const_vectors(const Node& n, const Box& ob) {
  std::vector<ConstVec> v;
  auto along = [&](const std::string& name, size_t size) {
    if (size > 1) v.push_back({name, {static_cast<int64_t>(size)}, Box{{ob.start[1]}, {ob.ext[1]}}});
  };
  if (n.kind() == OpKind::Norm) {
    along("weight", n.as<NormParams>().weight.size());
    along("bias", n.as<NormParams>().bias.size());
  }
  OpParams p = n.params;
  if (const Requant* rq = fused_requant(p); rq && rq->kind == Requant::Kind::Integer) {
    along("k", rq->k.size());
    along("lambda", rq->lambda.size());
  }
  return v;
}

}  // namespace edgesim::sched
