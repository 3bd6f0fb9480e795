// Loop re-rolling of a layer's unrolled command list (docs/codegen.md "Tile loops"). The
// Schedule lists a layer's tiles unrolled; the layer file gives them back as loops: the command
// list is cut into segments (one per Compute with the DMAs that feed it and the stores that
// follow it), consecutive segments whose statements have the same shape become one `for` loop
// over i, and a pattern of such runs that repeats (e.g. a tile loading new weights followed by
// three tiles reusing them, fifteen times) becomes an outer loop over j around them. Each integer
// that varies between iterations becomes an affine expression of i and j when it is one, else a
// read from a constant table. The loops execute exactly the statements of the segments they
// replace, in the same order.
#pragma once
#include <string>
#include <vector>

#include "compiler/codegen/stmt.h"

namespace edgesim::codegen {

using Segment = std::vector<Stmt>;

struct RerolledCode {
  std::string tables;   // file-scope constant tables the loops read
  std::string body;     // statements, indented by one level
  int loops = 0;
  int tables_n = 0;
};

// `prefix` names the tables (prefix_t0, prefix_t1, ...); min_run: the fewest segments a loop
// replaces.
RerolledCode reroll(const std::vector<Segment>& segments, const std::string& prefix, int min_run = 3);

}  // namespace edgesim::codegen
