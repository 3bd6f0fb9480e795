// Bundled data lookup (resources.h).
#include "sim/cli/resources.h"

#include <unistd.h>

#include <climits>

namespace edgesim::cli {

namespace fs = std::filesystem;

fs::path install_root() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  const fs::path exe(std::string(buf, static_cast<size_t>(n)));
  const fs::path root = exe.parent_path().parent_path() / "share" / "edgesim";
  std::error_code ec;
  return exe.parent_path().filename() == "bin" && fs::is_directory(root, ec) ? root : fs::path();
}

std::vector<fs::path> data_roots() {
  std::vector<fs::path> roots;
  std::error_code ec;
  for (const fs::path& r : {fs::path("."), install_root(), fs::path(EDGESIM_SOURCE_DIR)}) {
    if (r.empty() || !fs::is_directory(r, ec)) continue;
    bool seen = false;
    for (const fs::path& o : roots) seen = seen || fs::equivalent(o, r, ec);
    if (!seen) roots.push_back(r);
  }
  return roots;
}

std::string data_path(const std::string& relative) {
  std::error_code ec;
  for (const fs::path& r : data_roots())
    if (fs::exists(r / relative, ec)) return (r / relative).lexically_normal().string();
  return "";
}

std::string generated_models_root() {
  std::error_code ec;
  if (fs::is_directory(fs::path(EDGESIM_BUILD_DIR) / "models", ec)) return EDGESIM_BUILD_DIR;
  const fs::path inst = install_root();
  return inst.empty() ? std::string(EDGESIM_BUILD_DIR) : inst.string();
}

}  // namespace edgesim::cli
