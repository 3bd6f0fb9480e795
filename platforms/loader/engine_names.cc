// engine_names (engine_names.h): the built-in engines and DIANA's role names, once.
#include "platforms/loader/engine_names.h"

#include <algorithm>
#include <mutex>

namespace edgesim {

namespace {

struct Names {
  std::mutex m;
  // cluster: the programmable cores; npu: N-EUREKA, NE16 or DIANA's SOMA; aimc: DIANA's analog
  // core; mvu: BARVINN's MVU array.
  std::vector<std::string> engines{"npu", "aimc", "mvu", "cluster"};
};

Names& names() {
  static Names n;
  return n;
}

const std::vector<std::string>& roles() {
  static const std::vector<std::string> r{"digital", "analog", "host"};
  return r;
}

}  // namespace

std::vector<std::string> engine_names() {
  std::lock_guard<std::mutex> lock(names().m);
  return names().engines;
}

std::vector<std::string> engine_list_names() {
  std::vector<std::string> v = engine_names();
  v.insert(v.end(), roles().begin(), roles().end());
  return v;
}

bool add_engine_name(const std::string& name) {
  std::lock_guard<std::mutex> lock(names().m);
  auto& e = names().engines;
  if (std::find(e.begin(), e.end(), name) != e.end()) return false;
  e.push_back(name);
  return true;
}

void remove_engine_name(const std::string& name) {
  std::lock_guard<std::mutex> lock(names().m);
  auto& e = names().engines;
  e.erase(std::remove(e.begin(), e.end(), name), e.end());
}

}  // namespace edgesim
