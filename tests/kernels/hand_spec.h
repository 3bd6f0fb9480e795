// The hand-countable cluster cost parameters the cost model tests compute their figures with.
#pragma once
#include "platforms/loader/spec.h"

namespace edgesim::test {

inline ClusterSpec hand_spec(int64_t cores = 8) {
  ClusterSpec cl;
  cl.present = true;
  cl.n_cores = cores;
  ClusterCostSpec& c = cl.cost;
  c.present = true;
  c.c_il = 16; c.c_t42 = 14; c.c_il12 = 5; c.c_il11 = 3; c.c_rq = 4; c.c_kl = 2; c.c_grp = 10;
  c.c_call = 10; c.c_cp = 10; c.c_px = 10; c.c_dwrow = 2; c.c_dwpx = 4; c.c_neu = 6; c.c_pool = 1;
  c.c_add = 8; c.t_bar = 10; c.t_fork = 100; c.c_transpose = 3; c.c_transpose_idx = 3;
  return cl;
}

}  // namespace edgesim::test
