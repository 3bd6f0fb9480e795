// The design space of `edgesim sweep`: a list of axes, one per platform key, each with the values
// to try (the `--set` syntax of `describe`: `l1.size=64KiB,128KiB`; one value is a fixed
// override). A point is one value per axis; the grid is their cartesian product in lexical order
// of the axes as given (the first axis varies slowest), and a sweep visits networks in the order
// given, each over the whole grid. The order is part of the output format: results are always
// written in it, whatever the order in which workers finish.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace edgesim::sweep {

class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Axis {
  std::string key;                  // dotted platform key, e.g. "l1.size"
  std::vector<std::string> values;  // as written, e.g. {"64KiB", "128KiB"}
  // Linked axes (--link a=1,2:b=3,4) share a group >= 0 and vary together: one grid dimension
  // whose i-th step sets value i of every axis of the group. -1: an axis of its own.
  int link = -1;
};

// "key=v1,v2,..." -> Axis. Throws SweepError naming the option for a missing '=', an empty key,
// an empty value or a value given twice.
Axis parse_axis(const std::string& option);

// "k1=v1,v2:k2=w1,w2" -> linked axes (group `link`), one per key, with equally many values.
// Throws SweepError naming the option for a malformed part or lists of different lengths.
std::vector<Axis> parse_link(const std::string& option, int link);

// Adds or replaces an axis: a key already present keeps its position and takes the new values
// (command-line options override a preset), a new key is appended. Replacing a linked key
// unlinks it from its group.
void merge_axis(std::vector<Axis>& axes, const Axis& a);

// Number of points of the grid (1 for no axes): the product over dimensions (a linked group is
// one dimension).
size_t grid_size(const std::vector<Axis>& axes);

// The values of point `index` (0 <= index < grid_size), one per axis, in lexical order of the
// dimensions (a linked group is ordered by its first axis).
std::vector<std::string> grid_point(const std::vector<Axis>& axes, size_t index);

// The overrides of a point for load_platform: {"key=value", ...}.
std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const std::vector<std::string>& values);

// "l1.size=64KiB l2.size=512KiB" (for messages and the terminal summary).
std::string point_label(const std::vector<Axis>& axes, const std::vector<std::string>& values);

// Axes with more than one value (the ones a plot has to show); of a linked group only the first.
std::vector<size_t> varied_axes(const std::vector<Axis>& axes);

// "cluster.n_cores" or, for the first axis of a linked group, "cluster.n_cores (+ budgets.dory.n_cores)".
std::string axis_title(const std::vector<Axis>& axes, size_t i);

}  // namespace edgesim::sweep
