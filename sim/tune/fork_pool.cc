// fork_map (fork_pool.h).
#include "sim/tune/fork_pool.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace edgesim {

namespace {

bool write_all(int fd, const void* p, size_t n) {
  const auto* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t k = ::write(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

}  // namespace

std::vector<int64_t> fork_map(size_t n, int jobs, const std::function<int64_t(size_t)>& f) {
  std::vector<int64_t> out(n, 0);
  if (jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) out[i] = f(i);
    return out;
  }
  const size_t w = std::min(static_cast<size_t>(jobs), n);
  std::vector<int> fds(w, -1);
  std::vector<pid_t> pids(w, -1);
  for (size_t k = 0; k < w; ++k) {
    int p[2];
    if (::pipe(p) != 0) throw std::runtime_error("fork_map: pipe failed");
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork_map: fork failed");
    if (pid == 0) {
      ::close(p[0]);
      int status = 0;
      for (size_t i = k; i < n; i += w) {
        int64_t rec[2] = {static_cast<int64_t>(i), 0};
        try {
          rec[1] = f(i);
        } catch (...) {
          status = 1;
          break;
        }
        if (!write_all(p[1], rec, sizeof rec)) {
          status = 1;
          break;
        }
      }
      ::close(p[1]);
      ::_exit(status);   // no destructors or atexit handlers of the parent's state
    }
    ::close(p[1]);
    fds[k] = p[0];
    pids[k] = pid;
  }
  // Drain all pipes concurrently (a full pipe would stall its worker).
  std::vector<bool> got(n, false);
  std::vector<std::string> pending(w);
  size_t open = w;
  while (open > 0) {
    std::vector<pollfd> pf;
    std::vector<size_t> who;
    for (size_t k = 0; k < w; ++k)
      if (fds[k] >= 0) pf.push_back({fds[k], POLLIN, 0}), who.push_back(k);
    if (::poll(pf.data(), pf.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("fork_map: poll failed");
    }
    for (size_t q = 0; q < pf.size(); ++q) {
      if (!(pf[q].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const size_t k = who[q];
      char buf[4096];
      const ssize_t r = ::read(fds[k], buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        ::close(fds[k]);
        fds[k] = -1;
        --open;
        continue;
      }
      pending[k].append(buf, static_cast<size_t>(r));
      size_t used = 0;
      int64_t rec[2];
      while (pending[k].size() - used >= sizeof rec) {
        std::memcpy(rec, pending[k].data() + used, sizeof rec);
        used += sizeof rec;
        if (rec[0] >= 0 && static_cast<size_t>(rec[0]) < n) {
          out[static_cast<size_t>(rec[0])] = rec[1];
          got[static_cast<size_t>(rec[0])] = true;
        }
      }
      pending[k].erase(0, used);
    }
  }
  for (size_t k = 0; k < w; ++k) {
    int st = 0;
    ::waitpid(pids[k], &st, 0);
  }
  for (size_t i = 0; i < n; ++i)
    if (!got[i]) throw std::runtime_error("fork_map: worker failed to evaluate item " + std::to_string(i));
  return out;
}

}  // namespace edgesim
