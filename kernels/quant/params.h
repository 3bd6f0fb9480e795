// QuantizeLinear / DequantizeLinear (ONNX opset 13, per tensor or per axis).
//   Quantize:   q = clamp(rne(x / scale[c]) + zp[c], qmin, qmax)    x float (or int32)
//   Dequantize: x = (q − zp[c]) · scale[c]                            float32 output
#pragma once
#include <cstdint>
#include <vector>

namespace edgesim {

struct QuantizeParams {
  int axis = -1;                 // -1: per tensor
  std::vector<float> scale;
  std::vector<int64_t> zp;
};

struct DequantizeParams {
  int axis = -1;
  std::vector<float> scale;
  std::vector<int64_t> zp;
};

}  // namespace edgesim
