// TuneCache: the autotuner's results on disk, keyed by (layer signature, platform hash, tuner
// settings), so re-tuning a network, or tuning it again inside a sweep, reuses the work.
// The layer signature is the node's op and params, its tensors' shapes and dtypes and the
// network context it was tuned in (input in L3, constants in L3): equal layers of different
// networks share entries. The file is JSON ({"format": "edgesim-tune-cache", "version": 2,
// "entries": {key: result}}), written atomically after every new entry; a damaged or foreign
// file is an error naming it (delete it to start over). A cache of another format version
// (another edgesim) is warned about, left untouched and not used.
#pragma once
#include <map>
#include <optional>
#include <string>

#include "compiler/tune/tuner.h"

namespace edgesim {

std::string layer_signature(const Graph& g, int node, const TilingContext& ctx, const AnalyticContext& actx);

class TuneCache {
 public:
  explicit TuneCache(std::string path);   // loads the file when it exists; "" = memory only
  std::optional<LayerTuneResult> find(const std::string& key) const;
  void put(const std::string& key, const LayerTuneResult& r);   // writes the file (if any)
  size_t size() const { return entries_.size(); }

 private:
  std::string path_;
  std::map<std::string, std::string> entries_;   // key -> JSON text of the result
};

// Key of one tuning: signature + platform hash + K + the evaluator's name + the objective.
std::string tune_key(const std::string& signature, const PlatformSpec& spec, size_t top_k, const std::string& evaluator,
                     const std::string& objective = "cycles");

// tune_layer (tune_accel_layer for DIANA's accelerator layers) through the cache: a hit is
// returned (cached = true), a miss tuned and stored.
LayerTuneResult tune_layer_cached(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                                  const AnalyticContext& actx, const TuneOptions& opt, TuneCache& cache);

// Every layer node of g in order, threading "input in L3" from each tuned choice (as
// tile_graph does); the tuned tilings are results[i].tuned. Layers of a RISC-V host
// (cluster.impl riscv_host) are skipped: they run on whole tensors, untiled.
std::vector<LayerTuneResult> tune_graph(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt,
                                        TuneCache& cache);

}  // namespace edgesim
