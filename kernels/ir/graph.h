// Graph: edgesim's integer IR. One node per fused op (a DORY "layer" for Conv/Gemm/Pool/Add),
// each with the typed params struct its reference kernel, cost model and tile constraints
// read. Tensors carry ONNX logical shapes (NCHW for images); constants are stored inline.
// Nodes are kept in topological order, which is the ONNX node order of each fused op's anchor
// (the Conv, Gemm, MatMul, pool or Add), so the k-th layer node is DORY's out_layer<k>.
#pragma once
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "kernels/act/params.h"
#include "kernels/conv/params.h"
#include "kernels/core/tensor.h"
#include "kernels/eltwise/params.h"
#include "kernels/fakequant/params.h"
#include "kernels/gemm/params.h"
#include "kernels/layout/params.h"
#include "kernels/norm/params.h"
#include "kernels/pool/params.h"
#include "kernels/quant/params.h"
#include "kernels/reduce/params.h"
#include "kernels/softmax/params.h"

namespace edgesim {

enum class OpKind { Conv, Gemm, Add, Mul, Pool, Clip, Requant, Pad, Concat, Reshape, Transpose,
                    Quantize, Dequantize, Softmax, Norm, Act, Mean, Gather, FloatChain };

// Variant order must match OpKind.
using OpParams = std::variant<ConvParams, GemmParams, AddParams, MulParams, PoolParams, ClipParams,
                              RequantParams, PadParams, ConcatParams, ReshapeParams,
                              TransposeParams, QuantizeParams, DequantizeParams, SoftmaxParams,
                              NormParams, ActParams, MeanParams, GatherParams, FloatChainParams>;

const char* op_name(OpKind k);   // "conv", "gemm", "add", ..., "softmax", "norm", "act", "mean", "gather", "fquant"

struct TensorDesc {
  std::string name;              // ONNX tensor name it came from
  DType dtype = DType::U8;
  Shape shape;
  std::optional<Tensor> constant;   // set for weights and other initializers
  // Graph inputs declared FLOAT (or INT32) in the ONNX file although they hold small integers
  // (docs/dialects.md "Deeploy / QuantLib"; docs/verify.md "Inputs"): the dtype is the importer's
  // guess and load_inputs may re-type the input from the data's value range, as Deeploy does.
  bool dtype_inferred = false;
  bool is_const() const { return constant.has_value(); }
};

struct Node {
  std::string name;              // ONNX name of the anchor node (or "<op_type>_<index>" if unnamed)
  OpParams params;
  std::vector<int> inputs;       // tensor ids; Conv: x, w. Gemm: a, b. Add/Mul/Concat: all operands
  std::vector<int> outputs;      // tensor ids (one output for every op kind today)
  std::vector<std::string> fused;   // ONNX op types folded into this node, in order (provenance)
  // Set by the engine assignment pass (compiler/passes/assign_engine.h): the engine that runs
  // the node ("cluster", "npu", "mvu") and, for NPU layers, whether their weights are homed in
  // the NPU's weight memory (WMEM) instead of L2.
  std::string engine = "cluster";
  bool wmem_weights = false;

  OpKind kind() const { return static_cast<OpKind>(params.index()); }
  template <class P> const P& as() const { return std::get<P>(params); }
  template <class P> P& as() { return std::get<P>(params); }
};

class Graph {
 public:
  std::string name;              // e.g. the model file stem
  std::string dialect;           // "nemo", "quantlab", "deeploy", "qdq", "onnx-int"
  std::vector<TensorDesc> tensors;
  std::vector<Node> nodes;
  std::vector<int> inputs;       // real graph inputs (initializers excluded), in ONNX order
  std::vector<int> outputs;      // graph outputs, in ONNX order

  int add_tensor(TensorDesc t);  // returns its id
  int find_tensor(const std::string& name) const;   // -1 if absent
  const TensorDesc& tensor(int id) const { return tensors.at(static_cast<size_t>(id)); }

  // A "layer": a node the tiler tiles through L1 (Conv, Gemm, Pool, Add, and the element-wise /
  // row-wise Mul, Requant, Softmax, Norm, Act, FloatChain). Layout ops (Reshape, Transpose,
  // Concat, Pad, Gather, Mean, Clip, Quantize, Dequantize) run as whole-tensor steps.
  static bool is_layer(const Node& n);
  std::vector<int> layer_nodes() const;   // node indices of layers, in order
  // A layer in DORY's numbering of golden files (out_layer<k>): Conv, Gemm, Pool and Add nodes.
  static bool is_dory_layer(const Node& n);
  std::vector<int> dory_layer_nodes() const;
  int64_t macs(const Node& n) const;      // multiply-accumulates of Conv / Gemm (0 otherwise)
  int64_t total_macs() const;

  // Removes node k, whose output holds exactly the values of its input 0 (an identity), and its
  // output tensor: every use of the output (node inputs, graph outputs) reads the input instead;
  // tensor ids above the removed one shift down by one.
  void bypass_node(int k);

  // Structural checks: ids in range, topological order, every non-input tensor produced once,
  // shapes consistent with params. Throws std::runtime_error naming the node.
  void validate() const;
};

}  // namespace edgesim
