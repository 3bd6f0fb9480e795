// import_onnx: loads the model, recognises the dialect, declares the graph inputs, drops a
// NEMO / QuantLab tail, then visits the ONNX nodes in order. Each node that no earlier
// pattern claimed is an anchor and goes to its handler (handlers.h), which fuses what follows
// it; the Graph's nodes are therefore in ONNX order of their anchors (the k-th Conv / Gemm /
// pool / Add is DORY's out_layer<k>). Finally the outputs are bound and Graph::validate runs.
#include "compiler/frontend/import.h"

#include <filesystem>
#include <map>

#include "compiler/frontend/handlers.h"

namespace edgesim {

namespace frontend {

namespace {

using Handler = void (*)(Builder&, const OnnxNode&);

const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> h = {
      {"Conv", import_conv},
      {"Gemm", import_gemm},
      {"MatMul", import_matmul},
      {"MaxPool", import_pool},
      {"AveragePool", import_pool},
      {"GlobalAveragePool", import_pool},
      {"GlobalMaxPool", import_pool},
      {"Add", import_add},
      {"Mul", import_mul},
      {"Div", import_requant_chain},
      {"RequantShift", import_requant_chain},
      {"Clip", import_requant_chain},
      {"Relu", import_requant_chain},
      {"Pad", import_pad},
      {"Concat", import_concat},
      {"Reshape", import_reshape},
      {"Flatten", import_reshape},
      {"Squeeze", import_reshape},
      {"Unsqueeze", import_reshape},
      {"Transpose", import_transpose},
      {"Cast", import_identity},
      {"Floor", import_identity},
      {"Identity", import_identity},
      {"Dropout", import_identity},
      {"QuantizeLinear", import_quantize},
      {"DequantizeLinear", import_dequantize},
      {"QLinearConv", import_qlinear_conv},
      {"QLinearMatMul", import_qlinear_matmul},
      {"ConvInteger", import_conv_integer},
      {"MatMulInteger", import_matmul_integer},
      {"iSoftmax", import_softmax},
      {"ITAMax", import_softmax},
      {"iRMSNorm", import_norm},
      {"iLayerNorm", import_norm},
      {"iHardswish", import_act},
      {"iGELU", import_act},
      {"IntegerMean", import_integer_mean},
      {"Gather", import_gather},
      {"TrueIntegerDiv", import_requant_chain},
      {"Round", import_float_chain},
      {"Sub", import_float_chain},
  };
  return h;
}

std::string supported_list() {
  std::string s;
  for (const auto& [op, h] : handlers()) s += (s.empty() ? "" : ", ") + op;
  return s + ", Constant";
}

bool std_domain(const OnnxNode& n) { return n.domain.empty() || n.domain == "ai.onnx" || n.domain == "ai.onnx.contrib"; }

void check_supported(const Builder& b, const OnnxNode& n) {
  if (std_domain(n) && handlers().count(n.op)) return;
  const std::string op = std_domain(n) ? n.op : n.domain + "::" + n.op;
  throw ImportError(b.model.path + ": unsupported op '" + op + "' at node '" + n.name + "'; supported: " +
                    supported_list());
}

void dispatch(Builder& b, const OnnxNode& n) {
  check_supported(b, n);
  // Float fake-quant graphs (docs/dialects.md, "Deeploy transformer ops"): the element-wise ops on float tensors form
  // float chains; everything else (MatMul of the quantised integers) takes the integer path.
  if (b.graph.dialect == "fakequant" && is_float_chain_op(n.op)) return import_float_chain(b, n);
  handlers().at(n.op)(b, n);
}

// A graph output whose declared shape holds another number of elements than the graph computes
// is an inconsistent file, refused rather than silently re-sized. Declarations with an unknown
// (symbolic) or zero dimension are not checked.
void check_declared_output(const OnnxModel& m, const std::string& name, const Shape& computed,
                           const std::string& path) {
  for (const IoInfo& io : m.outputs) {
    if (io.name != name || io.shape.empty()) continue;
    // The declared dims come straight from the file: their product is formed without overflow.
    int64_t declared = 1;
    bool overflow = false;
    for (int64_t d : io.shape) {
      if (d <= 0) return;
      overflow = overflow || __builtin_mul_overflow(declared, d, &declared);
    }
    if (!overflow && declared == shape_numel(computed)) return;
    auto text = [](const Shape& s) {
      std::string r;
      for (int64_t d : s) r.append(r.empty() ? "" : "x").append(std::to_string(d));
      return r;
    };
    throw ImportError(path + ": graph output '" + name + "' is declared " + text(io.shape) + " (" +
                      (overflow ? std::string("more than 2^63") : std::to_string(declared)) +
                      " elements) but the graph computes " + text(computed) + " (" +
                      std::to_string(shape_numel(computed)) + ")");
  }
}

Graph build(const std::string& path, const ImportOptions& opt) {
  OnnxModel m = load_onnx_model(path, opt.constant_inputs);
  Graph g;
  g.name = std::filesystem::path(path).stem().string();
  g.dialect = detect_dialect(m);
  if (g.dialect == "fakequant") fold_constants(m);
  Builder b(m, opt, g);
  for (const IoInfo& in : m.inputs) {
    bool inferred = false;
    const DType dt = input_dtype(g.dialect, in, opt, inferred, path);
    const int t = b.new_tensor(in.name, dt, in.shape);
    g.tensors[static_cast<size_t>(t)].dtype_inferred = inferred;
    if (inferred) b.mark_inferred(t);
    g.inputs.push_back(t);
    b.set_real(in.name, t);
  }
  const std::vector<std::string> outs = drop_tail(b);
  // Report an unsupported op before any pattern error deeper in the graph.
  for (const OnnxNode& n : m.nodes)
    if (!b.claimed(n.index) && n.op != "Constant") check_supported(b, n);
  for (const OnnxNode& n : m.nodes) {
    if (b.claimed(n.index) || n.op == "Constant") continue;
    dispatch(b, n);
  }
  OnnxNode out_user;
  for (const std::string& o : outs) {
    out_user.where = path + ": graph output '" + o + "'";
    const int t = b.real(o, out_user);
    check_declared_output(m, o, g.tensors[static_cast<size_t>(t)].shape, path);
    bool seen = false;
    for (int x : g.outputs) seen = seen || x == t;
    if (!seen) g.outputs.push_back(t);
  }
  try {
    g.validate();
  } catch (const std::exception& e) {
    throw ImportError(path + ": imported graph is inconsistent: " + e.what());
  }
  return g;
}

}  // namespace

int int_input(Builder& b, const std::string& name, const OnnxNode& user) {
  const int t = b.real(name, user);
  if (!dtype_is_int(b.desc(t).dtype)) user.fail("input '" + name + "' is a float tensor; this op needs integers");
  return t;
}

bool is_dequant(Builder& b, const std::string& name) {
  const Value* v = b.value(name);
  return v && v->kind == Value::Kind::Dequant;
}

}  // namespace frontend

Graph import_onnx(const std::string& path, const ImportOptions& opt) {
  try {
    return frontend::build(path, opt);
  } catch (const ImportError&) {
    throw;
  } catch (const std::exception& e) {
    throw ImportError(path + ": import failed: " + e.what());
  }
}

std::vector<std::string> onnx_input_names(const std::string& path) {
  const frontend::OnnxModel m = frontend::load_onnx_model(path, {});
  std::vector<std::string> r;
  for (const auto& i : m.inputs) r.push_back(i.name);
  return r;
}

}  // namespace edgesim
