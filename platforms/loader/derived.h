// Deployment values derived from the hardware, and what an override does to them.
//
// A deployment key written `auto` (the default) follows a hardware key: budgets.dory.n_cores and
// budgets.deeploy.n_cores follow cluster.n_cores, cluster.dma.l2_latency follows
// l2.latency_from_cluster (the schema's KeyDef::follows). resolve_derived() replaces `auto` by the
// hardware value and records it in PlatformSpec::follows, so `--set cluster.n_cores=16` re-tiles
// and re-times the network for 16 cores.
//
// An explicit value that contradicts the hardware is reported as a warning (not an error: DORY's
// code generated for 8 cores runs unchanged with NUM_CORES = 1, which the validation cases model,
// docs/validation.md "Cores"):
//   * budgets.dory.n_cores / budgets.deeploy.n_cores / cluster.dma.l2_latency given explicitly and
//     different from the hardware key (deeploy n_cores above cluster.n_cores stays an error);
//   * a --set of a key the run does not read under the current settings (e.g. the L2 latency
//     while fidelity.dma_ext_latency is false), naming what would make it count.
// (A memory size changed by --set while the Deeploy budget of that level stays an explicit number is
// not a warning, since only policy deeploy reads it: `describe` notes it, override_effects.cc.)
// Internal to platforms/loader (the loader calls both after parsing every key).
#pragma once
#include "platforms/loader/spec.h"

namespace edgesim::detail {

void resolve_derived(PlatformSpec& spec);
void report_contradictions(PlatformSpec& spec);

}  // namespace edgesim::detail
