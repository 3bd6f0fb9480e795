// Layout ops: they move values without arithmetic.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/tensor.h"

namespace edgesim {

// Constant pad; pads = [b_0, ..., b_{r-1}, e_0, ..., e_{r-1}] (ONNX order).
struct PadParams {
  std::vector<int64_t> pads;
  int64_t value = 0;
};

struct ConcatParams {
  int64_t axis = 0;              // normalised to [0, rank)
};

// Reshape / Flatten: the output shape is the output tensor's shape; only the shape changes.
struct ReshapeParams {};

struct TransposeParams {
  std::vector<int64_t> perm;
  // Non-empty only on the layout conversions the io-layout pass inserts
  // (compiler/passes/io_layout.h): "nchw_to_hwc" or "hwc_to_nchw". Their perm is the identity
  // (the values and the logical shape do not change); what changes is the storage order of the
  // input and the output (row-major NCHW vs the deployment's HWC).
  std::string relayout;
  // Set by the schedule on a tile of a layout conversion, as Deeploy's generated code has it
  // (compiler/schedule/build_relayout.cc): the axis of the loop's output order that is split over
  // the cores, chosen from the whole tensor (-1: chosen from the tile), and whether the tile
  // extents that form the strided index are runtime values (they differ between tiles), which
  // makes the loop recompute that index per element (kernels/layout/cost_cluster.h).
  int par_axis = -1;
  bool runtime_index = false;
};

// Gather with one scalar index (ONNX Gather, index tensor of rank 0): the slice at `index` of
// `axis`, that axis removed from the output (Deeploy ICCT: the class token, axis 1).
struct GatherParams {
  int64_t axis = 0;              // normalised to [0, rank)
  int64_t index = 0;             // normalised to [0, shape[axis])
};

}  // namespace edgesim
