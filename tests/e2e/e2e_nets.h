// Networks and platforms shared by the end-to-end tests of the back end and the simulator:
// every .onnx below a directory that the front end imports (imported once, with seeded random
// inputs and the interpreter's values kept), and every platform YAML of the project.
#pragma once
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

namespace edgesim::test {

namespace e2e_fs = std::filesystem;

struct Net {
  std::string name, path;
  Graph graph;
  std::vector<Tensor> inputs;
  InterpreterResult want;
};

struct Platform {
  std::string name;
  PlatformSpec spec;
};

inline const std::vector<Platform>& platforms() {
  static const std::vector<Platform> ps = [] {
    std::vector<Platform> r;
    for (const auto& e : e2e_fs::directory_iterator(source_dir() + "/platforms"))
      if (e.path().extension() == ".yaml")
        r.push_back({e.path().stem().string(), load_platform(e.path().string())});
    std::sort(r.begin(), r.end(), [](const Platform& a, const Platform& b) { return a.name < b.name; });
    return r;
  }();
  return ps;
}

// A network with transformer ops (softmax, norms, integer activations, means, gathers, float
// fake-quant chains, products of two activations): Deeploy's transformer-class tests. The CNN
// e2e sets below leave them to tests/e2e/transformer_e2e_test.cc, which runs them leanly.
inline bool has_transformer_ops(const Graph& g) {
  for (const Node& n : g.nodes)
    switch (n.kind()) {
      case OpKind::Softmax: case OpKind::Norm: case OpKind::Act: case OpKind::Mean: case OpKind::Gather:
      case OpKind::FloatChain: case OpKind::Mul:
        return true;
      default: break;
    }
  return false;
}

// Imports (once) every .onnx below `root` that the front end accepts, without transformer ops
// (`transformers`: only those with them); the rest are counted.
inline std::vector<Net> load_nets(const std::vector<std::string>& files, const std::string& root, size_t& rejected,
                                  bool transformers = false) {
  std::vector<Net> nets;
  for (const std::string& f : files) {
    Net n;
    n.path = f;
    n.name = root.empty() ? e2e_fs::path(f).parent_path().filename().string() : e2e_fs::relative(f, root).string();
    try {
      n.graph = import_onnx(f);
    } catch (const ImportError&) {
      ++rejected;
      continue;
    }
    if (has_transformer_ops(n.graph) != transformers) {
      ++rejected;
      continue;
    }
    n.inputs = random_inputs(n.graph, 7);
    InterpreterOptions o;
    o.keep_all = true;
    n.want = interpret(n.graph, n.inputs, o);
    nets.push_back(std::move(n));
  }
  return nets;
}

// The networks of models/: tiny and resnet8 (committed) and MobileNetV1-128 (generated into the
// build directory).
inline std::vector<std::string> model_files() {
  return {source_dir() + "/models/tiny/model.onnx", source_dir() + "/models/resnet8/model.onnx",
          std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx"};
}

inline std::vector<std::string> onnx_below(const std::string& root) {
  std::vector<std::string> r;
  if (!e2e_fs::is_directory(root)) return r;
  for (const auto& e : e2e_fs::recursive_directory_iterator(root))
    if (e.path().extension() == ".onnx") r.push_back(e.path().string());
  std::sort(r.begin(), r.end());
  return r;
}

}  // namespace edgesim::test
