// edgesim codegen: C99 deployment code generated from the very Schedule the simulator executes
// (docs/codegen.md). Nothing is re-tiled or re-ordered: network.c allocates the memory levels
// with the schedule's high-water marks and loads the constants and inputs at the planner's
// offsets; one layer file per step issues the step's commands (emit_layer.h); the portable C
// kernels (kernels/c) compute; a HAL (host, rv32, pulp) maps DMA, fork, clock and files to the
// target. The program compares its outputs with the interpreter's (golden.bin) and prints one
// verdict line.
#pragma once
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/schedule/schedule.h"
#include "kernels/core/tensor.h"

namespace edgesim::codegen {

struct ProgramFile {
  std::string path;              // relative to the output directory ("network.c", "kernels/es_conv.c")
  std::string content;           // text or binary bytes
};

struct ProgramRequest {
  const Graph* graph = nullptr;
  const Schedule* schedule = nullptr;
  std::string platform;          // platform name (comments)
  int n_cores = 1;               // cluster cores the kernels split their work over
  std::string hal = "host";      // host | rv32 | pulp
  std::vector<Tensor> inputs;    // graph inputs (written to inputs.bin)
  std::vector<Tensor> golden;    // expected graph outputs (the interpreter's; golden.bin)
};

const std::vector<std::string>& hal_names();

// Every file of the program, deterministic for the same request. Throws CodegenError
// (kernel_emit.h) naming the node or step that cannot be generated.
std::vector<ProgramFile> generate_program(const ProgramRequest& req);

// Writes the files below `dir`: into a fresh sibling directory first, which then replaces
// `dir` (an existing directory is replaced only when it holds a previous edgesim program, i.e.
// has a network.c with edgesim's banner, or is empty). Throws std::runtime_error otherwise.
// A manifest (.edgesim-files) lists what edgesim wrote; the other files of an earlier program
// (sources the user added, build outputs) move into the new one, and are returned (relative
// paths, sorted). One of them at a path the new program needs is an error, before anything moves.
std::vector<std::string> write_program(const std::string& dir, const std::vector<ProgramFile>& files);

// The shipped C sources (kernels/c, the runtime, the HAL files), embedded at build time.
struct ShippedFile {
  const char* path;              // e.g. "kernels/es_conv.c", "hal/host/hal.c"
  const char* content;
};
const std::vector<ShippedFile>& shipped_sources();
// The shipped files a program for `hal` contains, at their paths in the program: kernels/,
// runtime/, the common hal/ files, and the HAL's own folders (hal/<folder>/x as hal/x): host
// and rv32 use hal/sw (memcpy DMA, sequential cores) plus their own, pulp its own.
std::vector<ProgramFile> shipped_for_hal(const std::string& hal);

}  // namespace edgesim::codegen
