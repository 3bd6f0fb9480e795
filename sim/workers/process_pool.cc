// ProcessPool (process_pool.h). Wire format, both directions: request = u32 length + bytes;
// answer = u8 status (0 ok, 1 the handler threw) + u32 length + bytes (answer or message).
#include "sim/workers/process_pool.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
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

bool write_frame(int fd, const std::string& s) {
  const auto len = static_cast<uint32_t>(s.size());
  return write_all(fd, &len, sizeof len) && write_all(fd, s.data(), s.size());
}

bool read_frame(int fd, std::string& s) {
  uint32_t len = 0;
  if (!read_all(fd, &len, sizeof len)) return false;
  s.assign(len, '\0');
  return read_all(fd, s.data(), len);
}

[[noreturn]] void serve(int in, int out, const ProcessPool::Handler& handler) {
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  for (;;) {
    std::string req;
    if (!read_frame(in, req)) ::_exit(0);   // the parent closed the pool
    uint8_t status = 0;
    std::string ans;
    try {
      ans = handler(req);
    } catch (const std::exception& e) {
      status = 1;
      ans = e.what();
    } catch (...) {
      status = 1;
      ans = "unknown exception";
    }
    if (!write_all(out, &status, 1) || !write_frame(out, ans)) ::_exit(1);
  }
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s == std::floor(s) ? "%.0f s" : "%.3g s", s);
  return buf;
}

}  // namespace

ProcessPool::ProcessPool(int jobs, Handler handler, int retries)
    : handler_(std::move(handler)), retries_(retries), workers_(static_cast<size_t>(std::max(jobs, 1))) {
  ::signal(SIGPIPE, SIG_IGN);   // a dead worker shows up as a failed write, not a signal
  // Workers are forked on demand (hand_out), so a pool of N that is given fewer requests starts
  // only as many processes as it has work for.
}

ProcessPool::~ProcessPool() {
  for (Worker& w : workers_)
    if (w.to >= 0) ::close(w.to), w.to = -1;
  for (size_t k = 0; k < workers_.size(); ++k)
    if (workers_[k].pid > 0) reap(k);
}

void ProcessPool::spawn(size_t k) {
  int req[2], ans[2];
  if (::pipe(req) != 0) throw std::runtime_error("worker pool: cannot create a pipe");
  if (::pipe(ans) != 0) {
    ::close(req[0]), ::close(req[1]);
    throw std::runtime_error("worker pool: cannot create a pipe");
  }
  std::fflush(nullptr);   // nothing buffered in the parent is printed twice by the child
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("worker pool: cannot fork a worker process");
  if (pid == 0) {
    // A worker dies with its parent (a SIGKILLed `sweep` or `tune` leaves no simulation running
    // to its end); if the parent died before this line, the worker leaves at once.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::close(req[1]);
    ::close(ans[0]);
    for (const Worker& w : workers_) {   // siblings' pipes
      if (w.to >= 0) ::close(w.to);
      if (w.from >= 0) ::close(w.from);
    }
    serve(req[0], ans[1], handler_);   // never returns; no destructors of the parent's state run
  }
  ::close(req[0]);
  ::close(ans[1]);
  workers_[k] = {pid, req[1], ans[0]};
}

std::string ProcessPool::reap(size_t k) {
  Worker& w = workers_[k];
  if (w.to >= 0) ::close(w.to);
  if (w.from >= 0) ::close(w.from);
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  w = Worker{};
  if (WIFSIGNALED(status)) return "worker process killed by signal " + std::to_string(WTERMSIG(status));
  return "worker process exited with status " + std::to_string(WEXITSTATUS(status));
}

void ProcessPool::run(const std::vector<std::string>& requests, const Done& done, const std::function<bool()>& stop) {
  std::deque<size_t> queue;
  for (size_t i = 0; i < requests.size(); ++i) queue.push_back(i);
  std::vector<int> attempts(requests.size(), 0);
  std::vector<long> busy(workers_.size(), -1);   // request each worker is on
  using Clock = std::chrono::steady_clock;
  std::vector<Clock::time_point> deadline(workers_.size());
  const auto timeout = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s_));
  size_t outstanding = requests.size();
  auto stopping = [&] { return stop && stop(); };

  auto hand_out = [&](size_t k) {
    while (!queue.empty() && !stopping()) {
      if (workers_[k].pid <= 0) spawn(k);
      const size_t i = queue.front();
      if (write_frame(workers_[k].to, requests[i])) {
        queue.pop_front();
        busy[k] = static_cast<long>(i);
        deadline[k] = Clock::now() + timeout;
        ++attempts[i];
        return;
      }
      reap(k);   // died while idle: a fresh one takes the request
    }
  };
  auto fail_or_retry = [&](size_t i, const std::string& why) {
    if (attempts[i] <= retries_ && !stopping()) {
      queue.push_front(i);
      return;
    }
    PoolOutcome o;
    o.error = why;
    o.attempts = attempts[i];
    --outstanding;
    done(i, o);
  };

  for (size_t k = 0; k < workers_.size(); ++k) hand_out(k);
  while (outstanding > 0 && !stopping()) {
    std::vector<pollfd> pf;
    std::vector<size_t> who;
    for (size_t k = 0; k < workers_.size(); ++k)
      if (busy[k] >= 0) pf.push_back({workers_[k].from, POLLIN, 0}), who.push_back(k);
    if (pf.empty()) break;   // cannot happen while requests are outstanding and workers spawn
    int wait_ms = stop ? 200 : -1;
    if (timeout_s_ > 0) {   // wake up at the earliest deadline
      const auto now = Clock::now();
      for (size_t k : who) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline[k] - now).count() + 1;
        const int ms = static_cast<int>(std::max<long long>(0, std::min<long long>(left, 1000000)));
        wait_ms = wait_ms < 0 ? ms : std::min(wait_ms, ms);
      }
    }
    if (::poll(pf.data(), pf.size(), wait_ms) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("worker pool: poll failed");
    }
    for (size_t j = 0; j < pf.size(); ++j) {
      if (!(pf[j].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const size_t k = who[j];
      const auto i = static_cast<size_t>(busy[k]);
      busy[k] = -1;
      uint8_t status = 0;
      std::string ans;
      if (!read_all(workers_[k].from, &status, 1) || !read_frame(workers_[k].from, ans)) {
        fail_or_retry(i, reap(k));
      } else {
        PoolOutcome o;
        o.ok = status == 0;
        (o.ok ? o.answer : o.error) = std::move(ans);
        o.attempts = attempts[i];
        --outstanding;
        done(i, o);
      }
      hand_out(k);
    }
    if (timeout_s_ > 0) {   // requests past their deadline: kill the worker, report the request
      const auto now = Clock::now();
      for (size_t k = 0; k < workers_.size(); ++k) {
        if (busy[k] < 0 || now < deadline[k]) continue;
        const auto i = static_cast<size_t>(busy[k]);
        busy[k] = -1;
        ::kill(workers_[k].pid, SIGKILL);
        reap(k);
        PoolOutcome o;
        o.error = "timed out after " + format_seconds(timeout_s_) + " (worker process killed)";
        o.attempts = attempts[i];
        o.timed_out = true;
        --outstanding;
        done(i, o);
        hand_out(k);
      }
    }
  }
  if (stopping()) {   // interrupted: stop whoever is busy; they are replaced on the next run()
    for (size_t k = 0; k < workers_.size(); ++k)
      if (busy[k] >= 0 && workers_[k].pid > 0) ::kill(workers_[k].pid, SIGTERM), reap(k);
  }
}

int ProcessPool::live_workers() const {
  return static_cast<int>(std::count_if(workers_.begin(), workers_.end(), [](const Worker& w) { return w.pid > 0; }));
}

int cap_jobs(int requested, const char* option) {
  const long cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  if (requested <= cpus) return requested;
  std::fprintf(stderr, "edgesim: warning: %s %d is more than the %ld processors here; using %ld worker processes "
               "(each simulation keeps one processor busy)\n", option, requested, cpus, cpus);
  return static_cast<int>(cpus);
}

std::vector<std::string> ProcessPool::run_ordered(const std::vector<std::string>& requests) {
  std::vector<std::string> out(requests.size());
  std::string first_error;
  size_t first_failed = requests.size();
  run(requests, [&](size_t i, const PoolOutcome& o) {
    if (o.ok) out[i] = o.answer;
    else if (i < first_failed) first_failed = i, first_error = o.error;
  });
  if (first_failed < requests.size())
    throw std::runtime_error("worker pool: request " + std::to_string(first_failed) + " failed: " + first_error);
  return out;
}

}  // namespace edgesim
