// pulp_nn_depthwise_3x3_s1 cost (cost_dw3x3_s1.h). Per core, over its channels ch:
//   kChannel + Hout · (kRow + 2 · (kEdge + c_kl + c_rq) + P · (kPair + c_kl + 2 · c_rq))
//   + (pad_t + pad_b) · (kZeroRow + ⌈W/4⌉)       (the zero rows written before the call)
//   + c_misalign · (misaligned input word loads)
// with P = ⌈(W − 2)/2⌉ column pairs per row; one call per batch image, each ending with t_bar.
#include "kernels/conv/cost_dw3x3_s1.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cost/cluster_common.h"

namespace edgesim {
namespace {

using namespace cluster_cost;

// The kernel's instruction count ([26] pulp_nn_depthwise_3x3_s1.c) under GVSoC's core rules
// ([37]: one cycle per instruction, a load's or mul's result one cycle late, a taken branch +2,
// hardware loops free), besides the requantisations (c_rq), κ/λ loads (c_kl) and misaligned
// word accesses (c_misalign), which come from the platform like the other PULP-NN models':
// per column pair: 3 p.lw post-incremented by 2 (3), 6 pv.sdotusp (6), S0 = S1 = 0 (2), the
// output pointer's step (1); the column loop a hardware loop
constexpr int64_t kPair = 12;
// per padded edge column (left or right): the p_l / p_r test (1), S0 = 0 (1), the output index
// (1), 3 p.lw (3), 3 pv.sdotusp (3)
constexpr int64_t kEdge = 9;
// per output row besides its columns: the column loop's count and lp.setup (2), the right
// column's index (1), the 3 row pointers' end-of-row step (3); the row loop a hardware loop
constexpr int64_t kRow = 6;
// per channel: the 3 row pointers (4), the 3 filter words' p.lw and a load-use stall (4), 3
// lane-3 masks (3), 3 shuffles into the second pixel's filter (3), 3 left-column shuffles and
// their lane-2 masks (6), 3 right-column masks (3), the κ/λ addresses (2), the row loop's
// lp.setup (1), the channel loop's step and taken back-branch (4: the two hardware loops hold
// the row and column loops)
constexpr int64_t kChannel = 30;
// per zero row of a channel (the tile's padded rows, which the kernel reads from its input
// buffer): the row's ⌈W/4⌉ word stores plus its pointer and lp.setup (2), by the core that owns
// the channel before the call (the layer's code, a memset; the stores' alignment not counted)
constexpr int64_t kZeroRow = 2;

}  // namespace

bool depthwise_3x3_s1_applies(const ConvParams& p, const Shape& x, const Shape& y) {
  if (x.size() != 4 || y.size() != 4) return false;
  const int64_t c = x[1], hin = x[2], w = x[3];
  return p.groups > 1 && p.groups == c && y[1] == c && p.kh == 3 && p.kw == 3 && p.sh == 1 && p.sw == 1 &&
         p.dh == 1 && p.dw == 1 && p.pad_l == 1 && p.pad_r == 1 && y[3] == w && w >= 2 && w % 2 == 0 &&
         hin + p.pad_t + p.pad_b == y[2] + 2 && y[2] >= 1 && x[0] == y[0];
}

int64_t depthwise_3x3_s1_input_elements(const Shape& x, const Shape& y) { return x[0] * x[1] * (y[2] + 2) * x[3]; }

KernelCost depthwise_3x3_s1_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl) {
  require_cost(cl);
  const char* name = "depthwise_3x3_s1";
  if (!depthwise_3x3_s1_applies(p, x, y))
    throw std::invalid_argument(std::string("cluster cost model: ") + name + " does not compute x " + shape_str(x) +
                                " -> y " + shape_str(y) +
                                " (3x3 stride-1 depthwise, whole even width, one column of padding each side)");
  const ClusterCostSpec& c = cl.cost;
  const int64_t ch_n = x[1], w = x[3], hout = y[2], rows = hout + 2;
  const int64_t pairs = (w - 2 + 1) / 2;
  const int64_t edge = kEdge + c.c_kl + c.c_rq;
  const int64_t pair = kPair + c.c_kl + 2 * c.c_rq;
  const int64_t per_row = kRow + 2 * edge + pairs * pair;
  const int64_t zero_rows = (p.pad_t + p.pad_b) * (kZeroRow + ceil_div(w, 4));
  const int64_t chunk = ceil_div(ch_n, cl.n_cores);
  std::vector<int64_t> t(static_cast<size_t>(cl.n_cores), 0);
  for (int64_t core = 0; core < cl.n_cores; ++core) {
    const int64_t n = share(ch_n, cl.n_cores, core);
    int64_t cycles = n * (kChannel + hout * per_row + zero_rows), mis = 0;
    for (int64_t ch = core * chunk; ch < core * chunk + n && c.c_misalign > 0; ++ch) {
      mis += misaligned_words(ch * 9, 3, 3);   // the filter rows' words
      for (int64_t r = 0; r < hout; ++r)
        for (int64_t j = 0; j < 3; ++j) {   // the three input rows the output row reads
          const int64_t s = (ch * rows + r + j) * w;
          mis += misaligned_words(s, 2, pairs + 1) + (misaligned_word(s) ? 1 : 0);   // pairs and right column, left column
        }
    }
    t[static_cast<size_t>(core)] = cycles + mis * c.c_misalign;
  }
  return make_cost(cl, name, t, x[0]);
}

}  // namespace edgesim
