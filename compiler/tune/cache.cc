// TuneCache (cache.h).
#include "compiler/tune/cache.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/budget/memory.h"
#include "compiler/io/dir_lock.h"
#include "compiler/io/write_file.h"
#include "compiler/schedule/json.h"
#include "compiler/schedule/json_internal.h"
#include "compiler/tune/network_tune.h"
#include "compiler/tune/accel_tuner.h"
#include "compiler/tune/objective.h"
#include "platforms/loader/loader.h"
#include "platforms/util/hash.h"
#include "platforms/util/printable.h"
#include "platforms/util/regular_file.h"

namespace edgesim {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kFormatVersion = 8;   // bump when an entry's fields change (2: L3 options, network plans on one
                                    // branch, objective and energy on the other; 3: both; 4: a layer's options
                                    // include DORY's L3 decisions at smaller L1 sizes; 5: options may fill
                                    // the whole L2 level, weight rings up to 64 slab buffers; 6: an NPU layer's
                                    // simulated tiles include the best at each L1 size of the ladder; 7: NPU
                                    // layers have options per L3 decision, DORY's ladder decisions are kind "ladder";
                                    // 8: the tuned flow's depthwise tiles may run pulp_nn_depthwise_3x3_s1, so
                                    // the candidates' simulated cycles changed)

// An integer field. A JSON number with a fraction or exponent must not reach nlohmann's
// get<integer>, which converts it with a plain cast, undefined beyond the type's range (as in the
// schedule reader, compiler/schedule/json_internal.h); it is one error naming the key.
template <class T>
T integer(const json& v, const char* key) {
  if (json_detail::has_float(v))
    throw std::runtime_error(fmt::format("key '{}': expected an integer, not a number with a fraction or exponent", key));
  return v.get<T>();
}
template <class T>
T integer_at(const json& j, const char* key) {
  return integer<T>(j.at(key), key);
}

json result_to(const LayerTuneResult& r) {
  json j{{"name", r.name},         {"has_dory", r.has_dory},       {"has_deeploy", r.has_deeploy},
         {"dory_cycles", r.dory_cycles}, {"deeploy_cycles", r.deeploy_cycles}, {"tuned_cycles", r.tuned_cycles},
         {"evaluator", r.evaluator}, {"ranked", r.ranked},         {"simulated", r.simulated},
         {"tau", r.tau},           {"tuned", tiling_to_json(r.tuned)},
         {"objective", r.objective}, {"tuned_energy_pj", r.tuned_energy_pj}, {"fastest_cycles", r.fastest_cycles},
         {"fastest_energy_pj", r.fastest_energy_pj}, {"why", r.why}};
  if (r.has_dory) j["dory"] = tiling_to_json(r.dory);
  if (r.has_deeploy) j["deeploy"] = tiling_to_json(r.deeploy);
  json opts = json::array();
  for (const TunedOption& o : r.options)
    opts.push_back({{"kind", o.option.kind}, {"slab_bytes", o.option.slab_bytes}, {"l2_bytes", o.option.l2_bytes},
                    {"tiling", tiling_to_json(o.tiling)}, {"cycles", o.cycles}, {"analytic", o.analytic},
                    {"energy_pj", o.energy_pj}});
  j["options"] = opts;
  j["tau_l3"] = r.tau_l3;
  return j;
}

LayerTuneResult result_from(const json& j) {
  LayerTuneResult r;
  r.name = j.at("name").get<std::string>();
  r.has_dory = j.at("has_dory").get<bool>();
  r.has_deeploy = j.at("has_deeploy").get<bool>();
  r.dory_cycles = integer_at<int64_t>(j, "dory_cycles");
  r.deeploy_cycles = integer_at<int64_t>(j, "deeploy_cycles");
  r.tuned_cycles = integer_at<int64_t>(j, "tuned_cycles");
  r.evaluator = j.at("evaluator").get<std::string>();
  r.ranked = integer_at<size_t>(j, "ranked");
  r.simulated = integer_at<size_t>(j, "simulated");
  r.tau = j.at("tau").get<double>();
  r.tuned = tiling_from_json(j.at("tuned"));
  r.objective = j.at("objective").get<std::string>();
  r.tuned_energy_pj = j.at("tuned_energy_pj").get<double>();
  r.fastest_cycles = integer_at<int64_t>(j, "fastest_cycles");
  r.fastest_energy_pj = j.at("fastest_energy_pj").get<double>();
  r.why = j.at("why").get<std::string>();
  if (r.has_dory) r.dory = tiling_from_json(j.at("dory"));
  if (r.has_deeploy) r.deeploy = tiling_from_json(j.at("deeploy"));
  for (const json& o : j.at("options")) {
    TunedOption t;
    t.option.kind = o.at("kind").get<std::string>();
    t.tiling = tiling_from_json(o.at("tiling"));
    t.option.l3 = t.tiling.l3;   // the option's decision (the base option's best may be a reference's)
    t.option.slab_bytes = integer_at<int64_t>(o, "slab_bytes");
    t.option.l2_bytes = integer_at<int64_t>(o, "l2_bytes");
    t.cycles = integer_at<int64_t>(o, "cycles");
    t.analytic = integer_at<int64_t>(o, "analytic");
    t.energy_pj = o.at("energy_pj").get<double>();
    r.options.push_back(t);
  }
  r.tau_l3 = j.at("tau_l3").get<double>();
  r.cached = true;
  return r;
}

json network_to(const NetworkTuneResult& r) {
  json t = json::array(), e = json::array(), c = json::array();
  for (const LayerTiling& x : r.tilings) t.push_back(tiling_to_json(x));
  for (const auto& [engine, wmem] : r.engines) e.push_back({engine, wmem});
  for (const EngineChange& x : r.engine_changes)
    c.push_back({{"node", x.node}, {"what", x.what}, {"from", x.from}, {"to", x.to}, {"from_cycles", x.from_cycles},
                 {"to_cycles", x.to_cycles}});
  return {{"tilings", t}, {"engines", e}, {"engine_changes", c}, {"order", r.order},
          {"branch", {r.branch_regions, r.branch_orders, r.peak_before, r.peak_after}},         {"chosen", r.chosen},     {"evaluator", r.evaluator}, {"dory", r.dory},
          {"deeploy", r.deeploy}, {"isolated", r.isolated}, {"tuned", r.tuned},         {"plans", r.plans}, {"fusion_sims", r.fusion_sims},
          {"changes", r.changes}, {"library", r.library}};
}

NetworkTuneResult network_from(const json& j) {
  NetworkTuneResult r;
  for (const json& t : j.at("tilings")) r.tilings.push_back(tiling_from_json(t));
  r.chosen = j.at("chosen").get<std::string>();
  r.evaluator = j.at("evaluator").get<std::string>();
  r.dory = integer_at<int64_t>(j, "dory");
  r.deeploy = integer_at<int64_t>(j, "deeploy");
  r.isolated = integer_at<int64_t>(j, "isolated");
  r.tuned = integer_at<int64_t>(j, "tuned");
  r.plans = integer_at<size_t>(j, "plans");
  r.fusion_sims = integer_at<size_t>(j, "fusion_sims");
  r.changes = j.at("changes").get<std::vector<std::string>>();
  r.library = j.at("library").get<std::string>();
  r.order = integer_at<std::vector<int>>(j, "order");
  const json& b = j.at("branch");
  r.branch_regions = integer<int>(b.at(0), "branch[0]"), r.branch_orders = integer<size_t>(b.at(1), "branch[1]");
  r.peak_before = integer<int64_t>(b.at(2), "branch[2]"), r.peak_after = integer<int64_t>(b.at(3), "branch[3]");
  for (const json& e : j.at("engines")) r.engines.emplace_back(e.at(0).get<std::string>(), e.at(1).get<bool>());
  for (const json& x : j.at("engine_changes"))
    r.engine_changes.push_back({integer_at<int>(x, "node"), x.at("what").get<std::string>(), x.at("from").get<std::string>(),
                                x.at("to").get<std::string>(), integer_at<int64_t>(x, "from_cycles"),
                                integer_at<int64_t>(x, "to_cycles")});
  r.cached = true;
  return r;
}

}  // namespace

std::string network_key(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt, const std::string& net_evaluator) {
  Fnv1a h;
  for (const Node& n : g.nodes) {
    h.text(json_detail::params_to(n.params).dump()).text(n.engine).text(n.wmem_weights ? "w" : "-");
    for (const auto* list : {&n.inputs, &n.outputs})
      for (int t : *list) h.word(static_cast<uint64_t>(t));
  }
  for (const TensorDesc& d : g.tensors) {
    h.text(dtype_name(d.dtype)).word(d.is_const() ? 1 : 0);
    for (int64_t v : d.shape) h.word(static_cast<uint64_t>(v));
  }
  for (const auto* list : {&g.inputs, &g.outputs})
    for (int t : *list) h.word(static_cast<uint64_t>(t));
  // The search itself (network_tune.cc) is part of the key: a plan from another version of it
  // is not reused.
  // The objective of the layers' choices is part of it too (the plan is chosen by cycles).
  return fmt::format("network-v{}{}|{:016x}|{:016x}|k{}|{}|{}|{}", kNetworkSearchVersion, opt.change_graph ? "" : "-fixed-graph", h.value(), platform_hash(spec), opt.top_k,
                     opt.simulator ? opt.simulator->name() : "analytic", net_evaluator, opt.objective);
}

std::string layer_signature(const Graph& g, int node, const TilingContext& ctx, const AnalyticContext& actx) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  json tensors = json::array();
  for (const auto* list : {&n.inputs, &n.outputs})
    for (int t : *list) {
      const TensorDesc& d = g.tensor(t);
      tensors.push_back({dtype_name(d.dtype), d.shape, d.is_const()});
    }
  const json sig{{"params", json_detail::params_to(n.params)}, {"tensors", tensors},
                 {"engine", n.engine + (n.wmem_weights ? "+wmem" : "")},
                 {"input_in_l3", ctx.input_in_l3}, {"consts_in_l3", actx.consts_in_l3},
                 {"conventions", actx.conventions}};
  return sig.dump();
}

std::string tune_key(const std::string& signature, const PlatformSpec& spec, size_t top_k, const std::string& evaluator,
                     const std::string& objective) {
  return fmt::format("{:016x}|k{}|{}|{}|{}", platform_hash(spec), top_k, evaluator, objective, signature);
}

namespace {

enum class CacheFile { absent, loaded, other_version };

// Reads the cache file at `path` into the two maps (adding to them; an entry already there is
// kept). A file of another format version is reported, not read; a damaged or foreign one throws.
CacheFile read_cache_file(const std::string& path, std::map<std::string, std::string>& entries,
                          std::map<std::string, std::string>& networks, json& version) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return CacheFile::absent;
  if (const std::string why = not_regular_file(path); !why.empty())
    throw std::runtime_error(fmt::format("tune cache {}: {}", path, why));
  std::ifstream f(path);
  json j;
  try {
    j = json::parse(f);
    if (j.at("format") != "edgesim-tune-cache") throw std::runtime_error("not a tune cache");
    version = j.value("version", json());
    if (version != kFormatVersion) return CacheFile::other_version;
    for (const auto& [k, v] : j.at("entries").items()) entries.emplace(k, v.dump());
    for (const auto& [k, v] : j.at("networks").items()) networks.emplace(k, v.dump());
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("tune cache {}: unreadable ({}); delete it to start over", path, e.what()));
  }
  return CacheFile::loaded;
}

void warn_other_version(const std::string& path, const json& version) {
  std::cerr << fmt::format("edgesim: warning: tune cache {} has format version {}, this edgesim writes version {}; "
                           "it is left untouched and this run tunes without a cache (--cache F or "
                           "$EDGESIM_TUNE_CACHE picks another file)\n",
                           path, version.dump(), kFormatVersion);
}

}  // namespace

TuneCache::TuneCache(std::string path) : path_(std::move(path)) {
  if (path_.empty()) return;
  json version;
  if (read_cache_file(path_, entries_, networks_, version) == CacheFile::other_version) {
    // Another edgesim's cache (older or newer format): left as it is, this run tunes without it.
    warn_other_version(path_, version);
    path_.clear();
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
  write();
}

std::optional<NetworkTuneResult> TuneCache::find_network(const std::string& key) const {
  const auto it = networks_.find(key);
  if (it == networks_.end()) return std::nullopt;
  try {
    return network_from(json::parse(it->second));
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("tune cache {}: damaged entry ({}); delete it to start over", path_, e.what()));
  }
}

void TuneCache::put_network(const std::string& key, const NetworkTuneResult& r) {
  networks_[key] = network_to(r).dump();
  write();
}

void TuneCache::write() {
  if (path_.empty()) return;
  const fs::path target(path_);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  // Read, merge and rename under one lock: another process sharing this file (a second `tune`, a
  // tuned sweep's workers) may have added entries since this one read it, and they are kept.
  const DirLock lock(path_);
  json version;
  if (read_cache_file(path_, entries_, networks_, version) == CacheFile::other_version) {
    warn_other_version(path_, version);
    path_.clear();
    return;
  }
  json entries = json::object(), networks = json::object();
  for (const auto& [k, v] : entries_) entries[k] = json::parse(v);
  for (const auto& [k, v] : networks_) networks[k] = json::parse(v);
  const json doc{{"format", "edgesim-tune-cache"}, {"version", kFormatVersion}, {"entries", entries}, {"networks", networks}};
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
    for (TunedOption& o : hit->options) o.tiling.node = node;
    return *hit;
  }
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  if (opt.progress)
    opt.progress(fmt::format("layer '{}' on {}{}", printable(n.name), n.engine.empty() ? "cluster" : n.engine,
                             n.wmem_weights ? ", weights in WMEM" : ""));
  LayerTuneResult r = is_diana_accel_layer(g, node, spec) ? tune_accel_layer(g, node, ctx, spec, actx, opt)
                                                           : tune_layer(g, node, ctx, spec, actx, opt);
  cache.put(key, r);
  return r;
}

std::vector<LayerTuneResult> tune_graph(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt,
                                        TuneCache& cache, bool activations_in_l2, bool npu_base) {
  const AnalyticContext actx = network_context(g, spec);
  TilingContext ctx;
  ctx.graph = &g;
  ctx.spec = &spec;
  std::vector<LayerTuneResult> out;
  const std::vector<int> layers = g.layer_nodes();
  TuneOptions each = opt;   // its progress lines say which layer of how many
  for (size_t k = 0; k < layers.size(); ++k) {
    const int node = layers[k];
    if (opt.progress) each.progress = [&opt, k, &layers](const std::string& m) {
      opt.progress(fmt::format("[{}/{}] {}", k + 1, layers.size(), m));
    };
    if (g.nodes[static_cast<size_t>(node)].engine == "mvu") continue;   // whole-layer MVU steps (as tile_graph)
    // A RISC-V host (DIANA) runs its layers on whole tensors in L2: nothing to tile or tune.
    if (g.nodes[static_cast<size_t>(node)].engine == "cluster" && spec.cluster.impl == "riscv_host") continue;
    check_resident("tune: layer '" + printable(g.nodes[static_cast<size_t>(node)].name) + "'");
    LayerTuneResult r = tune_layer_cached(g, node, ctx, spec, actx, each, cache);
    if (npu_base && g.nodes[static_cast<size_t>(node)].engine == "npu")
      for (const TunedOption& o : r.options)
        if (o.option.kind == "base") {
          const TunedOption keep = o;
          r.tuned = keep.tiling, r.tuned_cycles = keep.cycles, r.tuned_energy_pj = keep.energy_pj;
          r.options = {keep};
          break;
        }
    if (activations_in_l2 && r.tuned.l3.output_in_l3) {
      // The best option that keeps the output in L2, by the tuner's objective (objective.h).
      auto score = [](const TunedOption& o) {
        Score sc;
        sc.cycles = o.cycles;
        if (o.energy_pj >= 0) sc.energy_pj["total"] = o.energy_pj;
        return sc;
      };
      const TunedOption* best = nullptr;
      for (const TunedOption& o : r.options)
        if (!o.tiling.l3.output_in_l3 && o.cycles >= 0 && (!best || better(score(o), score(*best), opt.objective)))
          best = &o;
      if (best) r.tuned = best->tiling, r.tuned_cycles = best->cycles, r.tuned_energy_pj = best->energy_pj;
    }
    ctx.input_in_l3 = r.tuned.l3.output_in_l3;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace edgesim
