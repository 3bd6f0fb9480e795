// TuneCache (cache.h).
#include "compiler/tune/cache.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/io/write_file.h"
#include "compiler/schedule/json.h"
#include "compiler/schedule/json_internal.h"
#include "compiler/tune/accel_tuner.h"
#include "platforms/loader/loader.h"

namespace edgesim {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kFormatVersion = 2;   // bump when an entry's fields change (2: objective and energy)

json result_to(const LayerTuneResult& r) {
  json j{{"name", r.name},         {"has_dory", r.has_dory},       {"has_deeploy", r.has_deeploy},
         {"dory_cycles", r.dory_cycles}, {"deeploy_cycles", r.deeploy_cycles}, {"tuned_cycles", r.tuned_cycles},
         {"evaluator", r.evaluator}, {"ranked", r.ranked},         {"simulated", r.simulated},
         {"tau", r.tau},           {"tuned", tiling_to_json(r.tuned)},
         {"objective", r.objective}, {"tuned_energy_pj", r.tuned_energy_pj}, {"fastest_cycles", r.fastest_cycles},
         {"fastest_energy_pj", r.fastest_energy_pj}, {"why", r.why}};
  if (r.has_dory) j["dory"] = tiling_to_json(r.dory);
  if (r.has_deeploy) j["deeploy"] = tiling_to_json(r.deeploy);
  return j;
}

LayerTuneResult result_from(const json& j) {
  LayerTuneResult r;
  r.name = j.at("name").get<std::string>();
  r.has_dory = j.at("has_dory").get<bool>();
  r.has_deeploy = j.at("has_deeploy").get<bool>();
  r.dory_cycles = j.at("dory_cycles").get<int64_t>();
  r.deeploy_cycles = j.at("deeploy_cycles").get<int64_t>();
  r.tuned_cycles = j.at("tuned_cycles").get<int64_t>();
  r.evaluator = j.at("evaluator").get<std::string>();
  r.ranked = j.at("ranked").get<size_t>();
  r.simulated = j.at("simulated").get<size_t>();
  r.tau = j.at("tau").get<double>();
  r.tuned = tiling_from_json(j.at("tuned"));
  r.objective = j.at("objective").get<std::string>();
  r.tuned_energy_pj = j.at("tuned_energy_pj").get<double>();
  r.fastest_cycles = j.at("fastest_cycles").get<int64_t>();
  r.fastest_energy_pj = j.at("fastest_energy_pj").get<double>();
  r.why = j.at("why").get<std::string>();
  if (r.has_dory) r.dory = tiling_from_json(j.at("dory"));
  if (r.has_deeploy) r.deeploy = tiling_from_json(j.at("deeploy"));
  r.cached = true;
  return r;
}

}  // namespace

std::string layer_signature(const Graph& g, int node, const TilingContext& ctx, const AnalyticContext& actx) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  json tensors = json::array();
  for (const auto* list : {&n.inputs, &n.outputs})
    for (int t : *list) {
      const TensorDesc& d = g.tensor(t);
      tensors.push_back({dtype_name(d.dtype), d.shape, d.is_const()});
    }
  json sig{{"params", json_detail::params_to(n.params)}, {"tensors", tensors},
           {"input_in_l3", ctx.input_in_l3}, {"consts_in_l3", actx.consts_in_l3},
           {"conventions", actx.conventions}};
  if (n.engine != "cluster") sig["engine"] = n.engine;   // an accelerator's tiles are its own (DIANA)
  return sig.dump();
}

std::string tune_key(const std::string& signature, const PlatformSpec& spec, size_t top_k, const std::string& evaluator,
                     const std::string& objective) {
  return fmt::format("{:016x}|k{}|{}|{}|{}", platform_hash(spec), top_k, evaluator, objective, signature);
}

TuneCache::TuneCache(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (path_.empty() || !fs::exists(path_, ec)) return;
  std::ifstream f(path_);
  json j;
  try {
    j = json::parse(f);
    if (j.at("format") != "edgesim-tune-cache") throw std::runtime_error("not a tune cache");
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("tune cache {}: unreadable ({}); delete it to start over", path_, e.what()));
  }
  if (j.value("version", json()) != kFormatVersion) {
    // Another edgesim's cache (older or newer format): left as it is, this run tunes without it.
    std::cerr << fmt::format("edgesim: warning: tune cache {} has format version {}, this edgesim writes version {}; "
                             "it is left untouched and this run tunes without a cache (--cache F or "
                             "$EDGESIM_TUNE_CACHE picks another file)\n",
                             path_, j.value("version", json()).dump(), kFormatVersion);
    path_.clear();
    return;
  }
  try {
    for (const auto& [k, v] : j.at("entries").items()) entries_[k] = v.dump();
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("tune cache {}: unreadable ({}); delete it to start over", path_, e.what()));
  }
}

std::optional<LayerTuneResult> TuneCache::find(const std::string& key) const {
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  try {
    return result_from(json::parse(it->second));
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("tune cache {}: damaged entry ({}); delete it to start over", path_, e.what()));
  }
}

void TuneCache::put(const std::string& key, const LayerTuneResult& r) {
  entries_[key] = result_to(r).dump();
  if (path_.empty()) return;
  json entries = json::object();
  for (const auto& [k, v] : entries_) entries[k] = json::parse(v);
  const json doc{{"format", "edgesim-tune-cache"}, {"version", kFormatVersion}, {"entries", entries}};
  const fs::path target(path_);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  write_file_atomically(path_, doc.dump(1) + "\n");
}

LayerTuneResult tune_layer_cached(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                                  const AnalyticContext& actx, const TuneOptions& opt, TuneCache& cache) {
  const std::string key = tune_key(layer_signature(g, node, ctx, actx), spec, opt.top_k,
                                   opt.simulator ? opt.simulator->name() : "analytic", opt.objective);
  if (auto hit = cache.find(key)) {
    hit->node = node;
    hit->name = g.nodes.at(static_cast<size_t>(node)).name;
    hit->tuned.node = hit->dory.node = hit->deeploy.node = node;
    return *hit;
  }
  LayerTuneResult r = is_diana_accel_layer(g, node, spec) ? tune_accel_layer(g, node, ctx, spec, actx, opt)
                                                           : tune_layer(g, node, ctx, spec, actx, opt);
  cache.put(key, r);
  return r;
}

std::vector<LayerTuneResult> tune_graph(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt,
                                        TuneCache& cache) {
  const AnalyticContext actx = network_context(g, spec);
  TilingContext ctx;
  ctx.graph = &g;
  ctx.spec = &spec;
  std::vector<LayerTuneResult> out;
  for (int node : g.layer_nodes()) {
    // A RISC-V host (DIANA) runs its layers on whole tensors in L2: nothing to tile or tune.
    if (g.nodes[static_cast<size_t>(node)].engine == "cluster" && spec.cluster.impl == "riscv_host") continue;
    out.push_back(tune_layer_cached(g, node, ctx, spec, actx, opt, cache));
    ctx.input_in_l3 = out.back().tuned.l3.output_in_l3;
  }
  return out;
}

}  // namespace edgesim
