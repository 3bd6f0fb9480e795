// Progress of a sweep on the terminal. When stdout is a terminal: one line redrawn with '\r' —
// a bar, done/total, the rate of evaluated points per second and the estimated time left.
// Otherwise nothing is printed while the sweep runs, so redirected output stays deterministic
// (the summary table printed at the end is in point order whatever the workers did).
#pragma once
#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace edgesim::sweep {

class Progress {
 public:
  // `done` points are already known (reused) when the sweep starts.
  Progress(std::ostream& out, bool tty, size_t total, size_t done);
  void step();       // one more point finished
  void finish();     // ends the line (tty only)
 private:
  void draw();
  std::ostream& out_;
  bool tty_;
  size_t total_, done_, reused_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// "1:05", "12:00:03" (ETA / elapsed).
std::string clock_text(double seconds);

}  // namespace edgesim::sweep
