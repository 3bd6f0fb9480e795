// "Did you mean": the one place that judges how close a misspelled name is to the names edgesim
// knows (subcommands, options, policies, engines, enumerated values, bundled platforms), so a
// typo is treated the same way by every command. Header-only and free of CLI11, so the unit test
// (tests/sim/cli_suggest_test.cc) exercises exactly what the CLI uses.
#pragma once
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace edgesim::cli {

// Optimal string alignment distance: an insertion, a deletion, a substitution or the swap of two
// adjacent characters costs 1 each ("polcy" -> "policy" 1, "rnu" -> "run" 1, "dory" -> "deeploy" 5).
inline size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t n = b.size();
  std::vector<size_t> prev2(n + 1), prev(n + 1), cur(n + 1);
  for (size_t j = 0; j <= n; ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= n; ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[n];
}

// The candidates closest to `word`, as " (did you mean 'a'?)" or " (did you mean 'a' or 'b'?)"
// (ties, at most three, in the candidates' order), or "" when none is close enough. Close
// enough: at most 1 edit for words of up to 4 characters, 2 up to 8, else 3, and fewer edits
// than the word has characters; leading dashes are not counted, so "-x" is not "-p". Failing
// that, a word of 3+ characters that begins exactly one candidate suggests it ("--rep" ->
// "--report"). A candidate that differs from the word only in case is suggested alone.
inline std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  // The same word in another case ("GAP8" for "gap8") is the suggestion, whatever its length.
  auto lower = [](std::string s) {
    for (char& ch : s) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    return s;
  };
  for (const std::string& c : candidates)
    if (c != word && lower(c) == lower(word)) return " (did you mean '" + c + "'?)";
  const size_t len = word.size() - std::min(word.find_first_not_of('-'), word.size());
  const size_t limit = std::min(len <= 4 ? size_t{1} : len <= 8 ? size_t{2} : size_t{3}, len == 0 ? 0 : len - 1);
  size_t best = limit + 1;
  std::vector<std::string> closest;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d == 0 || d > limit || d > best) continue;
    if (d < best) best = d, closest.clear();
    if (std::find(closest.begin(), closest.end(), c) == closest.end()) closest.push_back(c);
  }
  if (closest.empty() && len >= 3) {
    for (const std::string& c : candidates)
      if (c.size() > word.size() && c.compare(0, word.size(), word) == 0 &&
          std::find(closest.begin(), closest.end(), c) == closest.end())
        closest.push_back(c);
    if (closest.size() != 1) closest.clear();
  }
  if (closest.empty()) return "";
  if (closest.size() > 3) closest.resize(3);
  std::string s = " (did you mean ";
  for (size_t i = 0; i < closest.size(); ++i)
    s += (i == 0 ? "" : i + 1 == closest.size() ? " or " : ", ") + ("'" + closest[i] + "'");
  return s + "?)";
}

}  // namespace edgesim::cli
