// Reference float fake-quantisation chain (params.h): every step in float32, in order.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

float float_chain_apply(const FloatChainParams& p, float x) {
  for (const FloatStep& s : p.steps) {
    switch (s.op) {
      case FloatStep::Op::Add: x = x + s.value; break;
      case FloatStep::Op::Sub: x = s.reversed ? s.value - x : x - s.value; break;
      case FloatStep::Op::Mul: x = x * s.value; break;
      case FloatStep::Op::Div: x = s.reversed ? s.value / x : x / s.value; break;
      case FloatStep::Op::Round: x = std::nearbyint(x); break;
      case FloatStep::Op::Clip: x = std::min(std::max(x, s.lo), s.hi); break;
    }
  }
  return x;
}

void float_chain_reference(const FloatChainParams& p, const View& x, const View& y) {
  if (x.shape != y.shape)
    throw std::invalid_argument("fquant: output shape " + shape_str(y.shape) + " differs from input " +
                                shape_str(x.shape));
  const std::vector<double> in = x.to_f64();
  if (y.dtype == DType::F32) {
    std::vector<double> out(in.size());
    for (size_t i = 0; i < in.size(); ++i) out[i] = float_chain_apply(p, static_cast<float>(in[i]));
    y.from_f64(out);
    return;
  }
  std::vector<int64_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const float v = float_chain_apply(p, static_cast<float>(in[i]));
    if (v != std::floor(v))
      throw std::invalid_argument("fquant: value " + std::to_string(v) + " at index " + std::to_string(i) +
                                  " is not an integer for the " + dtype_name(y.dtype) + " output");
    out[i] = static_cast<int64_t>(v);
  }
  store_ints_checked(y, out);
}

}  // namespace edgesim
