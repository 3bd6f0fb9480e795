// The output stage of DIANA's accelerators: HTVM's relay pattern bias_add → right_shift → clip →
// cast [19] (soma_dory.py `_biasadd_requant_pattern`; relay_soma_conv2d [70]), i.e. per output channel c
//     y = clamp((acc + offset[c]) >> shift, lo, hi)          (>> rounds down, int64 arithmetic)
// Any edgesim requant that equals this for every accumulator has a shift form:
//   Integer ((k[c]·acc + λ[c])·mul + r) >> sh, with k[c]·mul = 2^j for every c and j ≤ sh:
//     (2^j·acc + β) >> sh = (acc + ⌊β/2^j⌋) >> (sh − j)   (β = λ[c]·mul + r; exact for integers)
//     so offset[c] = bias[c] + ⌊β/2^j⌋ and shift = sh − j;
//   None (raw accumulator) and the float form (QDQ, round half to even) have none, nor an exact
//   divisor that is not a power of two (NEMO 2^n − 1), nor a multiplier that is not a power of
//   two.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/requant.h"

namespace edgesim {

struct ShiftRequant {
  std::vector<int64_t> offset;   // one per output channel (bias folded in)
  int shift = 0;
  int64_t lo = 0, hi = 0;
};

// The shift form of `bias` (empty, or one per channel) followed by `rq` over `channels` output
// channels; nullopt with the reason in `why` when there is none. Limits of the hardware
// (shift range, offset width, output range) are the caller's rules.
std::optional<ShiftRequant> to_shift_requant(const Requant& rq, const std::vector<int64_t>& bias, int64_t channels,
                                             std::string& why);

// The shift form as an edgesim Requant (k = 1, mul = 1, λ = offset, r = 0), along `axis`.
Requant shift_form_requant(const ShiftRequant& s, int axis);

}  // namespace edgesim
