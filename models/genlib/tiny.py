"""tiny: a smoke network in standard ONNX QDQ form, as ONNX Runtime's static quantiser emits it.

  input u8 [1,3,16,16] -> DQ -> Conv 3x3 p1 3->8 (DQ int8 W per tensor, DQ int32 bias) -> Relu
  -> Q u8 -> DQ -> MaxPool 2x2 -> Q -> DQ -> Conv dw 3x3 p1 (W per channel) -> Relu -> Q
  -> DQ -> Conv 1x1 8->16 (W per channel) -> Relu -> Q -> DQ -> GlobalAveragePool -> Q
  -> Flatten (on u8) -> DQ -> Gemm transB (DQ int8 W, DQ int32 bias) -> Q int8 = output [1,10]

Golden semantics (DIALECTS.md §4): acc = sum (x - x_zp) * w + B, y = clamp(rint(acc * M) + y_zp)
with M = x_s*w_s/y_s in double from float32 scales; Relu narrows the low clamp to y_zp.
Scale choice makes the golden robust to how M is computed:
- "dyadic" layers (dw conv, GlobalAveragePool) use power-of-two scales, so every product is
  exact in float32 and double; their exact .5 ties test round-half-to-even;
- the other layers (conv1, pw, Gemm) use ordinary float32 scales, nudged (deterministically)
  until no requantised value lies within MARGIN LSB of a .5 tie, so M in float32 or double,
  in any operation order, gives the same result.
"""
import math

import numpy as np

from . import intref, prng
from .network import Layer, Network
from .onnxutil import GraphBuilder

NAME = "tiny"
MARGIN = 2e-4
F32 = np.float32


def _pow2_at_least(v):
    m, e = math.frexp(float(v))
    return F32(math.ldexp(1.0, e - 1) if m == 0.5 else math.ldexp(1.0, e))


def _chan(m, ndim):
    return np.asarray(m, np.float64).reshape((-1,) + (1,) * (ndim - 1))


def _margin_ok(acc, m, zp, lo, hi):
    v = acc.astype(np.float64) * _chan(m, acc.ndim)
    live = (v + zp >= lo - 1) & (v + zp <= hi + 1)
    d = np.abs(v - np.floor(v) - 0.5)
    return bool(np.all(d[live] > MARGIN))


def _ties(acc, m, zp, lo, hi):
    """(exact .5 ties inside the clamp range, those where half-even != half-up)."""
    v = acc.astype(np.float64) * _chan(m, acc.ndim)
    live = (v + zp >= lo) & (v + zp <= hi)
    tie = (v - np.floor(v) == 0.5) & live
    return int(tie.sum()), int((tie & (np.floor(v) % 2 == 0)).sum())


def _search(base, ok, what):
    for t in range(4000):
        s = F32(base * (1 + t / 997))
        if ok(s):
            return s
    raise SystemExit(f"{NAME}: no tie-free scale found for {what}")


def _p(a, per_mille):
    s = np.sort(a.reshape(-1))
    return s[min(s.size - 1, (s.size * per_mille) // 1000)]


def _bias(stream, acc0, n):
    """Per-channel bias (folded BN shift): minus the channel's 30th-percentile accumulator,
    so that about 30 % of the outputs are cut by Relu, plus a little noise."""
    rows = np.sort(acc0.reshape(n, -1), axis=1)
    shift = -rows[:, (rows.shape[1] * 3) // 10]
    spread = max(1, int(_p(acc0, 750) - _p(acc0, 250)) // 16)
    return shift + prng.integers(stream, (n,), -spread, spread)


class _Q:
    """Emits the QDQ nodes of one layer and remembers the scale/zero-point initializers."""

    def __init__(self):
        self.g = GraphBuilder(NAME)

    def qparams(self, tag, scale, zp):
        return (self.g.const(f"{tag}.scale", np.asarray(scale, F32)),
                self.g.const(f"{tag}.zero_point", np.asarray(zp)))

    def dq(self, src, qp, out, **axis):
        return self.g.node("DequantizeLinear", [src, *qp], out, out, **axis)

    def q(self, src, qp, out):
        return self.g.node("QuantizeLinear", [src, *qp], out, out)

    def weights(self, tag, w, w_s, bias, b_s):
        per_ch = np.ndim(w_s) == 1
        ax = {"axis": 0} if per_ch else {}
        wq = self.qparams(f"{tag}.weight", w_s, np.zeros(np.shape(w_s), np.int8))
        wdq = self.dq(self.g.const(f"{tag}.weight", w), wq, f"{tag}.weight_dq", **ax)
        bq = self.qparams(f"{tag}.bias", b_s, np.zeros(np.shape(b_s), np.int32))
        bdq = self.dq(self.g.const(f"{tag}.bias", bias.astype(np.int32)), bq, f"{tag}.bias_dq",
                      **ax)
        return wdq, bdq


def _hwc(v):
    return f"{v.shape[1]}x{v.shape[2]}x{v.shape[0]}"


def build():
    e = _Q()
    g = e.g
    layers, notes, inter = [], [], {}
    xq = prng.image_uint8(f"{NAME}/input", (1, 3, 16, 16), cell=2)
    x_s, x_zp = F32(2 / 255), np.uint8(128)
    in_qp = e.qparams("input", x_s, x_zp)
    cur = e.dq("input", in_qp, "input_dq")
    x = xq[0].astype(np.int64) - int(x_zp)

    # conv1: 3x3 p1, 3 -> 8, per-tensor weight scale (tie-free search), dyadic output scale.
    w = prng.int8_weights(f"{NAME}/conv1/weight", (8, 3, 3, 3))
    acc = intref.conv(x, w, 1, 1)
    acc = acc + _bias(f"{NAME}/conv1/bias", acc, 8)[:, None, None]
    w_s0 = F32(0.0041)
    y_s = _pow2_at_least(float(_p(np.maximum(acc, 0), 995)) * float(x_s) * float(w_s0) / 230)
    w_s = _search(w_s0, lambda s: _margin_ok(acc, intref.multiplier(x_s, s, y_s), 0, 0, 255),
                  "conv1")
    y = intref.qdq_requant(acc, intref.multiplier(x_s, w_s, y_s), 0, 0, 255)
    bias = acc - intref.conv(x, w, 1, 1)
    wdq, bdq = e.weights("conv1", w, w_s, bias[:, 0, 0], F32(x_s) * F32(w_s))
    g.node("Conv", [cur, wdq, bdq], "conv1_out", "conv1", kernel_shape=[3, 3], pads=[1] * 4,
           strides=[1, 1], group=1, dilations=[1, 1])
    g.node("Relu", ["conv1_out"], "conv1_relu", "conv1_relu")
    qp1 = e.qparams("conv1_q", y_s, np.uint8(0))
    e.q("conv1_relu", qp1, "conv1_q")
    inter["conv1_q"] = y
    layers.append(Layer(0, "conv1", "conv 3x3, 3 -> 8 (+bias, Relu)", "1", "16x16x3", _hwc(y),
                        intref.macs_conv(3, 8, 3, 16, 16), 216,
                        f"M = {float(intref.multiplier(x_s, w_s, y_s)):.6g} (per tensor)",
                        intref.stats(y)))

    # maxpool 2x2: Q reuses the input's scale and zero point (integer max).
    e.dq("conv1_q", qp1, "pool1_in")
    g.node("MaxPool", ["pool1_in"], "pool1_out", "pool1", kernel_shape=[2, 2], strides=[2, 2])
    e.q("pool1_out", qp1, "pool1_q")
    xp = intref.window_max(y, 2)
    inter["pool1_q"] = xp
    layers.append(Layer(1, "pool1", "max pool 2x2", "2", _hwc(y), _hwc(xp), 0, 0, "same scale",
                        intref.stats(xp)))

    # dw: 3x3 p1 depthwise, per-channel power-of-two weight scales, dyadic output: exact ties.
    x, xs1 = xp, y_s
    w = prng.int8_weights(f"{NAME}/dw/weight", (8, 1, 3, 3), spread=4)
    w_s = np.array([2.0 ** -(5 + int(k)) for k in prng.integers(f"{NAME}/dw/wscale", (8,), 0, 2)],
                   F32)
    acc0 = intref.conv(x, w, 1, 1, group=8)
    acc = acc0 + _bias(f"{NAME}/dw/bias", acc0, 8)[:, None, None]
    real = np.maximum(acc, 0) * (float(xs1) * w_s.astype(np.float64))[:, None, None]
    y_s = _pow2_at_least(float(_p(real, 995)) / 230)
    m = intref.multiplier(xs1, w_s, y_s)
    y = intref.qdq_requant(acc, m, 0, 0, 255)
    ties = _ties(acc, m, 0, 0, 255)
    e.dq("pool1_q", qp1, "dw_in")
    wdq, bdq = e.weights("dw", w, w_s, (acc - acc0)[:, 0, 0], F32(xs1) * w_s)
    g.node("Conv", ["dw_in", wdq, bdq], "dw_out", "dw", kernel_shape=[3, 3], pads=[1] * 4,
           strides=[1, 1], group=8, dilations=[1, 1])
    g.node("Relu", ["dw_out"], "dw_relu", "dw_relu")
    qp2 = e.qparams("dw_q", y_s, np.uint8(0))
    e.q("dw_relu", qp2, "dw_q")
    inter["dw_q"] = y
    layers.append(Layer(2, "dw", "dw 3x3 (+bias, Relu)", "1", _hwc(x), _hwc(y),
                        intref.macs_conv(8, 8, 3, 8, 8, 8), 72,
                        f"M = 2^{int(np.log2(m.min()))}..2^{int(np.log2(m.max()))} per channel "
                        f"(dyadic; {ties[0]} ties, {ties[1]} half-even != half-up)",
                        intref.stats(y)))
    notes.append("encoding: int8 weights with int8 zero points 0 (per tensor for conv1 and "
                 "fc, per output channel, axis 0, for dw and pw); int32 biases with scale "
                 "float32(x_s*w_s) and int32 zero point 0 (168 B); activations uint8 with "
                 "scalar scale/zero point; all scales float32")
    notes.append(f"dw: {ties[0]} exact .5 ties, {ties[1]} of them round differently under "
                 "half-up (tests round-half-to-even)")

    # pw: 1x1 8 -> 16, per-channel float32 weight scales (tie-free search per channel).
    x, xs2 = y, y_s
    w = prng.int8_weights(f"{NAME}/pw/weight", (16, 8, 1, 1))
    acc0 = intref.conv(x, w)
    acc = acc0 + _bias(f"{NAME}/pw/bias", acc0, 16)[:, None, None]
    w_s0 = np.array([0.0025 * (1 + c / 16) for c in range(16)], F32)
    real = np.maximum(acc, 0) * (float(xs2) * w_s0.astype(np.float64))[:, None, None]
    y_s = _pow2_at_least(float(_p(real, 995)) / 230)
    w_s = np.array([_search(w_s0[c], lambda s, c=c: _margin_ok(
        acc[c:c + 1], intref.multiplier(xs2, [s], y_s), 0, 0, 255), f"pw channel {c}")
        for c in range(16)], F32)
    m = intref.multiplier(xs2, w_s, y_s)
    y = intref.qdq_requant(acc, m, 0, 0, 255)
    e.dq("dw_q", qp2, "pw_in")
    wdq, bdq = e.weights("pw", w, w_s, (acc - acc0)[:, 0, 0], F32(xs2) * w_s)
    g.node("Conv", ["pw_in", wdq, bdq], "pw_out", "pw", kernel_shape=[1, 1], pads=[0] * 4,
           strides=[1, 1], group=1, dilations=[1, 1])
    g.node("Relu", ["pw_out"], "pw_relu", "pw_relu")
    qp3 = e.qparams("pw_q", y_s, np.uint8(0))
    e.q("pw_relu", qp3, "pw_q")
    inter["pw_q"] = y
    layers.append(Layer(3, "pw", "pw 8 -> 16 (+bias, Relu)", "1", _hwc(x), _hwc(y),
                        intref.macs_conv(8, 16, 1, 8, 8), 128,
                        f"M = {m.min():.6g}..{m.max():.6g} per channel", intref.stats(y)))

    # GlobalAveragePool over 8x8 with output scale x_s/2 (dyadic): M = 1/32 on the sum.
    xs3, gap_s = y_s, F32(y_s / 2)
    sums = y.reshape(16, -1).sum(axis=1)
    mg = np.float64(xs3) / np.float64(gap_s) / 64
    yg = intref.qdq_requant(sums, mg, 0, 0, 255)
    gties = _ties(sums, mg, 0, 0, 255)
    e.dq("pw_q", qp3, "gap_in")
    g.node("GlobalAveragePool", ["gap_in"], "gap_out", "gap")
    qp4 = e.qparams("gap_q", gap_s, np.uint8(0))
    e.q("gap_out", qp4, "gap_q")
    g.node("Flatten", ["gap_q"], "gap_flat", "flatten", axis=1)
    inter["gap_q"] = yg
    layers.append(Layer(4, "gap", "global avg pool 8x8", "-", _hwc(y), "1x1x16", 0, 0,
                        f"M = 1/32 on the window sum (dyadic; {gties[0]} ties)", intref.stats(yg)))

    # Gemm 16 -> 10 (transB), per-tensor weight scale; int8 output, asymmetric, tie-free y_s.
    w = prng.int8_weights(f"{NAME}/fc/weight", (10, 16))
    acc0 = w.astype(np.int64) @ yg
    bias = prng.integers(f"{NAME}/fc/bias", (10,), -2000, 2000)
    acc = acc0 + bias
    w_s = F32(0.0037)
    real = acc * (float(gap_s) * float(w_s))
    lo_r, hi_r = min(0.0, float(real.min())), max(0.0, float(real.max()))
    y_s0 = F32((hi_r - lo_r) / 255)
    zp = np.int8(np.clip(np.rint(-128 - lo_r / float(y_s0)), -128, 127))
    y_s = _search(y_s0, lambda s: _margin_ok(acc, intref.multiplier(gap_s, w_s, s), int(zp),
                                               -128, 127), "fc output")
    yo = intref.qdq_requant(acc, intref.multiplier(gap_s, w_s, y_s), int(zp), -128, 127)
    e.dq("gap_flat", qp4, "fc_in")
    wdq, bdq = e.weights("fc", w, w_s, bias, F32(gap_s) * F32(w_s))
    g.node("Gemm", ["fc_in", wdq, bdq], "fc_out", "fc", transB=1)
    e.q("fc_out", e.qparams("output", y_s, zp), "output")
    layers.append(Layer(5, "fc", "FC 16 -> 10 (+bias)", "-", "16", "10", 160, 160,
                        f"M = {float(intref.multiplier(gap_s, w_s, y_s)):.6g}, int8 zp {int(zp)}",
                        None))

    model = g.model([("input", np.uint8, (1, 3, 16, 16))], [("output", np.int8, (1, 10))],
                    "tiny QDQ smoke network (ONNX Runtime static-quantiser form); built by "
                    "models/generate.py")
    return Network(
        name=NAME, dialect="standard ONNX QDQ, opset 13 (DIALECTS.md §4); passes onnx.checker",
        purpose="fast end-to-end smoke test of the QDQ import path: per-tensor and per-axis "
                "DequantizeLinear, int32 bias, Relu folding, MaxPool/GlobalAveragePool between "
                "Q/DQ, Flatten on uint8, int8 asymmetric output",
        model=model, inputs=[xq], outputs=[yo.reshape(1, 10).astype(np.int8)], layers=layers,
        io=["input `input`: UINT8 [1,3,16,16] (scale 2/255, zero point 128)",
            f"output `output`: INT8 [1,10] (scale {float(y_s):.8g}, zero point {int(zp)})"],
        notes=notes, checker=True, intermediates=inter)
