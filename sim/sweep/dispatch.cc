// In-process and forked-worker dispatchers of `edgesim sweep` (dispatch.h).
#include "sim/sweep/dispatch.h"

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

namespace edgesim::sweep {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void on_signal(int) { g_interrupted = 1; }

bool write_all(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// Worker process body: index lines in, result lines out, until the task pipe closes.
[[noreturn]] void worker_main(int task_fd, int result_fd, const Evaluate& evaluate) {
  std::signal(SIGINT, SIG_IGN);     // the parent decides what an interrupt means
  std::signal(SIGTERM, SIG_DFL);
  std::string buf;
  char chunk[256];
  while (true) {
    const size_t nl = buf.find('\n');
    if (nl != std::string::npos) {
      const size_t index = std::stoul(buf.substr(0, nl));
      buf.erase(0, nl + 1);
      std::string msg;
      try {
        msg = evaluate(index);
      } catch (...) {
        msg.clear();   // the parent turns an empty result into an "error" record
      }
      if (!write_all(result_fd, fmt::format("{}\t{}\n", index, msg))) _exit(1);
      continue;
    }
    const ssize_t n = ::read(task_fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(0);
    buf.append(chunk, static_cast<size_t>(n));
  }
}

struct Worker {
  pid_t pid = -1;
  int task_fd = -1, result_fd = -1;
  std::string buf;
  long busy = -1;     // point index being evaluated, -1 when idle
  bool alive = true;
};

}  // namespace

bool interrupted() { return g_interrupted != 0; }

InterruptGuard::InterruptGuard() {
  g_interrupted = 0;
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;   // no SA_RESTART: poll/read return EINTR
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

void dispatch_in_process(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink) {
  for (size_t index : pending) {
    if (interrupted()) return;
    sink(index, evaluate(index));
  }
}

void dispatch_workers(int jobs, const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink,
                      const std::function<std::string(size_t, const std::string&)>& on_crash) {
  if (pending.empty()) return;
  const size_t n = std::min(pending.size(), static_cast<size_t>(std::max(jobs, 1)));
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  struct sigaction ign{}, old_pipe{};
  ign.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ign, &old_pipe);   // a dead worker's task pipe must not kill the parent

  std::vector<Worker> ws(n);
  for (size_t w = 0; w < n; ++w) {
    int task[2], result[2];
    if (::pipe(task) != 0 || ::pipe(result) != 0) throw std::runtime_error("sweep: cannot create a pipe for a worker");
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("sweep: cannot fork a worker process");
    if (pid == 0) {
      for (size_t o = 0; o < w; ++o) ::close(ws[o].task_fd), ::close(ws[o].result_fd);
      ::close(task[1]);
      ::close(result[0]);
      worker_main(task[0], result[1], evaluate);
    }
    ::close(task[0]);
    ::close(result[1]);
    ws[w].pid = pid;
    ws[w].task_fd = task[1];
    ws[w].result_fd = result[0];
  }

  size_t next = 0, outstanding = 0;
  auto hand_out = [&](Worker& w) {
    if (next < pending.size() && !interrupted() && write_all(w.task_fd, fmt::format("{}\n", pending[next]))) {
      w.busy = static_cast<long>(pending[next++]);
      ++outstanding;
    } else if (w.task_fd >= 0) {
      ::close(w.task_fd);   // no more work: the worker exits at EOF
      w.task_fd = -1;
    }
  };
  for (Worker& w : ws) hand_out(w);

  while (outstanding > 0 && !interrupted()) {
    std::vector<pollfd> fds;
    std::vector<size_t> who;
    for (size_t w = 0; w < n; ++w)
      if (ws[w].alive) fds.push_back({ws[w].result_fd, POLLIN, 0}), who.push_back(w);
    if (fds.empty()) break;
    const int r = ::poll(fds.data(), fds.size(), -1);
    if (r < 0) continue;   // EINTR: re-check the interrupt flag
    for (size_t i = 0; i < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Worker& w = ws[who[i]];
      char chunk[65536];
      const ssize_t got = ::read(w.result_fd, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {   // the worker is gone
        w.alive = false;
        ::close(w.result_fd);
        if (w.task_fd >= 0) ::close(w.task_fd), w.task_fd = -1;
        int status = 0;
        ::waitpid(w.pid, &status, 0);
        w.pid = -1;
        if (w.busy >= 0 && !interrupted()) {
          const std::string why = WIFSIGNALED(status) ? fmt::format("worker process killed by signal {}", WTERMSIG(status))
                                                       : fmt::format("worker process exited with status {}", WEXITSTATUS(status));
          sink(static_cast<size_t>(w.busy), on_crash(static_cast<size_t>(w.busy), why));
          --outstanding;
          w.busy = -1;
        }
        continue;
      }
      w.buf.append(chunk, static_cast<size_t>(got));
      size_t nl;
      while ((nl = w.buf.find('\n')) != std::string::npos) {
        const std::string line = w.buf.substr(0, nl);
        w.buf.erase(0, nl + 1);
        const size_t tab = line.find('\t');
        const size_t index = std::stoul(line.substr(0, tab));
        std::string msg = tab == std::string::npos ? "" : line.substr(tab + 1);
        if (msg.empty()) msg = on_crash(index, "worker failed to evaluate the point");
        --outstanding;
        w.busy = -1;
        sink(index, msg);
        hand_out(w);
      }
    }
  }

  // Finished or interrupted: close the task pipes, stop whoever is still busy, reap everyone.
  for (Worker& w : ws) {
    if (w.task_fd >= 0) ::close(w.task_fd), w.task_fd = -1;
    if (w.pid > 0 && interrupted()) ::kill(w.pid, SIGTERM);
  }
  for (Worker& w : ws) {
    if (w.pid > 0) {
      int status = 0;
      while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    if (w.alive) ::close(w.result_fd);
  }
  sigaction(SIGPIPE, &old_pipe, nullptr);
}

}  // namespace edgesim::sweep
