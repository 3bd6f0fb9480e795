// One sweep point, evaluated: load the platform with the point's overrides, tile the network
// under the policy, build the schedule and simulate it timing-only (sim/exec, SimOptions{data =
// false}); the record holds total and per-layer cycles. A point that cannot be deployed is a
// result, not an error: an invalid value (PlatformError), no tiling (TilingError) or a level
// that overflows after allocation (build_schedule) give status "infeasible" with the one-line
// reason; anything else the flow throws (e.g. a platform the simulator cannot model) gives
// status "error". evaluate_point never throws for a point, so no point aborts a sweep.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/record.h"

namespace edgesim::sweep {

// What to sweep. The points are networks x policies x engine sets x the grid of `axes`, in that
// order (the network varies slowest, the grid fastest).
struct SweepSpec {
  std::string platform;                          // platform YAML path
  std::vector<std::string> policies = {"dory"};  // --policy a,b,c
  // Engine preference lists (--engines npu,cluster --engines cluster); {} = the platform's own.
  std::vector<std::vector<std::string>> engine_sets = {{}};
  std::vector<Axis> axes;
  std::vector<std::string> networks;             // ONNX paths
  std::vector<std::string> network_names;        // their labels (name_networks); empty: network_name(path)
  // What "best" means in the reports (record.h objective_value): cycles, energy or edp.
  std::string objective = "cycles";
};

struct SweepNetwork {
  std::string path, name;
  Graph graph;
};

// The label of a network in the results: the file stem, or the folder for the generic names
// (models/*/model.onnx, Deeploy's network.onnx, DORY's model_int.onnx), as `edgesim run` names it.
std::string network_name(const std::string& path);

// Splits "NAME=path" arguments and names every network: NAME when given, else network_name; when
// two would share a name, the colliding ones are qualified by their parent folders until the
// names differ ("dory/dscnn_test" vs "mine/dscnn_test"). Throws SweepError for an empty NAME or
// two networks given the same explicit NAME. Fills s.networks (paths) and s.network_names.
void name_networks(SweepSpec& s, const std::vector<std::string>& args);
// The label of network n of a spec.
std::string spec_network_name(const SweepSpec& s, size_t n);

// Imports every network of the spec (throws the importer's error for an unreadable or unsupported
// one).
std::vector<SweepNetwork> import_networks(const SweepSpec& s);

// "npu,cluster", or "" for the platform's own preference.
std::string engines_label(const std::vector<std::string>& engines);

// Total number of points and the (network, policy, engine set, grid point) of a flat index.
size_t point_count(const SweepSpec& s);
struct PointRef {
  size_t network = 0;
  std::string policy;
  std::vector<std::string> engines;
  std::vector<std::string> values;
};
PointRef point_at(const SweepSpec& s, size_t index);

// Appended to a TilingError's message (e.g. the CLI's "(l1.size >= N B on gap8)").
using TilingHint = std::function<std::string(const PlatformSpec&, const std::string&, const TilingError&)>;

PointRecord evaluate_point(const SweepSpec& s, const SweepNetwork& net, const PointRef& p, const TilingHint& hint = {});

// The point with the tuned plan of another point (a record's `plan`, carry.h) instead of its own
// tuning: its platform and engines, the plan's order, engines, kernel library and tilings,
// scheduled and simulated as above. A plan that does not fit the point is "infeasible" with the
// reason; one that does not belong to the network is an "error". Never throws.
PointRecord evaluate_plan(const SweepSpec& s, const SweepNetwork& net, const PointRef& p, const nlohmann::json& plan);

// The record of a point before evaluation (identity fields only), for resume lookups.
PointRecord point_identity(const SweepSpec& s, const PointRef& p);

std::vector<std::string> axis_keys(const SweepSpec& s);

}  // namespace edgesim::sweep
