// run_session (run_session.h): the body of `edgesim run` up to its output.
#include "sim/cli/run_session.h"

#include <filesystem>

#include <fmt/format.h>

#include "compiler/schedule/json.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/branch_order.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/util/printable.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/provenance.h"
#include "sim/cli/resources.h"
#include "sim/validate/calibration.h"
#include "sim/exec/verdict.h"
#include "sim/exec/verify.h"

namespace edgesim::cli {
namespace {

namespace fs = std::filesystem;

// True for --expected naming DORY per-layer text files (a directory holding out_layer<N>.txt, or one).
bool dory_layer_files(const std::string& expected) {
  std::error_code ec;
  if (fs::is_directory(expected, ec)) {
    for (const auto& e : fs::directory_iterator(expected, ec))
      if (e.path().filename().string().rfind("out_layer", 0) == 0) return true;
    return false;
  }
  return fs::path(expected).filename().string().rfind("out_layer", 0) == 0;
}

std::vector<Tensor> choose_inputs(Graph& g, const RunOptions& a, std::string& label) {
  if (a.input_source) {
    label = "given";
    return a.input_source(g);
  }
  const std::string path = a.inputs.empty() ? inputs_next_to(a.expected) : a.inputs;
  if (path.empty()) {
    label = fmt::format("random, seed {}", a.seed);
    return random_inputs(g, a.seed);
  }
  label = path;
  return load_inputs(g, path);
}

// Graph inputs whose dtype the importer only guessed (Deeploy graphs declare FLOAT inputs,
// docs/dialects.md "Deeploy / QuantLib") are typed from the data's range when an input file is
// given; without one the guess stands, and the graph (and its cycles) can differ from the verified
// run's.
std::string guessed_input_types_warning(const Graph& g, const RunOptions& a) {
  if (a.input_source || !a.inputs.empty() || !inputs_next_to(a.expected).empty()) return "";
  return guessed_input_types_note(g);
}

}  // namespace

RunSession run_session(const RunOptions& a) {
  RunSession session;
  check_policy(a.policy);
  check_input_path("--inputs", a.inputs);
  check_input_path("--expected", a.expected);
  if (a.timing_only && !a.expected.empty()) throw CliError("--expected needs data: drop --timing-only");
  for (const auto& [flag, path] : {std::pair{"--json", a.json}, {"--trace", a.trace}, {"--report", a.report}})
    check_output_path(flag, path);

  FlowRequest& req = session.request;
  req = flow_request(a);
  req.io_layout = a.io_layout;
  req.sim.data = !a.timing_only;
  req.sim.trace = !a.trace.empty() || !a.report.empty();
  req.sim.arith = a.arith == "dory" ? ArithMode::DoryShift : ArithMode::Exact;
  session.input_label = "none (timing only)";
  req.inputs = [&](Graph& g) { return choose_inputs(g, a, session.input_label); };
  req.inputs_type_only = a.timing_only && !a.inputs.empty();
  req.tune.progress = tuning_progress(req.tune.cache_path);
  FlowOutcome& flow = session.flow;
  flow = run_flow_cli(req, a);
  const Graph& g = flow.graph;
  // Golden per-layer files follow the imported node order (policy tuned may have reordered it).
  Graph imported_order;
  if (!flow.node_order.empty()) {
    std::vector<int> back(flow.node_order.size());
    for (size_t i = 0; i < flow.node_order.size(); ++i) back[static_cast<size_t>(flow.node_order[i])] = static_cast<int>(i);
    imported_order = reorder_nodes(g, back);
  }
  const Graph& imported = flow.node_order.empty() ? g : imported_order;
  const std::vector<Tensor>& in = flow.inputs;
  const SimOptions& opt = req.sim;
  SimOutcome& out = flow.sim;
  RunResult& r = out.result;
  std::vector<CheckResult>& golden = session.golden;
  if (opt.data) {
    InterpreterOptions iopt;
    iopt.keep_all = true;
    iopt.mode = req.sim.arith;
    iopt.kernels = a.reference_kernels ? KernelSet::Reference : KernelSet::Optimized;
    const VerifyOutcome v = verify_against_interpreter(g, *out.values, interpret(g, in, iopt));
    GoldenSummary gs;
    if (!a.expected.empty()) {
      const InterpreterResult simulated = as_interpreter_result(g, *out.values);
      VerifyOptions vopt;
      vopt.layout = a.layout == "chw" ? GoldenLayout::CHW : GoldenLayout::HWC;
      golden = check_expected(imported, simulated, a.expected, vopt);
      gs.path = a.expected;
      gs.tensors = static_cast<int64_t>(golden.size());
      for (const CheckResult& c : golden) gs.bit_exact += c.ok();
      // DORY's per-layer files are read in a chosen element order; when the other order makes every
      // mismatching one match, say so.
      if (dory_layer_files(a.expected)) {
        gs.layout = a.layout;
        if (gs.bit_exact < gs.tensors) {
          vopt.layout = a.layout == "chw" ? GoldenLayout::HWC : GoldenLayout::CHW;
          const std::vector<CheckResult> other = check_expected(imported, simulated, a.expected, vopt);
          bool all = other.size() == golden.size();
          for (size_t i = 0; all && i < golden.size(); ++i) all = golden[i].ok() || other[i].ok();
          if (all) gs.other_layout = a.layout == "chw" ? "hwc" : "chw";
        }
      }
    }
    const RunVerdict verdict = run_verdict(v, a.expected.empty() ? nullptr : &gs);
    r.verified = verdict.ok;
    r.verify_message = verdict.message;
  } else {
    r.verify_message = "skipped (timing only)";
  }

  // The provenance goes only into output files (and the Python module's result); without one, its
  // file hashes are not computed.
  if (a.provenance || !a.json.empty() || !a.trace.empty() || !a.report.empty()) {
    std::string engines;
    for (const std::string& e : a.engines) engines += (engines.empty() ? "" : ",") + e;
    ProvenanceBuilder pb(&flow.spec, req.platform, a.overrides);
    pb.option("policy", a.policy).option("buffering", a.buffering).option("network_loop", a.network_loop);
    pb.option("io_layout", a.io_layout).option("engines", engines).option("layout", a.expected.empty() ? "" : a.layout);
    pb.option("data", a.timing_only ? "timing only" : "moved and verified").option("arith", a.arith);
    const std::string in_path = a.inputs.empty() ? inputs_next_to(a.expected) : a.inputs;
    if (!a.timing_only && in_path.empty()) pb.option("seed", std::to_string(a.seed));
    pb.file("network", a.model).file("inputs", in_path).file("expected", a.expected);
    r.provenance = pb.build();
    r.schedule_hash = schedule_hash(flow.schedule);
  }
  // Every run states its platform's validation status (configs/calibration.yaml, docs/validation.md).
  r.calibration = validate::read_calibration(data_path("configs/calibration.yaml"), flow.spec.name);
  r.calibration.overridden = !a.overrides.empty();
  if (const std::string w = guessed_input_types_warning(g, a); !w.empty()) r.warnings.insert(r.warnings.begin(), w);
  r.warnings.insert(r.warnings.begin(), flow.spec.warnings.begin(), flow.spec.warnings.end());

  req.inputs = nullptr;   // it refers to this function's locals
  return session;
}

}  // namespace edgesim::cli
