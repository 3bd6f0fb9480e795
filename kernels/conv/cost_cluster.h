// Cluster (8-core PULP) cost models of the three PULP-NN convolution kernels DORY selects
// (docs/timing.md "Cluster kernel cost models", one section per kernel):
//   conv_Ho_parallel         im2col + MM42, output rows split over cores   (k > 1×1 or stride > 1)
//   pointwise_HoWo_parallel  MM42 straight from the HWC input, rows or pixel pairs split
//   depthwise_generic        column buffer per channel, channels split over cores
// Shapes are those of one Compute command (a tile): x [N, Cin, Hin, Win] and y [N, Cout, Hout,
// Wout] (NCHW logical views); kh, kw, strides, dilations, groups and the tile's pads come from
// the params. Batch images and (non-depthwise) groups are repeated kernel calls, each ending
// with the barrier t_bar. Pure functions of (params, shapes, ClusterSpec); they throw
// std::invalid_argument when the cluster has no cost section or a shape is not rank 4.
// The constants are those of the kernel build the ClusterSpec describes: the PULP-NN source
// count of the preset, or a flow's library (budgets.deeploy.cost, e.g. GAP9's prebuilt
// pulp-nn-mixed with its out-of-line requantisation: docs/timing.md "Kernel libraries").
#pragma once
#include "kernels/conv/params.h"
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"

namespace edgesim {

enum class ClusterConvKernel { Im2col, Pointwise, Depthwise };

// DORY's kernel choice: depthwise (groups == Cin == Cout > 1) -> depthwise_generic; 1×1 kernel,
// stride 1, no tile padding -> pointwise_HoWo_parallel; everything else -> conv_Ho_parallel.
ClusterConvKernel cluster_conv_kernel(const ConvParams& p, const Shape& x, const Shape& y);
const char* cluster_conv_kernel_name(ClusterConvKernel k);

// Picks the kernel as above and returns its cost.
KernelCost conv_cluster_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl);

// The individual models (any params accepted; a grouped conv runs `groups` calls on Cin/groups
// -> Cout/groups channels; the depthwise model treats every channel independently).
KernelCost conv_Ho_parallel_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl);
KernelCost pointwise_HoWo_parallel_cost(const ConvParams& p, const Shape& x, const Shape& y,
                                        const ClusterSpec& cl);
KernelCost depthwise_generic_cost(const ConvParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl);

}  // namespace edgesim
