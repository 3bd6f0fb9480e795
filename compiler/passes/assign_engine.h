// Engine assignment (docs/architecture.md "Data flow today", docs/npu.md): each node goes to the
// first engine in the platform's preference list that can run it exactly, and NPU layers get their
// weights homed in the weight memory while it has room.
//
//   preference   `engines:` of the platform YAML, else npu (neureka / ne16) before the cluster;
//                `--engines npu,cluster` replaces it for one run
//   cluster      runs every node (the reference kernels with PULP-NN cost models)
//   npu          N-EUREKA / NE16 convolutions that the hardware computes to the same integers as
//                the reference (docs/npu.md "Which layers run where"): 3×3 dense, 3×3
//                depthwise or 1×1 (as listed in npu.ops / kernel_sizes), a stride in npu.strides,
//                no dilation, padding ≤ 2, 8-bit activations without zero point (unsigned on
//                NE16), signed constant weights
//                without zero point, and either an integer requant whose per-channel scale
//                k·mul fits the NPU's unsigned 32-bit scale, whose bias fits int32, with a
//                per-layer shift and the clamp of the output type (or ReLU), or raw int32
//                outputs when npu.out_bits lists 32
//   npu (soma)   DIANA's digital accelerator, and
//   aimc         its analog in-memory core: HTVM's offload rules (compiler/passes/diana_rules.h);
//                DIANA's default order is aimc, npu, cluster (HTVM matches the analog pattern first)
//   mvu          BARVINN: dense 2-D convolutions of 8-bit integer tensors with raw int32 outputs
//                (its quantizer is not modelled bit-exactly), rows split over the MVUs
//                (compiler/schedule/build_mvu.cc)
// Weight memory: with npu.weight_source auto (and a `wmem:` section) or wmem, NPU layers' weights,
// in the NPU layout (kernels/npu/weights.h), are homed in WMEM in layer order, each layer whose
// weights still fit budgets.deeploy.wmem (or wmem.size) — a layer that does not fit is skipped,
// later smaller ones may still go; the rest stay in L2 and are DMA'd into L1 per tile.
#pragma once
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "kernels/npu/weights.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// The engines a platform offers, in preference order (its `engines:` key, else the default).
std::vector<std::string> engine_preference(const PlatformSpec& spec);

// The NPU stores its weights in an encoded layout (kernels/npu/weights.h): N-EUREKA and NE16.
bool npu_encoded(const PlatformSpec& spec);

// The name reports show for an engine: DIANA's "digital" (npu, impl soma), "analog" (aimc) and
// "host" (cluster, impl riscv_host); the engine's own name elsewhere. Engine lists (`engines:`,
// `--engines`) accept these names too.
std::string engine_role(const PlatformSpec& spec, const std::string& engine);

// Why `engine` cannot run node n of g on this platform; "" when it can.
std::string engine_rejects(const Graph& g, int node, const std::string& engine, const PlatformSpec& spec);

// The NPU weight layout of an NPU-capable conv node (engine_rejects(g, node, "npu", spec) == "").
NpuWeightGeom npu_weight_geom_of(const Graph& g, int node, const PlatformSpec& spec);

struct EngineAssignment {
  std::vector<std::string> preference;     // the order used
  std::vector<std::string> labels;         // engine_role of each engine of `preference`
  bool npu_encoded = false;                // the NPU keeps encoded weights (WMEM / L2 noted)
  std::vector<std::string> why_not;        // per node: why engines before its own refused it, by
                                           // engine_role ("" if none)
  int64_t wmem_bytes = 0;                  // NPU weight bytes homed in WMEM
  int64_t wmem_budget = 0;                 // 0: no weight memory in use
  // DIANA (diana_rules.h): one line per layer node that an accelerator refused, naming the rule
  // each one broke, as HTVM warns ("node 3 'conv2' (conv) runs on the host: analog: ...").
  std::vector<std::string> warnings;
};

// Why node n runs on its engine, for reports: "first choice" when the first engine of the
// preference took it ("the only engine" when there is one), else what refused it before
// ("not npu: dilation"); NPU layers say where their weights live (", weights in WMEM" /
// ", weights in L2"). "" for a node without an engine.
std::string engine_reason(const Graph& g, const EngineAssignment& a, int node);

// Sets Node::engine and Node::wmem_weights of every node. `engines` (e.g. {"npu", "cluster"})
// overrides the platform's preference. Throws std::invalid_argument for an engine the platform
// does not have or an unknown name, and std::runtime_error naming the node when no engine of
// the list runs it.
EngineAssignment assign_engines(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines = {});

}  // namespace edgesim
