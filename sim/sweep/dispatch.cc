// In-process and forked-worker dispatchers of `edgesim sweep` (dispatch.h).
#include "sim/sweep/dispatch.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "sim/workers/process_pool.h"

namespace edgesim::sweep {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void on_signal(int) { g_interrupted = 1; }

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

namespace {

// The record of a failed request of the pool.
std::string failed_record(size_t index, const PoolOutcome& o, const OnCrash& on_crash) {
  std::string why = o.ok ? "the evaluation gave no record" : o.error;
  if (o.attempts > 1) why += fmt::format(" (tried {} times)", o.attempts);
  return on_crash(index, why);
}

std::string evaluate_request(const Evaluate& evaluate, const std::string& req) { return evaluate(std::stoul(req)); }

}  // namespace

void dispatch_workers(int jobs, const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink,
                      const OnCrash& on_crash, double timeout_s) {
  if (pending.empty()) return;
  const int n = static_cast<int>(std::min(pending.size(), static_cast<size_t>(std::max(jobs, 1))));
  struct sigaction ign{}, old_pipe{};
  ign.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ign, &old_pipe);   // a dead worker's request pipe must not kill the parent
  std::vector<std::string> requests;
  for (size_t index : pending) requests.push_back(std::to_string(index));
  {
    ProcessPool pool(
        n, [&evaluate](const std::string& req) { return evaluate_request(evaluate, req); }, /*retries=*/1);
    pool.set_timeout(timeout_s);
    pool.run(
        requests,
        [&](size_t i, const PoolOutcome& o) {
          const size_t index = pending[i];
          if (o.ok && !o.answer.empty()) return sink(index, o.answer);
          sink(index, failed_record(index, o, on_crash));
        },
        [] { return interrupted(); });
  }
  sigaction(SIGPIPE, &old_pipe, nullptr);
}

IsolatedEvaluate::IsolatedEvaluate(Evaluate evaluate, OnCrash on_crash, double timeout_s)
    : evaluate_(std::move(evaluate)), on_crash_(std::move(on_crash)), timeout_s_(timeout_s) {}

IsolatedEvaluate::~IsolatedEvaluate() = default;

std::string IsolatedEvaluate::operator()(size_t index) {
  if (!pool_) {
    ::signal(SIGPIPE, SIG_IGN);
    pool_ = std::make_unique<ProcessPool>(
        1, [this](const std::string& req) { return evaluate_request(evaluate_, req); }, /*retries=*/1);
    pool_->set_timeout(timeout_s_);
  }
  std::string record;
  pool_->run({std::to_string(index)}, [&](size_t, const PoolOutcome& o) {
    record = o.ok && !o.answer.empty() ? o.answer : failed_record(index, o, on_crash_);
  });
  return record;
}

}  // namespace edgesim::sweep
