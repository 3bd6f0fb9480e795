// What may be read as a user file (a network, platform, golden data, tune cache): a regular file,
// after symbolic links. A FIFO would block the reader until a writer comes, /dev/zero or
// /dev/urandom would be read until memory runs out, a socket or device is no data file at all.
// Every file reader checks this first and turns the answer into its own one-line error.
#pragma once
#include <string>

namespace edgesim {

// "" when `path` is a regular file (or does not exist: the reader says "no such file" itself),
// else why not: "is a directory", "is a FIFO (named pipe), not a regular file", "is a character
// device, not a regular file", ...
std::string not_regular_file(const std::string& path);

// Opens `path` for reading without blocking on a FIFO and checks the opened file is regular.
// Returns the descriptor (the caller closes it), or -1 with `why` set: "cannot open" or
// not_regular_file's text.
int open_regular_file(const std::string& path, std::string& why);

}  // namespace edgesim
