// TuneCache: the autotuner's results on disk, keyed by (layer signature, platform hash, tuner
// settings), so re-tuning a network, or tuning it again inside a sweep, reuses the work.
// The layer signature is the node's op and params, its tensors' shapes and dtypes and the
// network context it was tuned in (input in L3, constants in L3): equal layers of different
// networks share entries. The file is JSON ({"format": "edgesim-tune-cache", "version": 3,
// "entries": {key: result}}), written atomically after every new entry, merged under a lock with
// what other processes sharing the file wrote meanwhile (none is lost); a damaged or foreign
// file is an error naming it (delete it to start over). A cache of another format version
// (another edgesim) is warned about, left untouched and not used.
#pragma once
#include <map>
#include <optional>
#include <string>

#include "compiler/tune/tuner.h"

namespace edgesim {

std::string layer_signature(const Graph& g, int node, const TilingContext& ctx, const AnalyticContext& actx);

struct NetworkTuneResult;

class TuneCache {
 public:
  explicit TuneCache(std::string path);   // loads the file when it exists; "" = memory only
  std::optional<LayerTuneResult> find(const std::string& key) const;
  void put(const std::string& key, const LayerTuneResult& r);   // writes the file (if any)
  // Network plans (network_tune.h), without their per-layer results.
  std::optional<NetworkTuneResult> find_network(const std::string& key) const;
  void put_network(const std::string& key, const NetworkTuneResult& r);
  size_t size() const { return entries_.size() + networks_.size(); }

 private:
  void write();   // merges what another process wrote meanwhile, under a lock (dir_lock.h)
  std::string path_;
  std::map<std::string, std::string> entries_;    // key -> JSON text of the result
  std::map<std::string, std::string> networks_;   // key -> JSON text of the plan
};

// The version of the network search (network_tune.cc); bumped when it changes what it returns.
inline constexpr int kNetworkSearchVersion = 11;

// Key of a network plan: FNV-1a of the graph's nodes (op, params, engine, weight home) and
// tensors (dtype, shape, constant or not), the platform hash, K, both evaluators' names and the
// layers' objective.
std::string network_key(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt, const std::string& net_evaluator);

// Key of one tuning: signature + platform hash + K + the evaluator's name + the objective.
std::string tune_key(const std::string& signature, const PlatformSpec& spec, size_t top_k, const std::string& evaluator,
                     const std::string& objective = "cycles");

// tune_layer (tune_accel_layer for DIANA's accelerator layers) through the cache: a hit is
// returned (cached = true), a miss tuned and stored.
LayerTuneResult tune_layer_cached(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                                  const AnalyticContext& actx, const TuneOptions& opt, TuneCache& cache);

// Every layer node of g in order (MVU layers aside, as tile_graph), threading "input in L3" from
// each tuned choice (as tile_graph does); the tuned tilings are results[i].tuned. Layers of a
// RISC-V host (cluster.impl riscv_host) are skipped: they run on whole tensors, untiled. With
// activations_in_l2 each layer's choice is the best of its options that keep the output in L2
// when there is one (the next layer is then tuned with its input in L2). With npu_base each NPU
// layer keeps only its option under DORY's L3 decision (kind "base", when feasible) and takes
// it: the choices NPU layers had before they had options, which the network plans fall back on
// when an NPU layer's best option does not fit the network's L2.
std::vector<LayerTuneResult> tune_graph(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt,
                                        TuneCache& cache, bool activations_in_l2 = false, bool npu_base = false);

}  // namespace edgesim
