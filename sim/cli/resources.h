// Where the edgesim binary finds its bundled data (platforms/, configs/, models/): the working
// directory first (a checkout), then the installation the binary belongs to
// (<prefix>/share/edgesim, found from the binary's own path, so an installed edgesim works from
// any directory), then the source and build trees it was built from (a build-tree binary).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace edgesim::cli {

// <prefix>/share/edgesim when the running binary sits in <prefix>/bin and that folder exists;
// else empty.
std::filesystem::path install_root();
// The roots above that exist, in lookup order, each once.
std::vector<std::filesystem::path> data_roots();
// First root/relative that exists, or "" (e.g. data_path("configs/validation")).
std::string data_path(const std::string& relative);
// The folder holding generated models (models/<name>/model.onnx): the build tree's, else the
// installation's.
std::string generated_models_root();

}  // namespace edgesim::cli
