// Builder: the state of one import while ONNX nodes are turned into fused Graph nodes.
//
// Every ONNX tensor name maps to a Value: a real Graph tensor, a constant (kept in the
// OnnxModel), or a *virtual* value that exists only until a consumer pattern absorbs it:
//   Dequant: DequantizeLinear(q) in a QDQ graph; absorbed by Conv/Gemm/pool patterns, or
//            materialised as a Dequantize node when something else needs the float tensor.
//   Scaled:  NEMO's Mul(x, a) in front of a residual Add (docs/dialects.md "NEMO", P3).
// Fusion claims ONNX nodes: a claimed node is skipped by the main loop. Fusing across a
// tensor is allowed only when it has exactly one consumer and is not a graph output.
// Internal to compiler/frontend.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/frontend/import.h"
#include "compiler/frontend/onnx_model.h"

namespace edgesim::frontend {

struct Value {
  enum class Kind { Real, Dequant, Scaled };
  Kind kind = Kind::Real;
  int tid = -1;                  // Real / Scaled: the Graph tensor
  int64_t factor = 1;            // Scaled
  // Dequant: x = (q − zp)·scale with q the ONNX tensor `src` (a real value or a constant).
  std::string src;
  std::vector<double> scale;     // float32 scales, widened exactly
  std::vector<int64_t> zp;
  int zp_type = kUint8;          // ONNX element type of q (zero-point type)
  int axis = -1;                 // per-axis parameters (-1: per tensor)
  int materialized = -1;         // Dequantize node output once emitted
};

// A Pad chain that will merge into the conv / pool consuming it (docs/dialects.md "NEMO", P6).
struct PendingPad {
  std::string src;               // tensor feeding the first Pad
  int64_t t = 0, l = 0, b = 0, r = 0;
  std::vector<std::string> ops;  // "Pad" per merged node
};

class Builder {
 public:
  Builder(const OnnxModel& m, const ImportOptions& opt, Graph& g) : model(m), options(opt), graph(g) {}

  const OnnxModel& model;
  const ImportOptions& options;
  Graph& graph;
  std::map<int, PendingPad> pending_pads;   // consumer node index -> merged pads
  std::map<std::string, std::string> output_alias;   // dropped tail: old output -> new

  // ---- claims ----
  bool claimed(int node) const { return claimed_.count(node) != 0; }
  void claim(int node) { claimed_.insert(node); }
  // The sole consumer of t when fusing across t is allowed, else nullptr.
  const OnnxNode* fusable_next(const std::string& t) const;

  // ---- values ----
  bool is_const(const std::string& name) const { return model.find_const(name) != nullptr; }
  const ConstTensor& constant(const std::string& name, const OnnxNode& user) const;
  Value* value(const std::string& name);          // nullptr if not (yet) defined or a constant
  void set_real(const std::string& name, int tid);
  void set_value(const std::string& name, Value v) { values_[name] = std::move(v); }
  // Tensor id of a real value; constants become constant tensors, Dequant values are
  // materialised, Scaled values are an error naming `user`.
  int real(const std::string& name, const OnnxNode& user);
  // Constant tensor for an integer weight (smallest fitting dtype; fractions are errors).
  int const_tensor(const std::string& name, const OnnxNode& user);
  Shape shape_of(const std::string& name, const OnnxNode& user);
  int new_tensor(const std::string& name, DType dt, const Shape& shape);
  void emit(Node n) { graph.nodes.push_back(std::move(n)); }
  const TensorDesc& desc(int tid) const { return graph.tensor(tid); }

  // Tensors whose dtype is only a guess: graph inputs marked dtype_inferred and the outputs
  // of value-preserving ops (Pad, Concat, Reshape, Transpose, Clip, plain MaxPool) fed by
  // them. Their values count as int32-ranged, so such outputs are I32 until
  // retype_from_inputs() re-derives them from the real input types.
  bool inferred(int tid) const { return inferred_.count(tid) != 0; }
  void mark_inferred(int tid) { inferred_.insert(tid); }
  DType vtype(int tid) const { return inferred(tid) ? DType::I32 : desc(tid).dtype; }
  // Integer range of a real tensor's values (from its dtype).
  int64_t lo_of(int tid) const { return dtype_min(vtype(tid)); }
  int64_t hi_of(int tid) const { return dtype_max(vtype(tid)); }

 private:
  std::set<int> claimed_;
  std::set<int> inferred_;
  std::map<std::string, Value> values_;
};

// Per-channel constant: values and the output axis they vary along (-1: scalar). The
// constant must broadcast onto `out` (right-aligned) and vary along at most one axis.
struct AxisInts {
  std::vector<int64_t> v;
  int axis = -1;
};
struct AxisReals {
  std::vector<double> v;
  int axis = -1;
};
AxisInts axis_ints(const ConstTensor& c, const Shape& out, const OnnxNode& n);
AxisReals axis_reals(const ConstTensor& c, const Shape& out, const OnnxNode& n);
int const_axis(const ConstTensor& c, const Shape& out, const OnnxNode& n);

// The int32 range used for raw accumulators and unsaturated sums.
constexpr int64_t kI32Min = -2147483648LL;
constexpr int64_t kI32Max = 2147483647LL;

Node make_node(const OnnxNode& anchor, OpParams p, std::vector<int> inputs, int output,
               std::vector<std::string> fused);

}  // namespace edgesim::frontend
