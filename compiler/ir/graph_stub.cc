// STUB: macs / validate / print_graph
#include "compiler/ir/graph.h"
#include <stdexcept>
namespace edgesim {
int64_t Graph::macs(const Node&) const { return 0; }
int64_t Graph::total_macs() const { return 0; }
void Graph::validate() const {}
std::string print_graph(const Graph&) { return ""; }
}  // namespace edgesim
