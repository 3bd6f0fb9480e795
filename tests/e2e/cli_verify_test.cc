// `edgesim verify` as a user runs it: the success, mismatch and no-golden paths on a real DORY
// network, and the bad-input cases of docs/architecture.md ("Error handling"): each must end in
// exactly one "edgesim: error:" line naming the culprit and a non-zero exit, never a crash or a
// hang.
// Derived files (truncated ONNX, a tiny ONNX with an unknown op, a corrupted golden) are
// generated into a temporary directory at test time.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "golden/test_util.h"
#include "support/paths.h"
#include "support/run.h"

using edgesim::test::run_edgesim;
using edgesim::test::TempDir;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::string penguinet() { return edgesim::test::shared_networks() + "/dory/PenguiNet_32"; }
std::string q(const std::string& p) { return "'" + p + "'"; }

int count_lines_with(const std::string& text, const std::string& needle) {
  std::istringstream ss(text);
  int n = 0;
  for (std::string line; std::getline(ss, line);) n += line.find(needle) != std::string::npos;
  return n;
}

// The contract for every bad input: exit 2, one error line, the culprit named, no crash text.
void check_clean_error(const edgesim::test::RunResult& r, const std::string& culprit) {
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(count_lines_with(r.output, "edgesim: error:") == 1);
  CHECK(r.output.find(culprit) != std::string::npos);
  CHECK(r.output.find("terminate called") == std::string::npos);
}

// --- a minimal protobuf writer, enough for a ModelProto with one node ---
std::string varint(uint64_t v) {
  std::string s;
  do {
    s += static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return s;
}
std::string field_varint(int field, uint64_t v) { return varint(uint64_t(field) << 3) + varint(v); }
std::string field_bytes(int field, const std::string& b) {
  return varint((uint64_t(field) << 3) | 2) + varint(b.size()) + b;
}
// ValueInfoProto name + float tensor type [1, 4].
std::string value_info(const std::string& name) {
  const std::string dim = field_varint(1, 1), dim4 = field_varint(1, 4);
  const std::string shape = field_bytes(1, dim) + field_bytes(1, dim4);
  const std::string tensor = field_varint(1, 1) + field_bytes(2, shape);   // elem_type FLOAT
  return field_bytes(1, name) + field_bytes(2, field_bytes(1, tensor));
}
// ModelProto{ir_version 7, opset "" 13, graph{node X -> op_type -> Y}}.
std::string model_with_op(const std::string& op_type, const std::string& node_name) {
  const std::string node = field_bytes(1, "X") + field_bytes(2, "Y") + field_bytes(3, node_name) +
                           field_bytes(4, op_type);
  const std::string graph = field_bytes(1, node) + field_bytes(2, "g") +
                            field_bytes(11, value_info("X")) + field_bytes(12, value_info("Y"));
  const std::string opset = field_bytes(1, "") + field_varint(2, 13);
  return field_varint(1, 7) + field_bytes(7, graph) + field_bytes(8, opset);
}

}  // namespace

TEST_CASE("cli verify: DORY network bit-exact, exit 0", "[e2e][cli]") {
  REQUIRE_DATA(penguinet() + "/model_int.onnx");
  const auto r = run_edgesim("verify " + q(penguinet() + "/model_int.onnx") + " --expected " + q(penguinet()));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(count_lines_with(r.output, "match  out_layer") == 9);
  CHECK_THAT(r.output, Contains("match  out_layer0.txt  layer 0 conv '"));
  CHECK_THAT(r.output, Contains("verify: 9/9 tensors bit-exact"));
}

TEST_CASE("cli verify: a corrupted golden value is a MISMATCH, exit 1", "[e2e][cli]") {
  REQUIRE_DATA(penguinet() + "/model_int.onnx");
  TempDir d;
  fs::copy_file(penguinet() + "/input.txt", d.path() / "input.txt");
  // out_layer8 holds the 4 int32 logits; change the second one by +1.
  std::ifstream f(penguinet() + "/out_layer8.txt");
  std::string text, line;
  for (int i = 0; std::getline(f, line); ++i) {
    if (i == 2) line = std::to_string(std::stoll(line) + 1) + ",";
    text += line + "\n";
  }
  d.write("out_layer8.txt", text);
  const auto r = run_edgesim("verify " + q(penguinet() + "/model_int.onnx") + " --expected " +
                             q(d.path().string()));
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains("MISMATCH out_layer8.txt layer 8 gemm '") &&
                           Contains(": 1 of 4 differ; first at index 1: expected"));
  CHECK_THAT(r.output, Contains("verify: 0/1 tensors bit-exact"));
  const auto tol = run_edgesim("verify " + q(penguinet() + "/model_int.onnx") + " --expected " +
                               q(d.path().string()) + " --tolerance 1");
  INFO(tol.output);
  CHECK(tol.status == 0);
  CHECK_THAT(tol.output, Contains("verify: 0/1 tensors bit-exact, 1/1 within ±1 (1 elements"));
}

TEST_CASE("cli verify: without --expected prints checksums, random inputs are seeded", "[e2e][cli]") {
  REQUIRE_DATA(penguinet() + "/model_int.onnx");
  const std::string net = q(penguinet() + "/model_int.onnx");
  const auto a = run_edgesim("verify " + net), b = run_edgesim("verify " + net + " --seed 1"),
             c = run_edgesim("verify " + net + " --seed 2");
  INFO(a.output << c.output);
  CHECK(a.status == 0);
  CHECK_THAT(a.output, Contains("inputs:  random, seed 1") && Contains("checksum"));
  CHECK(a.output == b.output);
  CHECK(a.output != c.output);
}

TEST_CASE("cli verify bad input: truncated ONNX", "[e2e][cli]") {
  REQUIRE_DATA(penguinet() + "/model_int.onnx");
  TempDir d;
  std::ifstream in(penguinet() + "/model_int.onnx", std::ios::binary);
  std::string head(100, '\0');
  in.read(head.data(), 100);
  const auto p = d.write("truncated.onnx", head);
  check_clean_error(run_edgesim("verify " + q(p)), "truncated.onnx");
}

TEST_CASE("cli verify bad input: a text file is not ONNX", "[e2e][cli]") {
  TempDir d;
  const auto p = d.write("notes.onnx", "This is a text file, not an ONNX model.\n");
  check_clean_error(run_edgesim("verify " + q(p)), "notes.onnx");
}

TEST_CASE("cli verify bad input: unsupported op names op and node", "[e2e][cli]") {
  TempDir d;
  const auto p = d.write("fancy.onnx", model_with_op("FancyOp", "fancy_node_1"));
  const auto r = run_edgesim("verify " + q(p));
  check_clean_error(r, "fancy.onnx");
  CHECK_THAT(r.output, Contains("unsupported op") && Contains("FancyOp") && Contains("fancy_node_1"));
}

TEST_CASE("cli verify bad input: missing --inputs file", "[e2e][cli]") {
  REQUIRE_DATA(penguinet() + "/model_int.onnx");
  TempDir d;
  const auto missing = (d.path() / "no_such_input.npz").string();
  check_clean_error(run_edgesim("verify " + q(penguinet() + "/model_int.onnx") + " --inputs " + q(missing)),
                    "no_such_input.npz");
}

TEST_CASE("cli verify bad input: wrong-shaped golden", "[e2e][cli]") {
  REQUIRE_DATA(penguinet() + "/model_int.onnx");
  TempDir d;
  d.write("out_layer0.txt", "# relu (shape [3]),\n1,\n2,\n3,\n");
  const auto r = run_edgesim("verify " + q(penguinet() + "/model_int.onnx") + " --inputs " +
                             q(penguinet() + "/input.txt") + " --expected " + q(d.path().string()));
  check_clean_error(r, "out_layer0.txt");
  CHECK_THAT(r.output, Contains("layer 0") && Contains("golden file has 3"));
}

TEST_CASE("cli verify bad input: malformed option values", "[e2e][cli]") {
  const auto r = run_edgesim("verify x.onnx --layout nhwc");
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Contains("--layout"));
}
