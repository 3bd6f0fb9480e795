// Static memory allocation: places buffers of one level given their lifetimes. Behind an
// interface so a better planner can replace the first one.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/schedule/schedule.h"

namespace edgesim {

class Planner {
 public:
  virtual ~Planner() = default;
  virtual std::string name() const = 0;
  // Sets Buffer::offset of every buffer in `ids` (all of one level) so that buffers with
  // intersecting lifetimes do not overlap; offsets are aligned to `align` bytes. Returns the
  // high-water mark. Must be deterministic.
  virtual int64_t place(std::vector<Buffer>& buffers, const std::vector<int>& ids,
                        int64_t align) const = 0;
};

std::unique_ptr<Planner> make_planner(const std::string& name = "first-fit");

}  // namespace edgesim
