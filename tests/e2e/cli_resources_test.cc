// Bounded resources and hostile names, through the edgesim executable (issue 16's reproducers):
// a network with an input batch of 100,000 is refused with one error before anything is
// allocated for it (it used to grow `edgesim verify` to 9 GB); a corrupted file whose op type
// holds raw bytes and terminal escape sequences gives one error line of printable ASCII; a small
// batch still runs bit-exactly; --memory-limit moves the limit.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include "frontend/onnx_writer.h"
#include "support/paths.h"
#include "support/run.h"

using namespace edgesim;
using edgesim::test::run_edgesim;
using edgesim::test::TempDir;

namespace {

onnx::ModelProto load_model(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  onnx::ModelProto m;
  REQUIRE(m.ParseFromString(ss.str()));
  return m;
}

// The model with dim 0 of every graph input and output set to `batch`.
std::string with_batch(const TempDir& dir, const std::string& model, int64_t batch, const std::string& name) {
  onnx::ModelProto m = load_model(model);
  auto set = [&](auto* vi) { vi->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(batch); };
  for (auto& i : *m.mutable_graph()->mutable_input()) set(&i);
  for (auto& o : *m.mutable_graph()->mutable_output()) set(&o);
  return dir.write(name, m.SerializeAsString());
}

// One line "edgesim: error: ..." of printable ASCII, exit status 2.
void one_clean_error(const test::RunResult& r) {
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.rfind("edgesim: error: ", 0) == 0);
  CHECK(r.output.find('\n') == r.output.size() - 1);
  for (char c : r.output.substr(0, r.output.size() - 1)) CHECK((c >= 0x20 && c <= 0x7e));
}

}  // namespace

TEST_CASE("cli resources: an input batch of 100,000 is refused with one error", "[e2e][cli][resources]") {
  TempDir dir;
  const std::string big = with_batch(dir, test::source_dir() + "/models/resnet8/model.onnx", 100000, "batch.onnx");
  for (const std::string& cmd : {"verify " + big, "run -p gap8 " + big, "run -p gap8 --timing-only " + big,
                                 "compile -p gap8 " + big, "tune -p gap8 --analytic-only --no-cache " + big}) {
    const test::RunResult r = run_edgesim(cmd);
    one_clean_error(r);
    CHECK(r.output.find("batch.onnx: needs an estimated") != std::string::npos);
    CHECK(r.output.find("(input 'input' has batch 100000)") != std::string::npos);
    CHECK(r.output.find("--memory-limit") != std::string::npos);
  }
}

TEST_CASE("cli resources: --memory-limit moves the limit, batch 4 runs bit-exactly", "[e2e][cli][resources]") {
  TempDir dir;
  const std::string tiny = test::source_dir() + "/models/tiny/model.onnx";
  const test::RunResult low = run_edgesim("verify " + tiny + " --memory-limit 1KiB");
  one_clean_error(low);
  CHECK(low.output.find("above the limit of 1 KiB") != std::string::npos);
  CHECK(run_edgesim("verify " + tiny + " --memory-limit 64MiB").status == 0);
  one_clean_error(run_edgesim("verify " + tiny + " --memory-limit lots"));

  const std::string four = with_batch(dir, tiny, 4, "batch4.onnx");
  const test::RunResult r = run_edgesim("run -p gap8 " + four);
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(r.output.find("verification: bit-exact") != std::string::npos);
}

TEST_CASE("cli resources: raw bytes from a corrupted file are printed escaped", "[e2e][cli][resources]") {
  TempDir dir;
  onnx::ModelProto m = load_model(test::source_dir() + "/models/tiny/model.onnx");
  // An op type with an invalid UTF-8 byte, a terminal escape sequence and a control character,
  // as a corrupted file delivers them (protobuf does not check proto2 strings).
  m.mutable_graph()->mutable_node(1)->set_op_type(std::string("B\xff\x1b[1m\x01", 7));
  const std::string bad = dir.write("bad.onnx", m.SerializeAsString());
  const test::RunResult r = run_edgesim("verify " + bad);
  one_clean_error(r);
  CHECK(r.output.find("unsupported op 'B\\xff\\x1b[1m\\x01'") != std::string::npos);
}

// Regression (issue 36): node names went raw into the tables of `run` and `compile` (and the
// lines of `tune`), so a corrupted name could clear the screen, break rows or print invalid
// UTF-8. Every byte of their output is now printable ASCII or a newline; `run --json` keeps the
// name's bytes.
TEST_CASE("cli resources: node names from a file are printed escaped in run and compile", "[e2e][cli][resources]") {
  TempDir dir;
  onnx::ModelProto m = load_model(test::source_dir() + "/models/tiny/model.onnx");
  const std::string name("n\x1b[2J\r\n\0", 8);
  for (int i = 0; i < m.graph().node_size(); ++i)
    m.mutable_graph()->mutable_node(i)->set_name(name + std::to_string(i) + (i == 0 ? "\xff" : ""));
  const std::string bad = dir.write("names.onnx", m.SerializeAsString());
  const std::string json = dir.path().string() + "/r.json";
  for (const std::string& cmd : {"run -p gap8 --json " + json + " " + bad, "run -p gap8 --wide " + bad,
                                 "compile -p gap8 " + bad, "compile -p gap8 --wide " + bad,
                                 "tune -p gap8 --analytic-only --no-cache " + bad}) {
    const test::RunResult r = run_edgesim(cmd);
    INFO(cmd << "\n" << r.output);
    CHECK(r.status == 0);
    for (char c : r.output) CHECK(((c >= 0x20 && c <= 0x7e) || c == '\n'));
  }
  CHECK(run_edgesim("compile -p gap8 --wide " + bad).output.find("n\\x1b[2J\\x0d\\x0a\\x00") != std::string::npos);
  std::ifstream f(json);
  std::stringstream ss;
  ss << f.rdbuf();
  CHECK(ss.str().find("\"n\\u001b[2J\\r\\n\\u0000") != std::string::npos);   // JSON's own escapes of the bytes
}

// Regression (issue 36): a FIFO given as a network, platform or data file blocked edgesim until
// a writer came, and /dev/zero was read until memory ran out; now every reader refuses anything
// but a regular file with one error line.
TEST_CASE("cli resources: FIFOs and devices are refused as networks, platforms and data", "[e2e][cli][resources]") {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string tiny = test::source_dir() + "/models/tiny/model.onnx";
  for (const std::string& special : {fifo, std::string("/dev/zero")}) {
    const std::string kind = special == fifo ? "is a FIFO (named pipe), not a regular file" : "is a character device, not a regular file";
    for (const std::string& cmd : {"verify " + special, "run -p gap8 " + special,
                                   "describe --platform " + special, "run -p " + special + " " + tiny,
                                   "verify " + tiny + " --inputs " + special, "run -p gap8 " + tiny + " --inputs " + special,
                                   "run -p gap8 " + tiny + " --expected " + special}) {
      const test::RunResult r = run_edgesim(cmd);
      INFO(cmd << "\n" << r.output);
      CHECK(r.status == 2);
      // One error line, the last (verify prints its network line first).
      const size_t nl = r.output.size() < 2 ? std::string::npos : r.output.rfind('\n', r.output.size() - 2);
      const std::string last = r.output.substr(nl == std::string::npos ? 0 : nl + 1);
      CHECK(last.rfind("edgesim: error: " + special + ": " + kind, 0) == 0);
      CHECK(last.find('\n') == last.size() - 1);
      CHECK(r.output.find("edgesim: error:") == r.output.size() - last.size());
    }
  }
}

TEST_CASE("cli resources: the tuner's search is bounded by --memory-limit as it runs (issue 36 #12)",
          "[e2e][cli][resources]") {
  // A chain of 1,000 small 1x1 convolutions: its tuning grows past 38 MiB, and stops there with one
  // error. (Its branch-order analysis once held every node's descendants: 2.4 GB at 10,000 layers.)
  TempDir dir;
  test::OnnxWriter w;
  using T = onnx::TensorProto;
  w.input("input", T::UINT8, {1, 8, 4, 4}).output("output", T::UINT8, {1, 8, 4, 4});
  w.init_f("s", {}, {0.05f}).init_i("z", {}, {0}, T::UINT8).init_f("ws", {}, {0.01f}).init_i("wz", {}, {0}, T::INT8);
  std::vector<int64_t> wv(64);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>(i % 7) - 3;
  w.init_i("w", {8, 8, 1, 1}, wv, T::INT8).init_f("bs", {}, {0.0005f}).init_i("bz", {}, {0}, T::INT32);
  w.init_i("b", {8}, std::vector<int64_t>(8, 0), T::INT32);
  w.node("DequantizeLinear", {"w", "ws", "wz"}, {"wdq"});
  w.node("DequantizeLinear", {"b", "bs", "bz"}, {"bdq"});
  std::string cur = "input";
  for (int i = 0; i < 1000; ++i) {
    const std::string k = std::to_string(i);
    w.node("DequantizeLinear", {cur, "s", "z"}, {"d" + k});
    test::OnnxWriter::attr_ints(w.node("Conv", {"d" + k, "wdq", "bdq"}, {"c" + k}), "kernel_shape", {1, 1});
    w.node("Relu", {"c" + k}, {"r" + k});
    w.node("QuantizeLinear", {"r" + k, "s", "z"}, {"q" + k});
    cur = "q" + k;
  }
  w.node("Identity", {cur}, {"output"});
  const std::string chain = w.save(dir, "chain.onnx");
  const test::RunResult r = run_edgesim("tune -p gap8 --analytic-only --no-cache --memory-limit 38MiB " + chain);
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find("edgesim: error: tune: ") != std::string::npos);
  CHECK(r.output.find("of memory, above the limit of 38 MiB; raise it with --memory-limit SIZE") != std::string::npos);
  CHECK(r.output.find("tcmalloc") == std::string::npos);
}
