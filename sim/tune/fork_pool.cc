// WorkerPool (fork_pool.h). Wire format: request = u32 length + bytes; answer = i64 status
// (0 ok, 1 the handler threw) + i64 value.
#include "sim/tune/fork_pool.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

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

bool read_all(int fd, void* p, size_t n) {
  auto* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t k = ::read(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

[[noreturn]] void serve(int in, int out, const std::function<int64_t(const std::string&)>& handler) {
  for (;;) {
    uint32_t len = 0;
    if (!read_all(in, &len, sizeof len)) ::_exit(0);   // the parent closed the pool
    std::string req(len, '\0');
    if (!read_all(in, req.data(), len)) ::_exit(1);
    int64_t ans[2] = {0, 0};
    try {
      ans[1] = handler(req);
    } catch (...) {
      ans[0] = 1;
    }
    if (!write_all(out, ans, sizeof ans)) ::_exit(1);
  }
}

}  // namespace

WorkerPool::WorkerPool(int jobs, std::function<int64_t(const std::string&)> handler) {
  ::signal(SIGPIPE, SIG_IGN);   // a dead worker shows up as a failed write, not a signal
  for (int k = 0; k < jobs; ++k) {
    int req[2], ans[2];
    if (::pipe(req) != 0 || ::pipe(ans) != 0) throw std::runtime_error("worker pool: pipe failed");
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("worker pool: fork failed");
    if (pid == 0) {
      ::close(req[1]);
      ::close(ans[0]);
      for (const Worker& w : workers_) ::close(w.to), ::close(w.from);   // siblings' pipes
      serve(req[0], ans[1], handler);   // never returns; no destructors of the parent's state run
    }
    ::close(req[0]);
    ::close(ans[1]);
    workers_.push_back({pid, req[1], ans[0]});
  }
}

WorkerPool::~WorkerPool() {
  for (Worker& w : workers_) ::close(w.to);
  for (Worker& w : workers_) {
    ::close(w.from);
    int st = 0;
    ::waitpid(w.pid, &st, 0);
  }
}

std::vector<int64_t> WorkerPool::run(const std::vector<std::string>& requests) {
  std::vector<int64_t> out(requests.size(), 0);
  std::vector<long> busy(workers_.size(), -1);   // request each worker is on
  size_t next = 0, done = 0;
  auto send = [&](size_t k) {
    const std::string& r = requests[next];
    const auto len = static_cast<uint32_t>(r.size());
    if (!write_all(workers_[k].to, &len, sizeof len) || !write_all(workers_[k].to, r.data(), r.size()))
      throw std::runtime_error("worker pool: worker " + std::to_string(k) + " died before request " +
                               std::to_string(next));
    busy[k] = static_cast<long>(next++);
  };
  for (size_t k = 0; k < workers_.size() && next < requests.size(); ++k) send(k);
  while (done < requests.size()) {
    std::vector<pollfd> pf;
    for (size_t k = 0; k < workers_.size(); ++k)
      if (busy[k] >= 0) pf.push_back({workers_[k].from, POLLIN, 0});
    if (::poll(pf.data(), pf.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("worker pool: poll failed");
    }
    for (size_t k = 0; k < workers_.size(); ++k) {
      if (busy[k] < 0) continue;
      bool ready = false;
      for (const pollfd& p : pf)
        if (p.fd == workers_[k].from && (p.revents & (POLLIN | POLLHUP | POLLERR))) ready = true;
      if (!ready) continue;
      int64_t ans[2];
      const long i = busy[k];
      if (!read_all(workers_[k].from, ans, sizeof ans) || ans[0] != 0)
        throw std::runtime_error("worker pool: request " + std::to_string(i) + " failed in worker " + std::to_string(k));
      out[static_cast<size_t>(i)] = ans[1];
      busy[k] = -1;
      ++done;
      if (next < requests.size()) send(k);
    }
  }
  return out;
}

}  // namespace edgesim
