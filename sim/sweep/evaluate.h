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

#include "compiler/ir/graph.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/record.h"

namespace edgesim::sweep {

// What to sweep. Networks are visited in order, each over the whole grid of `axes`.
struct SweepSpec {
  std::string platform;             // platform YAML path
  std::string policy = "dory";
  std::vector<Axis> axes;
  std::vector<std::string> networks;   // ONNX paths
};

struct SweepNetwork {
  std::string path, name;
  Graph graph;
};

// The label of a network in the results: the file stem, or the folder for models/*/model.onnx
// and Deeploy's network.onnx (as `edgesim run` names it).
std::string network_name(const std::string& path);

// Imports every network (throws the importer's error for an unreadable or unsupported one, and
// SweepError when two networks have the same name).
std::vector<SweepNetwork> import_networks(const std::vector<std::string>& paths);

// Total number of points (networks × grid) and the (network, grid point) of a flat index.
size_t point_count(const SweepSpec& s);
struct PointRef {
  size_t network = 0;
  std::vector<std::string> values;
};
PointRef point_at(const SweepSpec& s, size_t index);

// Appended to a TilingError's message (e.g. the CLI's "(l1.size >= N B on gap8)").
using TilingHint = std::function<std::string(const PlatformSpec&, const std::string&, const TilingError&)>;

PointRecord evaluate_point(const SweepSpec& s, const SweepNetwork& net, const std::vector<std::string>& values,
                           const TilingHint& hint = {});

// The record of a point before evaluation (identity fields only), for resume lookups.
PointRecord point_identity(const SweepSpec& s, const std::string& network, const std::vector<std::string>& values);

std::vector<std::string> axis_keys(const SweepSpec& s);

}  // namespace edgesim::sweep
