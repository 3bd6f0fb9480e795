// Reference IntegerMean (params.h): the input is walked once in row-major order and every
// element added to the output position it reduces onto.
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

int64_t integer_mean(int64_t sum, int64_t n) {
  if (n <= 0) throw std::invalid_argument("mean over an empty set");
  if ((n & (n - 1)) == 0) {
    int s = 0;
    while ((int64_t{1} << s) < n) ++s;
    return (sum + n / 2) >> s;
  }
  const int64_t sgn = sum > 0 ? 1 : sum < 0 ? -1 : 0;
  return (sum + sgn * (n / 2)) / n;
}

Shape mean_output_shape(const MeanParams& p, const Shape& x) {
  Shape out;
  for (int64_t d = 0; d < static_cast<int64_t>(x.size()); ++d) {
    bool reduced = false;
    for (int64_t a : p.axes) reduced = reduced || a == d;
    if (!reduced) out.push_back(x[static_cast<size_t>(d)]);
    else if (p.keepdims) out.push_back(1);
  }
  return out;
}

void mean_reference(const MeanParams& p, const View& x, const View& y) {
  for (int64_t a : p.axes)
    if (a < 0 || a >= x.rank()) throw std::invalid_argument("mean: axis " + std::to_string(a) + " out of range");
  if (mean_output_shape(p, x.shape) != y.shape)
    throw std::invalid_argument("mean: output shape " + shape_str(y.shape) + ", expected " +
                                shape_str(mean_output_shape(p, x.shape)));
  int64_t n = 1;
  for (int64_t a : p.axes) n *= x.shape[static_cast<size_t>(a)];
  // Row-major strides of the output position of every input index (0 along reduced axes).
  const size_t r = x.shape.size();
  Shape kept(r, 1);
  for (size_t d = 0; d < r; ++d) {
    bool reduced = false;
    for (int64_t a : p.axes) reduced = reduced || a == static_cast<int64_t>(d);
    kept[d] = reduced ? 1 : x.shape[d];
  }
  const Shape ks = contiguous_strides(kept);
  const std::vector<int64_t> v = x.to_ints();
  std::vector<int64_t> sums(static_cast<size_t>(shape_numel(kept)), 0);
  std::vector<int64_t> idx(r, 0);
  for (int64_t e : v) {
    int64_t o = 0;
    for (size_t d = 0; d < r; ++d) o += (kept[d] == 1 ? 0 : idx[d]) * ks[d];
    sums[static_cast<size_t>(o)] += e;
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < x.shape[d]) break;
      idx[d] = 0;
    }
  }
  for (int64_t& s : sums) s = integer_mean(s, n);
  store_ints_checked(y, sums);
}

}  // namespace edgesim
