// `edgesim verify`: the import, golden-model and check stages of docs/architecture.md "Data flow
// today" (no platform, no schedule). Imports an ONNX network, runs the reference interpreter on
// golden (or seeded random) inputs and compares its tensors with golden data: DORY per-layer text
// files, Deeploy outputs.npz, ONNX node-test .pb files.
// Exit status: 0 every checked tensor matches, 1 some mismatch, 2 an error (main.cc prints
// "edgesim: error: <message>"). Behaviour and file conventions: docs/verify.md.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/budget/memory.h"
#include "compiler/frontend/import.h"
#include "compiler/golden/activations.h"
#include "compiler/golden/golden.h"
#include "platforms/util/hash.h"
#include "platforms/util/printable.h"
#include "kernels/interpreter/interpreter.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/report/text_table.h"

namespace edgesim::cli {
namespace {

namespace fs = std::filesystem;

struct VerifyArgs {
  std::string model, inputs, expected, layout = "hwc", arith = "exact";
  int64_t tolerance = 0;
  uint64_t seed = 1;
  bool const_inputs = false;
  bool reference_kernels = false;
};

const char* kFooter = R"(Golden data (--expected):
  DIR with out_layer<N>.txt   DORY: file N vs the N-th layer (conv/gemm/pool/add) output,
                              in --layout order (hwc: channels last, [L,C] in 1-D; chw)
  out_layer<N>.txt            one DORY layer file
  outputs.npz / DIR with it   Deeploy: array j vs graph output j (by position)
  output_<j>.pb / DIR / .pb   ONNX node test (DIR may hold test_data_set_0/)
Inputs (--inputs): input.txt (DORY, HWC), inputs.npz (array i -> input i), input_<i>.pb, a
  .pb, or a directory holding one of these. Without --inputs: the --expected directory's
  input.txt / inputs.npz / input_<i>.pb if present, else seeded random inputs.
Without --expected: prints each output's shape and checksum and exits 0.
Exit status: 0 all tensors match, 1 a mismatch, 2 an error.)";


// --const-inputs: ONNX node tests deliver scales, zero points and weights as graph inputs;
// bind input_<i>.pb for i >= 1 as constants so that the importer sees an integer op.
ImportOptions import_options(const VerifyArgs& a, const std::string& inputs) {
  ImportOptions opt;
  if (!a.const_inputs) return opt;
  std::error_code ec;
  fs::path dir(inputs);
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  if (fs::is_directory(dir / "test_data_set_0", ec)) dir /= "test_data_set_0";
  const auto names = onnx_input_names(a.model);
  for (size_t i = 1; i < names.size(); ++i) {
    const fs::path pb = dir / fmt::format("input_{}.pb", i);
    if (!fs::is_regular_file(pb, ec))
      throw CliError(fmt::format("--const-inputs: {} not found (needed for input '{}')",
                                 pb.string(), names[i]));
    opt.constant_inputs.emplace_back(names[i], read_tensor_proto_file(pb.string()));
  }
  return opt;
}

// FNV-1a over the element values (int64 for integer tensors, float bits for F32).
uint64_t checksum(const Tensor& t) {
  Fnv1a h;
  auto mix = [&h](const void* p, size_t n) { h.bytes(p, n); };
  for (int64_t k = 0; k < t.numel(); ++k) {
    if (t.dtype() == DType::F32) {
      const float f = static_cast<float>(t.get_f64(k));
      mix(&f, 4);
    } else {
      const int64_t v = t.get_int(k);
      mix(&v, 8);
    }
  }
  return h.value();
}

int run_verify(const VerifyArgs& a) {
  std::string inputs = a.inputs.empty() ? inputs_next_to(a.expected) : a.inputs;
  check_input_path("--inputs", a.inputs);
  check_input_path("--expected", a.expected);

  Graph g = import_onnx(a.model, import_options(a, inputs));
  check_memory(estimate_memory(g), g, a.model);
  // Header lines wrap under the value column: a long path never runs past the terminal.
  std::cout << report::wrap_lines(fmt::format("network: {} ({}, {} nodes, {} layers)", printable(a.model),
                                              g.dialect.empty() ? "?" : g.dialect, g.nodes.size(), g.layer_nodes().size()),
                                  report::kTerminalWidth, 9);
  std::vector<Tensor> in;
  if (inputs.empty()) {
    in = random_inputs(g, a.seed);
    std::cout << fmt::format("inputs:  random, seed {}\n", a.seed);
  } else {
    in = load_inputs(g, inputs);
    std::cout << report::wrap_lines("inputs:  " + printable(inputs), report::kTerminalWidth, 9);
  }

  InterpreterOptions iopt;
  iopt.mode = a.arith == "dory" ? ArithMode::DoryShift : ArithMode::Exact;
  iopt.keep_all = !a.expected.empty();
  iopt.kernels = a.reference_kernels ? KernelSet::Reference : KernelSet::Optimized;
  const InterpreterResult r = interpret(g, in, iopt);

  if (a.expected.empty()) {
    for (size_t j = 0; j < r.outputs.size() && j < g.outputs.size(); ++j) {
      const Tensor& t = r.outputs[j];
      std::cout << report::wrap_lines(fmt::format("output {} '{}' {} {}  checksum {:016x}", j,
                                                  printable(g.tensor(g.outputs[j]).name), dtype_name(t.dtype()),
                                                  shape_str(t.shape()), checksum(t)),
                                      report::kTerminalWidth, 2);
    }
    std::cout << "verify: no --expected given; outputs not checked\n";
    return 0;
  }

  VerifyOptions vopt;
  vopt.layout = a.layout == "chw" ? GoldenLayout::CHW : GoldenLayout::HWC;
  vopt.tolerance = a.tolerance;
  const auto results = check_expected(g, r, a.expected, vopt);
  int64_t exact = 0, passed = 0, tol_elems = 0;
  for (const auto& c : results) {
    std::cout << format_check(c) << "\n";
    passed += c.ok();
    exact += c.ok() && c.within_tolerance == 0;
    tol_elems += c.within_tolerance;
  }
  const auto n = static_cast<int64_t>(results.size());
  if (a.tolerance > 0)
    std::cout << fmt::format("verify: {}/{} tensors bit-exact, {}/{} within ±{} ({} elements "
                             "within tolerance)\n", exact, n, passed, n, a.tolerance, tol_elems);
  else
    std::cout << fmt::format("verify: {}/{} tensors bit-exact\n", exact, n);
  // Deeploy's intermediate tensors, when the golden directory has them (docs/verify.md).
  bool acts_ok = true;
  if (const std::string acts = activations_next_to(a.expected); !acts.empty()) {
    const ActivationCheck c = check_activations(g, r, acts);
    for (const auto& d : c.differ) std::cout << "MISMATCH activation " << d << "\n";
    for (const auto& f : c.fused_names) std::cout << "no tensor  activation " << f << "\n";
    std::cout << fmt::format("activations: {} arrays: {} equal a graph tensor, {} a fused node's accumulator, "
                             "{} without a tensor, {} differ\n",
                             c.arrays, c.tensors, c.accumulators, c.fused_away, c.differ.size());
    acts_ok = c.ok();
  }
  return passed == n && acts_ok ? 0 : 1;
}

}  // namespace

void register_verify(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("verify", "Run the golden model on a network and compare with golden data");
  auto args = std::make_shared<VerifyArgs>();
  sub->add_option("model", args->model, "ONNX network")->required();
  sub->add_option("--inputs", args->inputs, "input data: input.txt, inputs.npz, .pb or a directory");
  sub->add_option("--expected", args->expected, "golden data: DORY dir, outputs.npz, .pb, node-test dir");
  sub->add_option("--layout", args->layout, "element order of DORY per-layer files")
      ->check(one_of({"hwc", "chw"}))->capture_default_str();
  sub->add_option("--arith", args->arith, "requant arithmetic: exact divisor or DORY's shift")
      ->check(one_of({"exact", "dory"}))->capture_default_str();
  sub->add_option("--tolerance", args->tolerance, "count |diff| <= N as a match (reported)")
      ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()))->capture_default_str();
  sub->add_option("--seed", args->seed, "seed of the random inputs used without --inputs")
      ->capture_default_str();
  sub->add_flag("--const-inputs", args->const_inputs,
                "bind graph inputs 1.. to input_<i>.pb as constants (ONNX node tests)");
  sub->add_flag("--reference-kernels", args->reference_kernels,
                "compute with the reference kernels only (the oracle of the optimised ones)");
  add_memory_limit_option(sub);
  sub->footer(kFooter);
  action = [args] { return run_verify(*args); };
}

}  // namespace edgesim::cli
