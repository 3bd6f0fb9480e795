// Text that came from a file, made safe to print: every byte outside printable ASCII (0x20 to
// 0x7e) — control characters, DEL, and all bytes >= 0x80, valid UTF-8 or not — becomes "\xNN".
// edgesim's error and warning lines go through it (sim/cli/main.cc, sweep reasons), so a
// corrupted or hostile name in an ONNX, YAML or golden file can neither break the one-line
// contract (newlines), drive the terminal (escape sequences) nor emit invalid UTF-8.
// edgesim's own message texts are ASCII, so they pass unchanged.
#pragma once
#include <string>
#include <string_view>

namespace edgesim {

std::string printable(std::string_view s);

}  // namespace edgesim
