// Deeploy's NE16 pointwise reshape (ne16_pw_reshape.h): the choice step by step as the pass
// computes it, and the graph rewrite.
#include "compiler/passes/ne16_pw_reshape.h"

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

bool is_deeploy_ne16_pointwise_extent(int64_t rows, int64_t cols) {
  return deeploy_ne16_pointwise_reshape(rows * cols) == std::pair{rows, cols};
}

namespace {

Node reshape_node(const std::string& name, int in, int out) {
  Node n{name, ReshapeParams{}, {in}, {out}, {"Reshape"}};
  n.engine = "cluster";
  return n;
}

bool reshapable(const Graph& g, const Node& n) {
  if (n.kind() != OpKind::Conv || n.engine != "npu" || n.inputs.size() < 2 || n.outputs.size() != 1) return false;
  const ConvParams& p = n.as<ConvParams>();
  if (p.kh != 1 || p.kw != 1 || p.sh != 1 || p.sw != 1 || p.groups != 1 || p.pad_t || p.pad_l || p.pad_b || p.pad_r)
    return false;
  const Shape& x = g.tensor(n.inputs[0]).shape;
  const Shape& y = g.tensor(n.outputs[0]).shape;
  return x.size() == 4 && y.size() == 4 && x[2] == y[2] && x[3] == y[3] && !g.tensor(n.inputs[0]).is_const();
}

}  // namespace

int apply_ne16_pw_reshape(Graph& g, EngineAssignment* ea) {
  if (ea && ea->why_not.size() != g.nodes.size()) ea = nullptr;   // nothing to keep aligned
  int done = 0;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    if (!reshapable(g, g.nodes[k])) continue;
    const int x = g.nodes[k].inputs[0], y = g.nodes[k].outputs[0];
    const Shape xs = g.tensor(x).shape, ys = g.tensor(y).shape;
    if (is_deeploy_ne16_pointwise_extent(xs[2], xs[3])) continue;
    const auto [rows, cols] = deeploy_ne16_pointwise_reshape(xs[2] * xs[3]);
    TensorDesc xd = g.tensor(x), yd = g.tensor(y);
    xd.name += "_ne16_pw";
    xd.shape = {xs[0], xs[1], rows, cols};
    xd.dtype_inferred = false;
    yd.name += "_ne16_pw";
    yd.shape = {ys[0], ys[1], rows, cols};
    yd.dtype_inferred = false;
    const int x2 = g.add_tensor(xd), y2 = g.add_tensor(yd);
    const std::string name = g.nodes[k].name;
    g.nodes[k].inputs[0] = x2;
    g.nodes[k].outputs[0] = y2;
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(k) + 1, reshape_node(name + "_out_reshape", y2, y));
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(k), reshape_node(name + "_in_reshape", x, x2));
    if (ea) {
      ea->why_not.insert(ea->why_not.begin() + static_cast<std::ptrdiff_t>(k) + 1, "");
      ea->why_not.insert(ea->why_not.begin() + static_cast<std::ptrdiff_t>(k), "");
    }
    k += 2;   // past the conv and its output reshape
    ++done;
  }
  if (done > 0) g.validate();
  return done;
}

}  // namespace edgesim
