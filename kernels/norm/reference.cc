// Reference integer normalisations (params.h): one row at a time along the last axis, in int64.
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

int64_t isqrt64(int64_t v) {
  if (v < 0) throw std::invalid_argument("isqrt of a negative value");
  auto r = static_cast<int64_t>(std::sqrt(static_cast<double>(v)));
  while (r > 0 && r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

void norm_reference(const NormParams& p, const View& x, const View& y) {
  if (x.shape != y.shape)
    throw std::invalid_argument("norm: output shape " + shape_str(y.shape) + " differs from input " +
                                shape_str(x.shape));
  if (x.rank() < 1) throw std::invalid_argument("norm: scalar input");
  const int64_t n = x.shape.back();
  const bool layer = p.kind == NormParams::Kind::Layer;
  if (static_cast<int64_t>(p.weight.size()) != n || (layer && static_cast<int64_t>(p.bias.size()) != n))
    throw std::invalid_argument("norm: " + std::to_string(p.weight.size()) + " weights for rows of " +
                                std::to_string(n));
  if (p.log2_d < 0 || p.log2_d > 62 || p.n_levels < 2) throw std::invalid_argument("norm: invalid parameters");
  const int64_t lo = -(p.n_levels / 2), hi = p.n_levels / 2 - 1;
  const std::vector<int64_t> v = x.to_ints();
  std::vector<int64_t> out(v.size());
  for (size_t r0 = 0; n > 0 && r0 < v.size(); r0 += static_cast<size_t>(n)) {
    const int64_t* row = v.data() + r0;
    int64_t mean = 0;
    if (layer) {
      int64_t s = 0;
      for (int64_t j = 0; j < n; ++j) s += row[j];
      mean = s / n;   // trunc
    }
    int64_t sq = 0;
    for (int64_t j = 0; j < n; ++j) sq += (row[j] - mean) * (row[j] - mean);
    const int64_t r = isqrt64(floor_div(sq, n) + 1);
    for (int64_t j = 0; j < n; ++j) {
      int64_t t = (row[j] - mean) * p.weight[static_cast<size_t>(j)] / r;   // trunc
      if (layer) t += p.bias[static_cast<size_t>(j)];
      out[r0 + static_cast<size_t>(j)] = clamp64(t >> p.log2_d, lo, hi);
    }
  }
  store_ints_checked(y, out);
}

}  // namespace edgesim
