// layer_subgraph (subgraph.h).
#include "sim/tune/subgraph.h"

#include <map>

namespace edgesim {

Graph layer_subgraph(const Graph& g, int node) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  Graph s;
  s.name = g.name + ":" + n.name;
  s.dialect = g.dialect;
  std::map<int, int> id;
  auto take = [&](int t) {
    const auto it = id.find(t);
    if (it != id.end()) return it->second;
    const int k = s.add_tensor(g.tensor(t));
    id[t] = k;
    return k;
  };
  Node m = n;
  m.inputs.clear();
  m.outputs.clear();
  for (int t : n.inputs) {
    const bool fresh = !id.count(t);
    m.inputs.push_back(take(t));
    if (fresh && !g.tensor(t).is_const()) s.inputs.push_back(m.inputs.back());
  }
  for (int t : n.outputs) {
    m.outputs.push_back(take(t));
    s.outputs.push_back(m.outputs.back());
  }
  s.nodes.push_back(std::move(m));
  s.validate();
  return s;
}

}  // namespace edgesim
