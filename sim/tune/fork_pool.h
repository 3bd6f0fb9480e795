// WorkerPool: `jobs` forked worker processes that evaluate requests for the parent — a process
// per worker, so each has its own SystemC globals (simulations cannot run in threads of one
// process). The workers are forked once, when the pool is made, and see the parent's memory as
// it was then (the graph and platform the handler refers to); each request is a byte string,
// each answer an int64. run() hands the next request to whichever worker is free (dynamic
// assignment) and returns the answers in request order, so the result does not depend on the
// number of workers. A handler that throws, or a worker that dies, makes run() throw
// std::runtime_error naming the request. The destructor closes the pipes and reaps the workers.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace edgesim {

class WorkerPool {
 public:
  WorkerPool(int jobs, std::function<int64_t(const std::string&)> handler);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  std::vector<int64_t> run(const std::vector<std::string>& requests);

 private:
  struct Worker {
    pid_t pid = -1;
    int to = -1, from = -1;   // request pipe (write end), answer pipe (read end)
  };
  std::vector<Worker> workers_;
};

}  // namespace edgesim
