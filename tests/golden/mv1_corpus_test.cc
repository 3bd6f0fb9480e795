// The golden readers against the whole shared corpus: every DORY text file and every Deeploy
// archive parses, and the MV1-128 goldens (no graph, docs/verify.md "Reference networks") pass
// their format test (the last layer's 4000 byte lines are 1000 int32 logits with argmax 664) and
// the consistency check out_layer27 = ⌊Σ_{4×4} out_layer26 / 16⌋ in HWC order.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "compiler/golden/golden.h"
#include "support/paths.h"

using namespace edgesim;
namespace fs = std::filesystem;

namespace {
std::string mv1_dir() { return edgesim::test::shared_networks() + "/dory/MV1-128"; }
std::string layer(int n) { return mv1_dir() + "/out_layer" + std::to_string(n) + ".txt"; }
}  // namespace

TEST_CASE("MV1-128: element counts follow the layer table", "[golden][mv1]") {
  REQUIRE_DATA(mv1_dir());
  // H·W·C of out_layer0..27 (docs/verify.md "Reference networks"), then the 4000 byte lines of
  // layer 28.
  const std::vector<int64_t> hw = {64, 64, 64, 32, 32, 32, 32, 16, 16, 16, 16, 8, 8, 8,
                                   8,  8,  8,  8,  8,  8,  8,  8,  8,  4,  4,  4,  4, 1};
  const std::vector<int64_t> c = {32,  32,  64,  64,  128, 128, 128, 128, 256, 256,
                                  256, 256, 512, 512, 512, 512, 512, 512, 512, 512,
                                  512, 512, 512, 512, 1024, 1024, 1024, 1024};
  CHECK(read_dory_txt(mv1_dir() + "/input.txt").size() == 128u * 128 * 3);
  for (int n = 0; n < 28; ++n) {
    CAPTURE(n);
    CHECK(static_cast<int64_t>(read_dory_txt(layer(n)).size()) == hw[n] * hw[n] * c[n]);
  }
  CHECK(read_dory_txt(layer(28)).size() == 4000u);
}

TEST_CASE("MV1-128: out_layer28 bytes are int32 logits with argmax 664", "[golden][mv1]") {
  REQUIRE_DATA(layer(28));
  const auto bytes = read_dory_txt(layer(28));
  REQUIRE(bytes.size() == 4000);
  const auto logits = dory_bytes_to_int32(bytes);
  REQUIRE(logits.size() == 1000);
  const auto best = std::max_element(logits.begin(), logits.end()) - logits.begin();
  CHECK(best == 664);
  CHECK(std::any_of(logits.begin(), logits.end(), [](int64_t v) { return v < 0; }));
}

TEST_CASE("MV1-128: out_layer27 is the floor mean of out_layer26 over 4x4 (HWC)", "[golden][mv1]") {
  REQUIRE_DATA(layer(27));
  const auto l26 = read_dory_txt(layer(26)), l27 = read_dory_txt(layer(27));
  REQUIRE(l26.size() == 16u * 1024);
  REQUIRE(l27.size() == 1024u);
  int64_t bad = 0;
  for (int64_t ch = 0; ch < 1024; ++ch) {
    int64_t sum = 0;
    for (int64_t hw = 0; hw < 16; ++hw) sum += l26[hw * 1024 + ch];   // HWC: (h·4 + w)·C + c
    bad += (sum / 16 != l27[ch]);                                      // sums are non-negative
  }
  CHECK(bad == 0);
  // The same relation read as CHW must fail, or this test could not tell layouts apart.
  int64_t bad_chw = 0;
  for (int64_t ch = 0; ch < 1024; ++ch) {
    int64_t sum = 0;
    for (int64_t hw = 0; hw < 16; ++hw) sum += l26[ch * 16 + hw];
    bad_chw += (sum / 16 != l27[ch]);
  }
  CHECK(bad_chw > 0);
}

TEST_CASE("corpus: every DORY text golden and every Deeploy archive parses", "[golden][corpus]") {
  const std::string root = edgesim::test::shared_networks();
  REQUIRE_DATA(root + "/dory");
  REQUIRE_DATA(root + "/deeploy");
  int txt = 0, npz = 0, arrays = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string p = e.path().string(), ext = e.path().extension().string();
    if (ext == ".txt" && p.find("/dory/") != std::string::npos) {
      INFO(p);
      CHECK_NOTHROW(read_dory_txt(p));
      ++txt;
    } else if (ext == ".npz") {
      INFO(p);
      std::vector<GoldenArray> a;
      CHECK_NOTHROW(a = read_npz(p));
      for (const auto& x : a) CHECK(static_cast<int64_t>(x.values.size()) == shape_numel(x.shape));
      arrays += static_cast<int>(a.size());
      ++npz;
    }
  }
  CHECK(txt >= 150);
  CHECK(npz >= 90);
  CHECK(arrays > 0);
}
