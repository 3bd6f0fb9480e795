// Cluster convolution cost models (docs/timing.md `conv_Ho_parallel`, `pointwise_HoWo_parallel`,
// `depthwise_generic`): instruction counts of the
// PULP-NN loop nests (pulp-platform/pulp-nn @ 288d06b, pulp_nn_conv_Ho_parallel.c,
// pulp_nn_pointwise_HoWo_parallel.c, pulp_nn_depthwise_generic.c) with the constants of
// cluster.cost.* and the MM42 / PX1 blocks of matmul42.h.
//
// Calibration point (docs/timing.md "Calibration"; the constants are the preset's instruction
// count under GVSoC's core rules, docs/timing.md "The instruction count"). With the gap8
// constants, one call, 8 cores, 3×3 stride 1, interior tile, checked in
// tests/kernels/cost_cluster_test.cc:
//   Cin =  64, Cout =  64, Hout = Wout = 16:   9,437,184 MAC /    550,074 cyc = 17.16 MAC/cycle
//   Cin = 128, Cout =  64, Hout = Wout = 16:  18,874,368 MAC /  1,075,386 cyc = 17.55
//   Cin = 256, Cout = 256, Hout = Wout = 32: 603,979,776 MAC / 33,546,954 cyc = 18.00
// PULP-NN publishes 15.5 MAC/cycle from its own measurements [Garofalo et al. 2020], which include
// TCDM bank conflicts that GVSoC's core rules do not have. Every MAC-carrying loop runs at most 32 MACs per
// c_il = 14 cycles per core (asymptote 18.29 on 8 cores), and all other terms only add cycles.
#include "kernels/conv/cost_cluster.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "kernels/conv/matmul42.h"
#include "kernels/cost/cluster_common.h"

namespace edgesim {
namespace {

using namespace cluster_cost;

// Tile geometry read from the rank-4 views, per batch image and per group.
struct ConvGeom {
  int64_t n = 0, cin = 0, hin = 0, win = 0, cout = 0, hout = 0, wout = 0;
  bool empty() const { return n <= 0 || cin <= 0 || hin <= 0 || win <= 0 || cout <= 0 || hout <= 0 || wout <= 0; }
};

ConvGeom conv_geom(const Shape& x, const Shape& y, const char* kernel) {
  if (x.size() != 4 || y.size() != 4)
    throw std::invalid_argument(std::string("cluster cost model: ") + kernel +
                                " expects rank-4 [N, C, H, W] views, got x " + shape_str(x) + " y " +
                                shape_str(y));
  return ConvGeom{x[0], x[1], x[2], x[3], y[1], y[2], y[3]};
}

int64_t groups_of(const ConvParams& p, const ConvGeom& g) {
  const int64_t groups = std::max<int64_t>(p.groups, 1);
  if (g.cin % groups != 0 || g.cout % groups != 0)
    throw std::invalid_argument("cluster cost model: conv groups " + std::to_string(groups) +
                                " do not divide Cin " + std::to_string(g.cin) + " / Cout " +
                                std::to_string(g.cout));
  return groups;
}

// im2col cost of all kernel rows that lie inside the image vertically, summed over the output
// columns of one output row. A row whose taps are all inside and contiguous (dw == 1) is one
// copy of kw·Cin bytes; otherwise every tap is its own copy of Cin bytes (inside: lw + sw per
// word; in horizontal padding: a zero fill, sw per word).
int64_t im2col_columns(const ClusterCostSpec& c, const ConvParams& p, int64_t cin, int64_t win,
                       int64_t wout) {
  const int64_t tap_in = c.c_cp + 2 * (cin / 4) + 2 * (cin % 4);
  const int64_t tap_zero = c.c_cp + cin / 4 + cin % 4;
  const int64_t row_bytes = p.kw * cin;
  const int64_t row_full = c.c_cp + 2 * (row_bytes / 4) + 2 * (row_bytes % 4);
  int64_t sum = 0;
  for (int64_t ow = 0; ow < wout; ++ow) {
    int64_t inside = 0;
    for (int64_t s = 0; s < p.kw; ++s) {
      const int64_t iw = ow * p.sw - p.pad_l + s * p.dw;
      inside += (iw >= 0 && iw < win) ? 1 : 0;
    }
    if (inside == p.kw && p.dw == 1)
      sum += row_full;
    else
      sum += inside * tap_in + (p.kw - inside) * tap_zero;
  }
  return sum;
}

// Per-core cycles of one conv_Ho_parallel call (one image, one group of cin -> cout channels).
std::vector<int64_t> ho_parallel_cores(const ClusterSpec& cl, const ConvParams& p, const ConvGeom& g,
                                       int64_t cin, int64_t cout) {
  const ClusterCostSpec& c = cl.cost;
  const int64_t k = p.kh * p.kw * cin;
  const int64_t cols = im2col_columns(c, p, cin, g.win, g.wout);
  const int64_t zero_row = p.kw * (c.c_cp + cin / 4 + cin % 4);   // kernel row in vertical padding
  const int64_t chunk = ceil_div(g.hout, cl.n_cores);
  std::vector<int64_t> t(static_cast<size_t>(cl.n_cores), 0);
  for (int64_t core = 0; core < cl.n_cores; ++core) {
    const int64_t rows = share(g.hout, cl.n_cores, core);
    int64_t im2col = 0;
    for (int64_t oh = core * chunk; oh < core * chunk + rows; ++oh) {
      int64_t inside = 0;
      for (int64_t r = 0; r < p.kh; ++r) {
        const int64_t ih = oh * p.sh - p.pad_t + r * p.dh;
        inside += (ih >= 0 && ih < g.hin) ? 1 : 0;
      }
      im2col += inside * cols + (p.kh - inside) * g.wout * zero_row;
    }
    const int64_t pixels = rows * g.wout;
    t[static_cast<size_t>(core)] = im2col + pixels * c.c_px + matmul_pixels(c, pixels, k, cout);
  }
  return t;
}

// Per-core cycles of one pointwise_HoWo_parallel call (K = cin).
std::vector<int64_t> pointwise_cores(const ClusterSpec& cl, const ConvGeom& g, int64_t cin, int64_t cout) {
  const ClusterCostSpec& c = cl.cost;
  const int64_t nc = cl.n_cores;
  std::vector<int64_t> t(static_cast<size_t>(nc), 0);
  if (g.hout % nc == 0 || g.wout == 1 || nc < 2) {
    // Rows split over all cores; each row: its pixels in pairs + the row bookkeeping.
    const int64_t row = matmul_pixels(c, g.wout, cin, cout) + c.c_px;
    for (int64_t core = 0; core < nc; ++core) t[static_cast<size_t>(core)] = share(g.hout, nc, core) * row;
    return t;
  }
  // Pair mode: nc/2 pairs share the rows; in each row the even core takes the left ⌊Wout/2⌋
  // pixels, the odd core the right ⌈Wout/2⌉ (an odd core count leaves the last core idle).
  const int64_t pairs = nc / 2;
  const int64_t left = matmul_pixels(c, g.wout / 2, cin, cout);
  const int64_t right = matmul_pixels(c, g.wout - g.wout / 2, cin, cout);
  for (int64_t q = 0; q < pairs; ++q) {
    const int64_t rows = share(g.hout, pairs, q);
    t[static_cast<size_t>(2 * q)] = rows * left;
    t[static_cast<size_t>(2 * q + 1)] = rows * right;
  }
  return t;
}

// Misaligned 32-bit accesses of one channel of depthwise_generic: a word load or store whose
// address is not a multiple of 4 is split in two by the core, the second half issued in the next
// cycle (GVSoC's core model, docs/sources.md [7] `lsu.cpp` Lsu::data_misaligned_req; RI5CY does
// the same in hardware). The addresses follow the kernel's pointer arithmetic ([26]
// `pulp_nn_depthwise_generic.c`, the same loops as pulp-nn [32]) with every L1 buffer base
// word-aligned (DORY's L1 offsets are multiples of 4):
//   fill, per output column ox and padded input row r: ⌈kw/4⌉ words loaded from the CHW input at
//     ch·Hin·Win + max(0, ox·sx − pl) + (r − pt)·Win + 4w (rows inside the image) and stored to
//     the core's column buffer at core·(kw·Hp + kw) + r·kw + max(0, pl − ox·sx) + 4w;
//   dot, per output row l: the kh·kw mod 4 leftover taps are bytes, then ⌊kh·kw/4⌋ words of
//     weights at ch·kh·kw + (kh·kw mod 4) + 4j and of the buffer at l·sy·kw + (kh·kw mod 4) + 4j.
int64_t depthwise_misaligned(const ConvParams& p, const ConvGeom& g, int64_t ch, int64_t core) {
  const int64_t taps = p.kh * p.kw, left = taps % 4, words = ceil_div(p.kw, 4);
  const int64_t hp = g.hin + p.pad_t + p.pad_b;
  const int64_t buf = core * (p.kw * hp + p.kw);
  auto mis = [](int64_t a) { return misaligned_word(a) ? 1 : 0; };
  const auto count = misaligned_words;
  int64_t total = 0;
  for (int64_t ox = 0; ox < g.wout; ++ox) {
    const int64_t col = ox * p.sw - p.pad_l;
    const int64_t col0 = std::max<int64_t>(0, col), shift = std::max<int64_t>(0, -col);
    for (int64_t w = 0; w < words; ++w) {
      total += count(ch * g.hin * g.win + col0 + 4 * w, g.win, g.hin);  // loads, rows inside
      total += count(buf + shift + 4 * w, p.kw, hp);                     // stores, every row
    }
  }
  int64_t dot = 0;
  for (int64_t j = 0; j < taps / 4; ++j)
    dot += mis(ch * taps + left + 4 * j) * g.hout + count(buf + left + 4 * j, p.sh * p.kw, g.hout);
  return total + g.wout * dot;
}

}  // namespace

ClusterConvKernel cluster_conv_kernel(const ConvParams& p, const Shape& x, const Shape& y) {
  const int64_t cin = x.size() == 4 ? x[1] : 0, cout = y.size() == 4 ? y[1] : 0;
  if (p.groups > 1 && p.groups == cin && p.groups == cout) return ClusterConvKernel::Depthwise;
  const bool no_pad = p.pad_t == 0 && p.pad_b == 0 && p.pad_l == 0 && p.pad_r == 0;
  if (p.kh == 1 && p.kw == 1 && p.sh == 1 && p.sw == 1 && no_pad) return ClusterConvKernel::Pointwise;
  return ClusterConvKernel::Im2col;
}

const char* cluster_conv_kernel_name(ClusterConvKernel k) {
  switch (k) {
    case ClusterConvKernel::Im2col: return "conv_Ho_parallel";
    case ClusterConvKernel::Pointwise: return "pointwise_HoWo_parallel";
    case ClusterConvKernel::Depthwise: return "depthwise_generic";
  }
  return "conv_Ho_parallel";
}

KernelCost conv_cluster_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl) {
  switch (cluster_conv_kernel(p, x, y)) {
    case ClusterConvKernel::Depthwise: return depthwise_generic_cost(p, x, y, cl);
    case ClusterConvKernel::Pointwise: return pointwise_HoWo_parallel_cost(p, x, y, cl);
    case ClusterConvKernel::Im2col: break;
  }
  return conv_Ho_parallel_cost(p, x, y, cl);
}

KernelCost conv_Ho_parallel_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl) {
  require_cost(cl);
  const char* name = "conv_Ho_parallel";
  const ConvGeom g = conv_geom(x, y, name);
  if (g.empty() || p.kh <= 0 || p.kw <= 0) return empty_cost(cl, name);
  const int64_t groups = groups_of(p, g);
  return make_cost(cl, name, ho_parallel_cores(cl, p, g, g.cin / groups, g.cout / groups), g.n * groups);
}

KernelCost pointwise_HoWo_parallel_cost(const ConvParams& p, const Shape& x, const Shape& y,
                                        const ClusterSpec& cl) {
  require_cost(cl);
  const char* name = "pointwise_HoWo_parallel";
  const ConvGeom g = conv_geom(x, y, name);
  if (g.empty()) return empty_cost(cl, name);
  const int64_t groups = groups_of(p, g);
  return make_cost(cl, name, pointwise_cores(cl, g, g.cin / groups, g.cout / groups), g.n * groups);
}

KernelCost depthwise_generic_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl) {
  require_cost(cl);
  const char* name = "depthwise_generic";
  const ConvGeom g = conv_geom(x, y, name);
  if (g.empty() || p.kh <= 0 || p.kw <= 0) return empty_cost(cl, name);
  const ClusterCostSpec& c = cl.cost;
  // Per channel and output column: the column's own overhead c_dwcol, fill a kw-wide column
  // buffer over the padded input height (⌈kw/4⌉ words per row, lw + sw each, plus c_dwrow), then
  // compute the Hout outputs of that column (c_dwtap4 per 4 taps — 2 loads + sdotp in PULP-NN's
  // source —, c_dwtap1 per leftover tap, requant, κ/λ, loop overhead). Misaligned word accesses
  // add c_misalign each (depthwise_misaligned below).
  const int64_t taps = p.kh * p.kw;
  const int64_t fill = (g.hin + p.pad_t + p.pad_b) * (2 * ceil_div(p.kw, 4) + c.c_dwrow);
  const int64_t out = c.c_dwtap4 * (taps / 4) + c.c_dwtap1 * (taps % 4) + c.c_rq + c.c_kl + c.c_dwpx;
  const int64_t per_channel = g.wout * (c.c_dwcol + fill + g.hout * out);
  const int64_t chunk = ceil_div(g.cout, cl.n_cores);
  std::vector<int64_t> t(static_cast<size_t>(cl.n_cores), 0);
  for (int64_t core = 0; core < cl.n_cores; ++core) {
    const int64_t n = share(g.cout, cl.n_cores, core);
    int64_t mis = 0;
    if (c.c_misalign > 0)
      for (int64_t ch = core * chunk; ch < core * chunk + n; ++ch) mis += depthwise_misaligned(p, g, ch, core);
    t[static_cast<size_t>(core)] = n * per_channel + mis * c.c_misalign;
  }
  return make_cost(cl, name, t, g.n);
}

}  // namespace edgesim
