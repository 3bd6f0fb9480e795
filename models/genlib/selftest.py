"""Validates the golden evaluator (evaluate.py) against golden data it did not produce:
- the ONNX backend node tests of Debian libonnx-testdata for every op the generated files
  use (QuantizeLinear/DequantizeLinear incl. per-axis, Conv, Gemm, pools, Relu, Flatten, and
  the float Add, Div, Floor, Clip of the DIANA networks);
- the Deeploy CNN models under shared/networks (RequantShift, Conv incl. depthwise, Add,
  MaxPool, Gemm), read in place.
Absent data sets are reported as skipped. Run with `models/generate.py --selftest`.
"""
import glob
import os

import numpy as np
import onnx
from onnx import numpy_helper

from .evaluate import evaluate

NODE_TESTS = ["quantizelinear", "quantizelinear_axis", "dequantizelinear",
              "dequantizelinear_axis", "basic_conv_with_padding", "conv_with_strides_padding",
              "gemm_transposeB", "maxpool_2d_default", "maxpool_2d_strides",
              "averagepool_2d_default", "averagepool_2d_strides", "globalaveragepool",
              "relu", "flatten_axis1", "add", "div", "floor", "clip", "clip_inbounds"]
DEEPLOY = ["miniMobileNet", "miniMobileNetv2", "CNN_Linear2", "MLPerf/ImageClassification",
           "MLPerf/KeywordSpotting", "MLPerf/VisualWakeWords", "MLPerf/AnomalyDetection"]


def _node_test(d):
    m = onnx.load(os.path.join(d, "model.onnx"))
    load = lambda f: numpy_helper.to_array(onnx.load_tensor(f))  # noqa: E731
    ins = [load(f) for f in sorted(glob.glob(os.path.join(d, "test_data_set_0", "input_*.pb")))]
    want = load(os.path.join(d, "test_data_set_0", "output_0.pb"))
    got = evaluate(m.SerializeToString(), ins)[0][0]
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if want.dtype.kind == "f":
        return bool(np.allclose(got, want, rtol=1e-5, atol=1e-6))
    return bool(np.array_equal(got, want))


def _deeploy_test(d):
    m = onnx.load(os.path.join(d, "network.onnx"))
    inits = {t.name for t in m.graph.initializer}
    n_in = len([i for i in m.graph.input if i.name not in inits])
    with np.load(os.path.join(d, "inputs.npz")) as f:
        ins = [f[k].astype(np.int64) for k in f.files][:n_in]
    with np.load(os.path.join(d, "outputs.npz")) as f:
        want = [f[k] for k in f.files]
    got = evaluate(m.SerializeToString(), ins)[0]
    return all(np.array_equal(g.reshape(-1).astype(np.int64), w.reshape(-1).astype(np.int64))
               for g, w in zip(got, want))


def run(testdata, shared):
    """Returns the number of failures; prints one line per test."""
    failures = 0
    cases = [(f"onnx node test_{t}", os.path.join(testdata, f"test_{t}"), _node_test)
             for t in NODE_TESTS]
    cases += [(f"deeploy {t}", os.path.join(shared, "deeploy", "Models", t), _deeploy_test)
              for t in DEEPLOY]
    for name, path, fn in cases:
        if not os.path.isdir(path):
            print(f"  SKIP {name}: {path} not found")
            continue
        try:
            ok = fn(path)
            detail = ""
        except (ValueError, KeyError) as e:
            ok, detail = False, f" ({e})"
        failures += not ok
        print(f"  {'ok  ' if ok else 'FAIL'} {name}{detail}")
    return failures
