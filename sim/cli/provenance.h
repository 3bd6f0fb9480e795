// The CLI side of provenance (sim/stats/provenance.h): the command line as typed, the version and
// git commit of this build, and a builder that records platform, overrides, options and files
// with their content hashes.
#pragma once
#include <string>
#include <vector>

#include "platforms/loader/spec.h"
#include "sim/stats/provenance.h"

namespace edgesim::cli {

// Remembers argv (main calls it first); command_line() returns it shell-quoted, with any
// non-printable byte written as \xNN inside $'...', so it is one printable ASCII line.
void set_command_line(int argc, const char* const* argv);
std::string command_line();
// command_line() without some options: `valued` ones with their value ("-j 4", "-j4", "--jobs=4")
// and `flags` without one.
std::string command_line_without(const std::vector<std::string>& valued, const std::vector<std::string>& flags);
// A single argument quoted for a POSIX shell when it needs to be (see above).
std::string shell_quote(const std::string& arg);

// "0.1.0" and the build's `git describe --always --dirty` ("unknown" outside git).
std::string version();
std::string git_commit();
// "edgesim 0.1.0 (commit 1a2b3c4d5e6f)"
std::string version_line();

class ProvenanceBuilder {
 public:
  // Command line, version, commit; the platform's name, spec hash and file.
  ProvenanceBuilder(const PlatformSpec* spec, const std::string& platform_file, const std::vector<std::string>& overrides);
  ProvenanceBuilder& option(const std::string& name, const std::string& value);   // skipped when value is ""
  // A file (hashed) or a folder (its path only); skipped when path is "".
  ProvenanceBuilder& file(const std::string& role, const std::string& path);
  Provenance build() const { return p_; }

 private:
  Provenance p_;
};

}  // namespace edgesim::cli
