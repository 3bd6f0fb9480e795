// DMA / L3 timing functions (kernels/dma/cost.h; docs/timing.md "DMA and L3 timing"). Every
// expectation is derived by hand in the comment next to it; a brute-force burst enumerator checks
// the closed forms of mchan_in/out_cycles over a sweep of geometries.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kernels/dma/cost.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

PlatformSpec platform(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return load_platform(edgesim::test::source_dir() + "/platforms/" + name + ".yaml", overrides);
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// docs/timing.md "One MCHAN command" written out burst by burst (no closed forms): the reference
// for the sweep.
int64_t brute(const DmaTiming& t, int64_t lines, int64_t lb, int64_t addr, bool in) {
  int64_t nb = 0, words = 0, out = 0;
  for (int64_t k = 0; k < lines; ++k)
    for (int64_t off = 0; off < lb; off += t.burst_bytes) {
      const int64_t a = addr + k * lb + off, len = std::min(t.burst_bytes, lb - off);
      const int64_t w = cdiv(a % t.word_bytes + len, t.word_bytes);
      ++nb;
      words += w;
      out += cdiv(w, t.tcdm_ports) + 1;
    }
  int64_t body = in ? std::max(nb, cdiv(words, t.tcdm_ports)) : out;
  if (t.ext_latency) body = std::max(body, cdiv(nb * (t.l2_latency + 1), t.max_outstanding));
  if (t.l2_bw > 0) body = std::max(body, cdiv(lines * lb, static_cast<int64_t>(t.l2_bw)));
  return t.setup + (t.ext_latency ? t.l2_latency : 0) + body;
}

int busy_cores(const std::vector<MchanCommand>& cmds) {
  std::vector<int> cores;
  for (const auto& c : cmds) cores.push_back(c.core);
  std::sort(cores.begin(), cores.end());
  return static_cast<int>(std::unique(cores.begin(), cores.end()) - cores.begin());
}

}  // namespace

TEST_CASE("dma_timing resolves the cluster DMA of each platform", "[dma-cost]") {
  const DmaTiming s = dma_timing(platform("siracusa"));
  CHECK(s.burst_bytes == 256);
  CHECK(s.tcdm_ports == 2);  // 8 B/cycle / 4 B banks
  CHECK(s.word_bytes == 4);
  CHECK(s.setup == 2);
  CHECK(s.max_outstanding == 8);
  CHECK(s.l2_latency == 14);
  CHECK_FALSE(s.ext_latency);  // gvsoc mode
  CHECK(s.l2_bw == 0);
  CHECK(s.n_cores == 8);
  CHECK(s.max_cmd_bytes == 128 * 1024);
  CHECK_FALSE(s.single_core_dma);
  CHECK_FALSE(s.blocking);

  const DmaTiming g8 = dma_timing(platform("gap8"));
  CHECK(g8.blocking);
  CHECK(g8.l2_latency == 10);

  const DmaTiming g9 = dma_timing(platform("gap9"));
  CHECK(g9.single_core_dma);
  CHECK(g9.n_cores == 8);  // budgets.dory.n_cores wins over cluster.n_cores 9

  const DmaTiming d = dma_timing(platform("diana"));  // simple_dma, ext latency charged
  CHECK(d.setup == 0);
  CHECK(d.max_outstanding == 1);
  CHECK(d.ext_latency);
  CHECK(d.n_cores == 1);
  // 1 KiB in: 0 + λ 10 + max(N_b 4, ⌈256/2⌉ = 128, ⌈4·11/1⌉ = 44) = 138 (= bytes/8 + 10,
  // docs/diana.md)
  CHECK(mchan_in_cycles(d, 1, 1024, 0) == 138);

  const DmaTiming b = dma_timing(platform("barvinn"));  // no cluster: defaults, no crash
  CHECK(b.burst_bytes == 256);
  CHECK(b.tcdm_ports >= 1);
}

TEST_CASE("mchan transfer cycles, gvsoc mode", "[dma-cost]") {
  const DmaTiming t;  // 256 B bursts, 2 ports, 4 B words, t_h 2

  // contiguous 1 KiB, aligned: 4 bursts of 64 words; 2 + max(4, ⌈256/2⌉) = 130 (8 B/cycle)
  CHECK(mchan_in_cycles(t, 1, 1024, 0) == 130);
  // same at TCDM address 2: each burst ⌈(2+256)/4⌉ = 65 words; 2 + ⌈260/2⌉ = 132
  CHECK(mchan_in_cycles(t, 1, 1024, 2) == 132);
  // 100 B at address 3: one burst of ⌈103/4⌉ = 26 words; 2 + max(1, 13) = 15
  CHECK(mchan_in_cycles(t, 1, 100, 3) == 15);
  // a 300-byte line: bursts 256 + 44 → 64 + 11 = 75 words; 2 + max(2, ⌈75/2⌉ = 38) = 40
  CHECK(mchan_in_cycles(t, 1, 300, 0) == 40);
  // out: 2 + (⌈64/2⌉ + 1) + (⌈11/2⌉ + 1) = 2 + 33 + 7 = 42
  CHECK(mchan_out_cycles(t, 1, 300, 0) == 42);
  // 1 KiB out, aligned: 2 + 4·(32 + 1) = 134
  CHECK(mchan_out_cycles(t, 1, 1024, 0) == 134);
  // 1000 one-byte lines: 1000 bursts of 1 word; in 2 + max(1000, 500) = 1002 (1 B/cycle),
  // out 2 + 1000·(1 + 1) = 2002
  CHECK(mchan_in_cycles(t, 1000, 1, 0) == 1002);
  CHECK(mchan_out_cycles(t, 1000, 1, 0) == 2002);
  // 5 lines of 7 B from address 1: starts 1, 8, 15, 22, 29 → offsets 1, 0, 3, 2, 1 →
  // words 2, 2, 3, 3, 2 = 12; in 2 + max(5, 6) = 8; out 2 + 2+2+3+3+2 = 14
  CHECK(mchan_in_cycles(t, 5, 7, 1) == 8);
  CHECK(mchan_out_cycles(t, 5, 7, 1) == 14);
  // nothing to move
  CHECK(mchan_in_cycles(t, 0, 64, 0) == 0);
  CHECK(mchan_out_cycles(t, 4, 0, 0) == 0);
  CHECK_THROWS_AS(mchan_in_cycles(t, -1, 4, 0), std::invalid_argument);
}

TEST_CASE("mchan transfer cycles, realistic additions", "[dma-cost]") {
  DmaTiming t;
  t.ext_latency = true;
  t.l2_latency = 14;
  t.l2_bw = 8;
  // 1 KiB in: 2 + 14 + max(4, 128, ⌈4·15/8⌉ = 8, 1024/8 = 128) = 144
  CHECK(mchan_in_cycles(t, 1, 1024, 0) == 144);
  // 1000 one-byte lines: 2 + 14 + max(1000, 500, ⌈1000·15/8⌉ = 1875, 125) = 1891 (≈ 0.5 B/cycle)
  CHECK(mchan_in_cycles(t, 1000, 1, 0) == 1891);
  // out 1 KiB: 2 + 14 + max(4·33 = 132, 8, 128) = 148
  CHECK(mchan_out_cycles(t, 1, 1024, 0) == 148);
  // bandwidth cap alone (no λ): 4 B/cycle → 2 + max(4, 128, 256) = 258
  DmaTiming bw;
  bw.l2_bw = 4;
  CHECK(mchan_in_cycles(bw, 1, 1024, 0) == 258);

  // the same through the platform: gap8 with --set fidelity.mode=realistic (λ = 10, BW_L2 8)
  const DmaTiming g = dma_timing(platform("gap8", {"fidelity.mode=realistic"}));
  REQUIRE(g.ext_latency);
  REQUIRE(g.l2_bw == 8);
  // 1 KiB in: 2 + 10 + max(4, 128, ⌈4·11/8⌉ = 6, 128) = 140
  CHECK(mchan_in_cycles(g, 1, 1024, 0) == 140);
  // 1000 one-byte lines: 2 + 10 + max(1000, 500, ⌈11000/8⌉ = 1375, 125) = 1387
  CHECK(mchan_in_cycles(g, 1000, 1, 0) == 1387);
}

TEST_CASE("mchan closed forms match a burst-by-burst enumeration", "[dma-cost]") {
  DmaTiming plain, real, odd;
  real.ext_latency = true;
  real.l2_latency = 14;
  real.l2_bw = 8;
  odd.burst_bytes = 6;  // not a multiple of the word: exercises the per-burst path
  odd.tcdm_ports = 3;
  for (const DmaTiming* t : {&plain, &real, &odd})
    for (int64_t lines : {1, 2, 3, 4, 5, 9, 17})
      for (int64_t lb : {1, 2, 3, 5, 7, 8, 255, 256, 257, 300, 513})
        for (int64_t addr = 0; addr < 8; ++addr) {
          INFO("lines " << lines << " line_bytes " << lb << " addr " << addr << " burst " << t->burst_bytes);
          CHECK(mchan_in_cycles(*t, lines, lb, addr) == brute(*t, lines, lb, addr, true));
          CHECK(mchan_out_cycles(*t, lines, lb, addr) == brute(*t, lines, lb, addr, false));
        }
}

TEST_CASE("mchan issue cycles", "[dma-cost]") {
  const DmaTiming t = dma_timing(platform("siracusa"));
  CHECK(mchan_issue_cycles(t, false) == 18);  // 2 + 3·2 + 10
  CHECK(mchan_issue_cycles(t, true) == 22);   // 2 + 5·2 + 10
}

TEST_CASE("dory_commands follows dory_dma.c rules 1-4", "[dma-cost]") {
  const DmaTiming t;  // 8 cores

  SECTION("rule 1: one 1-D command by core 0") {
    const int64_t c[3] = {1, 1, 1024};
    const auto cmds = dory_commands(t, c, false);
    REQUIRE(cmds.size() == 1);
    CHECK_FALSE(cmds[0].two_d);
    CHECK(cmds[0].lines == 1);
    CHECK(cmds[0].line_bytes == 1024);
    CHECK(cmds[0].core == 0);
  }
  SECTION("rule 2: one 2-D command by core 0") {
    const int64_t c[3] = {1, 16, 96};
    const auto cmds = dory_commands(t, c, false);
    REQUIRE(cmds.size() == 1);
    CHECK(cmds[0].two_d);
    CHECK(cmds[0].lines == 16);
    CHECK(cmds[0].line_bytes == 96);
    CHECK(cmds[0].core == 0);
  }
  SECTION("rule 3: one 2-D command per row, chunk(10) = 2 rows per core → 5 cores busy") {
    const int64_t c[3] = {10, 8, 16};
    const auto cmds = dory_commands(t, c, false);
    REQUIRE(cmds.size() == 10);
    for (size_t r = 0; r < cmds.size(); ++r) {
      CHECK(cmds[r].two_d);
      CHECK(cmds[r].lines == 8);
      CHECK(cmds[r].line_bytes == 16);
      CHECK(cmds[r].core == static_cast<int>(r / 2));
      CHECK(cmds[r].tcdm_offset == static_cast<int64_t>(r) * 128);
    }
    CHECK(busy_cores(cmds) == 5);
  }
  SECTION("single_core_dma: core 0 issues every row") {
    DmaTiming s = t;
    s.single_core_dma = true;
    const int64_t c[3] = {10, 8, 16};
    const auto cmds = dory_commands(s, c, false);
    REQUIRE(cmds.size() == 10);
    CHECK(busy_cores(cmds) == 1);
    CHECK(cmds[9].core == 0);
  }
  SECTION("rule 4: depthwise gather, one 2-D command of one-byte lines per channel") {
    const int64_t c[3] = {4, 5, 32};  // 4 rows × 5 pixels × 32 channels
    const auto cmds = dory_commands(t, c, true);
    REQUIRE(cmds.size() == 32);
    for (size_t ch = 0; ch < cmds.size(); ++ch) {
      CHECK(cmds[ch].two_d);
      CHECK(cmds[ch].lines == 20);
      CHECK(cmds[ch].line_bytes == 1);
      CHECK(cmds[ch].tcdm_offset == static_cast<int64_t>(ch) * 20);  // CHW in L1
      CHECK(cmds[ch].core == static_cast<int>(ch / 4));             // chunk(32) = 4
    }
    // the merged shape {1, 4, 5·32} with the channel count given explicitly: same commands
    const int64_t merged[3] = {1, 4, 160};
    const auto again = dory_commands(t, merged, true, 32);
    REQUIRE(again.size() == 32);
    CHECK(again[31].lines == 20);
    CHECK(again[31].tcdm_offset == 620);
    CHECK(again[31].core == 7);
    CHECK_THROWS_AS(dory_commands(t, merged, true, 7), std::invalid_argument);  // 640 % 7 != 0
  }
  SECTION("commands above max_cmd_bytes are split") {
    const int64_t two_d[3] = {1, 1000, 200};  // 200,000 B > 131,072: ⌊131072/200⌋ = 655 lines
    const auto cmds = dory_commands(t, two_d, false);
    REQUIRE(cmds.size() == 2);
    CHECK(cmds[0].lines == 655);
    CHECK(cmds[1].lines == 345);
    CHECK(cmds[1].tcdm_offset == 131000);
    const int64_t one_d[3] = {1, 1, 200000};  // 131,072 + 68,928
    const auto runs = dory_commands(t, one_d, false);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].line_bytes == 131072);
    CHECK(runs[1].line_bytes == 68928);
    CHECK(runs[1].tcdm_offset == 131072);
  }
  SECTION("an empty copy has no command") {
    const int64_t c[3] = {3, 0, 16};
    CHECK(dory_commands(t, c, false).empty());
  }
}

TEST_CASE("dory_copy_cost totals transfer, issue and commands", "[dma-cost]") {
  const DmaTiming t = dma_timing(platform("siracusa"));
  {
    const int64_t c[3] = {1, 1, 1024};  // one 1-D command: transfer 130, issue 18
    const CopyCost k = dory_copy_cost(t, c, 0, true, false);
    CHECK(k.transfer == 130);
    CHECK(k.issue == 18);
    CHECK(k.commands == 1);
  }
  {
    // 10 rows of 8 lines × 16 B: each command 8 bursts of 4 words → 2 + max(8, 16) = 18;
    // transfer 10·18 = 180; cores 0-4 issue 2 commands each: 2·22 = 44
    const int64_t c[3] = {10, 8, 16};
    const CopyCost k = dory_copy_cost(t, c, 0, true, false);
    CHECK(k.transfer == 180);
    CHECK(k.issue == 44);
    CHECK(k.commands == 10);
    // out: each command 2 + 8·(2 + 1) = 26 → 260
    CHECK(dory_copy_cost(t, c, 0, false, false).transfer == 260);
  }
  {
    // depthwise gather 4×5 pixels × 32 channels: per channel 2 + max(20, 10) = 22 → 32·22 = 704;
    // each core issues 4 channels: 4·22 = 88
    const int64_t c[3] = {4, 5, 32};
    const CopyCost k = dory_copy_cost(t, c, 0, true, true);
    CHECK(k.transfer == 704);
    CHECK(k.issue == 88);
    CHECK(k.commands == 32);
  }
  {
    // GAP8 blocking: every command waited before the next; transfer 180 + 9·T_wake 5 = 225,
    // issue serialised: 10·22 = 220
    const DmaTiming g = dma_timing(platform("gap8"));
    const int64_t c[3] = {10, 8, 16};
    const CopyCost k = dory_copy_cost(g, c, 0, true, false);
    CHECK(k.transfer == 225);
    CHECK(k.issue == 220);
    CHECK(k.commands == 10);
  }
}

TEST_CASE("L3 copy cycles: uDMA HyperRAM and DDR", "[dma-cost]") {
  const L3Timing g = l3_timing(platform("gap8"));
  REQUIRE(g.present);
  CHECK(g.hyperram);
  CHECK_FALSE(g.realistic);
  CHECK(g.cluster_per_periph == Approx(3.5));  // 175 MHz / 50 MHz
  // one line of 1000 B: 1 + 6·2 + 6 + 1000 = 1019 periph cycles; ⌈1019·3.5⌉ = 3567; + 200 = 3767
  CHECK(l3_copy_cycles(g, 1, 1000) == 3767);
  // two lines: each line rounds up on its own, 2·⌈1019·3.5⌉ = 2·3567 = 7134; + 200 (once per copy) = 7334
  CHECK(l3_copy_cycles(g, 2, 1000) == 7334);

  // realistic: HyperBus DDR at 100 MHz (1.75 cluster cycles per bus clock), latency 15:
  // 15 + 1000/2 = 515 bus clocks; ⌈515·1.75⌉ = ⌈901.25⌉ = 902; + 200 = 1102
  const L3Timing r = l3_timing(platform("gap8", {"fidelity.mode=realistic"}));
  REQUIRE(r.realistic);
  CHECK(l3_copy_cycles(r, 1, 1000) == 1102);

  // BARVINN's DDR: 100 + ⌈1000/64⌉ = 116 per line, no software cost
  const L3Timing b = l3_timing(platform("barvinn"));
  REQUIRE(b.present);
  CHECK_FALSE(b.hyperram);
  CHECK(l3_copy_cycles(b, 1, 1000) == 116);
  CHECK(l3_copy_cycles(b, 3, 1000) == 348);

  // DIANA has no L3
  const L3Timing d = l3_timing(platform("diana"));
  CHECK_FALSE(d.present);
  CHECK_THROWS_AS(l3_copy_cycles(d, 1, 1000), std::invalid_argument);
}
