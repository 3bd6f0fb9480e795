// Reference integer softmax (params.h): one row at a time along the last axis, in int64.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

namespace {

void isoftmax_row(const SoftmaxParams& p, const int64_t* x, int64_t* y, int64_t n) {
  const int64_t m = *std::max_element(x, x + n);
  std::vector<int64_t> e(static_cast<size_t>(n));
  int64_t sum = 0;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t d = x[j] - m;
    const int64_t z = std::min<int64_t>((-d) / p.log2, 31);
    const int64_t q = d + z * p.log2 + p.coeff_b;
    e[j] = (p.coeff_a * q * q + p.coeff_c) >> z;
    sum += e[j];
  }
  if (sum <= 0) throw std::invalid_argument("isoftmax: the row's exponentials sum to " + std::to_string(sum));
  for (int64_t j = 0; j < n; ++j) y[j] = floor_div(e[j] * (p.n_levels - 1), sum);
}

void itamax_row(const SoftmaxParams& p, const int64_t* x, int64_t* y, int64_t n) {
  const int64_t m = *std::max_element(x, x + n);
  auto shift_of = [&](int64_t v) { return std::min<int64_t>((m - v + 16) >> 5, 62); };
  int64_t sum = 0;
  for (int64_t j = 0; j < n; ++j) sum += int64_t{256} >> shift_of(x[j]);
  const int64_t top = (p.n_levels - 1) * 256 / sum;   // sum >= 256: the maximum contributes 256
  for (int64_t j = 0; j < n; ++j) y[j] = top >> shift_of(x[j]);
}

}  // namespace

void softmax_reference(const SoftmaxParams& p, const View& x, const View& y) {
  if (x.shape != y.shape)
    throw std::invalid_argument("softmax: output shape " + shape_str(y.shape) + " differs from input " +
                                shape_str(x.shape));
  if (x.rank() < 1) throw std::invalid_argument("softmax: scalar input");
  if (p.n_levels < 2 || (p.kind == SoftmaxParams::Kind::ISoftmax && (p.log2 < 1 || p.coeff_a < 1 || p.coeff_c < 0)))
    throw std::invalid_argument("softmax: invalid parameters");
  const int64_t n = x.shape.back();
  const std::vector<int64_t> v = x.to_ints();
  std::vector<int64_t> out(v.size());
  if (n > 0)
    for (size_t r = 0; r < v.size(); r += static_cast<size_t>(n)) {
      if (p.kind == SoftmaxParams::Kind::ISoftmax) isoftmax_row(p, v.data() + r, out.data() + r, n);
      else itamax_row(p, v.data() + r, out.data() + r, n);
    }
  store_ints_checked(y, out);
}

}  // namespace edgesim
