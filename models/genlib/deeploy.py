"""Builder for networks in the Deeploy/QuantLib integer dialect (DIALECTS.md §3).

Patterns emitted (exactly these; the frontend recognises them):
- conv layer:  Conv(x, W int8 [O, C/g, k, k], no bias) -> RequantShift(acc, mul, add)
               mul/add: INT32 initializers [C,1,1]; attributes div (INT, 2^D), n_levels=256,
               signed=0; default domain.
- residual:    Add(shortcut uint8, main uint8) (unsaturated int sum) -> RequantShift with
               scalar (0-d) mul/add.
- pool:        AveragePool(k x k, stride k) -> Mul(INT32 scalar k*k) ->
               RequantShift(mul=1, add=-k*k/2, div=k*k) == floor(window sum / k*k).
- classifier:  Flatten -> Gemm(transB=1, W int8 [N, K], optional INT32 bias [N]); its int32
               output is the graph output (no requant).
Weights are INT8 initializers, every other constant INT32 (integers, never float).
Each layer is calibrated on the running activation (calib.py) and evaluated with intref.py.
"""
import numpy as np

from . import calib, intref, prng
from .network import Layer
from .onnxutil import GraphBuilder


ENCODING = ("encoding: weights INT8 initializers; RequantShift mul/add INT32 initializers "
            "([C,1,1] per channel after convs, 0-d after Adds and pools); RequantShift "
            "attributes div (INT, a power of two), n_levels=256, signed=0, default domain; "
            "no float tensors anywhere")


def _hwc(v):
    c, h, w = v.shape
    return f"{h}x{w}x{c}"


class DeeployBuilder:
    def __init__(self, name):
        self.name = name
        self.g = GraphBuilder(name)
        self.layers = []
        self.inter = {}

    def _rqs(self, tag, acc_name, acc, out_name, per_channel, lo_pm=250):
        mul, add, div = calib.rqs_params(acc, per_channel=per_channel, lo_pm=lo_pm)
        shape = (-1, 1, 1) if per_channel else ()
        mul_b, add_b = mul.reshape(shape), add.reshape(shape)
        y = intref.requant_shift(acc, mul_b, add_b, div)
        g = self.g
        g.node("RequantShift", [acc_name, g.const(f"{tag}_rqs.mul", mul_b.astype(np.int32)),
                                g.const(f"{tag}_rqs.add", add_b.astype(np.int32))],
               out_name, f"{tag}_rqs", div=int(div), n_levels=256, signed=0)
        self.inter[out_name] = y
        return y, div

    def conv(self, idx, tag, desc, x_name, x, cout, k, stride, group=1, spread=32):
        """Conv + RequantShift; returns (output name, uint8-valued int64 [C,H,W])."""
        cin = x.shape[0]
        w = prng.int8_weights(f"{self.name}/{tag}/weight", (cout, cin // group, k, k), spread)
        acc = intref.conv(x, w, stride, k // 2, group)
        g = self.g
        acc_name = g.node("Conv", [x_name, g.const(f"{tag}.weight", w)], f"{tag}_acc", tag,
                          kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4,
                          group=group, dilations=[1, 1])
        y, div = self._rqs(tag, acc_name, acc, f"{tag}_out", per_channel=True)
        self.layers.append(Layer(idx, tag, desc, str(stride), _hwc(x), _hwc(y),
                                 intref.macs_conv(cin, cout, k, y.shape[1], y.shape[2], group),
                                 intref.weights_conv(cin, cout, k, group),
                                 f"div 2^{div.bit_length() - 1}", intref.stats(y)))
        return f"{tag}_out", y

    def add(self, idx, tag, a_name, a, b_name, b):
        """Residual Add(a, b) -> RequantShift (per tensor)."""
        s = a.astype(np.int64) + b
        acc_name = self.g.node("Add", [a_name, b_name], f"{tag}_sum", tag)
        self.inter[acc_name] = s
        y, div = self._rqs(tag, acc_name, s, f"{tag}_out", per_channel=False, lo_pm=None)
        self.layers.append(Layer(idx, tag, "add + requant", "-", _hwc(s), _hwc(y), 0, 0,
                                 f"div 2^{div.bit_length() - 1}", intref.stats(y)))
        return f"{tag}_out", y

    def avg_pool(self, idx, tag, x_name, x, k):
        """floor(sum over k x k / k^2) as AveragePool -> Mul -> RequantShift."""
        n = k * k
        assert n & (n - 1) == 0, "pool window must hold a power-of-two element count"
        g = self.g
        mean = g.node("AveragePool", [x_name], f"{tag}_mean", tag, kernel_shape=[k, k],
                      strides=[k, k])
        total = g.node("Mul", [mean, g.const(f"{tag}.count", np.array(n, np.int32))],
                       f"{tag}_sum", f"{tag}_mul")
        g.node("RequantShift", [total, g.const(f"{tag}_rqs.mul", np.array(1, np.int32)),
                                g.const(f"{tag}_rqs.add", np.array(-(n // 2), np.int32))],
               f"{tag}_out", f"{tag}_rqs", div=n, n_levels=256, signed=0)
        y = intref.window_sum(x, k) // n
        self.inter[f"{tag}_out"] = y
        self.layers.append(Layer(idx, tag, f"avg pool {k}x{k} -> floor(sum/{n})", "-", _hwc(x),
                                 _hwc(y), 0, 0, f"div {n}", intref.stats(y)))
        return f"{tag}_out", y

    def fc(self, idx, tag, x_name, x, nout, bias=False):
        """Flatten -> Gemm(transB=1); returns (name, int64 [nout]) of the int32 output."""
        k = x.size
        g = self.g
        w = prng.int8_weights(f"{self.name}/{tag}/weight", (nout, k))
        flat = g.node("Flatten", [x_name], f"{tag}_in", f"{tag}_flatten", axis=1)
        ins = [flat, g.const(f"{tag}.weight", w)]
        y = w.astype(np.int64) @ x.reshape(-1).astype(np.int64)
        if bias:
            b = prng.integers(f"{self.name}/{tag}/bias", (nout,), -4096, 4095)
            ins.append(g.const(f"{tag}.bias", b.astype(np.int32)))
            y = y + b
        g.node("Gemm", ins, "output", tag, transB=1)
        assert np.abs(y).max() < 2**31
        self.layers.append(Layer(idx, tag, f"FC {k} -> {nout}" + (" + bias" if bias else ""),
                                 "-", str(k), str(nout), k * nout, k * nout, "none (int32 out)",
                                 None))
        return "output", y
