// Loading an ONNX file into OnnxModel: protobuf parse (with size and sanity checks so that
// garbage, truncated or non-ONNX files fail with one line), constants from initializers,
// Constant nodes and ImportOptions, the real graph inputs (graph.input minus constants,
// docs/dialects.md "How the importer works"), producer / consumer maps, and attribute decoding.
// The ONNX checker is deliberately not used (same section, step 1).
#include <set>

#include <google/protobuf/io/coded_stream.h>

#include "compiler/frontend/import.h"
#include "compiler/frontend/onnx_model.h"
#include "compiler/frontend/read_file.h"
#include "compiler/frontend/tensor_proto.h"

namespace edgesim::frontend {

namespace {

Attr decode_attr(onnx::AttributeProto& a, const std::string& where) {
  Attr r;
  switch (a.type()) {
    case onnx::AttributeProto::INT: r.kind = Attr::Kind::Int; r.i = a.i(); break;
    case onnx::AttributeProto::FLOAT: r.kind = Attr::Kind::Float; r.f = a.f(); break;
    case onnx::AttributeProto::STRING: r.kind = Attr::Kind::String; r.s = a.s(); break;
    case onnx::AttributeProto::INTS:
      r.kind = Attr::Kind::Ints;
      r.ints.assign(a.ints().begin(), a.ints().end());
      break;
    case onnx::AttributeProto::FLOATS:
      r.kind = Attr::Kind::Floats;
      r.floats.assign(a.floats().begin(), a.floats().end());
      break;
    case onnx::AttributeProto::TENSOR:
      r.kind = Attr::Kind::Tensor;
      r.t = decode_tensor_proto(*a.mutable_t(), where + " attribute '" + a.name() + "'");
      break;
    default:
      // Old exporters leave `type` unset; infer it from the field that is filled.
      if (a.ints_size() > 0) { r.kind = Attr::Kind::Ints; r.ints.assign(a.ints().begin(), a.ints().end()); }
      else if (a.floats_size() > 0) { r.kind = Attr::Kind::Floats; r.floats.assign(a.floats().begin(), a.floats().end()); }
      else if (a.has_t()) { r.kind = Attr::Kind::Tensor; r.t = decode_tensor_proto(*a.mutable_t(), where + " attribute '" + a.name() + "'"); }
      else if (a.has_s()) { r.kind = Attr::Kind::String; r.s = a.s(); }
      else if (a.has_f()) { r.kind = Attr::Kind::Float; r.f = a.f(); }
      else if (a.has_i()) { r.kind = Attr::Kind::Int; r.i = a.i(); }
      break;
  }
  return r;
}

IoInfo decode_io(const onnx::ValueInfoProto& v, const std::string& path, bool is_input) {
  IoInfo io;
  io.name = v.name();
  if (!v.type().has_tensor_type())
    throw ImportError(path + ": graph " + (is_input ? "input" : "output") + " '" + v.name() + "' is not a tensor");
  const auto& tt = v.type().tensor_type();
  io.elem_type = tt.elem_type();
  if (tt.has_shape()) {
    int axis = 0;
    for (const auto& d : tt.shape().dim()) {
      if (d.has_dim_value() && d.dim_value() >= 0) io.shape.push_back(d.dim_value());   // 0: empty (KV caches)
      else if (axis == 0 || !is_input) io.shape.push_back(is_input ? 1 : 0);   // symbolic batch: 1; outputs: unknown
      else
        throw ImportError(path + ": graph input '" + v.name() + "' has a symbolic dimension at axis " +
                          std::to_string(axis));
      ++axis;
    }
  }
  return io;
}

// Constant node -> ConstTensor (value, value_float(s), value_int(s)); a tensor value is moved out.
ConstTensor constant_value(OnnxNode& n) {
  if (n.outputs.size() != 1) n.fail("Constant must have one output");
  ConstTensor c;
  c.name = n.outputs[0];
  if (n.attrs.empty()) n.fail("Constant has no value attribute");
  auto& [key, a] = *n.attrs.begin();
  if (key == "value" && a.kind == Attr::Kind::Tensor) {
    c = std::move(a.t);
    c.name = n.outputs[0];
  } else if (key == "value_float" || (key == "value" && a.kind == Attr::Kind::Float)) {
    c = ConstTensor::of_float(n.outputs[0], {a.f}, false);
  } else if (key == "value_int" || (key == "value" && a.kind == Attr::Kind::Int)) {
    c = ConstTensor::of_int64(n.outputs[0], {a.i}, false);
  } else if (key == "value_floats") {
    c = ConstTensor::of_float(n.outputs[0], a.floats, true);
  } else if (key == "value_ints") {
    c = ConstTensor::of_int64(n.outputs[0], a.ints, true);
  } else {
    n.fail("unsupported Constant attribute '" + key + "'");
  }
  return c;
}

}  // namespace

void OnnxNode::fail(const std::string& msg) const { throw ImportError(where + ": " + msg); }

size_t OnnxNode::n_in() const {
  size_t n = inputs.size();
  while (n > 0 && inputs[n - 1].empty()) --n;
  return n;
}

int64_t OnnxNode::get_int(const std::string& a, int64_t dflt) const {
  auto it = attrs.find(a);
  if (it == attrs.end()) return dflt;
  const Attr& v = it->second;
  const std::string who = where + " attribute '" + a + "'";
  switch (v.kind) {
    case Attr::Kind::Int: return v.i;
    case Attr::Kind::Float:
      if (v.f != static_cast<double>(static_cast<int64_t>(v.f))) fail("attribute '" + a + "' must be an integer");
      return static_cast<int64_t>(v.f);
    case Attr::Kind::Ints:
      if (v.ints.size() == 1) return v.ints[0];
      break;
    case Attr::Kind::Floats:
      if (v.floats.size() == 1 && v.floats[0] == static_cast<double>(static_cast<int64_t>(v.floats[0])))
        return static_cast<int64_t>(v.floats[0]);
      break;
    case Attr::Kind::Tensor: return v.t.scalar_int(who);
    default: break;
  }
  fail("attribute '" + a + "' must be a single integer");
}

double OnnxNode::get_float(const std::string& a, double dflt) const {
  auto it = attrs.find(a);
  if (it == attrs.end()) return dflt;
  const Attr& v = it->second;
  switch (v.kind) {
    case Attr::Kind::Float: return v.f;
    case Attr::Kind::Int: return static_cast<double>(v.i);
    case Attr::Kind::Floats: if (v.floats.size() == 1) return v.floats[0]; break;
    case Attr::Kind::Ints: if (v.ints.size() == 1) return static_cast<double>(v.ints[0]); break;
    case Attr::Kind::Tensor: return v.t.scalar_double(where + " attribute '" + a + "'");
    default: break;
  }
  fail("attribute '" + a + "' must be a single number");
}

std::vector<int64_t> OnnxNode::get_ints(const std::string& a, const std::vector<int64_t>& dflt) const {
  auto it = attrs.find(a);
  if (it == attrs.end()) return dflt;
  const Attr& v = it->second;
  switch (v.kind) {
    case Attr::Kind::Ints: return v.ints;
    case Attr::Kind::Int: return {v.i};
    case Attr::Kind::Floats: {
      std::vector<int64_t> r;
      for (double f : v.floats) {
        if (f != static_cast<double>(static_cast<int64_t>(f))) fail("attribute '" + a + "' must hold integers");
        r.push_back(static_cast<int64_t>(f));
      }
      return r;
    }
    case Attr::Kind::Tensor: return v.t.as_ints(where + " attribute '" + a + "'");
    default: break;
  }
  fail("attribute '" + a + "' must be a list of integers");
}

std::string OnnxNode::get_string(const std::string& a, const std::string& dflt) const {
  auto it = attrs.find(a);
  if (it == attrs.end()) return dflt;
  if (it->second.kind != Attr::Kind::String) fail("attribute '" + a + "' must be a string");
  return it->second.s;
}

const ConstTensor* OnnxModel::find_const(const std::string& n) const {
  auto it = consts.find(n);
  return it == consts.end() ? nullptr : &it->second;
}

const std::vector<int>& OnnxModel::users(const std::string& n) const {
  static const std::vector<int> none;
  auto it = consumers.find(n);
  return it == consumers.end() ? none : it->second;
}

bool OnnxModel::is_output(const std::string& n) const {
  for (const auto& o : outputs)
    if (o.name == n) return true;
  return false;
}

OnnxModel load_onnx_model(const std::string& path,
                          const std::vector<std::pair<std::string, Tensor>>& constant_inputs) {
  OnnxModel m;
  m.path = path;
  onnx::ModelProto proto;
  // A platform file given where the network goes gets a message that says so.
  const bool yaml = path.ends_with(".yaml") || path.ends_with(".yml");
  const char* yaml_note = ": a YAML file, not an ONNX model (a platform file? give it as the platform, -p)";
  {
    // The file's bytes (mapped) live only while they are parsed.
    const FileBytes bytes(path, "an .onnx file");
    if (bytes.size() == 0) throw ImportError(path + ": empty file, not an ONNX model");
    if (bytes.size() > static_cast<size_t>(INT32_MAX))
      throw ImportError(path + ": larger than 2 GiB, the limit of a protobuf message");
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              static_cast<int>(bytes.size()));
    in.SetRecursionLimit(64);
    if (!proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
      throw ImportError(path + (yaml ? yaml_note : ": not a valid ONNX model (protobuf parse failed: truncated or corrupt file)"));
  }
  if (!proto.has_graph() || proto.ir_version() <= 0 || proto.graph().output_size() == 0)
    throw ImportError(path + (yaml ? yaml_note : ": not an ONNX model (no ir_version, graph or graph outputs)"));
  m.ir_version = proto.ir_version();
  for (const auto& o : proto.opset_import()) {
    m.domains.push_back(o.domain());
    if (o.domain().empty() || o.domain() == "ai.onnx") m.opset = o.version();
  }
  onnx::GraphProto& g = *proto.mutable_graph();

  // raw_data moves from the message into the constants (decode_tensor_proto).
  for (auto& t : *g.mutable_initializer()) {
    ConstTensor c = decode_tensor_proto(t, path + ": initializer");
    m.consts[c.name] = std::move(c);
  }

  std::set<std::string> listed;
  for (const auto& [name, t] : constant_inputs) {
    bool found = false;
    for (const auto& i : g.input()) found = found || i.name() == name;
    if (!found) throw ImportError(path + ": constant input '" + name + "' is not a graph input");
    m.consts[name] = const_from_tensor(name, t);
  }
  for (const auto& i : g.input())
    if (!m.consts.count(i.name())) m.inputs.push_back(decode_io(i, path, true));
  for (const auto& o : g.output()) m.outputs.push_back(decode_io(o, path, false));

  std::map<std::string, int> count_by_op;
  for (int k = 0; k < g.node_size(); ++k) {
    onnx::NodeProto& np = *g.mutable_node(k);
    OnnxNode n;
    n.index = k;
    n.op = np.op_type();
    n.domain = np.domain();
    n.name = np.name().empty() ? n.op + "_" + std::to_string(k) : np.name();
    n.where = path + ": node '" + n.name + "' (" + n.op + ")";
    n.inputs.assign(np.input().begin(), np.input().end());
    n.outputs.assign(np.output().begin(), np.output().end());
    if (n.op.empty()) n.fail("node without op_type");
    for (auto& a : *np.mutable_attribute()) n.attrs[a.name()] = decode_attr(a, n.where);
    if (n.op == "Constant" && (n.domain.empty() || n.domain == "ai.onnx")) {
      ConstTensor c = constant_value(n);
      m.consts[c.name] = std::move(c);
    }
    for (const auto& o : n.outputs)
      if (!o.empty()) {
        if (m.producer.count(o) || (m.consts.count(o) && n.op != "Constant"))
          n.fail("tensor '" + o + "' is produced twice");
        m.producer[o] = k;
      }
    m.nodes.push_back(std::move(n));
  }
  // Consumers, and a check that every input is defined before use (topological order).
  std::set<std::string> defined;
  for (const auto& i : m.inputs) defined.insert(i.name);
  for (const auto& [name, c] : m.consts) defined.insert(name);
  for (const OnnxNode& n : m.nodes) {
    for (const auto& i : n.inputs) {
      if (i.empty()) continue;
      if (!defined.count(i)) n.fail("input '" + i + "' is not defined before this node (graph not topologically sorted?)");
      m.consumers[i].push_back(n.index);
    }
    for (const auto& o : n.outputs) defined.insert(o);
  }
  for (const auto& o : m.outputs)
    if (!defined.count(o.name)) throw ImportError(path + ": graph output '" + o.name + "' is never produced");
  return m;
}

}  // namespace edgesim::frontend
