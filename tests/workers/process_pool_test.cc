// [workers] the one process pool of tune and sweep (sim/workers/process_pool.h): answers in
// request order for any number of workers, reuse, a handler's exception message, a worker killed
// by SIGKILL replaced and its request retried, and a stop request.
#include <csignal>
#include <cstdio>
#include <map>
#include <set>

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <unistd.h>

#include "sim/workers/process_pool.h"

using namespace edgesim;

TEST_CASE("process pool: answers in request order for any number of workers", "[workers]") {
  auto f = [](const std::string& r) -> std::string {
    if (r == "boom") throw std::runtime_error("boom in handler");
    return std::to_string(r.size() * 3 + 1);
  };
  std::vector<std::string> reqs, want;
  for (int i = 0; i < 37; ++i) reqs.push_back(std::string(static_cast<size_t>(i), 'a'));
  for (const auto& r : reqs) want.push_back(f(r));
  for (int jobs : {1, 2, 5}) {
    ProcessPool pool(jobs, f);
    CHECK(pool.run_ordered(reqs) == want);
    CHECK(pool.run_ordered({"ab"}) == std::vector<std::string>{"7"});   // reusable
    CHECK(pool.run_ordered({}).empty());
  }
  ProcessPool pool(2, f);
  CHECK_THROWS_WITH(pool.run_ordered({"a", "boom", "c"}), Catch::Matchers::Contains("request 1 failed: boom in handler"));
  CHECK(pool.run_ordered({"abc"}) == std::vector<std::string>{"10"});   // still usable after a handler error
}

TEST_CASE("process pool: binary answers pass unchanged and each request is answered in a worker", "[workers]") {
  ProcessPool pool(2, [](const std::string& r) { return r + std::string(1, '\0') + std::to_string(::getpid()); });
  const std::vector<std::string> out = pool.run_ordered({"x", std::string("a\0b", 3)});
  REQUIRE(out.size() == 2);
  CHECK(out[0].substr(0, 2) == std::string("x\0", 2));
  CHECK(out[1].substr(0, 4) == std::string("a\0b\0", 4));
  CHECK(out[0].substr(2) != std::to_string(::getpid()));
}

TEST_CASE("process pool: a killed worker is replaced and its request retried, then reported", "[workers]") {
  // Request "die-once" kills its first worker only (a marker file says it already happened);
  // "die" kills every worker that takes it.
  const std::string marker = "process_pool_test_marker_" + std::to_string(::getpid());
  std::remove(marker.c_str());
  auto f = [&marker](const std::string& r) -> std::string {
    if (r == "die") ::raise(SIGKILL);
    if (r == "die-once") {
      if (std::FILE* m = std::fopen(marker.c_str(), "wx")) {   // the first worker to take it
        std::fclose(m);
        ::raise(SIGKILL);
      }
    }
    return "ok " + r;
  };
  ProcessPool pool(2, f, /*retries=*/1);
  std::map<size_t, PoolOutcome> got;
  pool.run({"a", "die", "b", "die-once", "c", "d"}, [&](size_t i, const PoolOutcome& o) { CHECK(got.emplace(i, o).second); });
  std::remove(marker.c_str());
  REQUIRE(got.size() == 6);
  for (size_t i : {0, 2, 4, 5}) CHECK((got[i].ok && got[i].attempts == 1));
  CHECK(got[3].ok);
  CHECK(got[3].answer == "ok die-once");
  CHECK(got[3].attempts == 2);
  CHECK_FALSE(got[1].ok);
  CHECK(got[1].attempts == 2);
  CHECK(got[1].error == "worker process killed by signal 9");
  CHECK(pool.run_ordered({"e"}) == std::vector<std::string>{"ok e"});   // the pool has live workers again
}

TEST_CASE("process pool: without retries a killed worker's request fails at once", "[workers]") {
  ProcessPool pool(1, [](const std::string& r) -> std::string {
    if (r == "die") ::raise(SIGKILL);
    return r;
  });
  std::map<size_t, PoolOutcome> got;
  pool.run({"die", "x"}, [&](size_t i, const PoolOutcome& o) { got[i] = o; });
  CHECK((!got[0].ok && got[0].attempts == 1));
  CHECK((got[1].ok && got[1].answer == "x"));
}

TEST_CASE("process pool: a stop request hands out nothing more", "[workers]") {
  ProcessPool pool(2, [](const std::string& r) { return r; });
  std::set<size_t> done;
  pool.run({"a", "b", "c", "d", "e"}, [&](size_t i, const PoolOutcome&) { done.insert(i); },
           [&] { return done.size() >= 1; });
  CHECK(done.size() < 5);
  CHECK(pool.run_ordered({"z"}) == std::vector<std::string>{"z"});
}

TEST_CASE("process pool: a request past the timeout has its worker killed and is reported, not retried", "[workers]") {
  ProcessPool pool(2, [](const std::string& r) {
    if (r == "slow") ::sleep(600);
    return r;
  }, /*retries=*/1);
  pool.set_timeout(0.5);
  std::map<size_t, PoolOutcome> got;
  pool.run({"a", "slow", "b", "c"}, [&](size_t i, const PoolOutcome& o) { CHECK(got.emplace(i, o).second); });
  REQUIRE(got.size() == 4);
  for (size_t i : {0, 2, 3}) CHECK((got[i].ok && got[i].answer.size() == 1));
  CHECK_FALSE(got[1].ok);
  CHECK(got[1].timed_out);
  CHECK(got[1].attempts == 1);
  CHECK(got[1].error == "timed out after 0.5 s (worker process killed)");
  CHECK(pool.run_ordered({"d"}) == std::vector<std::string>{"d"});
}

TEST_CASE("process pool: forks only as many workers as it has requests (issue 36 #13)", "[workers]") {
  ProcessPool pool(8, [](const std::string& r) { return r; });
  CHECK(pool.live_workers() == 0);
  CHECK(pool.run_ordered({"a", "b", "c"}) == std::vector<std::string>{"a", "b", "c"});
  CHECK(pool.live_workers() <= 3);
  CHECK(pool.jobs() == 8);
  const int cpus = static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  CHECK(cap_jobs(1, "-j") == 1);
  CHECK(cap_jobs(cpus, "-j") == cpus);
  CHECK(cap_jobs(cpus + 100, "-j") == cpus);   // with a warning on stderr
}

namespace {

// True when process `pid` is gone or a zombie (an orphan waits for its new parent to reap it).
bool process_ended(pid_t pid) {
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (!f) return true;
  char state = '?';
  const int n = std::fscanf(f, "%*d (%*[^)]) %c", &state);
  std::fclose(f);
  return n == 1 && (state == 'Z' || state == 'X');
}

}  // namespace

TEST_CASE("process pool: workers die with a SIGKILLed parent (issue 36 #14)", "[workers]") {
  // A parent process runs a pool whose only request sleeps for a minute, and is SIGKILLed while
  // its worker is busy; the worker used to run on until its request ended.
  const std::string pidfile = "process_pool_test_worker_" + std::to_string(::getpid());
  std::remove(pidfile.c_str());
  const pid_t parent = ::fork();
  REQUIRE(parent >= 0);
  if (parent == 0) {
    ProcessPool pool(1, [&](const std::string& r) {
      if (std::FILE* f = std::fopen(pidfile.c_str(), "w")) std::fprintf(f, "%d\n", ::getpid()), std::fclose(f);
      ::sleep(60);
      return r;
    });
    (void)pool.run_ordered({"x"});
    ::_exit(0);
  }
  pid_t worker = -1;
  for (int i = 0; i < 500 && worker <= 0; ++i) {   // up to 10 s for the worker to start
    if (std::FILE* f = std::fopen(pidfile.c_str(), "r")) {
      if (std::fscanf(f, "%d", &worker) != 1) worker = -1;
      std::fclose(f);
    }
    if (worker <= 0) ::usleep(20000);
  }
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  std::remove(pidfile.c_str());
  REQUIRE(worker > 0);
  bool ended = false;
  for (int i = 0; i < 250 && !ended; ++i) {   // up to 5 s
    ended = process_ended(worker);
    if (!ended) ::usleep(20000);
  }
  if (!ended) ::kill(worker, SIGKILL);
  CHECK(ended);
}
