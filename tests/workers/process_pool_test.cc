// [workers] the one process pool of tune and sweep (sim/workers/process_pool.h): answers in
// request order for any number of workers, reuse, a handler's exception message, a worker killed
// by SIGKILL replaced and its request retried, and a stop request.
#include <csignal>
#include <cstdio>
#include <map>
#include <set>

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
