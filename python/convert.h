// Conversions between edgesim's C++ results and Python objects for the module (edgesim_module.cc):
// JSON documents become dicts and lists (through Python's json module, so a run's dict is exactly
// the CLI's --json document), tensors become NumPy arrays of their dtype and shape, and NumPy
// arrays (or anything array-like) become the graph's input tensors.
#pragma once
#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "kernels/ir/graph.h"
#include "kernels/core/tensor.h"

namespace edgesim::python {

pybind11::object from_json(const nlohmann::json& j);
pybind11::object from_json_text(const std::string& text);
pybind11::array to_numpy(const Tensor& t);
// The graph input `desc` from an array-like value: its shape must equal the input's and its
// values fit the input's dtype (else std::invalid_argument naming the input).
Tensor to_tensor(const pybind11::handle& value, const TensorDesc& desc);

}  // namespace edgesim::python
