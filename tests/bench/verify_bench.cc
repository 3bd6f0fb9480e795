// edgesim_bench_verify: how long `edgesim verify` takes on each DORY network with an ONNX file
// (shared/networks/dory). Import and "run" (load input.txt, interpret, check every
// out_layer<N>.txt) are timed separately with std::chrono::steady_clock; each is the best of
// --reps runs (default 3) to suppress noise from other processes. Prints a table with ms per
// network, the golden status and a total. Not a test: no thresholds, exit 1 only on errors.
//
// Usage: edgesim_bench_verify [--reps N] [networks_dir]
//   networks_dir defaults to $EDGESIM_SHARED_NETWORKS, else the configured shared/networks.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "kernels/interpreter/interpreter.h"

namespace fs = std::filesystem;
using namespace edgesim;

namespace {

struct Row {
  std::string name;
  double import_ms = 0, run_ms = 0;
  int64_t macs = 0;
  size_t tensors = 0, exact = 0;
  std::string error;
};

// Best-of-reps wall time of f() in milliseconds.
template <class F>
double best_ms(int reps, F&& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

// docs/verify.md "Reference networks": these two networks write their per-layer goldens in CHW
// order.
GoldenLayout layout_of(const std::string& net) {
  return (net == "SmartAgri-net" || net == "dscnn_test") ? GoldenLayout::CHW : GoldenLayout::HWC;
}

Row bench_network(const fs::path& dir, const fs::path& onnx, int reps) {
  Row row;
  row.name = dir.filename().string();
  try {
    Graph g;
    row.import_ms = best_ms(reps, [&] { g = import_onnx(onnx.string()); });
    row.macs = g.total_macs();
    VerifyOptions vopt;
    vopt.layout = layout_of(row.name);
    std::vector<CheckResult> res;
    row.run_ms = best_ms(reps, [&] {
      Graph gi = g;   // load_inputs may re-type inferred inputs
      const auto in = load_inputs(gi, (dir / "input.txt").string());
      const auto r = interpret(gi, in);
      res = check_expected(gi, r, dir.string(), vopt);
    });
    row.tensors = res.size();
    row.exact = static_cast<size_t>(std::count_if(res.begin(), res.end(), [](const CheckResult& c) { return c.ok(); }));
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 3;
  std::string root;
  if (const char* e = std::getenv("EDGESIM_SHARED_NETWORKS")) root = e;
  if (root.empty()) root = EDGESIM_SHARED_NETWORKS;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "-h" || a == "--help") {
      std::cout << "usage: edgesim_bench_verify [--reps N] [networks_dir]\n";
      return 0;
    } else root = a;
  }
  const fs::path dory = fs::path(root) / "dory";
  if (!fs::is_directory(dory)) {
    std::cerr << "edgesim_bench_verify: error: " << dory.string() << ": no such directory\n";
    return 1;
  }
  std::vector<std::pair<fs::path, fs::path>> nets;
  for (const auto& d : fs::directory_iterator(dory))
    if (d.is_directory())
      for (const auto& f : fs::directory_iterator(d.path()))
        if (f.path().extension() == ".onnx") nets.emplace_back(d.path(), f.path());
  std::sort(nets.begin(), nets.end());

  std::cout << fmt::format("verify benchmark: {} DORY networks, best of {} (steady_clock)\n\n",
                           nets.size(), reps);
  std::cout << fmt::format("{:<26} {:>10} {:>14} {:>9} {:>8}\n", "network", "import ms",
                           "run+check ms", "exact", "MMAC");
  double total_import = 0, total_run = 0;
  bool failed = false;
  for (const auto& [dir, onnx] : nets) {
    const Row r = bench_network(dir, onnx, reps);
    if (!r.error.empty()) {
      std::cout << fmt::format("{:<26} error: {}\n", r.name, r.error);
      failed = true;
      continue;
    }
    total_import += r.import_ms;
    total_run += r.run_ms;
    std::cout << fmt::format("{:<26} {:>10.2f} {:>14.2f} {:>9} {:>8.2f}\n", r.name, r.import_ms,
                             r.run_ms, fmt::format("{}/{}", r.exact, r.tensors), r.macs / 1e6);
  }
  std::cout << fmt::format("{:<26} {:>10.2f} {:>14.2f}\n", "total", total_import, total_run);
  return failed ? 1 : 0;
}
