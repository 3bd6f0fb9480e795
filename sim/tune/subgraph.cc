// layer_subgraph (subgraph.h).
#include "sim/tune/subgraph.h"

#include "compiler/tune/fusion.h"

namespace edgesim {

Graph layer_subgraph(const Graph& g, int node) {
  Graph s = chain_subgraph(g, {node});
  s.name = g.name + ":" + g.nodes.at(static_cast<size_t>(node)).name;
  return s;
}

}  // namespace edgesim
