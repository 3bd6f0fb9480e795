// libFuzzer target: the autotuner's cache file (TuneCache: load, then every entry decoded by
// find, every network plan by find_network). Accepted: the entries, or one std::runtime_error naming the file.
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/tune/cache.h"
#include "compiler/tune/network_tune.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = edgesim::fuzz::write_input(data, size, "tune-cache.json");
  try {
    const edgesim::TuneCache cache(path);
    // The keys, read the way the cache stores them, each looked up and decoded.
    const nlohmann::json j = nlohmann::json::parse(data, data + size);
    for (const auto& [k, v] : j.at("entries").items()) (void)cache.find(k);
    for (const auto& [k, v] : j.at("networks").items()) (void)cache.find_network(k);
  } catch (const std::runtime_error&) {
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}
