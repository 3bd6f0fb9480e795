// Reference integer activations (params.h), element-wise in int64.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

int64_t act_value(const ActParams& p, int64_t x) {
  if (p.kind == ActParams::Kind::Hardswish) return x * (clamp64(x + p.three, 0, p.six) * p.one_over_six);
  const int64_t q = std::min<int64_t>(x < 0 ? -x : x, -p.b);
  const int64_t sgn = x > 0 ? 1 : x < 0 ? -1 : 0;
  const int64_t l = sgn * (p.one - (q + p.b) * (q + p.b));
  return x * ((p.one + l) >> 1);
}

void act_reference(const ActParams& p, const View& x, const View& y, ArithMode mode) {
  if (x.shape != y.shape)
    throw std::invalid_argument("act: output shape " + shape_str(y.shape) + " differs from input " +
                                shape_str(x.shape));
  if (p.kind == ActParams::Kind::GELU && p.b >= 0) throw std::invalid_argument("igelu: b must be negative");
  p.rq.validate(1);
  std::vector<int64_t> v = x.to_ints();
  for (int64_t& e : v) e = p.rq.apply(act_value(p, e), 0, mode);
  store_ints_checked(y, v);
}

}  // namespace edgesim
