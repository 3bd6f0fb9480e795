// The data files of a generated program: weights.bin (every constant's home buffer as the
// schedule's placements lay it out — NPU weights in their encoded layout), inputs.bin (the
// graph inputs' home buffers) and golden.bin (the expected outputs, laid out as their home
// buffers), each with a table in data.h saying where each piece goes (level, offset, bytes)
// and where it is in the file.
#pragma once
#include <string>
#include <vector>

#include "compiler/codegen/codegen.h"

namespace edgesim::codegen {

struct DataFiles {
  std::string weights, inputs, golden;   // binary contents
  std::string header;                    // data.h
};

DataFiles emit_data(const ProgramRequest& req);

}  // namespace edgesim::codegen
