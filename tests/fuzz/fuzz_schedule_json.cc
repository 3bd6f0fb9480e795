// libFuzzer target: the Schedule JSON reader (schedule_from_json after nlohmann's parser), and
// on success its writer again. Accepted: a Schedule, or a json::exception / std::runtime_error
// naming the key.
#include <nlohmann/json.hpp>

#include "compiler/schedule/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const nlohmann::json j = nlohmann::json::parse(data, data + size);
    const edgesim::Schedule s = edgesim::schedule_from_json(j);
    (void)edgesim::schedule_to_json(s).dump();
  } catch (const nlohmann::json::exception&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
