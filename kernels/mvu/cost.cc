// MVU cost model (cost.h).
#include "kernels/mvu/cost.h"

#include <stdexcept>

namespace edgesim {

namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t lanes(const MvuSpec& mvu) { return mvu.n > 0 ? mvu.n : 64; }

void positive(int64_t v, const char* what) {
  if (v <= 0) throw std::invalid_argument(std::string("MVU cost: ") + what + " must be positive, got " + std::to_string(v));
}

void precision(int64_t bits, const char* what, const MvuSpec& mvu) {
  const int64_t lo = mvu.prec_min > 0 ? mvu.prec_min : 1, hi = mvu.prec_max > 0 ? mvu.prec_max : 16;
  if (bits < lo || bits > hi)
    throw std::invalid_argument(std::string("MVU cost: ") + what + " " + std::to_string(bits) + " outside the MVU's " +
                                std::to_string(lo) + ".." + std::to_string(hi) + " bits");
}

}  // namespace

MvuConvCost mvu_conv_cost(const MvuConv& c, const MvuSpec& mvu, const CtrlSpec& ctrl, const std::string& geometry) {
  for (auto [v, what] : {std::pair{c.cin, "cin"}, {c.cout, "cout"}, {c.h, "h"}, {c.w, "w"}, {c.fh, "fh"}, {c.fw, "fw"},
                         {c.sh, "sh"}, {c.sw, "sw"}})
    positive(v, what);
  precision(c.a_bits, "activation precision", mvu);
  precision(c.w_bits, "weight precision", mvu);
  if (c.fw > c.w + c.pl + c.pr) throw std::invalid_argument("MVU cost: kernel wider than the padded input");
  const int64_t n = lanes(mvu);
  const int64_t ic = cdiv(c.cin, n), fc = cdiv(c.cout, n);
  const int64_t per_position = ic * c.fw * c.fh * c.a_bits * c.w_bits * fc;
  MvuConvCost r;
  if (geometry == "generator") {
    // MVU_Code_Gen counts (W − Fw + 1) / Sw columns of the unpadded width and (H + Pt + Pb) / Sh rows.
    r.countdown = per_position * ((c.w - c.fw + 1) / c.sw);
    r.jobs = cdiv(c.h + c.pt + c.pb, c.sh);
  } else if (geometry == "exact") {
    const int64_t ho = (c.h + c.pt + c.pb - c.fh) / c.sh + 1, wo = (c.w + c.pl + c.pr - c.fw) / c.sw + 1;
    r.countdown = per_position * wo;
    r.jobs = ho;
  } else {
    throw std::invalid_argument("MVU cost: unknown geometry '" + geometry + "' (known: generator, exact)");
  }
  r.layer = r.countdown * r.jobs;
  r.job_overhead = mvu.start_cycles + mvu.done_cycles + (ctrl.present ? ctrl.cpi * ctrl.n_instr : 0);
  r.total = r.layer + r.jobs * r.job_overhead + mvu.pipe_cycles + c.out_bits;
  return r;
}

int64_t mvu_gemv_cycles(int64_t m, int64_t n, int64_t a_bits, int64_t w_bits, const MvuSpec& mvu) {
  positive(m, "m");
  positive(n, "n");
  precision(a_bits, "activation precision", mvu);
  precision(w_bits, "weight precision", mvu);
  const int64_t l = lanes(mvu);
  return cdiv(m, l) * cdiv(n, l) * a_bits * w_bits;
}

bool mvu_quantizer_ok(const MvuConv& c, const MvuSpec& mvu) {
  const int64_t ic = cdiv(c.cin, lanes(mvu));
  return ic * c.fh * c.fw * c.a_bits * c.w_bits >= c.out_bits;
}

}  // namespace edgesim
