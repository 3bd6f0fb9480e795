// DIANA's engine rules: HTVM's offload rules (KULeuven-MICAS/htvm soma_dory.py, pattern_table
// and its check_* functions [19]; relay patterns [70]; DAC/ADC ranges [17], [72]) turned into edgesim's "can this engine run this node to the
// same integers as the reference" test, one first broken rule per engine, worded as HTVM warns.
//
//   digital (npu.impl soma)   conv (groups 1 or depthwise), dense and add; every one
//       output, then input element count divisible by 4 ("the accelerator processes elements by
//       four"); a power-of-two requant: the op's result equals clamp((acc + offset[c]) >> shift)
//       (kernels/soma/shift_requant.h) with 0 ≤ shift ≤ npu.max_shift, int32 offsets and the clip
//       inside int8 (the pattern ends in `cast int8`; ReLU is a clip at 0); conv: kernel in
//       npu.kernel_sizes, equal top/bottom and left/right padding, 'SAME' padding
//       ((k − 1)/2), a square stride in npu.strides, dilation 1, constant int8 weights; add: two
//       operands of one shape summed as they are (cast int32, add, right_shift: no offset);
//       pooling only when `pool` is listed in npu.ops (HTVM has no pooling pattern): max pool with
//       stride = window ≤ npu.pool_fy × pool_fx, no padding. edgesim adds what exactness needs: no
//       zero points, and input values inside int8 (a uint8 tensor reaching 255 is not int8).
//   analog (aimc, diana_aimc) conv with groups 1 and the digital conv's kernel, padding, stride
//       and dilation rules; element counts divisible by 4; weights ternary (values in [−1, 1],
//       HTVM checks exactly this); input values inside the DACs' 7-bit signed-magnitude range
//       [−63, 63] (so the DAC clipping never changes a value); the ADC clip inside the signed
//       aimc.out_bits range [−32, 31] with a power-of-two requant (the ideal ADC: offset, shift,
//       clip; no analog noise); C·kh·kw ≤ aimc.rows and, for 3×3, C ≤ aimc.max_cin_3x3: input
//       channels are never split over passes (each pass's ADC would quantise a partial sum).
//       Output channels beyond aimc.cols are split over tiles (compiler/tiler/aimc.cc).
// A tensor's value range is its producer's clip (or its storage type's range).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/ir/graph.h"
#include "kernels/soma/shift_requant.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct ValueRange {
  int64_t lo = 0, hi = 0;
};
// The values tensor t can hold: the clip of the node producing it (max pools, reshapes and other
// value-preserving ops pass their input's range on), intersected with its type's range.
ValueRange value_range(const Graph& g, int tensor);

// Why the digital accelerator (SOMA) / the analog core cannot run node n; "" when it can.
std::string soma_rejects(const Graph& g, int node, const PlatformSpec& spec);
std::string aimc_rejects(const Graph& g, int node, const PlatformSpec& spec);

// The node's output stage as DIANA computes it: clamp((acc + offset[c]) >> shift) over its
// output channels (conv: Cout, dense: N, add: one scalar); nullopt with the reason otherwise.
std::optional<ShiftRequant> diana_shift_form(const Graph& g, const Node& n, std::string& why);

// The node's params with the output stage in that form (bias folded into the offsets, add
// inputs plain): what the accelerator computes. Throws std::runtime_error when there is none.
OpParams diana_params(const Graph& g, const Node& n);

}  // namespace edgesim
