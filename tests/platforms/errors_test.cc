// Every kind of platform error names file:line (or the --set override) and says what is wrong,
// in one line. Bad YAML is written into a temporary directory at test time.
#include <catch2/catch.hpp>

#include <string>

#include <fmt/format.h>

#include "platforms/temp_dir.h"

using namespace edgesim;
using edgesim::test::kMinimalPlatform;
using edgesim::test::load_error;
using edgesim::test::TempDir;

namespace {

// kMinimalPlatform with line `line` (1-based) replaced by `text` (empty: removed).
std::string minimal_with(int line, const std::string& text) {
  std::string src = kMinimalPlatform, out;
  size_t pos = 0;
  for (int n = 1; pos < src.size(); ++n) {
    size_t end = src.find('\n', pos);
    const std::string cur = src.substr(pos, end - pos);
    if (n == line) {
      if (!text.empty()) out += text + "\n";
    } else {
      out += cur + "\n";
    }
    pos = end + 1;
  }
  return out;
}

// Asserts the load fails with exactly "<path>:<line>: <message...>" on one line.
void expect_error(const std::string& path, int line, const std::string& message,
                  const std::vector<std::string>& set = {}) {
  const std::string err = load_error(path, set);
  INFO("error: " << err);
  CHECK(err.find('\n') == std::string::npos);
  CHECK(err.rfind(path + ":" + std::to_string(line) + ": " + message, 0) == 0);
}

// Asserts that loading `path` with the one override `set` fails with exactly
// "<path>: <set>: <message> (from --set)".
void expect_set_error(const std::string& path, const std::string& set, const std::string& message) {
  const std::string err = load_error(path, {set});
  INFO("error: " << err);
  CHECK(err == path + ": " + set + ": " + message + " (from --set)");
}

}  // namespace

TEST_CASE("the minimal platform loads", "[platforms][errors]") {
  TempDir dir;
  const PlatformSpec s = load_platform(dir.write("ok.yaml", kMinimalPlatform));
  CHECK(s.name == "tiny");
  CHECK_FALSE(s.cluster.present);
  CHECK(s.l3.impl == "none");
}

TEST_CASE("unknown keys name the closest known key", "[platforms][errors]") {
  TempDir dir;
  expect_error(dir.write("a.yaml", minimal_with(4, "  sise: 64KiB")), 4,
               "unknown key 'l1.sise' (did you mean 'l1.size'?)");
  expect_error(dir.write("b.yaml", std::string(kMinimalPlatform) + "dma:\n  impl: mchan_v7\n"), 19,
               "unknown key 'dma.impl' (did you mean 'cluster.dma.impl'?)");
  expect_error(dir.write("c.yaml", std::string(kMinimalPlatform) + "l4: 3\n"), 18,
               "unknown key 'l4'");
  expect_error(dir.write("d.yaml", minimal_with(4, "  size: {a: 1}")), 4,
               "'l1.size' takes a value, not a mapping");
}

TEST_CASE("duplicate keys are rejected although yaml-cpp accepts them", "[platforms][errors]") {
  TempDir dir;
  expect_error(dir.write("a.yaml", minimal_with(5, "  size: 32KiB")), 5,
               "duplicate key 'l1.size' (first given at line 4)");
  expect_error(dir.write("b.yaml", std::string(kMinimalPlatform) + "l1.size: 1KiB\n"), 18,
               "duplicate key 'l1.size' (first given at line 4)");
  expect_error(dir.write("c.yaml", std::string(kMinimalPlatform) + "name: again\n"), 18,
               "duplicate key 'name' (first given at line 1)");
}

TEST_CASE("bad units say what the text is not", "[platforms][errors]") {
  TempDir dir;
  expect_error(dir.write("a.yaml", minimal_with(4, "  size: 64KB/s")), 4,
               "l1.size: '64KB/s' is not a size");
  expect_error(dir.write("b.yaml", minimal_with(14, "  bw_bytes_per_cycle: 8 B/s")), 14,
               "l2.bw_bytes_per_cycle: '8 B/s' is not a bandwidth");
  expect_error(dir.write("c.yaml", minimal_with(5, "  banks: many")), 5,
               "l1.banks: 'many' is not an integer");
  expect_error(dir.write("d.yaml", minimal_with(3, "  impl: tcmd")), 3,
               "l1.impl: 'tcmd' is not one of: tcdm, mvu_ram");
  expect_error(dir.write("e.yaml", minimal_with(5, "  banks: [16]")), 5,
               "'l1.banks' takes a single integer, not a list");
}

TEST_CASE("missing required keys", "[platforms][errors]") {
  TempDir dir;
  expect_error(dir.write("a.yaml", minimal_with(4, "")), 3, "missing required key 'l1.size'");
  expect_error(dir.write("b.yaml", minimal_with(1, "")), 1, "missing required key 'name'");
  // an optional section, once present, needs its required keys
  expect_error(dir.write("c.yaml", std::string(kMinimalPlatform) + "npu:\n  impl: soma\n"), 19,
               "missing required key 'npu.ops' (section 'npu' is present)");
  // a key for another implementation
  expect_error(dir.write("d.yaml", minimal_with(17, "  size: 0\n  clkdiv: 0")), 18,
               "'l3.clkdiv' does not apply to l3.impl 'none' (only to hyperram_udma)");
}

TEST_CASE("inconsistent values", "[platforms][errors]") {
  TempDir dir;
  expect_error(dir.write("a.yaml", minimal_with(5, "  banks: 12")), 5,
               "l1.banks must be a power of two (got 12)");
  expect_error(dir.write("b.yaml", minimal_with(17, "  size: 8MiB")), 17,
               "l3.size must be 0 when l3.impl is none");
  const std::string cluster =
      "extends: " + edgesim::test::pulp_preset() +
      "\ncluster:\n  n_cores: 0\n  freq_hz: 100MHz\n  dma:\n    n_channels: 9\n";
  expect_error(dir.write("c.yaml", minimal_with(1, "name: c\n" + cluster)), 4,
               "cluster.n_cores must be greater than 0 (got 0)");
  // 3500 + 7 * 3400 = 27300 B of stacks do not fit a 16 KiB L1
  const std::string ok_cluster = "extends: " + edgesim::test::pulp_preset() +
                                 "\ncluster:\n  n_cores: 8\n  freq_hz: 100MHz\n  dma:\n"
                                 "    n_channels: 9\n";
  expect_error(dir.write("d.yaml", minimal_with(4, "  size: 16KiB") + ok_cluster), 4,
               "usable DORY L1 budget is -10916 B");
  // DORY's 132,000 B of code space do not fit a 128 KiB L2
  expect_error(dir.write("e.yaml", minimal_with(12, "  size: 128KiB") + ok_cluster), 12,
               "reserved L2 space (l2_reserved 0 + l2_code_reserved 132000 B) is not smaller "
               "than l2.size (131072 B)");
  const std::string deeploy = "budgets:\n  deeploy:\n    l1: 100000\n    l2: auto\n    l3: auto\n"
                              "    n_cores: 8\n";
  expect_error(dir.write("f.yaml", std::string(kMinimalPlatform) + ok_cluster + deeploy), 26,
               "budgets.deeploy.l1 (100000 B) exceeds l1.size (65536 B)");
}

TEST_CASE("set-overrides: errors name the override and say (from --set)", "[platforms][errors]") {
  TempDir dir;
  const std::string p = dir.write("p.yaml", kMinimalPlatform);
  auto check = [&](const std::string& set, const std::string& message) { expect_set_error(p, set, message); };
  check("l1.sise=1KiB", "unknown key 'l1.sise' (did you mean 'l1.size'?)");
  check("l1.size=64KB/s",
        "'64KB/s' is not a size (expected e.g. 64KiB, 2MiB, 512kB or a byte count)");
  check("l1.banks=3", "l1.banks must be a power of two (got 3)");
  check("l1.size", "expected key=value");
  check("l1=1", "'l1' is a section, not a value; give its keys, e.g. 'l1.impl'");
}

TEST_CASE("values outside a kind's physical range are one error, never a wrapped total (issue 36 #7)",
          "[platforms][errors]") {
  TempDir dir;
  const std::string p = dir.write("p.yaml", kMinimalPlatform);
  auto check = [&](const std::string& set, const std::string& message) { expect_set_error(p, set, message); };
  const std::string cycles = "out of range: at most 1,000,000,000 cycles for one cost or latency (1 s at 1 GHz)";
  check("l2.latency_from_cluster=9223372036854775807", cycles);
  check("l1.latency=1000000001", cycles);
  check("l1.banks=1048576", "out of range: at most 1,000,000 for a count or a width");
  check("l2.bw_bytes_per_cycle=2000000", "out of range: at most 1,000,000 per cycle for a rate");
  CHECK(load_error(p, {"l1.latency=1000000000"}).empty());   // the bound itself is accepted
  expect_error(dir.write("f.yaml", minimal_with(13, "  latency_from_cluster: 4000000000")), 13,
               "l2.latency_from_cluster: " + cycles);
}

TEST_CASE("file-level problems", "[platforms][errors]") {
  TempDir dir;
  expect_error(dir.write("a.yaml", "name: a\nl1: [1\n"), 3, "YAML syntax error");
  expect_error(dir.write("b.yaml", ""), 1, "empty platform file");
  expect_error(dir.write("c.yaml", "- a\n- b\n"), 1, "a platform file must be a mapping");
  expect_error(dir.write("d.yaml", "name: a\n---\nname: b\n"), 3, "more than one YAML document");
  // Regression (found by fuzz_platform_yaml): a ',' in block context made yaml-cpp 0.7's LoadAll
  // report null documents without end, allocating until memory ran out.
  expect_error(dir.write("comma2.yaml", "name: a\n,\n"), 2, "YAML syntax error");
  expect_error(dir.write("comma1.yaml", ","), 1, "more than one YAML document");
  expect_error(dir.write("e.yaml", "name: a\npreset: nope\n"), 2, "preset 'nope' not found");
  expect_error(dir.write("f.yaml", "extends: f.yaml\nname: f\n"), 1, "preset cycle");
  expect_error(dir.write("g.yaml", "name:\n"), 1, "'name' has no value");
  const std::string missing = dir.path().string() + "/none.yaml";
  CHECK(load_error(missing) == missing + ": cannot open platform file");
}

// Regression (issue 36): a mapping aliasing an enclosing anchor made the walk endless (SIGSEGV on
// stack overflow in every command); aliases expanding without bound (a "billion laughs") and
// nesting past any platform's depth are one error each, too.
TEST_CASE("alias cycles, alias bombs and deep nesting are one error", "[platforms][errors]") {
  TempDir dir;
  const std::string base = kMinimalPlatform;
  expect_error(dir.write("self.yaml", base + "foo: &x {a: *x}\n"), 18,
               "'foo.a' is an alias of a mapping that contains it (a cycle)");
  expect_error(dir.write("deep.yaml", base + "foo: &x\n  b: 1\n  c:\n    d: *x\n"), 21,
               "'foo.c.d' is an alias of a mapping that contains it (a cycle)");
  std::string nest = base + "a:";
  for (int i = 0; i < 70; ++i) nest += " {a:";
  nest += " 1" + std::string(70, '}') + "\n";
  std::string deepest = "a";   // the 64th nested key, whose mapping would be the 65th
  for (int i = 1; i < 64; ++i) deepest += ".a";
  expect_error(dir.write("nest.yaml", nest), 18, "'" + deepest + "' nests deeper than 64 mappings");
  std::string bomb = base + "b0: &b0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 7; ++level) {
    bomb += fmt::format("b{}: &b{} {{", level, level);
    for (int i = 0; i < 10; ++i)
      bomb += fmt::format("{}k{}: *b{}", i ? ", " : "", i, level - 1);
    bomb += "}\n";
  }
  CHECK_THAT(load_error(dir.write("bomb.yaml", bomb)),
             Catch::Contains("more than 100000 keys and list items (aliases expanding without bound?)"));
  // An alias that is no cycle still reads as its value.
  std::string shared = base;
  shared.replace(shared.find("  bank_width_bytes: 4"), 21, "  bank_width_bytes: &w 4");
  shared.replace(shared.find("  interleave_bytes: 4"), 21, "  interleave_bytes: *w");
  CHECK(load_error(dir.write("shared.yaml", shared)).empty());
}
