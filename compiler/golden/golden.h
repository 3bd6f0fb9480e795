// Golden-file readers and comparison for `edgesim verify` (and later `edgesim run`):
//   - DORY text files: input.txt, out_layer<N>.txt (networks/README.md §1.1)
//   - Deeploy .npz archives (ZIP of .npy; networks/README.md §1.2), matched by position
//   - ONNX TensorProto .pb files (libonnx-testdata input_<i>.pb / output_<j>.pb)
// All readers throw GoldenError with a one-line message naming the file (and line / member).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "kernels/core/tensor.h"
#include "kernels/interpreter/interpreter.h"

namespace edgesim {

class GoldenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A tensor read from a golden file: values as double (exact for every integer in the files)
// plus its stored shape (empty when the format has none, as in DORY text files).
struct GoldenArray {
  std::string name;      // npz member / file name
  Shape shape;
  std::vector<double> values;
};

std::vector<int64_t> read_dory_txt(const std::string& path);
std::vector<GoldenArray> read_npz(const std::string& path);   // members in archive order
GoldenArray read_tensor_pb(const std::string& path);

// Layout of per-layer DORY golden files (networks/README.md §2): HWC for most networks
// ([L, C] for 1-D is HWC with H = 1), CHW for SmartAgri-net and dscnn_test.
enum class GoldenLayout { HWC, CHW };

// Loads graph inputs from F: a Deeploy .npz (array i -> i-th real input; extra trailing
// arrays ignored), a DORY input.txt (HWC order), a directory of input_<i>.pb files, or a
// single .pb. Values are converted to each input's dtype; wrong element counts or
// out-of-range values are GoldenErrors naming the file and the input. Inputs whose dtype
// the importer inferred (TensorDesc::dtype_inferred) are re-typed from the data's range.
std::vector<Tensor> load_inputs(Graph& g, const std::string& path);

struct CheckResult {
  std::string what;          // "out_layer3.txt vs layer 3 'Conv_12' (conv)" / "output 0 'y'"
  std::string node;          // node name of the checked tensor ("" for graph outputs)
  int64_t count = 0;         // elements compared
  int64_t mismatches = 0;
  int64_t off_by_one = 0;    // mismatches with |diff| == 1 (reported separately)
  int64_t first_index = -1;  // flat index (in the golden file's order) of the first mismatch
  double expected = 0, got = 0;
  bool ok() const { return mismatches == 0; }
};

struct VerifyOptions {
  GoldenLayout layout = GoldenLayout::HWC;
  int64_t tolerance = 0;     // |diff| <= tolerance counts as a match (reported as off_by_one)
};

// Compares the interpreter's tensors with golden data at `path`:
//   - a directory with out_layer<N>.txt: file N vs the N-th layer node (Graph::layer_nodes)
//   - a Deeploy outputs.npz: array j vs graph output j
//   - a directory with output_<j>.pb, or one .pb: vs graph output j
// A golden with the wrong element count is a GoldenError naming the file, tensor and shapes.
std::vector<CheckResult> check_expected(const Graph& g, const InterpreterResult& r,
                                        const std::string& path, const VerifyOptions& opt = {});

}  // namespace edgesim
