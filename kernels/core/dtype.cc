#include "kernels/core/dtype.h"

#include <limits>

namespace edgesim {

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::U8: case DType::I8: return 1;
    case DType::I16: return 2;
    case DType::I32: case DType::F32: return 4;
    case DType::I64: return 8;
  }
  return 0;
}

const char* dtype_name(DType t) {
  switch (t) {
    case DType::U8: return "u8";
    case DType::I8: return "i8";
    case DType::I16: return "i16";
    case DType::I32: return "i32";
    case DType::I64: return "i64";
    case DType::F32: return "f32";
  }
  return "?";
}

bool dtype_from_name(const std::string& s, DType& out) {
  for (DType t : {DType::U8, DType::I8, DType::I16, DType::I32, DType::I64, DType::F32})
    if (s == dtype_name(t)) { out = t; return true; }
  return false;
}

bool dtype_is_int(DType t) { return t != DType::F32; }

int64_t dtype_min(DType t) {
  switch (t) {
    case DType::U8: return 0;
    case DType::I8: return -128;
    case DType::I16: return -32768;
    case DType::I32: return std::numeric_limits<int32_t>::min();
    default: return std::numeric_limits<int64_t>::min();
  }
}

int64_t dtype_max(DType t) {
  switch (t) {
    case DType::U8: return 255;
    case DType::I8: return 127;
    case DType::I16: return 32767;
    case DType::I32: return std::numeric_limits<int32_t>::max();
    default: return std::numeric_limits<int64_t>::max();
  }
}

DType dtype_for_range(int64_t lo, int64_t hi) {
  for (DType t : {DType::U8, DType::I8, DType::I16, DType::I32})
    if (lo >= dtype_min(t) && hi <= dtype_max(t)) return t;
  return DType::I64;
}

}  // namespace edgesim
