// Report writers over a synthetic RunResult (3 layers, 2 memory levels, trace slices on cores,
// the cluster and DMA channels): the table's figures and totals, the JSON keys and exact
// integers, the trace's tracks and microsecond timestamps, the HTML page's self-containment and
// escaping, and the atomic file writer.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/format.h"
#include "sim/report/report.h"
#include "compiler/io/write_file.h"
#include "support/temp_dir.h"

using namespace edgesim;
using nlohmann::json;

namespace {

LayerStats layer(int step, const std::string& name, const std::string& op, int64_t macs, int64_t start, int64_t end,
                 int64_t compute, int64_t overhead, int tiles) {
  LayerStats l;
  l.step = step;
  l.name = name;
  l.op = op;
  l.engine = "cluster";
  l.macs = macs;
  l.start = start;
  l.end = end;
  l.cycles = end - start;
  l.compute_cycles = compute;
  l.overhead_cycles = overhead;
  l.dma_wait_cycles = l.cycles - compute - overhead;
  l.tiles = tiles;
  l.dma_bytes_in = 1000 * (step + 1);
  l.dma_bytes_out = 500 * (step + 1);
  return l;
}

// Totals: 1,090,000 MACs in 80,500 cycles = 13.54 MAC/cycle; 805 us at 100 MHz.
RunResult synthetic() {
  RunResult r;
  r.network = "tiny";
  r.platform = "gap8";
  r.policy = "dory";
  r.buffering = "double";
  r.fidelity = "gvsoc";
  r.freq_hz = 100'000'000;
  r.n_cores = 8;
  r.layers = {layer(0, "conv1", "conv 3x3", 1'000'000, 0, 50'000, 40'000, 6'000, 4),      // 20.00 MAC/cycle
              layer(1, "a<b&c", "dwconv 3x3", 90'000, 50'000, 80'000, 20'000, 3'000, 2),  // 3.00 MAC/cycle
              layer(2, "reshape", "reshape", 0, 80'000, 80'500, 0, 500, 0)};              // "-"
  r.layers[2].l3_bytes = 9'007'199'254'740'993;  // 2^53 + 1: not representable as a double
  // Accounted: layer 1's counter starts 2,000 cycles into its window (a blocking L3 weight read).
  for (LayerStats& l : r.layers) l.accounted_cycles = l.cycles;
  r.layers[1].accounted_cycles = 28'000;
  r.accounted_cycles = 78'500;
  r.total_cycles = 80'500;
  r.total_macs = 1'090'000;
  r.verified = true;
  r.verify_message = "bit-exact (3 outputs)";
  r.memory = {{"L1", 65'536, 60'000, {60'000, 30'000, 1'000}}, {"L2", 524'288, 200'000, {200'000, 150'000, 100'000}}};
  r.trace = {{"core 10", "compute tile 1/4", 0, 100, 900},  {"core 0", "compute tile 1/4", 0, 100, 1000},
             {"dma in", "load x tile 1", 0, 0, 100},         {"cluster", "fork", 0, 90, 10},
             {"l3 dma", "load w", 1, 50'000, 2'000},         {"core 1", "compute tile 1/2", 1, 52'000, 20'000},
             {"perf counters", "sample", 2, 80'000, 500}};
  return r;
}

// The table with every column (--wide); narrow_table_of: as on a 100-column terminal.
std::string table_of(const RunResult& r) {
  std::ostringstream os;
  print_run_table(os, r, 0);
  return os.str();
}

std::string narrow_table_of(const RunResult& r) {
  std::ostringstream os;
  print_run_table(os, r);
  return os.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream is(text);
  for (std::string line; std::getline(is, line);) lines.push_back(line);
  return lines;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("run table: per-layer MAC/cycle, totals, time and verification", "[report]") {
  const RunResult r = synthetic();
  const std::string t = table_of(r);
  CHECK(t.find("gap8 @ 100 MHz, 8 cores") != std::string::npos);
  CHECK(t.find("20.00") != std::string::npos);
  CHECK(t.find("3.00") != std::string::npos);
  CHECK(t.find("a<b&c") != std::string::npos);  // a terminal shows names as they are
  CHECK(t.find("805 us @ 100 MHz") != std::string::npos);
  CHECK(t.find("total:        80,500 cycles (wall) = 805 us") != std::string::npos);
  CHECK(t.find("accounted:    78,500 cycles = the layers' own counters, as DORY/Deeploy print them") !=
        std::string::npos);
  CHECK(t.find("13.54 MAC/cycle") != std::string::npos);
  CHECK(t.find("verification: bit-exact (3 outputs)") != std::string::npos);
  CHECK(t.find("note:") == std::string::npos);  // the layers cover the run

  // The cycles table (the tiling table below it has rows with the same names).
  const std::vector<std::string> lines = lines_of(t.substr(0, t.find("\n\n", t.find("TOTAL"))));
  std::string total, reshape;
  for (const std::string& l : lines) {
    if (l.find("TOTAL") != std::string::npos) total = l;
    if (l.find("reshape") != std::string::npos) reshape = l;
  }
  // TOTAL: 1,090,000 MACs, 80,500 cycles, 13.54; compute 60,000 (74.5%), wait 11,000, overhead 9,500; 6 tiles.
  CHECK(total.find("1,090,000") != std::string::npos);
  CHECK(total.find("80,500") != std::string::npos);
  CHECK(total.find("13.54") != std::string::npos);
  CHECK(total.find("60,000") != std::string::npos);
  CHECK(total.find("74.5%") != std::string::npos);
  CHECK(total.find("11,000") != std::string::npos);
  CHECK(total.find("9,500") != std::string::npos);
  CHECK(total.find("78,500") != std::string::npos);   // accounted
  CHECK(reshape.find(" - ") != std::string::npos);  // macs == 0
  // The accounted column sits right after cycles: header "cycles  accounted", row "30,000  28,000".
  CHECK(lines_of(t)[6].find("cycles  accounted  MAC/cyc") != std::string::npos);
  {   // --wide: every column, in order
    const std::string head = lines_of(t)[6];
    size_t at = 0;
    for (const char* title : {"MACs", "cycles", "accounted", "MAC/cyc", "compute", "compute%", "DMA wait", "wait%",
                              "overhead", "ovh%", "tiles"}) {
      const size_t p = head.find(title, at);
      CHECK(p != std::string::npos);
      at = p == std::string::npos ? at : p + 1;
    }
  }
  std::string dw;
  for (const std::string& l : lines)
    if (l.find("dwconv") != std::string::npos) dw = l;
  CHECK(dw.find("30,000     28,000") != std::string::npos);

  // Aligned: header, layer rows and TOTAL end at the same column (the tiles column) — in the
  // cycles table; the tiling table below has its own widths.
  const std::string cycles_part = t.substr(0, t.find("\n\n", t.find("TOTAL")));
  size_t rows = 0;
  std::string engines;
  for (const std::string& l : lines_of(t))
    if (l.rfind("engines:", 0) == 0) engines = l;
  CHECK(engines.find("cluster 80,500 cycles (100.0%") != std::string::npos);   // the engine split
  for (const std::string& l : lines_of(cycles_part))
    if (l.rfind("engines:", 0) != 0 && (l.find("cluster") != std::string::npos || l.find("TOTAL") != std::string::npos ||
        l.find("tiles") != std::string::npos)) {
      CHECK(l.size() == total.size());
      ++rows;
    }
  CHECK(rows == 5);
  CHECK(table_of(r) == t);  // deterministic
}

TEST_CASE("run table: fits 100 columns, says what it hid, the tiling table", "[report]") {
  RunResult r = synthetic();
  r.layers[0].name = std::string(60, 'n') + "_end";
  r.layers[0].tiling.tiled = true;
  r.layers[0].tiling.l1_label = "32x8x16 / 16x10x18 db";
  r.layers[0].tiling.l1_bytes = 12'345;
  r.layers[0].tiling.l3_label = "-";
  r.layers[0].engine_reason = "not npu: dilation";
  const std::string n = narrow_table_of(r);
  for (const std::string& l : lines_of(n))
    if (l.rfind("network:", 0) != 0) CHECK(l.size() <= 100);
  CHECK(n.find("--wide shows all") != std::string::npos);
  CHECK(n.find("hidden to fit 100 columns: ") != std::string::npos);
  CHECK(n.find("_end") != std::string::npos);        // an abbreviated name keeps its tail
  CHECK(n.find("compute%") != std::string::npos);    // the shares stay
  CHECK(n.find("32x8x16 / 16x10x18 db") != std::string::npos);   // the tiling table
  CHECK(n.find("12,345") != std::string::npos);
  CHECK(n.find("not npu: dilation") != std::string::npos);
  CHECK(n.find("whole tensors in L2") != std::string::npos);   // untiled steps say so
  const std::string w = table_of(r);
  CHECK(w.find("--wide shows all") == std::string::npos);
  CHECK(w.find(std::string(60, 'n') + "_end") != std::string::npos);
}

TEST_CASE("run table: the accounted column only where a layer's counter differs from its cycles", "[report]") {
  RunResult r = synthetic();
  CHECK(lines_of(table_of(r))[6].find("accounted") != std::string::npos);   // layer 1: 28,000 of 30,000
  for (LayerStats& l : r.layers) l.accounted_cycles = l.cycles;
  const std::string same = table_of(r);
  CHECK(lines_of(same)[6].find("accounted") == std::string::npos);
  CHECK(same.find("accounted:") != std::string::npos);   // the run's line below stays
}

TEST_CASE("run table: failed and timing-only verification, long names", "[report]") {
  RunResult r = synthetic();
  r.verified = false;
  r.verify_message = "output y[0,3,1,1]: 12 != 13";
  CHECK(table_of(r).find("verification: FAILED: output y[0,3,1,1]: 12 != 13") != std::string::npos);
  r.data = false;
  CHECK(table_of(r).find("verification: skipped (timing only)") != std::string::npos);
  // A name wider than its column wraps onto continuation lines: never cut, nothing lost.
  r.layers[0].name = "short";
  const std::string before = narrow_table_of(r);
  r.layers[0].name = std::string(100, 'x') + "_tail_of_the_name";
  const std::string t = narrow_table_of(r);
  CHECK(t.find(std::string(100, 'x')) == std::string::npos);
  CHECK(t.find("...") == std::string::npos);
  // (the name is in the cycles table and in the tiling table)
  CHECK(std::count(t.begin(), t.end(), 'x') - std::count(before.begin(), before.end(), 'x') == 200);
  CHECK(t.find("tail_") != std::string::npos);
  std::istringstream in(t);
  for (std::string l; std::getline(in, l);) {
    INFO(l);
    CHECK(l.size() <= 100);
  }
  r.total_cycles = 90'000;
  CHECK(table_of(r).find("note:         layers cover 80,500 of the 90,000 cycles") != std::string::npos);
}

// Regression (issue 36): node names reached the terminal raw, so a name from a corrupted or
// hostile file could drive it (ESC), break rows (CR, LF, NUL) or print invalid UTF-8. The table
// prints them escaped as \xNN; the JSON report keeps the bytes.
TEST_CASE("run table: names from files are printed escaped, JSON keeps their bytes", "[report]") {
  RunResult r = synthetic();
  const std::string raw("c\x1b[2J\r\n\0x\xff", 10);
  r.layers[0].name = raw;
  r.network = std::string("net\x1b]0;t\x07", 9);
  r.warnings = {std::string("w\r\x1b[1m", 6)};
  for (const std::string& t : {table_of(r), narrow_table_of(r)}) {
    INFO(t);
    for (char c : t) CHECK(((c >= 0x20 && c <= 0x7e) || c == '\n'));
    CHECK(t.find("network:      net\\x1b]0;t\\x07\n") != std::string::npos);
    CHECK(t.find("warning:      w\\x0d\\x1b[1m\n") != std::string::npos);
  }
  CHECK(table_of(r).find("  c\\x1b[2J\\x0d\\x0a\\x00x\\xff  ") != std::string::npos);   // both tables, unabridged
  r.layers[0].name = std::string("c\x1b[2J\r\n\0x", 9);   // valid UTF-8: JSON carries it exactly
  CHECK(json::parse(run_to_json(r))["layers"][0]["name"].get<std::string>() == r.layers[0].name);
}

TEST_CASE("report formatting: durations, frequencies, shortened names", "[report]") {
  CHECK(report::duration(736'750, 175'000'000) == "4.21 ms");
  CHECK(report::time_at_clock(736'750, 175'000'000) == "4.21 ms @ 175 MHz");
  CHECK(report::duration(175'000'000, 175'000'000) == "1.00 s");
  CHECK(report::frequency(37'500'000) == "37.5 MHz");
  CHECK(report::time_at_clock(10, 0) == "(no clock frequency)");
  CHECK(report::group_digits(-1234567) == "-1,234,567");
  CHECK(report::group_digits(999) == "999");
  CHECK(report::shorten("abcdefghijklmnopqrstuvwxyz", 12) == "abc...uvwxyz");
  CHECK(report::shorten("short", 12) == "short");
}

TEST_CASE("run JSON: keys and exact values", "[report]") {
  const RunResult r = synthetic();
  const json j = json::parse(run_to_json(r));
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"accounted_cycles", "avg_power_w", "buffering", "data", "edp_j_s",
                                         "energy_by_block", "energy_leakage_by_block", "engines", "fidelity", "freq_hz",
                                         "layers", "memory", "n_cores", "network", "ops", "platform", "policy", "provenance",
                                         "total_cycles", "total_energy_pj", "total_macs", "verified", "verify_message",
                                         "warnings"});
  CHECK(j["total_energy_pj"].is_null());   // the synthetic run has no energy model
  CHECK(j["accounted_cycles"].get<int64_t>() == 78'500);
  CHECK(j["network"] == "tiny");
  CHECK(j["freq_hz"].get<int64_t>() == 100'000'000);
  CHECK(j["total_cycles"].get<int64_t>() == 80'500);
  CHECK(j["total_macs"].get<int64_t>() == 1'090'000);
  CHECK(j["verified"] == true);
  CHECK(j["verify_message"] == "bit-exact (3 outputs)");
  REQUIRE(j["layers"].size() == 3);
  const json& l1 = j["layers"][1];
  std::vector<std::string> layer_keys;
  for (const auto& [key, value] : l1.items()) layer_keys.push_back(key);
  CHECK(layer_keys == std::vector<std::string>{"accounted_cycles", "compute_cycles", "cycles", "dma_bytes_in",
                                               "dma_bytes_out", "dma_wait_cycles", "end", "energy_by_block", "energy_pj",
                                               "engine", "engine_reason",
                                               "l3_bytes", "macs", "name", "op", "overhead_cycles", "start", "step",
                                               "tiles", "tiling"});
  CHECK(l1["tiling"].is_null());   // no tiling recorded for this synthetic step
  CHECK(l1["accounted_cycles"].get<int64_t>() == 28'000);
  CHECK(l1["name"] == "a<b&c");
  CHECK(l1["dma_wait_cycles"].get<int64_t>() == 7'000);
  CHECK(l1["start"].get<int64_t>() == 50'000);
  CHECK(l1["tiles"].get<int>() == 2);
  CHECK(j["layers"][2]["l3_bytes"].get<int64_t>() == 9'007'199'254'740'993);
  REQUIRE(j["memory"].size() == 2);
  CHECK(j["memory"][0]["level"] == "L1");
  CHECK(j["memory"][0]["capacity"].get<int64_t>() == 65'536);
  CHECK(j["memory"][1]["per_step"] == json({200'000, 150'000, 100'000}));
  CHECK(run_to_json(r) == run_to_json(r));
}

TEST_CASE("run trace: tracks, metadata and microsecond timestamps", "[report]") {
  const RunResult r = synthetic();
  const json j = json::parse(run_to_trace(r));
  CHECK(j["displayTimeUnit"] == "ns");
  CHECK(j["otherData"]["network"] == "tiny");
  std::map<std::string, int> tid_of;  // thread_name metadata
  size_t slices = 0;
  for (const json& e : j["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") tid_of[e["args"]["name"]] = e["tid"];
    if (e["ph"] != "X") continue;
    ++slices;
    for (const char* key : {"ts", "dur", "pid", "tid", "name", "args"}) CHECK(e.contains(key));
    const int64_t start = e["args"]["start_cycle"], cycles = e["args"]["cycles"];
    // 100 MHz: 0.01 us per cycle.
    CHECK(e["ts"].get<double>() == Approx(static_cast<double>(start) / 100.0));
    CHECK(e["dur"].get<double>() == Approx(static_cast<double>(cycles) / 100.0));
  }
  CHECK(slices == r.trace.size() + r.layers.size());
  REQUIRE(tid_of.size() == 8);
  // Order: layers, cores by index, cluster, DMA channels, others.
  CHECK(tid_of.at("layers") < tid_of.at("core 0"));
  CHECK(tid_of.at("core 0") < tid_of.at("core 1"));
  CHECK(tid_of.at("core 1") < tid_of.at("core 10"));
  CHECK(tid_of.at("core 10") < tid_of.at("cluster"));
  CHECK(tid_of.at("cluster") < tid_of.at("dma in"));
  CHECK(tid_of.at("dma in") < tid_of.at("l3 dma"));
  CHECK(tid_of.at("l3 dma") < tid_of.at("perf counters"));

  int found = 0;
  for (const json& e : j["traceEvents"])  // the l3 load of step 1: 50,000 cycles = 500 us, layer a<b&c
    if (e["ph"] == "X" && e["name"] == "load w") {
      ++found;
      CHECK(e["ts"].get<double>() == Approx(500.0));
      CHECK(e["dur"].get<double>() == Approx(20.0));
      CHECK(e["args"]["layer"] == "a<b&c");
      CHECK(e["tid"] == tid_of.at("l3 dma"));
    }

  RunResult no_clock = r;  // 1 us per cycle
  no_clock.freq_hz = 0;
  const json slow = json::parse(run_to_trace(no_clock));
  for (const json& e : slow["traceEvents"])
    if (e["ph"] == "X" && e["name"] == "load w") {
      ++found;
      CHECK(e["ts"].get<double>() == Approx(50'000.0));
    }
  CHECK(found == 2);
}

TEST_CASE("run HTML: self-contained, one SVG per chart, escaped text", "[report]") {
  RunResult r = synthetic();
  r.layers[0].name = "q\"uote's";
  const std::string h = run_to_html(r);
  CHECK(h.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(count(h, "<svg") == 1 + r.memory.size());
  CHECK(count(h, "http") == count(h, "http://www.w3.org/2000/svg"));
  CHECK(count(h, "<script") == 0);
  CHECK(h.find("a&lt;b&amp;c") != std::string::npos);
  CHECK(h.find("a<b&c") == std::string::npos);
  CHECK(h.find("q&quot;uote&#39;s") != std::string::npos);
  CHECK(h.find("bit-exact (3 outputs)") != std::string::npos);
  CHECK(h.find("80,500") != std::string::npos);
  CHECK(h.find("805 us") != std::string::npos);
  CHECK(h.find("accounted cycles") != std::string::npos);   // summary card
  CHECK(h.find(">78,500<") != std::string::npos);           // its value and the table's TOTAL
  CHECK(h.find(">28,000<") != std::string::npos);           // layer 1's accounted cycles
  CHECK(h.find("13.54") != std::string::npos);
  CHECK(h.find("stroke-dasharray") != std::string::npos);  // capacity lines

  RunResult big = r;  // the layer chart grows with the layer count
  for (int i = 3; i < 150; ++i)
    big.layers.push_back(layer(i, "layer_" + std::to_string(i), "conv 1x1", 1000, 80'500 + i, 80'501 + i, 1, 0, 1));
  const std::string hb = run_to_html(big);
  auto first_svg_height = [](const std::string& html) {
    const size_t at = html.find("height=\"", html.find("<svg")) + 8;
    return std::stod(html.substr(at, html.find('"', at) - at));
  };
  CHECK(first_svg_height(hb) > 4 * first_svg_height(h));
  CHECK(hb.find(">layer_149<") != std::string::npos);
}

TEST_CASE("write_file_atomically: writes, replaces, leaves no temporary file, names the path", "[report]") {
  test::TempDir dir;
  const std::string path = dir.file("run.json");
  write_file_atomically(path, "first");
  write_run_json(path, synthetic());
  std::ifstream f(path);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(json::parse(text)["network"] == "tiny");
  write_run_html(dir.file("run.html"), synthetic());
  write_run_trace(dir.file("run.trace.json"), synthetic());
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
    ++files;
  }
  CHECK(files == 3);

  const std::string bad = dir.file("missing/run.json");
  CHECK_THROWS_WITH(write_file_atomically(bad, "x"), Catch::StartsWith("cannot write " + bad + ": "));
  CHECK_THROWS_AS(write_run_html(bad, synthetic()), std::runtime_error);
  CHECK_THROWS_WITH(write_file_atomically(dir.path().string(), "x"), Catch::StartsWith("cannot write "));
}
