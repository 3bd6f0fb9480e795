// Schedule <-> JSON (nlohmann::json). The round trip is exact: from_json(to_json(s)) == s.
#pragma once
#include <nlohmann/json.hpp>

#include "compiler/schedule/schedule.h"

namespace edgesim {

nlohmann::json schedule_to_json(const Schedule& s);
// The identity of a schedule: FNV-1a of schedule_to_json(s).dump(), "fnv1a:0123456789abcdef".
// `run --json` and sweep points record it, so a schedule compiled by one command can be compared
// with another's (and with `compile -o`'s file, parsed and dumped compactly).
std::string schedule_hash(const Schedule& s);
Schedule schedule_from_json(const nlohmann::json& j);   // throws std::runtime_error naming the key

// One LayerTiling, in the form it takes inside a schedule's steps (also the tuner's cache).
nlohmann::json tiling_to_json(const LayerTiling& t);
LayerTiling tiling_from_json(const nlohmann::json& j);  // throws std::runtime_error naming the key

}  // namespace edgesim
