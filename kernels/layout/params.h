// Layout ops: they move values without arithmetic.
#pragma once
#include <cstdint>
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
};

}  // namespace edgesim
