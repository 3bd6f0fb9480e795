// Policy `dory` (and `dory-2021`), L3->L2: docs/tiling.md "DORY's rules in formulas", L3→L2. The
// whole layer stays in L2 when it fits and its input is not in L3; otherwise up to four attempts
// with different L2 buffering, each an exhaustive search in the order (n_out, h_in, h_out),
// smallest first, strict improvement. DORY's rejection of "weights and activations tiled together"
// is kept.
//
// Reporting convention (docs/tiling.md): L3Tiling.h_out is the number of output rows one L2
// slab produces and h_in the input rows it reads (interior slab); with the input in L3 and an
// untiled output (db_O = 1) the output buffer is the whole tensor (output_in_l3 = false) while
// slabs of h_out rows are computed from input slabs.
#include <fmt/format.h>

#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

struct Attempt { int db_w, db_o; bool fix_n, fix_h; };

// Whole-layer L2 footprint with DORY's depthwise quirks (weights and bias ×16 in the totals;
// not in the 2021 code line, v2021); an Add counts both operands.
int64_t layer_total(const LayerGeom& g, bool v2021) {
  const int64_t q = g.depthwise && g.kind == OpKind::Conv && !v2021 ? 16 : 1;
  const int64_t in2 = g.inputs() > 1 ? bits_to_bytes(g.cin * g.h_in * g.w_in, g.bx2) : 0;
  return g.batch * (g.in_bytes() + in2 + g.out_bytes()) + q * g.weight_bytes() +
         (g.has_bias ? q * fl8(g.cout * g.bb) : 0) + fl8(g.cout * g.n_c * g.cb);
}

bool l1_fit(const LayerGeom& g, const Budgets& b, int64_t h_in, int64_t n_out, int64_t h_out) {
  const int64_t mb = min_bits_mb(g);
  const bool dw = g.depthwise;
  const int64_t w_l1 = dw ? fl8(g.cin * g.kh * g.kw * g.bw) : fl8(g.cin * n_out * g.kh * g.kw * g.bw);
  const int64_t im2col = dw ? b.nc * (g.kh * (g.cin + g.pt + g.pb) + g.kh) * mb : 2 * b.nc * g.kh * g.kw * g.cin;
  const int64_t wfp = dw && g.bw < 8 ? 2048 * g.kh * g.kw * mb : 0;
  return fl8(g.cin * h_in * g.w_in * g.bx) + fl8(n_out * h_out * g.w_out * g.by) + w_l1 +
             fl8(n_out * g.n_c * g.cb) + im2col + wfp + 20 < b.l1;
}

std::optional<L3Tiling> conv_l3(const LayerGeom& g, const Budgets& b, bool in_l3, std::string* why) {
  const int64_t ke = keff(g.kh, g.dh);
  const int64_t per_out = g.depthwise ? 1 : g.cin / std::max<int64_t>(1, g.groups);
  const int64_t w_per_n = fl8(per_out * g.kh * g.kw * g.bw) + (g.has_bias ? fl8(g.bb) : 0);
  const Attempt in_l2[4] = {{2, 1, false, true}, {1, 2, true, false}, {2, 2, false, false}, {2, 2, false, false}};
  const Attempt from_l3[4] = {{1, 1, true, true}, {1, 2, true, false}, {2, 1, false, true}, {2, 2, false, false}};
  const int db_x = in_l3 ? 2 : 1;
  for (const Attempt& a : in_l3 ? from_l3 : in_l2) {
    bool found = false;
    int64_t bestJ = 0, bn = 0, bhi = 0, bho = 0;
    auto consider = [&](int64_t n, int64_t hi, int64_t ho) {
      // dory-2021's weight cap: the double-buffered weight slab within half the L2 buffer.
      const int64_t w_slab = a.db_w * (g.depthwise ? g.cin * g.kh * g.kw : n * per_out * g.kh * g.kw);
      if (b.w_cap > 0 && w_slab > b.w_cap) return;
      // dory-2021, input from L3: the input slabs and the output slabs + weights + κ/λ within what
      // the previous layer left (Budgets::l3_in_cap / l3_ow_cap).
      if (in_l3 && b.l3_in_cap > 0 && db_x * fl8(g.cin * hi * g.w_in * g.bx) > b.l3_in_cap) return;
      if (in_l3 && b.l3_ow_cap > 0 &&
          a.db_o * fl8(g.cout * ho * g.w_out * g.by) + w_slab + a.db_w * fl8(n * g.n_c * g.cb) > b.l3_ow_cap)
        return;
      const int64_t M = db_x * fl8(g.cin * hi * g.w_in * g.bx) + a.db_o * fl8(g.cout * ho * g.w_out * g.by) +
                        a.db_w * n * w_per_n + a.db_w * fl8(n * g.n_c * g.cb);
      if (M > b.l2) return;
      const int64_t J = M + 100000000 * (l1_fit(g, b, hi, n, ho) ? 1 : 0) + 100000 * ((ho - 1) % 8) +
                        100000 * (n % 4 == 0 ? 1 : 0) + 1000000 * (g.cout % n == 0 ? 1 : 0) +
                        1000000 * (g.h_out % ho == 0 ? 1 : 0) + 100000 * (ho == g.h_out ? 1 : 0) +
                        10000 * (n == g.cout ? 1 : 0);
      if (!found || J > bestJ) { found = true; bestJ = J; bn = n; bhi = hi; bho = ho; }
    };
    for (int64_t n = a.fix_n ? g.cout : 1; n <= g.cout; ++n) {
      if (!in_l3) {
        for (int64_t ho = a.fix_h ? g.h_out : 1; ho <= g.h_out; ++ho) consider(n, g.h_in, ho);
        continue;
      }
      for (int64_t hi = ke; hi <= g.h_in; ++hi) {
        if ((hi - ke) % g.sh != 0) continue;
        const int64_t rows = (hi - ke + g.sh) / g.sh;
        if (rows < 1 || g.h_out % rows != 0) continue;
        if (a.db_o == 2) consider(n, hi, rows); else consider(n, hi, g.h_out);
      }
    }
    if (!found) continue;
    const bool rows_tiled = bhi < g.h_in || bho < g.h_out;
    if (bn < g.cout && rows_tiled) {
      *why = "tiling of weights and input/output activations from L3 not yet working (DORY rejects it)";
      return std::nullopt;
    }
    L3Tiling t;
    t.input_in_l3 = in_l3;
    t.n_out = bn;
    t.db_x = db_x; t.db_w = a.db_w; t.db_o = a.db_o;
    t.weights_in_l3 = bn < g.cout;
    if (in_l3 && a.db_o == 1) {          // whole output in L2, computed per input slab
      t.h_in = bhi;
      t.h_out = (bhi - ke + g.sh) / g.sh;
      t.output_in_l3 = bn < g.cout;
    } else {
      t.h_out = bho;
      t.h_in = bho < g.h_out ? (bho - 1) * g.sh + ke : g.h_in;
      // The 2021 L3 template writes Cout slabs into the layer's L2 output (c7cca89 layer_template_L3.c).
      t.output_in_l3 = (bn < g.cout && !b.v2021) || bho < g.h_out;
    }
    if (!in_l3 && t.h_out == g.h_out && !t.weights_in_l3) t.db_o = 1;
    return t;
  }
  *why = "no L3->L2 tiling found";
  return std::nullopt;
}

std::optional<L3Tiling> pool_l3(const LayerGeom& g, const Budgets& b, bool in_l3, std::string* why) {
  bool found = false;
  int64_t bestJ = 0, bhi = 0, bho = 0;
  int best_dbo = 1;
  auto consider = [&](int db_x, int db_o, int64_t hi, int64_t ho) {
    const int64_t M = db_x * fl8(g.cin * hi * g.w_in * g.bx) + db_o * fl8(g.cout * ho * g.w_out * g.by);
    if (M > b.l2) return;
    const int64_t J = M + 200000 * ((ho - 1) % 8) + 200000 * ((hi - 1) % 4);
    if (!found || J > bestJ) { found = true; bestJ = J; bhi = hi; bho = ho; best_dbo = db_o; }
  };
  if (!in_l3) {
    for (int64_t ho = 1; ho <= g.h_out; ++ho) consider(1, 2, g.h_in, ho);
  } else {
    for (int db_o = 1; db_o <= 2 && !found; ++db_o)
      for (int64_t hi = g.kh; hi <= g.h_in; ++hi) {
        if ((hi - g.kh) % g.sh != 0) continue;
        const int64_t rows = (hi - g.kh) / g.sh + 1;
        if (rows > g.h_out || g.h_out % rows != 0) continue;
        consider(2, db_o, hi, db_o == 2 ? rows : g.h_out);
      }
  }
  if (!found) { *why = "no L3->L2 tiling found for the pooling layer"; return std::nullopt; }
  L3Tiling t;
  t.input_in_l3 = in_l3;
  t.n_out = g.cout;
  t.db_x = in_l3 ? 2 : 1; t.db_o = best_dbo;
  if (in_l3 && best_dbo == 1) {
    t.h_in = bhi; t.h_out = (bhi - g.kh) / g.sh + 1;
  } else {
    t.h_out = bho;
    t.h_in = bho < g.h_out ? (bho - 1) * g.sh + g.kh : g.h_in;
    t.output_in_l3 = bho < g.h_out;
  }
  return t;
}

}  // namespace

std::optional<L3Tiling> dory_l3(const LayerGeom& g, const Budgets& b, bool input_in_l3, std::string* why) {
  if (b.l3 <= 0) input_in_l3 = false;   // nothing can live in L3
  const bool w_ok = b.w_cap <= 0 || g.weight_bytes() == 0 ||
                    (g.depthwise ? g.cin * g.kh * g.kw : g.weight_bytes()) <= b.w_cap;
  if (!input_in_l3 && w_ok && layer_total(g, b.v2021) <= b.l2) {
    L3Tiling t;
    t.n_out = g.cout; t.h_out = g.h_out; t.h_in = g.h_in;
    return t;
  }
  if (b.l3 <= 0) {
    *why = "the layer does not fit L2 and the platform has no L3 to tile it from";
    return std::nullopt;
  }
  if (g.batch > 1) { *why = "batched layer does not fit L2 (no L3 tiling of batches)"; return std::nullopt; }
  if (g.rows || (g.eltwise() && g.kind != OpKind::Add)) {
    *why = "no L3->L2 tiling of element-wise and row-wise layers";
    return std::nullopt;
  }
  switch (g.kind) {
    case OpKind::Add:
      *why = "no L3->L2 tiling of additions (DORY: 'Add ERROR: no L3-L2 tiling supported')";
      return std::nullopt;
    case OpKind::Pool: return pool_l3(g, b, input_in_l3, why);
    default: return conv_l3(g, b, input_in_l3, why);
  }
}

}  // namespace edgesim
