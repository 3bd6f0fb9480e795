// First-fit planner: no two buffers with intersecting lifetimes overlap, offsets are aligned,
// memory of dead buffers is reused, the result is deterministic, and the high-water mark is
// the top of the highest buffer.
#include <catch2/catch.hpp>

#include "compiler/schedule/planner.h"
#include "schedule/sched_util.h"

using namespace edgesim;

namespace {

Buffer buf(int id, int64_t bytes, int first, int last) {
  Buffer b;
  b.id = id;
  b.level = Level::L2;
  b.bytes = bytes;
  b.first_step = first;
  b.last_step = last;
  b.name = "b" + std::to_string(id);
  return b;
}

Schedule with(std::vector<Buffer> bs, int64_t align) {
  Schedule s;
  s.buffers = std::move(bs);
  std::vector<int> ids;
  for (const Buffer& b : s.buffers) ids.push_back(b.id);
  s.high_water[static_cast<size_t>(Level::L2)] = make_planner()->place(s.buffers, ids, align);
  return s;
}

}  // namespace

TEST_CASE("planner: first-fit places largest first and reuses dead space", "[alloc]") {
  const Schedule s = with({buf(0, 100, 0, 1), buf(1, 50, 2, 3), buf(2, 30, 0, 3)}, 4);
  CHECK(test::allocation_problem(s).empty());
  CHECK(s.buffers[0].offset == 0);     // largest
  CHECK(s.buffers[2].offset == 100);   // lives with both others
  CHECK(s.buffers[1].offset == 0);     // reuses buffer 0's space after it died
  CHECK(s.high_water[static_cast<size_t>(Level::L2)] == 130);
}

TEST_CASE("planner: offsets are aligned and gaps are used", "[alloc]") {
  const Schedule s = with({buf(0, 10, 0, 0), buf(1, 10, 0, 0), buf(2, 3, 0, 0)}, 8);
  CHECK(test::allocation_problem(s).empty());
  for (const Buffer& b : s.buffers) CHECK(b.offset % 8 == 0);
  CHECK(s.buffers[0].offset == 0);
  CHECK(s.buffers[1].offset == 16);
  CHECK(s.buffers[2].offset == 32);
  CHECK(s.high_water[static_cast<size_t>(Level::L2)] == 35);
  // Placement order 0, 2 (40 B, from step 0), 1 (40 B, step 1) -> 0, 40, 80; buffer 3 lives
  // at step 2 only, when buffer 1 is dead, and takes its slot.
  const Schedule t = with({buf(0, 40, 0, 2), buf(1, 40, 1, 1), buf(2, 40, 0, 2), buf(3, 8, 2, 2)}, 4);
  CHECK(test::allocation_problem(t).empty());
  CHECK(t.buffers[2].offset == 40);
  CHECK(t.buffers[1].offset == 80);
  CHECK(t.buffers[3].offset == 80);
  CHECK(t.high_water[static_cast<size_t>(Level::L2)] == 120);
}

TEST_CASE("planner: deterministic and overlap-free on random lifetimes", "[alloc]") {
  std::mt19937 rng(5);
  std::vector<Buffer> bs;
  for (int i = 0; i < 200; ++i) {
    const int a = static_cast<int>(rng() % 40), len = static_cast<int>(rng() % 6);
    bs.push_back(buf(i, 1 + static_cast<int64_t>(rng() % 5000), a, a + len));
  }
  const Schedule s1 = with(bs, 4), s2 = with(bs, 4);
  CHECK(test::allocation_problem(s1).empty());
  for (size_t i = 0; i < bs.size(); ++i) CHECK(s1.buffers[i].offset == s2.buffers[i].offset);
  CHECK_THROWS(make_planner("best-fit"));
}
