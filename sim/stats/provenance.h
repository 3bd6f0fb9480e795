// Provenance: how an output was made, recorded in every file edgesim writes (run JSON, trace
// metadata, HTML footer, sweep CSV/JSON, validation JSON), so that two outputs can be told apart
// by what produced them and not only by their numbers. Plain data: the CLI fills it
// (sim/cli/provenance.cc), the report writers print it (sim/report/provenance.h).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace edgesim {

struct FileRecord {
  std::string role;     // "network", "platform", "inputs", "expected", "cases", ...
  std::string path;     // as given on the command line (or resolved from a platform name)
  std::string hash;     // hash_label (platforms/util/hash.h) of the file's bytes; "" for a folder
};

struct Provenance {
  std::string command_line;                                    // argv, shell-quoted
  std::string version;                                         // "0.1.0"
  std::string commit;                                          // git describe of the build's source tree
  std::string platform;                                        // the platform's name
  std::string platform_spec_hash;                              // platform_hash after overrides
  std::vector<std::string> overrides;                          // --set key=value, in order
  std::vector<std::pair<std::string, std::string>> options;   // policy, buffering, engines, seed, ...
  std::vector<FileRecord> files;
  bool empty() const { return command_line.empty() && version.empty(); }
};

}  // namespace edgesim
