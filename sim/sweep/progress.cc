// Terminal progress bar of `edgesim sweep` (progress.h).
#include "sim/sweep/progress.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

namespace edgesim::sweep {

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

Progress::Progress(std::ostream& out, bool tty, size_t total, size_t done)
    : out_(out), tty_(tty), total_(total), done_(done), reused_(done), start_(std::chrono::steady_clock::now()) {
  last_draw_ = start_;
  if (tty_ && total_ > 0) draw();
}

void Progress::step() {
  ++done_;
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done_ < total_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw();   // always at the last point, so finish() need not redraw
}

void Progress::draw() {
  constexpr size_t kWidth = 30;
  const size_t fill = total_ ? done_ * kWidth / total_ : kWidth;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const size_t computed = done_ - reused_;
  std::string rate = "-", eta = "-";
  if (computed > 0 && elapsed > 0) {
    const double r = static_cast<double>(computed) / elapsed;
    rate = r >= 10 ? fmt::format("{:.0f}", r) : fmt::format("{:.1f}", r);
    eta = clock_text(static_cast<double>(total_ - done_) / r);
  }
  out_ << fmt::format("\r[{}{}] {}/{} points  {} pt/s  ETA {}  elapsed {}   ", std::string(fill, '#'),
                      std::string(kWidth - fill, '.'), done_, total_, rate, eta, clock_text(elapsed))
       << std::flush;
  drawn_ = true;
}

void Progress::finish() {
  if (!tty_) return;
  if (!drawn_ || done_ < total_ || last_draw_ == start_) draw();
  out_ << "\n" << std::flush;
}

}  // namespace edgesim::sweep
