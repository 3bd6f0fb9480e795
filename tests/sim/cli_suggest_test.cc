// The "did you mean" helper of the CLI (sim/cli/suggest.h): the distance it judges typos by and
// which candidates it offers.
#include <catch2/catch.hpp>

#include "sim/cli/suggest.h"

using edgesim::cli::did_you_mean;
using edgesim::cli::edit_distance;

TEST_CASE("edit_distance counts insertions, deletions, substitutions and adjacent swaps", "[cli]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("run", "run") == 0);
  CHECK(edit_distance("", "run") == 3);
  CHECK(edit_distance("run", "") == 3);
  CHECK(edit_distance("runn", "run") == 1);          // insertion
  CHECK(edit_distance("polcy", "policy") == 1);      // deletion
  CHECK(edit_distance("gap7", "gap8") == 1);         // substitution
  CHECK(edit_distance("rnu", "run") == 1);           // adjacent swap, not two substitutions
  CHECK(edit_distance("--plicoy", "--policy") == 2);
  CHECK(edit_distance("dory", "deeploy") == 5);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("ca", "abc") == 3);            // optimal string alignment, not full Damerau (2)
}

TEST_CASE("did_you_mean offers the closest candidates, or nothing", "[cli]") {
  const std::vector<std::string> commands{"describe", "verify", "compile", "run", "tune", "sweep", "validate"};
  CHECK(did_you_mean("runn", commands) == " (did you mean 'run'?)");
  CHECK(did_you_mean("complie", commands) == " (did you mean 'compile'?)");
  CHECK(did_you_mean("tun", commands) == " (did you mean 'run' or 'tune'?)");   // ties, in order
  CHECK(did_you_mean("simulate", commands).empty());
  CHECK(did_you_mean("run", commands).empty());                                   // nothing to correct
  CHECK(did_you_mean("RUN", commands) == " (did you mean 'run'?)");               // another case
  CHECK(did_you_mean("GAP8", {"gap8", "gap9"}) == " (did you mean 'gap8'?)");     // not gap9 too

  const std::vector<std::string> options{"--policy", "-p", "--platform", "--set", "--seed", "--report", "--json"};
  CHECK(did_you_mean("--polcy", options) == " (did you mean '--policy'?)");
  CHECK(did_you_mean("--platfrom", options) == " (did you mean '--platform'?)");
  CHECK(did_you_mean("--sed", options) == " (did you mean '--set' or '--seed'?)");
  CHECK(did_you_mean("-x", options).empty());            // one character: no edit is small enough
  CHECK(did_you_mean("--rep", options) == " (did you mean '--report'?)");        // a unique prefix
  CHECK(did_you_mean("--js", options).empty());          // 2 edits from --json, too short for a prefix
  CHECK(did_you_mean("--se", options) == " (did you mean '--set'?)");
  CHECK(did_you_mean("--xyzzy", options).empty());

  // Longer words allow more edits: 1 up to 4 characters, 2 up to 8, 3 beyond.
  CHECK(did_you_mean("tnue", commands) == " (did you mean 'tune'?)");
  CHECK(did_you_mean("dscribe", commands) == " (did you mean 'describe'?)");
  CHECK(did_you_mean("vlidte", commands) == " (did you mean 'validate'?)");
  CHECK(did_you_mean("vldte", commands).empty());
  CHECK(did_you_mean("gap", {"gap8", "gap9", "siracusa"}) == " (did you mean 'gap8' or 'gap9'?)");
  CHECK(did_you_mean("--timing", {"--timing-only", "--timing-report"}).empty());   // a prefix of two
  CHECK(did_you_mean("--timing", {"--timing-only", "--trace"}) == " (did you mean '--timing-only'?)");
  CHECK(did_you_mean("gap7", {"barvinn", "diana", "gap8", "gap9", "pulp_open", "siracusa"}) ==
        " (did you mean 'gap8' or 'gap9'?)");
  CHECK(did_you_mean("a", {"b", "c", "d", "e"}).empty());
  CHECK(did_you_mean("abcd", {"abce", "abcf", "abcg", "abch"}) ==
        " (did you mean 'abce', 'abcf' or 'abcg'?)");   // at most three
}
