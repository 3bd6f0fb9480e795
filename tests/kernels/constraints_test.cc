// The cluster kernels' tile rules (kernels/*/constraints.h) that the deeploy policy reads.
#include <catch2/catch.hpp>

#include "kernels/conv/constraints.h"
#include "kernels/gemm/constraints.h"

using namespace edgesim;

TEST_CASE("conv tile rules: Cout tiles and their remainder hold at least 8 channels", "[kernels][constraints]") {
  const ConvTileRules r = cluster_conv_rules();
  CHECK_FALSE(r.split_cin);
  CHECK(conv_cout_tile_ok(r, 32, 8));
  CHECK(conv_cout_tile_ok(r, 32, 16));
  CHECK(conv_cout_tile_ok(r, 32, 12));          // tiles 12, 12 and a remainder of 8
  CHECK_FALSE(conv_cout_tile_ok(r, 32, 10));    // remainder 2 < 8
  CHECK(conv_cout_tile_ok(r, 32, 20));          // remainder 12
  CHECK_FALSE(conv_cout_tile_ok(r, 32, 7));
  CHECK(conv_cout_tile_ok(r, 5, 3));            // fewer than 8 channels: anything
  CHECK_FALSE(conv_cout_tile_ok(r, 5, 6));
  CHECK(dw_min_extent(r, 16, 1, 1) == 2);
  CHECK(dw_min_extent(r, 1, 2, 2) == 1);
}

TEST_CASE("gemm tile rules: N tiles are multiples of 16 once N >= 16", "[kernels][constraints]") {
  const GemmTileRules r = cluster_gemm_rules();
  CHECK(gemm_n_tile_ok(r, 10, 7));
  CHECK(gemm_n_tile_ok(r, 64, 32));
  CHECK_FALSE(gemm_n_tile_ok(r, 64, 24));
  CHECK_FALSE(gemm_n_tile_ok(r, 64, 80));
}
