// Cluster cost model of PULP-NN's specialised depthwise kernel `pulp_nn_depthwise_3x3_s1`, the
// one the DORY application of [26] ships beside `pulp_nn_depthwise_generic` (its
// `DORY_network/src/pulp_nn_depthwise_3x3_s1.c`) but never calls: a kernel a deployment may
// choose instead of the generic one for a 3×3, stride-1 depthwise tile (docs/timing.md
// "The 3×3 stride-1 depthwise kernel").
//
// The loop it models, per core on its ⌈C/NC⌉ channels (CHW input, HWC output):
//   per channel: three row pointers, the three filter rows loaded as words and shuffled into
//     the masks for the left column, the pair's second pixel and the right column;
//   per output row (Hout = R − 2 of the R input rows given):
//     left column (p_l): 3 word loads, 3 sdotusp, requantisation, store;
//     ⌈(W − p_l − p_r)/2⌉ pairs of columns: 3 word loads (post-increment by 2 bytes), 6 sdotusp,
//       two requantisations, two stores;
//     right column (p_r): as the left one.
// It has no column buffer and no im2col: each 3-tap filter row is one sdotusp on a word of the
// input row, which the pointer walks 2 bytes at a time, so every other word load is misaligned.
//
// The kernel's own constraints (docs/timing.md): its output row stride is the input's width, so
// it computes a whole-width tile with one column of padding on each side (p_l = p_r = 1,
// Wout = W); it has no vertical padding, so the tile's padded rows must be in the input buffer
// (R = Hin + pad_t + pad_b = Hout + 2 rows, zero rows where the layer pads); the pair loop steps 2
// columns, so W is even. depthwise_3x3_s1_applies() checks exactly these.
//
// Not modelled, as in depthwise_generic_cost: the call's prologue and argument passing, once
// per call. The two requantisations of a pair are charged 2 · c_rq although a compiler may
// interleave them (saving up to the 2 result stalls of the second). The loop's own counts are
// constants of cost_dw3x3_s1.cc; c_rq, c_kl and c_misalign come from the platform.
//
// The tuned flow calls it on every tile it applies to (policy_calls_dw3x3_s1); DORY's and
// Deeploy's templates call the generic kernel. The cost includes writing the tile's zero rows
// (pad_t + pad_b per channel) into the input buffer before the call; the schedule sizes that
// buffer for Hout + 2 rows (compiler/schedule/build_layer.cc).
#pragma once
#include "kernels/conv/params.h"
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// Whether pulp_nn_depthwise_3x3_s1 computes this tile: x [N, C, Hin, W], y [N, C, Hout, Wout]
// (NCHW logical views of one Compute command) with the params' tile pads.
bool depthwise_3x3_s1_applies(const ConvParams& p, const Shape& x, const Shape& y);

// Elements of the input buffer the kernel reads for such a tile: every channel's Hout + 2 rows of
// the whole width, its zero rows included (x may hold fewer rows: the tile's real input rows).
int64_t depthwise_3x3_s1_input_elements(const Shape& x, const Shape& y);

// Its cost on the cluster; throws std::invalid_argument when the tile is not one it computes
// (depthwise_3x3_s1_applies) or the cluster has no cost section.
KernelCost depthwise_3x3_s1_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl);

}  // namespace edgesim
