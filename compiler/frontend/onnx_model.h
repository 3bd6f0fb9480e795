// OnnxModel: the ONNX file as the importer sees it, decoded once from the protobuf into plain
// structs. Constants from every source (initializers, Constant nodes, ImportOptions constant
// inputs) sit in one table; attributes are normalised so that an INT, an integral FLOAT, a
// 0-d / 1-element TENSOR or a 1-element list all read as the same integer (docs/dialects.md
// "How the importer works", steps 2 and 4). Nothing here knows about dialects or the IR. Internal
// to compiler/frontend.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/frontend/const_tensor.h"
#include "kernels/core/tensor.h"

namespace edgesim::frontend {

struct Attr {
  enum class Kind { Int, Float, String, Ints, Floats, Tensor, Other };
  Kind kind = Kind::Other;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  ConstTensor t;
};

struct OnnxNode {
  int index = 0;                       // position in graph.node
  std::string name;                    // ONNX name, or "<op>_<index>" when unnamed
  std::string op, domain;
  std::vector<std::string> inputs, outputs;   // "" marks an omitted optional input
  std::map<std::string, Attr> attrs;
  std::string where;                   // "<file>: node '<name>' (<op>)" for messages

  [[noreturn]] void fail(const std::string& msg) const;
  std::string in(size_t i) const { return i < inputs.size() ? inputs[i] : std::string(); }
  size_t n_in() const;                 // inputs up to the last non-empty one
  bool has(const std::string& a) const { return attrs.count(a) != 0; }
  // Normalised attribute readers; a present attribute of an unusable form is an ImportError.
  int64_t get_int(const std::string& a, int64_t dflt) const;
  double get_float(const std::string& a, double dflt) const;
  std::vector<int64_t> get_ints(const std::string& a, const std::vector<int64_t>& dflt) const;
  std::string get_string(const std::string& a, const std::string& dflt) const;
};

struct IoInfo {
  std::string name;
  int elem_type = kUndefined;
  Shape shape;
};

struct OnnxModel {
  std::string path;
  int64_t ir_version = 0;
  int64_t opset = 0;                          // default-domain opset
  std::vector<std::string> domains;           // opset_import domains (informational)
  std::vector<OnnxNode> nodes;                // Constant nodes are kept but never anchors
  std::map<std::string, ConstTensor> consts;
  std::vector<IoInfo> inputs;                 // real inputs: graph.input minus constants
  std::vector<IoInfo> outputs;
  std::map<std::string, std::vector<int>> consumers;   // tensor -> consuming node indices
  std::map<std::string, int> producer;                 // tensor -> producing node index

  const ConstTensor* find_const(const std::string& n) const;
  const std::vector<int>& users(const std::string& n) const;
  bool is_output(const std::string& n) const;
  std::string file_msg(const std::string& msg) const { return path + ": " + msg; }
};

// Reads and decodes the file. constant_inputs turn listed graph inputs into constants.
// Throws ImportError for unreadable, truncated, non-ONNX or inconsistent files.
OnnxModel load_onnx_model(const std::string& path,
                          const std::vector<std::pair<std::string, Tensor>>& constant_inputs);

}  // namespace edgesim::frontend
