// load_inputs and check_expected on hand-built graphs and interpreter results, so that the
// layout conversions, positional matching, re-typing, tolerance counting and error messages
// are tested without the frontend or the interpreter.
#include <catch2/catch.hpp>

#include "compiler/golden/golden.h"
#include "golden/test_util.h"

using namespace edgesim;
using edgesim::test::make_npy;
using edgesim::test::raw_bytes;
using Catch::Matchers::Contains;

namespace {

TensorDesc desc(const std::string& name, DType t, Shape s) {
  TensorDesc d;
  d.name = name;
  d.dtype = t;
  d.shape = std::move(s);
  return d;
}

// input x [1, C, H, W] -> conv (layer 0) -> t1 -> reshape -> t2 -> gemm (layer 1) -> y [1, 3]
struct Fixture {
  Graph g;
  InterpreterResult r;
  Fixture(int64_t c, int64_t h, int64_t w) {
    g.name = "synthetic";
    const int x = g.add_tensor(desc("x", DType::U8, {1, c, h, w}));
    const int t1 = g.add_tensor(desc("t1", DType::U8, {1, c, h, w}));
    const int t2 = g.add_tensor(desc("t2", DType::U8, {1, c * h * w}));
    const int y = g.add_tensor(desc("y", DType::I32, {1, 3}));
    g.inputs = {x};
    g.outputs = {y};
    g.nodes.push_back(Node{"Conv_0", ConvParams{}, {x}, {t1}, {}});
    g.nodes.push_back(Node{"Flatten_1", ReshapeParams{}, {t1}, {t2}, {}});
    g.nodes.push_back(Node{"Gemm_2", GemmParams{}, {t2}, {y}, {}});
    r.values.resize(g.tensors.size());
    // t1 holds NCHW values 100·c + 10·h + w; y holds {-5, 0, 70000}.
    Tensor a(DType::U8, {1, c, h, w});
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t hi = 0; hi < h; ++hi)
        for (int64_t wi = 0; wi < w; ++wi) a.set_int((ci * h + hi) * w + wi, 100 * ci + 10 * hi + wi);
    r.values[t1] = a;
    r.values[t2] = a.reshaped({1, c * h * w});
    r.outputs = {Tensor::from_ints(DType::I32, {1, 3}, {-5, 0, 70000})};
    r.values[y] = r.outputs[0];
  }
  // The DORY text of t1 in HWC or CHW order.
  std::string layer0_txt(bool hwc) const {
    const Tensor& t = *r.values[1];
    const auto map = golden_index_map(t.shape(), hwc ? GoldenLayout::HWC : GoldenLayout::CHW);
    std::string s = "# relu1 (shape [x]),\n";
    for (int64_t k : map) s += std::to_string(t.get_int(k)) + ".000,\n";
    return s;
  }
};

}  // namespace

TEST_CASE("golden_index_map: HWC, CHW, 1-D [L, C] and vectors", "[golden][compare]") {
  // [1, 2, 2, 3]: HWC position (h·3 + w)·2 + c holds NCHW element (c·2 + h)·3 + w.
  CHECK(golden_index_map({1, 2, 2, 3}, GoldenLayout::HWC) ==
        std::vector<int64_t>{0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11});
  CHECK(golden_index_map({1, 2, 2, 3}, GoldenLayout::CHW) ==
        std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // 1-D [N, C, L] = [1, 2, 3] -> [L, C].
  CHECK(golden_index_map({1, 2, 3}, GoldenLayout::HWC) == std::vector<int64_t>{0, 3, 1, 4, 2, 5});
  CHECK(golden_index_map({1, 4}, GoldenLayout::HWC) == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(golden_index_map({1, 0, 2, 2}, GoldenLayout::HWC).empty());
}

TEST_CASE("check_expected: DORY directory, HWC and CHW", "[golden][compare]") {
  Fixture f(3, 2, 4);
  edgesim::test::TempDir d;
  d.write("out_layer0.txt", f.layer0_txt(true));
  d.write("out_layer1.txt", "# linear\n-5,\n0,\n70000,");
  d.write("input.txt", "# not a layer\n1,\n");
  auto res = check_expected(f.g, f.r, d.path().string());
  REQUIRE(res.size() == 2);
  CHECK(res[0].ok());
  CHECK(res[0].count == 24);
  CHECK(res[0].file == "out_layer0.txt");
  CHECK(res[0].desc == "layer 0 conv 'Conv_0'");
  CHECK(format_check(res[0]) == "match  out_layer0.txt  layer 0 conv 'Conv_0'  24 elements");
  CHECK(res[1].ok());
  CHECK(res[1].desc == "layer 1 gemm 'Gemm_2'");

  // The same file read as CHW mismatches (C > 1), and a CHW file matches under CHW.
  VerifyOptions chw;
  chw.layout = GoldenLayout::CHW;
  CHECK_FALSE(check_expected(f.g, f.r, d.path().string(), chw)[0].ok());
  d.write("out_layer0.txt", f.layer0_txt(false));
  CHECK(check_expected(f.g, f.r, d.path().string(), chw)[0].ok());
}

TEST_CASE("check_expected: mismatches, off-by-one and tolerance", "[golden][compare]") {
  Fixture f(1, 1, 4);   // t1 = {0, 1, 2, 3}
  edgesim::test::TempDir d;
  d.write("out_layer0.txt", "#\n0,\n2,\n2,\n6,\n");
  auto c = check_expected(f.g, f.r, d.path().string())[0];
  CHECK(c.mismatches == 2);
  CHECK(c.off_by_one == 1);
  CHECK(c.first_index == 1);
  CHECK(c.expected == 2);
  CHECK(c.got == 1);
  CHECK(c.max_abs_diff == 3);
  CHECK(format_check(c) ==
        "MISMATCH out_layer0.txt layer 0 conv 'Conv_0': 2 of 4 differ; first at index 1: expected 2, got 1");
  VerifyOptions tol;
  tol.tolerance = 1;
  c = check_expected(f.g, f.r, d.path().string(), tol)[0];
  CHECK(c.mismatches == 1);
  CHECK(c.within_tolerance == 1);
  CHECK(c.first_index == 3);
  tol.tolerance = 3;
  CHECK(check_expected(f.g, f.r, d.path().string(), tol)[0].ok());
}

TEST_CASE("check_expected: wrong-shaped and out-of-graph goldens are errors", "[golden][compare]") {
  Fixture f(2, 2, 2);
  edgesim::test::TempDir d;
  d.write("out_layer0.txt", "#\n1,\n2,\n3,\n");
  CHECK_THROWS_WITH(check_expected(f.g, f.r, d.path().string()),
                    Contains("out_layer0.txt") && Contains("layer 0 conv 'Conv_0'") &&
                        Contains("has 8 elements") && Contains("golden file has 3"));
  std::filesystem::remove(d.path() / "out_layer0.txt");
  d.write("out_layer2.txt", "#\n1,\n");
  CHECK_THROWS_WITH(check_expected(f.g, f.r, d.path().string()),
                    Contains("out_layer2.txt") && Contains("no layer 2"));
  edgesim::test::TempDir empty;
  CHECK_THROWS_WITH(check_expected(f.g, f.r, empty.path().string()), Contains("no golden data"));
  CHECK_THROWS_AS(check_expected(f.g, f.r, "/nonexistent/dir"), GoldenError);
}

TEST_CASE("check_expected: byte-wise int32 layer goldens (MV1-128 style)", "[golden][compare]") {
  Fixture f(1, 1, 1);
  edgesim::test::TempDir d;
  // Layer 1 (gemm, int32 {-5, 0, 70000}) written as 12 little-endian bytes.
  d.write("out_layer1.txt", "#\n251,\n255,\n255,\n255,\n0,\n0,\n0,\n0,\n112,\n17,\n1,\n0,\n");
  auto res = check_expected(f.g, f.r, d.path().string());
  REQUIRE(res.size() == 1);
  CHECK(res[0].ok());
  CHECK(res[0].count == 3);
}

TEST_CASE("check_expected: outputs.npz by position", "[golden][compare]") {
  Fixture f(1, 1, 1);
  edgesim::test::TempDir d;
  auto write = [&](const std::vector<std::pair<std::string, std::string>>& m) {
    return d.write("outputs.npz", edgesim::test::make_zip64_style(m, false));
  };
  const auto p = write({{"whatever.npy", make_npy("<i8", false, "(1, 3)", raw_bytes<int64_t>({-5, 0, 70000}))}});
  auto res = check_expected(f.g, f.r, p);
  REQUIRE(res.size() == 1);
  CHECK(res[0].ok());
  CHECK(res[0].desc == "output 0 'y'");
  CHECK(format_check(res[0]).find("outputs.npz[0]") != std::string::npos);
  CHECK(check_expected(f.g, f.r, d.path().string())[0].ok());   // directory holding outputs.npz
  write({{"o.npy", make_npy("<f4", false, "(3,)", raw_bytes<float>({-5, 1, 70000}))}});
  auto bad = check_expected(f.g, f.r, p)[0];
  CHECK(bad.mismatches == 1);
  CHECK(bad.first_index == 1);
  write({{"o.npy", make_npy("<i8", false, "(2,)", raw_bytes<int64_t>({1, 2}))}});
  CHECK_THROWS_WITH(check_expected(f.g, f.r, p),
                    Contains("output 0 'y'") && Contains("(3 elements)") && Contains("(2 elements)"));
  write({{"a.npy", make_npy("<i8", false, "(3,)", raw_bytes<int64_t>({-5, 0, 70000}))},
         {"b.npy", make_npy("<i8", false, "(3,)", raw_bytes<int64_t>({-5, 0, 70000}))}});
  CHECK_THROWS_WITH(check_expected(f.g, f.r, p), Contains("2 array(s)") && Contains("1 output(s)"));
}

TEST_CASE("load_inputs: DORY input.txt is HWC, converted to NCHW", "[golden][inputs]") {
  Fixture f(3, 2, 4);
  edgesim::test::TempDir d;
  const auto p = d.write("input.txt", f.layer0_txt(true));
  auto in = load_inputs(f.g, p);
  REQUIRE(in.size() == 1);
  CHECK(in[0].shape() == Shape{1, 3, 2, 4});
  CHECK(in[0].same_values(*f.r.values[1]));
  CHECK(load_inputs(f.g, d.path().string())[0].same_values(*f.r.values[1]));   // dir/input.txt
  // Wrong count names file, input, expected shape and the count found.
  d.write("input.txt", "# x\n1,\n2,\n");
  CHECK_THROWS_WITH(load_inputs(f.g, p), Contains(p) && Contains("input 0 'x'") &&
                                             Contains("[1, 3, 2, 4] (24 elements)") && Contains("found 2"));
}

TEST_CASE("load_inputs: ranges, re-typing of inferred inputs, positional npz", "[golden][inputs]") {
  Fixture f(1, 1, 3);
  edgesim::test::TempDir d;
  const auto neg = d.write("neg.txt", "#\n-1,\n5,\n7,\n");
  CHECK_THROWS_WITH(load_inputs(f.g, neg), Contains("input 0 'x'") && Contains("value -1") &&
                                               Contains("out of range for u8"));
  f.g.tensors[0].dtype_inferred = true;
  auto in = load_inputs(f.g, neg);
  CHECK(f.g.tensors[0].dtype == DType::I8);
  CHECK(in[0].dtype() == DType::I8);
  CHECK(in[0].to_ints() == std::vector<int64_t>{-1, 5, 7});
  load_inputs(f.g, d.write("big.txt", "#\n300,\n0,\n1,\n"));
  CHECK(f.g.tensors[0].dtype == DType::I16);

  // npz: array 0 -> input 0; the extra trailing array is ignored. Non-integers are rejected.
  const auto npz = d.write("inputs.npz", edgesim::test::make_zip64_style(
      {{"a.npy", make_npy("<f4", false, "(1, 1, 1, 3)", raw_bytes<float>({1, 2, 255}))},
       {"w.npy", make_npy("<i8", false, "(7,)", raw_bytes<int64_t>({0, 0, 0, 0, 0, 0, 0}))}}, false));
  CHECK(load_inputs(f.g, npz)[0].to_ints() == std::vector<int64_t>{1, 2, 255});
  CHECK(f.g.tensors[0].dtype == DType::U8);
  const auto frac = d.write("frac.npz", edgesim::test::make_zip64_style(
      {{"a.npy", make_npy("<f4", false, "(3,)", raw_bytes<float>({1, 2.5f, 3}))}}, false));
  CHECK_THROWS_WITH(load_inputs(f.g, frac), Contains("value 2.5 at index 1 is not an integer"));
  const auto none = d.write("none.npz", edgesim::test::make_zip64_style({}, false));
  CHECK_THROWS_WITH(load_inputs(f.g, none), Contains("holds 0 array(s)") && Contains("1 input(s)"));
  CHECK_THROWS_WITH(load_inputs(f.g, (d.path() / "missing.npz").string()), Contains("missing.npz"));
  CHECK_THROWS_WITH(load_inputs(f.g, d.write("weird.bin", "xyz")), Contains("unrecognised input format"));
}

TEST_CASE("random_inputs: deterministic per seed, within the dtype range", "[golden][inputs]") {
  Fixture f(2, 8, 8);
  f.g.tensors[0].dtype = DType::I8;
  const auto a = random_inputs(f.g, 1), b = random_inputs(f.g, 1), c = random_inputs(f.g, 2);
  REQUIRE(a.size() == 1);
  CHECK(a[0].dtype() == DType::I8);
  CHECK(a[0].same_values(b[0]));
  CHECK_FALSE(a[0].same_values(c[0]));
  int64_t lo = 0, hi = 0;
  for (int64_t v : a[0].to_ints()) lo = std::min(lo, v), hi = std::max(hi, v);
  CHECK(lo >= -128);
  CHECK(hi <= 127);
  CHECK(lo < -64);   // 128 draws spread over the range
  CHECK(hi > 64);
}

// Regression (issue 36): input data was checked for its element count and its values only, so a
// float64 or bool array, or one of another shape with the same count, ran and said bit-exact.
// Now an array stored with a dtype and shape must hold integers for an integer input (floats of
// integer values only where the file declares the input FLOAT: Deeploy's inputs.npz) and have
// the input's shape (up to leading and trailing size-1 dimensions); a container wider than the
// input (Deeploy stores int64) is fine when every value fits.
TEST_CASE("load_inputs: float and bool arrays, other shapes and out-of-range values are errors", "[golden][inputs]") {
  Fixture f(1, 2, 3);   // x: u8 [1, 1, 2, 3]
  edgesim::test::TempDir d;
  auto npz = [&](const std::string& name, const std::string& descr, const std::string& shape, const std::string& raw) {
    return d.write(name, edgesim::test::make_zip64_style({{"a.npy", make_npy(descr, false, shape, raw)}}, false));
  };
  const std::vector<int64_t> v{0, 1, 2, 3, 4, 255};
  CHECK(load_inputs(f.g, npz("i8.npz", "<i8", "(1, 1, 2, 3)", raw_bytes<int64_t>(v)))[0].to_ints() == v);
  CHECK(load_inputs(f.g, npz("u1.npz", "|u1", "(2, 3)", raw_bytes<uint8_t>({0, 1, 2, 3, 4, 255})))[0].to_ints() == v);
  CHECK(load_inputs(f.g, npz("i2.npz", "<i2", "(1, 2, 3, 1)", raw_bytes<int16_t>({0, 1, 2, 3, 4, 255})))[0].to_ints() == v);
  CHECK_THROWS_WITH(load_inputs(f.g, npz("f8.npz", "<f8", "(1, 1, 2, 3)", raw_bytes<double>({0, 1, 2, 3, 4, 255}))),
                    Contains("input 0 'x': a floating-point array (8 bytes per element) for an integer input (u8)"));
  CHECK_THROWS_WITH(load_inputs(f.g, npz("b1.npz", "|b1", "(1, 1, 2, 3)", std::string(6, '\1'))),
                    Contains("input 0 'x': a bool array"));
  CHECK_THROWS_WITH(load_inputs(f.g, npz("t.npz", "<i8", "(1, 1, 3, 2)", raw_bytes<int64_t>(v))),
                    Contains("input 0 'x' expects shape [1, 1, 2, 3], found array 'a' of shape [1, 1, 3, 2]"));
  CHECK_THROWS_WITH(load_inputs(f.g, npz("flat.npz", "<i8", "(6,)", raw_bytes<int64_t>(v))),
                    Contains("expects shape [1, 1, 2, 3], found array 'a' of shape [6]"));
  CHECK_THROWS_WITH(load_inputs(f.g, npz("big.npz", "<i4", "(1, 1, 2, 3)", raw_bytes<int32_t>({0, 1, 2, 3, 4, 128000}))),
                    Contains("input 0 'x': value 128000 at index 5 is out of range for u8 [0, 255]"));
  const std::string f4 = d.write("x.npy", make_npy("<f4", false, "(1, 1, 2, 3)", raw_bytes<float>({0, 1, 2, 3, 4, 5})));
  CHECK_THROWS_WITH(load_inputs(f.g, f4), Contains("a floating-point array"));
  f.g.tensors[0].dtype_inferred = true;   // declared FLOAT in the file: Deeploy's float32 containers
  CHECK(load_inputs(f.g, f4)[0].to_ints() == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  CHECK_THROWS_WITH(load_inputs(f.g, npz("b2.npz", "|b1", "(1, 1, 2, 3)", std::string(6, '\1'))),
                    Contains("a bool array"));
}
