// Engine (engine.h): the job loop shared by every engine.
#include "sim/core/engine.h"

#include "sim/core/context.h"
#include "sim/core/sanitizer_hooks.h"

namespace edgesim {

Engine::Engine(const sc_core::sc_module_name& name, JobListener& listener)
    : sc_core::sc_module(name), track_(static_cast<const char*>(name)), listener_(listener) {
  SC_HAS_PROCESS(Engine);
  SC_THREAD(run);
}

void Engine::submit(Job* j) {
  pending_.push_back(j);
  arrived_.notify(sc_core::SC_ZERO_TIME);
}

void Engine::run() {
  clear_stale_stack_poison();
  for (;;) {
    if (pending_.empty()) wait(arrived_);
    wait(sc_core::SC_ZERO_TIME);   // let every job of this cycle arrive before choosing
    if (pending_.empty()) continue;
    const size_t k = pick();
    Job* j = pending_[k];
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(k));
    j->start = now_cycles();
    listener_.job_started(*j);
    if (j->duration > 0) wait(delay_time(j->duration, j->start, "a job"));
    j->end = now_cycles();
    listener_.job_finished(*j);
  }
}

FifoEngine::FifoEngine(const sc_core::sc_module_name& name, JobListener& listener, std::string track)
    : Engine(name, listener) {
  track_ = std::move(track);
}

ProgramOrderEngine::ProgramOrderEngine(const sc_core::sc_module_name& name, JobListener& listener, std::string track)
    : Engine(name, listener) {
  track_ = std::move(track);
}

size_t ProgramOrderEngine::pick() const {
  size_t best = 0;
  for (size_t k = 1; k < pending_.size(); ++k)
    if (pending_[k]->id < pending_[best]->id) best = k;
  return best;
}

}  // namespace edgesim
