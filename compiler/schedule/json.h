// Schedule <-> JSON (nlohmann::json). The round trip is exact: from_json(to_json(s)) == s.
#pragma once
#include <nlohmann/json.hpp>

#include "compiler/schedule/schedule.h"

namespace edgesim {

nlohmann::json schedule_to_json(const Schedule& s);
// The identity of a schedule: FNV-1a of schedule_to_json(s).dump() without its `network` label
// (which follows the model's file name). `run --json` and sweep points record schedule_hash
// ("fnv1a:0123456789abcdef"), a generated program's log schedule_digest in 16 hex digits
// (compiler/codegen/perf_log.h), so a schedule compiled by one command can be compared with
// another's (and with `compile -o`'s file, parsed, without `network`, dumped compactly).
uint64_t schedule_digest(const Schedule& s);
std::string schedule_hash(const Schedule& s);
Schedule schedule_from_json(const nlohmann::json& j);   // throws std::runtime_error naming the key

// One LayerTiling, in the form it takes inside a schedule's steps (also the tuner's cache).
nlohmann::json tiling_to_json(const LayerTiling& t);
LayerTiling tiling_from_json(const nlohmann::json& j);  // throws std::runtime_error naming the key

}  // namespace edgesim
