// Layout reference kernels: constant Pad at rank 3 with a negative (cropping) pad, Concat along
// first, middle and last axes, Reshape, Transpose (ICCT's perm [0,3,2,1]) and a strided input.
#include <catch2/catch.hpp>

#include "kernel_util.h"
#include "kernels/reference.h"

using namespace edgesim;

TEST_CASE("pad: constant value, ONNX pads order, negative pads crop", "[kernels][pad]") {
  const Tensor x = Tensor::from_ints(DType::U8, {1, 2, 3}, {1, 2, 3, 4, 5, 6});
  PadParams p;
  p.pads = {0, 1, 1, 0, 0, -1};   // begin (N, C, L) then end: C +1 before, L +1 before, L −1 after
  p.value = 9;
  Tensor y(DType::U8, {1, 3, 3});
  pad_reference(p, x.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{9, 9, 9, 9, 1, 2, 9, 4, 5});

  Tensor bad(DType::U8, {1, 3, 4});
  CHECK_THROWS_WITH(pad_reference(p, x.view(), bad.view()), Catch::Contains("expected [1, 3, 3]"));
}

TEST_CASE("pad: NEMO causal left pad of a 1-D map", "[kernels][pad]") {
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 3}, {7, 8, 9});
  PadParams p;
  p.pads = {0, 0, 4, 0, 0, 0};
  Tensor y(DType::U8, {1, 1, 7});
  pad_reference(p, x.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{0, 0, 0, 0, 7, 8, 9});
}

TEST_CASE("concat along any axis", "[kernels][concat]") {
  const Tensor a = Tensor::from_ints(DType::I8, {2, 2}, {1, 2, 3, 4});
  const Tensor b = Tensor::from_ints(DType::I8, {2, 1}, {5, 6});
  const Tensor c = Tensor::from_ints(DType::I8, {1, 2}, {7, 8});
  Tensor y1(DType::I8, {2, 3});
  // ONNX axis −1 on rank 2: the importer normalises it to 1 before building the params.
  concat_reference(ConcatParams{1}, {a.view(), b.view()}, y1.view());
  CHECK(y1.to_ints() == std::vector<int64_t>{1, 2, 5, 3, 4, 6});
  Tensor y0(DType::I8, {3, 2});
  concat_reference(ConcatParams{0}, {a.view(), c.view()}, y0.view());
  CHECK(y0.to_ints() == std::vector<int64_t>{1, 2, 3, 4, 7, 8});
  CHECK_THROWS_WITH(concat_reference(ConcatParams{0}, {a.view(), b.view()}, y0.view()),
                    Catch::Contains("does not fit output"));

  const Tensor d = Tensor::from_ints(DType::U8, {1, 2, 1, 2}, {1, 2, 3, 4});
  const Tensor e = Tensor::from_ints(DType::U8, {1, 2, 2, 2}, {5, 6, 7, 8, 9, 10, 11, 12});
  Tensor y2(DType::U8, {1, 2, 3, 2});
  concat_reference(ConcatParams{2}, {d.view(), e.view()}, y2.view());
  CHECK(y2.to_ints() == std::vector<int64_t>{1, 2, 5, 6, 7, 8, 3, 4, 9, 10, 11, 12});
}

TEST_CASE("reshape keeps the row-major order, transpose permutes axes", "[kernels][layout]") {
  const Tensor x = Tensor::from_ints(DType::U8, {1, 2, 3}, {0, 1, 2, 3, 4, 5});
  Tensor r(DType::U8, {3, 2});
  reshape_reference(x.view(), r.view());
  CHECK(r.to_ints() == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  Tensor r_bad(DType::U8, {4});
  CHECK_THROWS(reshape_reference(x.view(), r_bad.view()));

  Tensor t(DType::U8, {3, 2, 1});
  transpose_reference(TransposeParams{{2, 1, 0}}, x.view(), t.view());
  CHECK(t.to_ints() == std::vector<int64_t>{0, 3, 1, 4, 2, 5});

  // ICCT perm [0, 3, 2, 1] on [1, 2, 2, 3]: y[0, w, h, c] = x[0, c, h, w]
  std::vector<int64_t> v(12);
  for (int i = 0; i < 12; ++i) v[i] = i;
  const Tensor x4 = Tensor::from_ints(DType::I8, {1, 2, 2, 3}, v);
  Tensor y4(DType::I8, {1, 3, 2, 2});
  transpose_reference(TransposeParams{{0, 3, 2, 1}}, x4.view(), y4.view());
  for (int64_t w = 0; w < 3; ++w)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t c = 0; c < 2; ++c) CHECK(y4.view().get({0, w, h, c}) == (c * 2 + h) * 3 + w);
  CHECK_THROWS_WITH(transpose_reference(TransposeParams{{0, 1, 1, 2}}, x4.view(), y4.view()),
                    Catch::Contains("not a permutation"));
}

TEST_CASE("layout kernels read strided tiles", "[kernels][layout]") {
  const Tensor x = test::random_tensor(DType::I8, {2, 3, 4}, -128, 127, 5);
  const test::TileBuffer xt = test::as_tile(x, 1, 0);
  Tensor a(DType::I8, {4, 3, 2}), b(DType::I8, {4, 3, 2});
  transpose_reference(TransposeParams{{2, 1, 0}}, x.view(), a.view());
  transpose_reference(TransposeParams{{2, 1, 0}}, xt.tile, b.view());
  CHECK(a.to_ints() == b.to_ints());
  PadParams p;
  p.pads = {1, 0, 2, 0, 1, 1};
  Tensor c(DType::I8, {3, 4, 7}), d(DType::I8, {3, 4, 7});
  pad_reference(p, x.view(), c.view());
  pad_reference(p, xt.tile, d.view());
  CHECK(c.to_ints() == d.to_ints());
}
