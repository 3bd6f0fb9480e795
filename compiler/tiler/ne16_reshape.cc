// Deeploy's NE16 pointwise reshape (ne16_reshape.h), step by step as the pass computes it.
#include "compiler/tiler/ne16_reshape.h"

#include <cmath>
#include <vector>

namespace edgesim {
namespace {

// Factors tried from 2 up to ⌈√x⌉ − 1 (repeated), then whatever is left when it is > 1.
std::vector<int64_t> multiplicands(int64_t x) {
  std::vector<int64_t> m;
  int64_t rest = x;
  const auto lim = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(x))));
  for (int64_t i = 2; i < lim; ++i)
    while (rest % i == 0) {
      m.push_back(i);
      rest /= i;
    }
  int64_t prod = 1;
  for (int64_t v : m) prod *= v;
  if (x / prod > 1) m.push_back(x / prod);
  return m;
}

int64_t subtiles6(int64_t a, int64_t b) { return ((a + 5) / 6) * ((b + 5) / 6); }

}  // namespace

std::pair<int64_t, int64_t> deeploy_ne16_pointwise_reshape(int64_t hw) {
  if (hw <= 1) return {hw, 1};
  const std::vector<int64_t> m = multiplicands(hw);
  const size_t n = m.size();
  // Options: the product a of every combination of up to ⌊n/2⌋ multiplicands (by position, as
  // itertools.combinations), b = hw / a; the fewest 6 × 6 subtiles win, (hw, 1) if none.
  int64_t lowest = hw;
  std::vector<std::pair<int64_t, int64_t>> best{{hw, 1}};
  for (size_t len = 1; len <= n / 2; ++len) {
    std::vector<size_t> idx(len);
    for (size_t i = 0; i < len; ++i) idx[i] = i;
    while (true) {
      int64_t a = 1;
      for (size_t i : idx) a *= m[i];
      const int64_t b = hw / a;
      const int64_t s = subtiles6(a, b);
      if (s < lowest) {
        lowest = s;
        best = {{a, b}};
      } else if (s == lowest) {
        best.emplace_back(a, b);
      }
      // next combination
      size_t k = len;
      while (k > 0 && idx[k - 1] == n - len + k - 1) --k;
      if (k == 0) break;
      ++idx[k - 1];
      for (size_t i = k; i < len; ++i) idx[i] = idx[i - 1] + 1;
    }
  }
  // The smallest side among the best options; returned as (bigger, smaller).
  int64_t smallest = hw, biggest = 1;
  for (const auto& [a, b] : best) {
    if (a < smallest) {
      smallest = a;
      biggest = b;
    } else if (b < smallest) {
      smallest = b;
      biggest = a;
    }
  }
  return {biggest, smallest};
}

}  // namespace edgesim
