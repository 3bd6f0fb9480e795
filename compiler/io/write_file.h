// write_file_atomically: the one way edgesim puts a file on disk (schedules, tune cache, reports,
// sweep results). The text goes to a
// temporary file in the destination's directory, which is then renamed over the destination,
// so a reader (a browser reloading the HTML, a script polling the JSON) never sees half a file
// and a failed write never destroys the previous version.
#pragma once
#include <string>

namespace edgesim {

// Throws std::runtime_error("cannot write <path>: <reason>") on any failure (missing directory,
// permissions, full disk, destination is a directory); the temporary file is removed then.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace edgesim
