"""Builder for DIANA networks: HTVM's relay graphs written as ONNX.

HTVM compiles relay graphs whose layers are `conv2d / dense -> bias_add -> right_shift(s) ->
clip -> cast(int8) [-> clip(0, 127) as ReLU]` and `cast(int32) a, b -> add -> right_shift ->
clip -> cast(int8)` (KULeuven-MICAS/htvm diana/byoc/utils.py relay_soma_conv2d / _dense / _add,
docs/sources.md [70]). The same integer semantics in a valid ONNX file (onnx.checker accepts it)
is the NEMO/QuantLab float-container style (DIALECTS.md §1, §2) with power-of-two scales:

- input:  INT8 graph input -> Cast(FLOAT)
- layer:  Conv(x, W, B) | Gemm(x, W, B, transB=1) -> Div(2^s) -> Floor -> Clip(lo, hi)
          [-> Clip(0, hi) for ReLU]            == clamp((acc + b) >> s), >> rounding down
- add:    Add(a, b) -> Div(2^s) -> Floor -> Clip(lo, hi)
- plain:  Add(a, b) (the notebook's residual: an int32 sum, offloaded to the host)
- pool:   AveragePool(k) -> Mul(k*k) -> Div(k*k) -> Floor -> Clip(-128, 127)  == floor(window sum / k*k)
- output: Cast(INT8) (UINT8 after a ReLU, INT32 for a sum)
Weights and biases are FLOAT initializers holding integers (int8, ternary {-1, 0, 1}, int32);
every value stays below 2^24 in magnitude, so float32 holds each one exactly (asserted).
The analog (ternary) layers use the same chain with the ADC's 6-bit clip [-32, 31] (or [0, 31]
after ReLU) and take inputs clipped to [0, 63] (the DACs' 7-bit range); see docs/diana.md.
Shifts are calibrated on the running activation so that outputs spread over their range.
"""
import numpy as np

from . import intref, prng
from .network import Layer
from .onnxutil import GraphBuilder

ENCODING = ("encoding: INT8 graph input cast to FLOAT; weights and biases FLOAT initializers "
            "holding integers (int8 or ternary weights, int32 biases); requantisation "
            "Div(2^s) -> Floor -> Clip (power-of-two scale, rounding down), ReLU as Clip(0, hi); "
            "output cast to INT8 (INT32 for an unsaturated sum); opset 13, passes onnx.checker")

F32_EXACT = 1 << 24


def _hwc(v):
    c, h, w = v.shape
    return f"{h}x{w}x{c}"


def calibrate_shift(acc, target):
    """Smallest s >= 0 with the 99.5th percentile of |acc| >> s at most `target`."""
    a = np.sort(np.abs(acc.reshape(-1)))
    p = int(a[min(a.size - 1, (a.size * 995) // 1000)])
    s = 0
    while (p >> s) > target:
        s += 1
    return s


class DianaBuilder:
    def __init__(self, name):
        self.name = name
        self.g = GraphBuilder(name)
        self.layers = []
        self.inter = {}

    def input(self, name, shape):
        """INT8 input [1, C, H, W] (an image shifted to int8) cast to FLOAT."""
        x = prng.image_uint8(f"{self.name}/{name}", shape, cell=4).astype(np.int16) - 128
        self.g.node("Cast", [name], f"{name}_f", f"{name}_cast", to=1)
        return x.astype(np.int8), f"{name}_f"

    def _requant(self, tag, acc_name, acc, shift, lo, hi, relu):
        """Div(2^shift) -> Floor -> Clip(lo, hi) [-> Clip(0, hi)]; returns (name, values)."""
        assert np.abs(acc).max() < F32_EXACT, f"{tag}: accumulator exceeds float32's exact range"
        g = self.g
        d = g.node("Div", [acc_name, g.const(f"{tag}.div", np.array(2.0 ** shift, np.float32))], f"{tag}_div",
                   f"{tag}_shift")
        f = g.node("Floor", [d], f"{tag}_floor", f"{tag}_floor")
        name = g.node("Clip", [f, g.const(f"{tag}.lo", np.array(lo, np.float32)),
                               g.const(f"{tag}.hi", np.array(hi, np.float32))], f"{tag}_clip", f"{tag}_clip")
        y = np.clip(acc >> shift, lo, hi)
        if relu:
            name = g.node("Clip", [name, g.const(f"{tag}.relu", np.array(0, np.float32)),
                                   g.const(f"{tag}.relu_hi", np.array(hi, np.float32))], f"{tag}_relu", f"{tag}_relu")
            y = np.clip(y, 0, hi)
        self.inter[name] = y
        return name, y

    def conv(self, idx, tag, desc, x_name, x, cout, k, stride, group=1, relu=True, ternary=False,
             clip=(-128, 127), target=100, spread=24, pads=None):
        """Conv(+bias) -> power-of-two requant; k an int or (kh, kw); SAME padding by default."""
        kh, kw = (k, k) if isinstance(k, int) else k
        pads = pads if pads is not None else (kh // 2, kw // 2)
        cin = x.shape[0]
        shape = (cout, cin // group, kh, kw)
        w = (prng.integers(f"{self.name}/{tag}/weight", shape, -1, 1) if ternary
             else prng.int8_weights(f"{self.name}/{tag}/weight", shape, spread)).astype(np.int64)
        acc0 = intref.conv(x, w, stride, pads, group)
        s = calibrate_shift(acc0, target)
        b = prng.integers(f"{self.name}/{tag}/bias", (cout,), -(1 << s), 1 << s) if s > 0 else np.zeros(cout, np.int64)
        acc = acc0 + b.reshape(-1, 1, 1)
        g = self.g
        acc_name = g.node("Conv", [x_name, g.const(f"{tag}.weight", w.astype(np.float32)),
                                   g.const(f"{tag}.bias", b.astype(np.float32))], f"{tag}_acc", tag,
                          kernel_shape=[kh, kw], strides=[stride, stride], pads=[pads[0], pads[1]] * 2,
                          group=group, dilations=[1, 1])
        name, y = self._requant(tag, acc_name, acc, s, clip[0], clip[1], relu)
        self.layers.append(Layer(idx, tag, desc, str(stride), _hwc(x), _hwc(y),
                                 intref.macs_conv(cin, cout, 1, y.shape[1], y.shape[2], group) * kh * kw,
                                 cout * (cin // group) * kh * kw, f">> {s}" + (" (ternary)" if ternary else ""),
                                 intref.stats(y)))
        return name, y

    def add(self, idx, tag, a_name, a, b_name, b, clip=(-128, 127), relu=False, requant=True):
        """Add -> power-of-two requant (HTVM's add pattern), or the plain int32 sum."""
        s_ = a.astype(np.int64) + b
        acc_name = self.g.node("Add", [a_name, b_name], f"{tag}_sum", tag)
        if not requant:
            self.inter[acc_name] = s_
            self.layers.append(Layer(idx, tag, "add (int32 sum)", "-", _hwc(s_), _hwc(s_), 0, 0, "none", None))
            return acc_name, s_
        shift = calibrate_shift(s_, clip[1] - 20)
        name, y = self._requant(tag, acc_name, s_, shift, clip[0], clip[1], relu)
        self.layers.append(Layer(idx, tag, "add + requant", "-", _hwc(s_), _hwc(y), 0, 0, f">> {shift}",
                                 intref.stats(y)))
        return name, y

    def avg_pool(self, idx, tag, x_name, x, kh, kw):
        """floor(window sum / kh·kw) as AveragePool -> Mul(kh·kw) -> Div(kh·kw) -> Floor."""
        n = kh * kw
        g = self.g
        mean = g.node("AveragePool", [x_name], f"{tag}_mean", tag, kernel_shape=[kh, kw], strides=[kh, kw])
        total = g.node("Mul", [mean, g.const(f"{tag}.count", np.array(n, np.float32))], f"{tag}_sum", f"{tag}_mul")
        d = g.node("Div", [total, g.const(f"{tag}.div", np.array(n, np.float32))], f"{tag}_div", f"{tag}_div")
        f = g.node("Floor", [d], f"{tag}_floor", f"{tag}_floor")
        # relay's avg_pool2d of int8 is int8: a clip that never binds keeps the type
        name = g.node("Clip", [f, g.const(f"{tag}.lo", np.array(-128, np.float32)),
                               g.const(f"{tag}.hi", np.array(127, np.float32))], f"{tag}_out", f"{tag}_clip")
        c, h, w = x.shape
        y = x.astype(np.int64).reshape(c, h // kh, kh, w // kw, kw).sum(axis=(2, 4)) // n
        self.inter[name] = y
        self.layers.append(Layer(idx, tag, f"avg pool {kh}x{kw} -> floor(sum/{n})", "-", _hwc(x), _hwc(y), 0, 0,
                                 f"/ {n}", intref.stats(y)))
        return name, y

    def dense(self, idx, tag, x_name, x, nout, clip=(-128, 127), target=100):
        """Flatten -> Gemm(transB=1, bias) -> power-of-two requant (no ReLU)."""
        k = x.size
        g = self.g
        w = prng.int8_weights(f"{self.name}/{tag}/weight", (nout, k), 24).astype(np.int64)
        flat = g.node("Flatten", [x_name], f"{tag}_in", f"{tag}_flatten", axis=1)
        acc0 = w @ x.reshape(-1).astype(np.int64)
        s = calibrate_shift(acc0, target)
        b = prng.integers(f"{self.name}/{tag}/bias", (nout,), -(1 << s), 1 << s) if s > 0 else np.zeros(nout, np.int64)
        acc = acc0 + b
        acc_name = g.node("Gemm", [flat, g.const(f"{tag}.weight", w.astype(np.float32)),
                                   g.const(f"{tag}.bias", b.astype(np.float32))], f"{tag}_acc", tag, transB=1)
        name, y = self._requant(tag, acc_name, acc.reshape(1, -1), s, clip[0], clip[1], False)
        self.layers.append(Layer(idx, tag, f"dense {k} -> {nout}", "-", str(k), str(nout), k * nout, k * nout,
                                 f">> {s}", intref.stats(y)))
        return name, y

    def output(self, name, y, dtype=np.int8):
        """Cast(INT8 | UINT8 | INT32) of the last tensor to the graph output `output`."""
        to = {np.dtype(np.int8): 3, np.dtype(np.uint8): 2, np.dtype(np.int32): 6}[np.dtype(dtype)]
        self.g.node("Cast", [name], "output", "output_cast", to=to)
        return y
