// Deployment values that follow the hardware (platforms/loader/derived.h): `auto` resolution,
// reports of explicit values that contradict the hardware, of overrides the run does not read,
// and `describe` of what each --set changed (describe_overrides).
#include <algorithm>

#include <catch2/catch.hpp>

#include "platforms/loader/budgets.h"
#include "platforms/loader/loader.h"
#include "platforms/temp_dir.h"

using namespace edgesim;
using edgesim::test::platform_file;

namespace {

bool has_warning(const PlatformSpec& s, const std::string& part) {
  return std::any_of(s.warnings.begin(), s.warnings.end(), [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("budgets.*.n_cores and cluster.dma.l2_latency follow the hardware by default", "[platforms]") {
  const PlatformSpec s = load_platform(platform_file("siracusa"));
  CHECK(s.budgets.dory.n_cores == 8);
  CHECK(s.budgets.deeploy.n_cores == 8);
  CHECK(s.cluster.dma.l2_latency == s.l2.latency_from_cluster);
  CHECK(s.follows.at("budgets.dory.n_cores") == "cluster.n_cores");
  CHECK(s.follows.at("cluster.dma.l2_latency") == "l2.latency_from_cluster");
  CHECK(s.warnings.empty());

  const PlatformSpec s16 = load_platform(platform_file("siracusa"), {"cluster.n_cores=16"});
  CHECK(s16.budgets.dory.n_cores == 16);
  CHECK(s16.budgets.deeploy.n_cores == 16);
  // DORY's L1 budget reserves one stack per core: 8 more stacks of 3,600 B.
  CHECK(dory_budgets(s).l1 - dory_budgets(s16).l1 == 8 * s.budgets.dory.l1_stack_other);

  const PlatformSpec s1 = load_platform(platform_file("siracusa"), {"cluster.n_cores=1"});   // was refused before
  CHECK(s1.budgets.dory.n_cores == 1);
  CHECK(s1.budgets.deeploy.n_cores == 1);

  const PlatformSpec lat = load_platform(platform_file("gap9"), {"l2.latency_from_cluster=30"});
  CHECK(lat.cluster.dma.l2_latency == 30);
  // The resolved value hashes like the same value written explicitly.
  CHECK(platform_hash(load_platform(platform_file("siracusa"), {"budgets.dory.n_cores=8"})) == platform_hash(s));
}

TEST_CASE("explicit deployment values that contradict the hardware are reported", "[platforms]") {
  // DORY's code generated for 8 cores run on 1 (docs/validation.md "Cores"): allowed, reported.
  const PlatformSpec d = load_platform(platform_file("pulp_open"), {"cluster.n_cores=1", "budgets.dory.n_cores=8"});
  CHECK(d.budgets.dory.n_cores == 8);
  CHECK(has_warning(d, "--set budgets.dory.n_cores: is 8 but cluster.n_cores is 1: DORY's code is generated for 8 cores"));
  const PlatformSpec p = load_platform(platform_file("siracusa"), {"cluster.n_cores=16", "budgets.deeploy.n_cores=8"});
  CHECK(has_warning(p, "budgets.deeploy.n_cores: is 8 but cluster.n_cores is 16"));
  CHECK(test::load_error(platform_file("siracusa"), {"cluster.n_cores=4", "budgets.deeploy.n_cores=8"})
            .find("budgets.deeploy.n_cores (8) exceeds cluster.n_cores (4)") != std::string::npos);
  // Deeploy's absolute budgets stay where they are: `describe` notes it (only policy deeploy reads them).
  CHECK(load_platform(platform_file("siracusa"), {"l1.size=512KiB"}).warnings.empty());
  CHECK_THAT(describe_overrides(platform_file("siracusa"), {"l1.size=512KiB"}),
             Catch::Contains("note: policy deeploy keeps budgets.deeploy.l1 = 64000 B; write budgets.deeploy.l1=auto"));
  const PlatformSpec a = load_platform(platform_file("siracusa"), {"l1.size=512KiB", "budgets.deeploy.l1=auto"});
  CHECK(deeploy_budgets(a).l1 == 512 * 1024);
}

TEST_CASE("an override the run does not read says so and what would make it count", "[platforms]") {
  const PlatformSpec g = load_platform(platform_file("siracusa"), {"cluster.dma.l2_latency=40"});
  CHECK(has_warning(g, "--set cluster.dma.l2_latency: no effect on the run: it is charged only with "
                       "fidelity.dma_ext_latency=true"));
  // The core-side L2 latency counts only for steps with operands in L2 (policy untiled, layout
  // ops in L2; the loader does not know the flow): it says so, not "no effect" (issue 36 #15).
  const PlatformSpec l2 = load_platform(platform_file("siracusa"), {"l2.latency_from_cluster=40"});
  CHECK_FALSE(has_warning(l2, "no effect"));
  CHECK(has_warning(l2, "--set l2.latency_from_cluster: counts only for compute steps whose operands stay in L2"));
  // No model reads the TCDM's access latency (issue 36 #15: l1.latency=1e9 changed nothing, silently).
  CHECK(has_warning(load_platform(platform_file("gap8"), {"l1.latency=1000000000"}),
                    "--set l1.latency: no effect on the run: L1 accesses are timed by the kernels' cost models"));
  // DORY's buffering factor other than 1 or 2 reserved L1 that nothing used: an error now.
  CHECK_THAT(test::load_error(platform_file("gap8"), {"budgets.dory.db=5"}),
             Catch::Contains("budgets.dory.db must be 1 (single buffering) or 2 (double) (got 5)"));
  const PlatformSpec r = load_platform(platform_file("siracusa"), {"cluster.dma.l2_latency=40", "fidelity.mode=realistic"});
  CHECK_FALSE(has_warning(r, "no effect"));
  CHECK(has_warning(load_platform(platform_file("gap8"), {"fc.freq_hz=100MHz"}), "fabric controller runs no layer"));
  CHECK(load_platform(platform_file("gap8")).warnings.empty());   // a file's own keys are not reported
  // No model reads the instruction cache's keys: each --set of one says so and names what counts instead.
  for (const char* set : {"cluster.icache.banks=4", "cluster.icache.refill_latency=5", "fidelity.icache_misses=true",
                          "cluster.icache.impl=pulp_hier_icache"}) {
    INFO(set);
    const std::string key = std::string(set).substr(0, std::string(set).find('='));
    CHECK(has_warning(load_platform(platform_file("gap9"), {set}),
                      "--set " + key + ": no effect on the run: the instruction cache is not simulated"));
  }
  CHECK(has_warning(load_platform(platform_file("gap9"), {"fidelity.icache_misses=true"}), "cluster.cost.c_layer"));
}

TEST_CASE("describe_overrides lists what each override changed", "[platforms]") {
  const std::string path = platform_file("siracusa");
  const std::string d = describe_overrides(path, {"cluster.n_cores=16", "l2.latency_from_cluster=40"});
  CHECK_THAT(d, Catch::Contains("--set cluster.n_cores=16"));
  CHECK_THAT(d, Catch::Contains("budgets.dory.n_cores           8 (auto = cluster.n_cores) -> 16 (auto = cluster.n_cores)"));
  CHECK_THAT(d, Catch::Contains("dory worker cores              8 -> 16"));
  CHECK_THAT(d, Catch::Contains("usable dory L1"));
  CHECK_THAT(d, Catch::Contains("cluster.dma.l2_latency         14 cycles (auto = l2.latency_from_cluster) -> 40 cycles"));
  CHECK_THAT(describe_overrides(path, {"cluster.dma.l2_latency=40"}),
             Catch::Contains("note: --set cluster.dma.l2_latency: no effect on the run"));
  CHECK(describe_overrides(path, {}).empty());
  CHECK_THAT(describe_overrides(path, {"cluster.n_cores=8"}), Catch::Contains("(no value changed)"));
}
