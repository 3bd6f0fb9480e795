// Whole-file reads of the front end (ONNX models, TensorProto files): one allocation of the
// file's size and one read, so a model's bytes exist once in memory while it is parsed.
// Internal to compiler/frontend.
#pragma once
#include <string>

namespace edgesim::frontend {

// Throws ImportError "<path>: no such file" / "is a directory, expected <what>" /
// "cannot open file" / "read error".
std::string read_file_bytes(const std::string& path, const std::string& what);

}  // namespace edgesim::frontend
