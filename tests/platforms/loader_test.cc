// The shipped platform files load and carry their sourced values (docs/platforms.md); presets, file values and
// --set overrides resolve in that order; derived budgets follow the memory sizes; the hash is
// stable and sensitive to every value.
#include <catch2/catch.hpp>

#include <algorithm>

#include "compiler/flows/flow.h"
#include "platforms/loader/budgets.h"
#include "platforms/loader/loader.h"
#include "platforms/temp_dir.h"

using namespace edgesim;
using edgesim::test::platform_file;
using edgesim::test::TempDir;

TEST_CASE("every shipped platform loads", "[platforms]") {
  for (const char* name : {"siracusa", "gap8", "gap9", "diana", "barvinn"}) {
    INFO(name);
    const PlatformSpec s = load_platform(platform_file(name));
    CHECK(s.name == name);
    CHECK(s.l1.size > 0);
    CHECK(s.l2.size > 0);
    CHECK(s.origin.count("l3.size") == 1);   // every platform states its L3, even "none"
    CHECK(s.fidelity.mode == "gvsoc");
    CHECK_FALSE(describe_platform(s).empty());
  }
}

TEST_CASE("siracusa carries its sourced values (docs/platforms.md)", "[platforms]") {
  const PlatformSpec s = load_platform(platform_file("siracusa"));
  CHECK(s.files.size() == 2);                          // preset + file
  CHECK(s.cluster.n_cores == 8);
  CHECK(s.cluster.freq_hz == 360'000'000);
  CHECK(s.cluster.dma.impl == "mchan_v7");
  CHECK(s.cluster.dma.bytes_per_cycle == 8.0);
  CHECK(s.cluster.dma.burst_bytes == 256);
  CHECK(s.cluster.dma.max_cmd_bytes == 128 * 1024);
  CHECK(s.cluster.dma.n_channels == 10);
  CHECK(s.l1.size == 256 * 1024);
  CHECK(s.l1.banks == 16);
  CHECK(s.l2.size == 2 * 1024 * 1024);
  CHECK(s.l2.latency_from_cluster == 14);
  CHECK(s.l3.size == 8 * 1024 * 1024);
  CHECK(s.l3.periph_freq_hz == 50'000'000);
  CHECK(s.wmem.present);
  CHECK(s.wmem.size == 4 * 1024 * 1024);
  CHECK(s.npu.impl == "neureka");
  CHECK(s.npu.pe_h * s.npu.pe_w == 36);
  CHECK(s.npu.out_bits == std::vector<int64_t>{8, 32});
  CHECK(s.memmap.l2 == 0x1C000000);
  CHECK_FALSE(s.fidelity.l1_conflicts);
  const DeeployBudgets d = deeploy_budgets(s);
  CHECK(d.l1 == 64000);
  CHECK(d.l2 == 1024000);
  CHECK(d.l3 == s.l3.size);
  CHECK(d.wmem == 4 * 1024 * 1024);
  CHECK(s.origin.at("cluster.dma.burst_bytes").rfind("pulp_cluster.yaml:", 0) == 0);
  CHECK(s.origin.at("l1.size").rfind("siracusa.yaml:", 0) == 0);
}

TEST_CASE("DORY budgets reproduce DORY's descriptors", "[platforms]") {
  CHECK(dory_budgets(load_platform(platform_file("gap8"))).l1 == 36700);
  CHECK(dory_budgets(load_platform(platform_file("gap8"))).l2 == 380000);
  CHECK(dory_budgets(load_platform(platform_file("gap8"))).l3 == 8000000);
  CHECK(dory_budgets(load_platform(platform_file("gap9"))).l1 == 92700);
  CHECK(dory_budgets(load_platform(platform_file("diana"))).l1 == 256000);
  const PlatformSpec gap8 = load_platform(platform_file("gap8"));
  CHECK(gap8.budgets.dory.db == 1);
  CHECK(gap8.budgets.dory.blocking_dma);
  CHECK(load_platform(platform_file("gap9")).budgets.dory.single_core_dma);
  CHECK_THROWS_AS(dory_budgets(load_platform(platform_file("barvinn"))), PlatformError);
}

TEST_CASE("budgets.dory.lto false adds the requantisation call to c_rq under DORY's flows", "[platforms]") {
  const PlatformSpec gap8 = load_platform(platform_file("gap8"));
  const PlatformSpec nolto = load_platform(platform_file("gap8"), {"budgets.dory.lto=false"});
  CHECK(gap8.budgets.dory.lto);    // DORY's Makefile template links with -flto
  CHECK_FALSE(nolto.budgets.dory.lto);
  REQUIRE(gap8.cluster.cost.c_rq_call > 0);
  for (const char* policy : {"dory", "dory-2021", "tuned"}) {
    INFO(policy);
    CHECK(flow_platform(gap8, policy).cluster.cost.c_rq == gap8.cluster.cost.c_rq);
    CHECK(flow_platform(nolto, policy).cluster.cost.c_rq == gap8.cluster.cost.c_rq + gap8.cluster.cost.c_rq_call);
    CHECK(flow_platform(nolto, policy).cluster.cost.c_kl == gap8.cluster.cost.c_kl);
    // the loops around the call are branch loops: c_loop_call per block, output and channel
    CHECK(flow_platform(gap8, policy).cluster.cost.c_grp == gap8.cluster.cost.c_grp);
    CHECK(flow_platform(nolto, policy).cluster.cost.c_grp == gap8.cluster.cost.c_grp + gap8.cluster.cost.c_loop_call);
    CHECK(flow_platform(nolto, policy).cluster.cost.c_dwpx == gap8.cluster.cost.c_dwpx + gap8.cluster.cost.c_loop_call);
    CHECK(flow_platform(nolto, policy).cluster.cost.c_px1 == gap8.cluster.cost.c_px1 + gap8.cluster.cost.c_loop_call);
    // the second pixel's κ/λ re-read is the kernel's C, with or without the call
    CHECK(flow_platform(gap8, policy).cluster.cost.c_kl_px2 == gap8.cluster.cost.c_kl_px2);
    CHECK(flow_platform(nolto, policy).cluster.cost.c_kl_px2 == gap8.cluster.cost.c_kl_px2);
  }
  REQUIRE(gap8.cluster.cost.c_loop_call == 4);
  REQUIRE(gap8.cluster.cost.c_kl_px2 == gap8.cluster.cost.c_kl);
  // Deeploy's flow links its own kernel library: a DORY build option does not reach it
  CHECK(flow_platform(nolto, "deeploy").cluster.cost.c_rq == gap8.cluster.cost.c_rq);
  CHECK(flow_platform(nolto, "deeploy").cluster.cost.c_grp == gap8.cluster.cost.c_grp);
  const PlatformSpec gap9 = load_platform(platform_file("gap9"), {"budgets.dory.lto=false"});
  CHECK(flow_platform(gap9, "deeploy").cluster.cost.c_rq == gap9.budgets.deeploy.cost.c_rq);
  CHECK(flow_platform(gap9, "deeploy").cluster.cost.c_kl_px2 == 0);  // its c_kl re-reads per output
  CHECK_THROWS_AS(load_platform(platform_file("gap8"), {"budgets.dory.lto=maybe"}), PlatformError);
}

TEST_CASE("budgets.dory.bn_bits 64 adds the 64-bit requantisation to c_rq and c_kl under DORY's flows", "[platforms]") {
  const PlatformSpec gap9 = load_platform(platform_file("gap9"));
  const PlatformSpec wide = load_platform(platform_file("gap9"), {"budgets.dory.bn_bits=64"});
  CHECK(gap9.budgets.dory.bn_bits == 32);   // DORY's default generation: int32_t κ/λ
  REQUIRE(gap9.cluster.cost.c_rq64 == 21);  // the count in platforms/presets/pulp_cluster.yaml
  REQUIRE(gap9.cluster.cost.c_kl64 == 2);
  const PlatformSpec f = flow_platform(wide, "dory");
  CHECK(f.cluster.cost.c_rq == gap9.cluster.cost.c_rq + 21);
  CHECK(f.cluster.cost.c_kl == gap9.cluster.cost.c_kl + 2);
  // with lto false as well: the call and the 64-bit body both count
  const PlatformSpec both = load_platform(platform_file("gap9"), {"budgets.dory.bn_bits=64", "budgets.dory.lto=false"});
  CHECK(flow_platform(both, "dory").cluster.cost.c_rq == gap9.cluster.cost.c_rq + gap9.cluster.cost.c_rq_call + 21);
  CHECK(flow_platform(both, "dory").cluster.cost.c_kl_px2 == gap9.cluster.cost.c_kl_px2 + 2);  // 4 words
  CHECK(flow_platform(wide, "dory").cluster.cost.c_kl_px2 == gap9.cluster.cost.c_kl_px2 + 2);
  CHECK(flow_platform(wide, "deeploy").cluster.cost.c_rq == gap9.budgets.deeploy.cost.c_rq);
  CHECK_THROWS_AS(load_platform(platform_file("gap9"), {"budgets.dory.bn_bits=16"}), PlatformError);
}

TEST_CASE("budgets.deeploy.cost replaces cluster.cost keys under policy deeploy only", "[platforms]") {
  const PlatformSpec gap9 = load_platform(platform_file("gap9"));
  REQUIRE(gap9.budgets.deeploy.cost.present);
  // the preset's PULP-NN counts for every other policy
  for (const char* policy : {"dory", "dory-2021", "tuned"}) {
    INFO(policy);
    const PlatformSpec s = flow_platform(gap9, policy);
    CHECK(s.cluster.cost.c_rq == gap9.cluster.cost.c_rq);
    CHECK(s.cluster.cost.c_dwtap4 == 4);   // the preset's count (docs/timing.md)
    CHECK(s.cluster.cost.c_dwcol == 8);
    CHECK(s.cluster.cost.c_kl_px2 == 2);
    CHECK(s.cluster.cost.c_layer == 0);      // DORY's layers' cold code: not modelled
    CHECK(s.cluster.cost.c_layer_tr == 0);
  }
  // the prebuilt pulp-nn-mixed of Deeploy's GAP9 target (gap9.yaml budgets.deeploy.cost)
  const PlatformSpec d = flow_platform(gap9, "deeploy");
  CHECK(d.cluster.cost.c_il == 14);
  CHECK(d.cluster.cost.c_rq == 13);
  CHECK(d.cluster.cost.c_kl == 8);
  CHECK(d.cluster.cost.c_kl_px2 == 0);   // the library's c_kl re-reads κ/λ for every output
  CHECK(d.cluster.cost.c_cp == 31);
  CHECK(d.cluster.cost.c_dwtap4 == 5);
  CHECK(d.cluster.cost.c_dwtap1 == 6);
  CHECK(d.cluster.cost.c_dwcol == 58);
  CHECK(d.cluster.cost.c_layer == 910);     // scripts/deeploy-layer-code: 82 + 46 lines x 18
  CHECK(d.cluster.cost.c_layer_tr == 622);  // 82 + 30 lines x 18
  CHECK(d.cluster.cost.c_t42 == gap9.cluster.cost.c_t42);   // keys the library leaves alone
  // --set reaches the library's keys; a platform without the section is unchanged
  CHECK(flow_platform(load_platform(platform_file("gap9"), {"budgets.deeploy.cost.c_rq=20"}), "deeploy")
            .cluster.cost.c_rq == 20);
  const PlatformSpec sir = load_platform(platform_file("siracusa"));
  CHECK_FALSE(sir.budgets.deeploy.cost.present);
  CHECK(flow_platform(sir, "deeploy").cluster.cost.c_rq == sir.cluster.cost.c_rq);
  // the section is all or nothing
  TempDir dir;
  const std::string p = dir.write("p.yaml", "extends: " + platform_file("siracusa") +
                                                "\nbudgets.deeploy.cost.c_rq: 13\n");
  CHECK(edgesim::test::load_error(p, {}).find("budgets.deeploy.cost.c_il") != std::string::npos);
}

TEST_CASE("set-overrides: l1.size moves the usable DORY L1 budget", "[platforms]") {
  const std::string gap8 = platform_file("gap8");
  // usable = l1.size - 1536 (descriptor difference) - 3500 - 7 * 3400
  CHECK(dory_budgets(load_platform(gap8, {"l1.size=38836"})).l1 == 10000);
  CHECK(dory_budgets(load_platform(gap8, {"l1.size=66836"})).l1 == 38000);
  CHECK(dory_budgets(load_platform(gap8, {"l1.size=128KiB"})).l1 == 131072 - 28836);
  // the last of several overrides of one key wins
  CHECK(load_platform(gap8, {"l1.size=1MiB", "l1.size=96KiB"}).l1.size == 96 * 1024);
  const std::string err = edgesim::test::load_error(gap8, {"l1.size=20000"});
  CHECK(err.find("usable DORY L1 budget is -8836 B") != std::string::npos);
  CHECK(err.find("(from --set)") != std::string::npos);
}

TEST_CASE("budgets.dory.l1 / l2: DORY's buffer sizes given directly, checked against their memory", "[platforms]") {
  const std::string gap8 = platform_file("gap8");
  // As DORY's --l1_buffer_size / --l2_buffer_size: taken as given, stacks and code not subtracted.
  const PlatformSpec s = load_platform(gap8, {"budgets.dory.l1=10000", "budgets.dory.l2=300000"});
  CHECK(dory_budgets(s).l1 == 10000);
  CHECK(dory_budgets(s).l2 == 300000);
  CHECK(describe_platform(s).find("as given (budgets.dory.l1)") != std::string::npos);
  // a memory size no longer moves a given budget; auto follows it again
  CHECK(dory_budgets(load_platform(gap8, {"budgets.dory.l1=10000", "l1.size=128KiB"})).l1 == 10000);
  CHECK(dory_budgets(load_platform(gap8, {"budgets.dory.l1=10000", "budgets.dory.l1=auto"})).l1 == 36700);
  // a given L1 smaller than what the stacks would leave is fine (the tiler judges it per layer)
  CHECK(dory_budgets(load_platform(gap8, {"l1.size=38836", "budgets.dory.l1=20000"})).l1 == 20000);
  CHECK(edgesim::test::load_error(gap8, {"budgets.dory.l1=0"}).find("budgets.dory.l1 must be greater than 0") !=
        std::string::npos);
  // the L1 less what DORY's descriptor leaves out: 65536 - 1536 = 64000 B
  CHECK(edgesim::test::load_error(gap8, {"budgets.dory.l1=64001"})
            .find("budgets.dory.l1 (64001 B) exceeds l1.size (65536 B) less budgets.dory.l1_reserved (1536 B)") !=
        std::string::npos);
  CHECK(dory_budgets(load_platform(gap8, {"budgets.dory.l1=64000"})).l1 == 64000);
  CHECK(edgesim::test::load_error(gap8, {"budgets.dory.l2=600000"}).find("budgets.dory.l2 (600000 B) exceeds") !=
        std::string::npos);
}

TEST_CASE("resolution order: preset, then file, then --set", "[platforms]") {
  TempDir dir;
  dir.write("presets/base.yaml", std::string(edgesim::test::kMinimalPlatform) +
                                     "fidelity:\n  mode: realistic\n");
  const std::string p = dir.write("p.yaml", "preset: base\nname: derived\nl1:\n  size: 32KiB\n");
  const PlatformSpec s = load_platform(p);
  CHECK(s.name == "derived");                 // file beats preset
  CHECK(s.l1.size == 32 * 1024);
  CHECK(s.l1.banks == 16);                    // from the preset
  CHECK(s.fidelity.l1_conflicts);             // realistic mode turns the flags on
  CHECK(s.origin.at("l1.banks").rfind("base.yaml:", 0) == 0);
  const PlatformSpec o = load_platform(p, {"l1.size=16KiB", "fidelity.l2_bw_cap=false"});
  CHECK(o.l1.size == 16 * 1024);              // --set beats the file
  CHECK_FALSE(o.fidelity.l2_bw_cap);          // an explicit flag beats the mode default
  CHECK(o.fidelity.l1_conflicts);
  CHECK(o.origin.at("l1.size") == "--set");

  // extends: a path relative to the file; dotted keys are accepted inside files too
  const std::string q = dir.write("sub/q.yaml", "extends: ../p.yaml\nl1.banks: 8\n");
  const PlatformSpec t = load_platform(q);
  CHECK(t.l1.banks == 8);
  CHECK(t.l1.size == 32 * 1024);
  CHECK(t.files.size() == 3);
}

TEST_CASE("platform hash is stable and sensitive", "[platforms]") {
  const std::string sir = platform_file("siracusa");
  const uint64_t h = platform_hash(load_platform(sir));
  CHECK(h == platform_hash(load_platform(sir)));
  CHECK(h != platform_hash(load_platform(sir, {"l1.size=128KiB"})));
  CHECK(h != platform_hash(load_platform(sir, {"fidelity.mode=realistic"})));
  CHECK(h != platform_hash(load_platform(sir, {"cluster.dma.bytes_per_cycle=4B/cycle"})));
  // the same value spelled differently is the same platform
  CHECK(h == platform_hash(load_platform(sir, {"l1.size=262144"})));
  CHECK(h == platform_hash(load_platform(sir, {"cluster.freq_hz=360000000"})));
  CHECK(h == platform_hash(load_platform(sir, {"description=anything"})));
}

TEST_CASE("known keys and single values", "[platforms]") {
  const auto keys = known_platform_keys();
  CHECK(std::find(keys.begin(), keys.end(), "cluster.dma.impl") != keys.end());
  CHECK(std::find(keys.begin(), keys.end(), "budgets.dory.l1_stack_core0") != keys.end());
  const PlatformSpec s = load_platform(platform_file("gap8"));
  CHECK(platform_value(s, "l1.size") == "65536 B (64 KiB)");
  CHECK(platform_value(s, "cluster.freq_hz") == "175 MHz");
  CHECK_THROWS_AS(platform_value(s, "npu.impl"), PlatformError);     // gap8 has no NPU
  CHECK_THROWS_AS(platform_value(s, "l1.sise"), PlatformError);
}
