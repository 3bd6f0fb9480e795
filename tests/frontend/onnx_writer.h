// Test helper: builds small ONNX models in memory (through the ONNX protobuf classes the
// importer itself links) and writes them into a private temporary directory, so that the
// frontend tests can exercise patterns and bad inputs without committing any model file.
#pragma once
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#ifndef ONNX_ML
#define ONNX_ML 1
#endif
#ifndef ONNX_NAMESPACE
#define ONNX_NAMESPACE onnx
#endif
#include <onnx/onnx_pb.h>

#include "compiler/frontend/import.h"
#include "support/temp_dir.h"

namespace edgesim::test {


class OnnxWriter {
 public:
  explicit OnnxWriter(int opset = 13) {
    model.set_ir_version(8);
    model.set_producer_name("edgesim-test");
    auto* o = model.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
  }

  onnx::ModelProto model;
  onnx::GraphProto& graph() { return *model.mutable_graph(); }

  OnnxWriter& input(const std::string& name, int elem, const std::vector<int64_t>& shape) {
    io(graph().add_input(), name, elem, shape);
    return *this;
  }
  OnnxWriter& output(const std::string& name, int elem, const std::vector<int64_t>& shape) {
    io(graph().add_output(), name, elem, shape);
    return *this;
  }
  OnnxWriter& init_f(const std::string& name, const std::vector<int64_t>& shape, const std::vector<float>& v) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->add_dims(d);
    for (float x : v) t->add_float_data(x);
    return *this;
  }
  // Integer initializer of element type elem (INT8, UINT8, INT32, INT64).
  OnnxWriter& init_i(const std::string& name, const std::vector<int64_t>& shape, const std::vector<int64_t>& v,
                     int elem = onnx::TensorProto::INT64) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : shape) t->add_dims(d);
    for (int64_t x : v) {
      if (elem == onnx::TensorProto::INT64) t->add_int64_data(x);
      else t->add_int32_data(static_cast<int32_t>(x));
    }
    return *this;
  }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& in,
                        const std::vector<std::string>& out, const std::string& name = "") {
    auto* n = graph().add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? op + "_" + std::to_string(graph().node_size() - 1) : name);
    for (const auto& s : in) n->add_input(s);
    for (const auto& s : out) n->add_output(s);
    return *n;
  }
  static void attr_i(onnx::NodeProto& n, const std::string& k, int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(k);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void attr_f(onnx::NodeProto& n, const std::string& k, float v) {
    auto* a = n.add_attribute();
    a->set_name(k);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  static void attr_s(onnx::NodeProto& n, const std::string& k, const std::string& v) {
    auto* a = n.add_attribute();
    a->set_name(k);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }
  static void attr_ints(onnx::NodeProto& n, const std::string& k, const std::vector<int64_t>& v) {
    auto* a = n.add_attribute();
    a->set_name(k);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  // A 0-d float tensor attribute (Deeploy's `div` encoding).
  static void attr_tensor_f(onnx::NodeProto& n, const std::string& k, float v) {
    auto* a = n.add_attribute();
    a->set_name(k);
    a->set_type(onnx::AttributeProto::TENSOR);
    a->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
    a->mutable_t()->add_float_data(v);
  }

  std::string bytes() const { return model.SerializeAsString(); }
  std::string save(const TempDir& dir, const std::string& name) const {
    return dir.write(name, bytes());
  }

 private:
  static void io(onnx::ValueInfoProto* v, const std::string& name, int elem, const std::vector<int64_t>& shape) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(elem);
    auto* s = t->mutable_shape();
    for (int64_t d : shape) s->add_dim()->set_dim_value(d);
  }
};

// The ImportError message of importing `path`, or "" when it imports.
inline std::string import_error(const std::string& path, const ImportOptions& opt = {}) {
  try {
    import_onnx(path, opt);
  } catch (const ImportError& e) {
    return e.what();
  }
  return "";
}

}  // namespace edgesim::test
