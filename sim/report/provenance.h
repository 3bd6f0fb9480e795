// How every report writer prints a Provenance (sim/stats/provenance.h): a JSON object (key
// "provenance" of run and validation JSON, sweep JSON, and "otherData" of a trace), an HTML footer,
// and '#' comment lines heading a sweep CSV. Nothing here computes anything.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/stats/provenance.h"

namespace edgesim::report {

// {"command_line", "version", "commit", "platform", "platform_spec_hash", "overrides": [...],
//  "options": {name: value}, "files": [{role, path, hash}]}
nlohmann::json provenance_json(const Provenance& p);
// <footer> with the same facts, escaped.
std::string provenance_html(const Provenance& p);
// "# key: value" lines (no trailing empty line); "" for an empty provenance.
std::string provenance_comment_lines(const Provenance& p);

}  // namespace edgesim::report
