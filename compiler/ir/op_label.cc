// layer_label (op_label.h).
#include "compiler/ir/op_label.h"

#include <fmt/format.h>

namespace edgesim {

std::string layer_label(const Graph& g, const Node& n) {
  auto stride = [](int64_t sh, int64_t sw) {
    if (sh <= 1 && sw <= 1) return std::string();
    return sh == sw ? fmt::format(" /{}", sh) : fmt::format(" /{}x{}", sh, sw);
  };
  switch (n.kind()) {
    case OpKind::Conv: {
      const auto& p = n.as<ConvParams>();
      const Shape& x = g.tensor(n.inputs.at(0)).shape;
      const Shape& y = g.tensor(n.outputs.at(0)).shape;
      const bool dw = x.size() > 1 && y.size() > 1 && p.depthwise(x[1], y[1]);
      const std::string k = p.is_1d ? fmt::format("{}", p.kw) : fmt::format("{}x{}", p.kh, p.kw);
      return fmt::format("{}{} {}{}", dw ? "dwconv" : p.groups > 1 ? "gconv" : "conv", p.is_1d ? "1d" : "", k,
                         stride(p.sh, p.sw));
    }
    case OpKind::Pool: {
      const auto& p = n.as<PoolParams>();
      const char* kind = p.kind == PoolParams::Kind::Max ? "maxpool" : "sumpool";
      if (p.global) return fmt::format("global {}", kind);
      return fmt::format("{} {}x{}{}", kind, p.kh, p.kw, stride(p.sh, p.sw));
    }
    case OpKind::Gemm:   // MatMul of two activations (attention) vs a layer with constant weights
      return n.inputs.size() > 1 && !g.tensor(n.inputs[1]).is_const() ? "matmul" : "gemm";
    case OpKind::Softmax: return n.as<SoftmaxParams>().kind == SoftmaxParams::Kind::ITAMax ? "itamax" : "isoftmax";
    case OpKind::Norm: return n.as<NormParams>().kind == NormParams::Kind::Layer ? "ilayernorm" : "irmsnorm";
    case OpKind::Act: {
      const auto& p = n.as<ActParams>();
      return std::string(p.kind == ActParams::Kind::GELU ? "igelu" : "ihardswish") + (p.rq.enabled() ? "+rq" : "");
    }
    case OpKind::Mean: return "imean";
    default:
      return op_name(n.kind());
  }
}

}  // namespace edgesim
