// Views, requant constants and the dispatch of kernel emitters (kernel_emit.h).
#include <fmt/format.h>

#include "compiler/codegen/kernel_emit.h"

namespace edgesim::codegen {

CView ComputeEmit::view(const BufView& v) const {
  const Buffer& b = schedule.buffers.at(static_cast<size_t>(v.buffer));
  const char* base = b.level == Level::L1 ? "es_l1" : b.level == Level::L2 ? "es_l2" : b.level == Level::WMEM ? "es_wmem" : nullptr;
  if (!base) throw CodegenError(fmt::format("codegen: {}: a kernel view lies in L3 (buffer '{}')", who(), b.name));
  return CView{base, b.offset + v.offset, v.dtype, v.shape, v.strides};
}

void ComputeEmit::emit_view(const CView& v) {
  out << "&(es_view_t){" << v.base << " + ";
  out.hole(v.offset) << ", " << c_dtype(v.dtype) << ", " << std::to_string(v.shape.size()) << ", {";
  for (size_t d = 0; d < v.shape.size(); ++d) out.hole(v.shape[d]) << (d + 1 < v.shape.size() ? ", " : "");
  out << "}, {";
  for (size_t d = 0; d < v.strides.size(); ++d) out.hole(v.strides[d]) << (d + 1 < v.strides.size() ? ", " : "");
  out << "}}";
}

std::string ComputeEmit::who() const {
  const Node& n = graph.nodes.at(static_cast<size_t>(command.node));
  return fmt::format("node '{}' ({})", n.name, op_name(n.kind()));
}

CView as_4d(const CView& v) {
  if (v.shape.size() != 3) return v;
  CView r = v;
  r.shape = {v.shape[0], v.shape[1], 1, v.shape[2]};
  r.strides = {v.strides[0], v.strides[1], v.shape[2] * v.strides[2], v.strides[2]};
  return r;
}

CView broadcast_to(const CView& v, const Shape& shape) {
  CView r = v;
  const size_t lead = shape.size() - v.shape.size();
  r.shape = shape;
  r.strides.assign(shape.size(), 0);
  for (size_t d = 0; d < v.shape.size(); ++d)
    r.strides[lead + d] = v.shape[d] == 1 && shape[lead + d] != 1 ? 0 : v.strides[d];
  return r;
}

std::string c_dtype(DType t) {
  static const char* names[] = {"ES_U8", "ES_I8", "ES_I16", "ES_I32", "ES_I64", "ES_F32"};
  return names[static_cast<int>(t)];
}

std::string rq_init(const Requant& rq, LayerData& data, int axis) {
  const int kind = rq.kind == Requant::Kind::None ? 0 : rq.kind == Requant::Kind::Integer ? 1 : 2;
  return fmt::format("{{{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}}", kind, axis, rq.k.size(),
                     data.ints(rq.k), rq.lambda.size(), data.ints(rq.lambda), c_int(rq.mul), rq.shift, c_int(rq.round),
                     c_int(rq.div), rq.scale.size(), data.doubles(rq.scale), c_int(rq.zp), c_int(rq.lo), c_int(rq.hi));
}

void emit_compute(ComputeEmit& e, const std::vector<KernelEntry>& table) {
  const Node& n = e.graph.nodes.at(static_cast<size_t>(e.command.node));
  const OpKind kind = static_cast<OpKind>(e.command.params.index());
  for (const KernelEntry& k : table)
    if (k.kind == kind) return k.emit(e);
  std::string supported;
  for (const KernelEntry& k : table) supported += std::string(supported.empty() ? "" : ", ") + op_name(k.kind);
  throw CodegenError(fmt::format("codegen: node '{}': op {} has no C kernel (supported: {})", n.name, op_name(kind),
                                 supported));
}

}  // namespace edgesim::codegen
