// DType: element types of edgesim tensors. Integer types carry the exact integer semantics of
// docs/dialects.md; F32 exists only at the boundary of QDQ graphs (QuantizeLinear input,
// DequantizeLinear output) and for the float Deeploy test that later issues may add.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace edgesim {

enum class DType : uint8_t { U8, I8, I16, I32, I64, F32 };

std::size_t dtype_size(DType t);
const char* dtype_name(DType t);               // "u8", "i8", "i16", "i32", "i64", "f32"
bool dtype_from_name(const std::string& s, DType& out);
bool dtype_is_int(DType t);
int64_t dtype_min(DType t);                    // integer range (F32: int64 range, unused)
int64_t dtype_max(DType t);
// Smallest integer type holding [lo, hi], preferring U8 / I8 / I16 / I32 / I64 in that order.
DType dtype_for_range(int64_t lo, int64_t hi);

}  // namespace edgesim
