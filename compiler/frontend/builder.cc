// Builder: value table, claims, constant tensors and the materialisation of virtual values
// (see builder.h), plus the per-channel constant helpers every pattern matcher uses.
#include "compiler/frontend/builder.h"

#include <algorithm>

namespace edgesim::frontend {

const OnnxNode* Builder::fusable_next(const std::string& t) const {
  if (t.empty() || model.is_output(t)) return nullptr;
  const auto& u = model.users(t);
  if (u.size() != 1 || claimed(u[0])) return nullptr;
  return &model.nodes[static_cast<size_t>(u[0])];
}

const ConstTensor& Builder::constant(const std::string& name, const OnnxNode& user) const {
  const ConstTensor* c = model.find_const(name);
  if (!c) user.fail("input '" + name + "' must be a constant (initializer or Constant node)");
  return *c;
}

Value* Builder::value(const std::string& name) {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

void Builder::set_real(const std::string& name, int tid) {
  Value v;
  v.tid = tid;
  values_[name] = v;
}

int Builder::new_tensor(const std::string& name, DType dt, const Shape& shape) {
  TensorDesc d;
  d.name = name;
  d.dtype = dt;
  d.shape = shape;
  return graph.add_tensor(std::move(d));
}

int Builder::const_tensor(const std::string& name, const OnnxNode& user) {
  const int existing = graph.find_tensor(name);
  if (existing >= 0 && graph.tensor(existing).is_const()) return existing;
  const ConstTensor& c = constant(name, user);
  TensorDesc d;
  d.name = name;
  d.shape = c.shape;
  // Integer values in the narrowest dtype of their range, straight from the file's bytes; a
  // QDQ graph may also hold real constants (DequantizeLinear inputs), which stay F32.
  try {
    d.constant = c.to_int_tensor(user.where);
  } catch (const ImportError&) {
    if (graph.dialect != "qdq") throw;
    d.constant = c.to_tensor(DType::F32);
  }
  d.dtype = d.constant->dtype();
  return graph.add_tensor(std::move(d));
}

int Builder::real(const std::string& name, const OnnxNode& user) {
  if (is_const(name)) return const_tensor(name, user);
  Value* v = value(name);
  if (!v) user.fail("input '" + name + "' has no value (its producer was not imported)");
  switch (v->kind) {
    case Value::Kind::Real:
      return v->tid;
    case Value::Kind::Scaled:
      user.fail("input '" + name + "' is a Mul by a constant that is neither part of a requant chain nor of a residual Add");
    case Value::Kind::Dequant: {
      if (v->materialized >= 0) return v->materialized;
      const OnnxNode& dq = model.nodes[static_cast<size_t>(model.producer.at(name))];
      const Value copy = *v;
      const int src = real(copy.src, dq);
      DequantizeParams p;
      p.axis = copy.axis;
      p.scale.assign(copy.scale.begin(), copy.scale.end());
      p.zp = copy.zp;
      const int out = new_tensor(name, DType::F32, desc(src).shape);
      emit(make_node(dq, p, {src}, out, {"DequantizeLinear"}));
      value(name)->materialized = out;
      return out;
    }
  }
  return -1;
}

Shape Builder::shape_of(const std::string& name, const OnnxNode& user) {
  if (const ConstTensor* c = model.find_const(name)) return c->shape;
  Value* v = value(name);
  if (!v) user.fail("input '" + name + "' has no value (its producer was not imported)");
  if (v->kind == Value::Kind::Dequant) {
    if (v->materialized >= 0) return desc(v->materialized).shape;
    return shape_of(v->src, user);
  }
  return desc(v->tid).shape;
}

int const_axis(const ConstTensor& c, const Shape& out, const OnnxNode& n) {
  const auto& s = c.shape;
  if (s.size() > out.size()) {
    for (size_t i = 0; i + out.size() < s.size(); ++i)
      if (s[i] != 1) n.fail("constant '" + c.name + "' of shape " + shape_str(s) + " does not broadcast onto " + shape_str(out));
  }
  if (c.numel() == 0) n.fail("constant '" + c.name + "' is empty");
  int axis = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    const int64_t o_idx = static_cast<int64_t>(i) - static_cast<int64_t>(s.size()) + static_cast<int64_t>(out.size());
    if (o_idx < 0 || s[i] == 1) continue;   // leading dims beyond the output rank are 1 (checked above)
    if (s[i] != out[static_cast<size_t>(o_idx)])
      n.fail("constant '" + c.name + "' of shape " + shape_str(s) + " does not broadcast onto " + shape_str(out));
    if (axis >= 0) n.fail("constant '" + c.name + "' of shape " + shape_str(s) + " varies along more than one axis of " + shape_str(out));
    axis = static_cast<int>(o_idx);
  }
  return axis;
}

AxisInts axis_ints(const ConstTensor& c, const Shape& out, const OnnxNode& n) {
  AxisInts r;
  r.axis = const_axis(c, out, n);
  r.v = c.as_ints(n.where);
  if (r.axis < 0) r.v.resize(1);
  return r;
}

AxisReals axis_reals(const ConstTensor& c, const Shape& out, const OnnxNode& n) {
  AxisReals r;
  r.axis = const_axis(c, out, n);
  r.v = c.as_doubles();
  if (r.axis < 0) r.v.resize(1);
  return r;
}

Node make_node(const OnnxNode& anchor, OpParams p, std::vector<int> inputs, int output,
               std::vector<std::string> fused) {
  Node n;
  n.name = anchor.name;
  n.params = std::move(p);
  n.inputs = std::move(inputs);
  n.outputs = {output};
  n.fused = std::move(fused);
  return n;
}

}  // namespace edgesim::frontend
