// fork_map: evaluates f(0..n-1) in `jobs` forked worker processes (a process per worker, so each
// has its own SystemC globals: simulations cannot run in threads of one process). Worker w
// takes the indices i with i mod jobs == w and sends (i, f(i)) back through a pipe; the parent
// collects them in index order, so the result does not depend on `jobs`. jobs <= 1 or n <= 1
// runs in-process. A worker that fails (exception, crash) makes fork_map throw
// std::runtime_error naming the index it could not evaluate.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace edgesim {

std::vector<int64_t> fork_map(size_t n, int jobs, const std::function<int64_t(size_t)>& f);

}  // namespace edgesim
