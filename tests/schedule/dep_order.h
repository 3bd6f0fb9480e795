// Test support: checks that a schedule's `deps` are a sufficient partial order. A timed
// executor may start any command once its deps have completed (docs/schedule.md §1), so
// running the commands in another order that respects the deps must give the same outputs.
// reorder_by_deps() produces the order furthest from list order: repeatedly the ready command
// with the highest id (a load of tile i+1 jumps ahead of everything that does not feed it).
// The result is one step holding every command, with every buffer live throughout; only its
// graph outputs are meaningful after execute_functional (intermediate snapshots are not).
#pragma once
#include <map>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/schedule/schedule.h"

namespace edgesim::test {

// Throws std::runtime_error when an id repeats or a dep names no earlier command.
inline Schedule reorder_by_deps(const Schedule& s) {
  std::vector<const Command*> cmds;
  std::map<int, size_t> index;   // id -> position in list order
  for (const Step& st : s.steps)
    for (const Command& c : st.commands) {
      for (int d : c.deps)
        if (!index.count(d))
          throw std::runtime_error("command " + std::to_string(c.id) + " (" + c.note + ") depends on " +
                                   std::to_string(d) + ", which is not an earlier command");
      if (!index.emplace(c.id, cmds.size()).second)
        throw std::runtime_error("command id " + std::to_string(c.id) + " repeats");
      cmds.push_back(&c);
    }
  std::vector<int> missing(cmds.size(), 0);
  std::vector<std::vector<size_t>> users(cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i)
    for (int d : cmds[i]->deps) {
      ++missing[i];
      users[index.at(d)].push_back(i);
    }
  std::priority_queue<size_t> ready;   // highest list position (= highest id) first
  for (size_t i = 0; i < cmds.size(); ++i)
    if (missing[i] == 0) ready.push(i);
  Schedule r = s;
  Step all;
  all.node = -1;
  all.name = "deps order";
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    all.commands.push_back(*cmds[i]);
    for (size_t u : users[i])
      if (--missing[u] == 0) ready.push(u);
  }
  r.steps = {all};
  for (Buffer& b : r.buffers) b.first_step = b.last_step = 0;
  return r;
}

}  // namespace edgesim::test
