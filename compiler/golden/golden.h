// Golden-file readers and comparison for `edgesim verify` (and later `edgesim run`):
//   - DORY text files: input.txt, out_layer<N>.txt (docs/verify.md "Golden file formats")
//   - Deeploy .npz archives (ZIP of .npy; same section), matched by position
//   - ONNX TensorProto .pb files (libonnx-testdata input_<i>.pb / output_<j>.pb)
// All readers throw GoldenError with a one-line message naming the file (and line / member).
#pragma once
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
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
  bool is_float = false;   // stored in a floating-point container (npy 'f', TensorProto FLOAT)
  // The container's element type: 'b' bool, 'i' signed, 'u' unsigned integer, 'f' floating point,
  // of elem_bytes bytes; 0 when the format has none (DORY text).
  char kind = 0;
  int elem_bytes = 0;
};

std::vector<int64_t> read_dory_txt(const std::string& path);
std::vector<GoldenArray> read_npz(const std::string& path);   // members in archive order

// What a caller expects of the npz member at one position: its element count, and how to name
// the tensor it is for in an error ("input 0 'x' of shape [1, 3, 8, 8]").
struct NpzExpect {
  int64_t elements = 0;
  std::string what;
};

// A Deeploy .npz opened for reading its members one at a time, each bounded by what the caller
// expects of it: the member is inflated as a stream, its .npy header checked against the
// expected element count before any data is inflated, and inflating stops at the header and
// the data it declares (a member holding more is refused, so a ZIP bomb costs no more than the
// expected tensor). Each member is read to its end, which makes libzip verify its CRC-32: a
// corrupt member is one GoldenError naming the file and the member, never data handed on.
// read_npz(path) reads every member, each bounded by its own header and declared size.
class NpzArchive {
 public:
  explicit NpzArchive(const std::string& path);
  ~NpzArchive();
  NpzArchive(const NpzArchive&) = delete;
  NpzArchive& operator=(const NpzArchive&) = delete;

  size_t size() const { return members_.size(); }   // array members (directory entries skipped)
  // Member i in archive order; `expect` null: bounded by its header and declared size only.
  GoldenArray read(size_t i, const NpzExpect* expect = nullptr) const;

 private:
  std::string path_;
  struct Zip;
  std::unique_ptr<Zip> zip_;        // owned: freed when the constructor throws, too
  std::vector<uint64_t> members_;   // zip indices of the array members
};
GoldenArray read_tensor_pb(const std::string& path);
// Parses one .npy file image (format 1.0-3.0; numeric descr only; Fortran order is reordered to
// C order). `name` is used in error messages and stored in the result.
GoldenArray parse_npy(const std::string& bytes, const std::string& name);
// MV1-128's last golden holds int32 logits as 4 byte lines each
// (docs/verify.md "Golden file formats"):
// logit_i = b[4i] | b[4i+1]<<8 | b[4i+2]<<16 | b[4i+3]<<24, two's complement.
// Throws GoldenError if the count is not a multiple of 4 or a value is outside 0..255.
std::vector<int64_t> dory_bytes_to_int32(const std::vector<int64_t>& bytes);

// Layout of per-layer DORY golden files (docs/verify.md "Golden data", "Reference networks"): HWC
// for most networks ([L, C] for 1-D is HWC with H = 1), CHW for SmartAgri-net and dscnn_test.
enum class GoldenLayout { HWC, CHW };

// For a tensor of ONNX shape s (NCHW; [N, C, L] for 1-D), the flat tensor index stored at each
// position of a golden file in `layout`: HWC puts the channel axis last ([N, spatial..., C]),
// CHW is the ONNX order itself. Tensors of rank < 3 are plain vectors in both layouts.
std::vector<int64_t> golden_index_map(const Shape& s, GoldenLayout layout);

// Loads graph inputs from F: a Deeploy .npz (array i -> i-th real input; extra trailing
// arrays ignored), a DORY input.txt (HWC order), a directory of input_<i>.pb files, or a
// single .pb. Values are converted to each input's dtype; wrong element counts or
// out-of-range values are GoldenErrors naming the file and the input. Inputs whose dtype
// the importer inferred (TensorDesc::dtype_inferred) are re-typed from the data's range.
// `path` may also be a directory holding input.txt, inputs.npz, input_<i>.pb or
// test_data_set_0/ (docs/verify.md).
std::vector<Tensor> load_inputs(Graph& g, const std::string& path);

// Deterministic pseudo-random inputs (splitmix64 of `seed`), one per graph input, uniform over
// the input dtype's range (I32/I64: [-32768, 32767]; F32: [-1, 1)).
std::vector<Tensor> random_inputs(const Graph& g, uint64_t seed);

struct CheckResult {
  std::string what;          // "out_layer3.txt vs layer 3 'Conv_12' (conv)" / "output 0 'y'"
  std::string node;          // node name of the checked tensor ("" for graph outputs)
  int64_t count = 0;         // elements compared
  int64_t mismatches = 0;
  int64_t off_by_one = 0;    // mismatches with |diff| == 1 (reported separately)
  int64_t first_index = -1;  // flat index (in the golden file's order) of the first mismatch
  double expected = 0, got = 0;
  // Additions (golden helper):
  std::string file;          // golden file name, e.g. "out_layer3.txt", "outputs.npz[0]"
  std::string desc;          // "layer 3 conv 'Conv_12'" / "output 0 'y'"
  int64_t within_tolerance = 0;   // elements with 0 < |diff| <= tolerance (counted as matches)
  double max_abs_diff = 0;
  bool ok() const { return mismatches == 0; }
};

// One-line report: "match  out_layer3.txt  layer 3 conv 'Conv_12'  20000 elements" or
// "MISMATCH out_layer5.txt layer 5 add 'Add_7': 14 of 20000 differ; first at index 123:
// expected 45, got 44". Names are printable ASCII (platforms/util/printable.h).
std::string format_check(const CheckResult& c);

struct VerifyOptions {
  GoldenLayout layout = GoldenLayout::HWC;
  int64_t tolerance = 0;     // |diff| <= tolerance counts as a match (reported as off_by_one)
};

// Compares the interpreter's tensors with golden data at `path`:
//   - a directory with out_layer<N>.txt: file N vs the N-th layer node (Graph::layer_nodes),
//     only the files present, in opt.layout order; or a single out_layer<N>.txt file
//   - a Deeploy outputs.npz (or a directory holding it): array j vs graph output j
//   - a directory with output_<j>.pb (or its test_data_set_0/), or one .pb / .npy: output j
// A golden with the wrong element count is a GoldenError naming the file, tensor and shapes;
// so is a directory without golden data. Results are in file / output order (docs/verify.md).
std::vector<CheckResult> check_expected(const Graph& g, const InterpreterResult& r,
                                        const std::string& path, const VerifyOptions& opt = {});

}  // namespace edgesim
