// STUB
#include "compiler/golden/golden.h"
namespace edgesim {
std::vector<int64_t> read_dory_txt(const std::string& p) { throw GoldenError(p + ": not implemented"); }
std::vector<GoldenArray> read_npz(const std::string& p) { throw GoldenError(p + ": not implemented"); }
GoldenArray read_tensor_pb(const std::string& p) { throw GoldenError(p + ": not implemented"); }
std::vector<Tensor> load_inputs(Graph&, const std::string& p) { throw GoldenError(p + ": not implemented"); }
std::vector<CheckResult> check_expected(const Graph&, const InterpreterResult&, const std::string& p, const VerifyOptions&) { throw GoldenError(p + ": not implemented"); }
}  // namespace edgesim
