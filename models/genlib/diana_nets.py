"""DIANA networks (folders named diana_*), built with genlib/diana.py:

- diana_nb_single, diana_nb_two, diana_nb_two_s2, diana_nb_residual: the three example graphs of
  HTVM's compile_relay notebook (KULeuven-MICAS/htvm diana/tutorial/compile_relay, docs/sources.md [70]): one conv
  3 -> 5 3x3 pad 1 on 3x32x32 with ReLU; two convs 3 -> 32 (ReLU) -> 8 with stride 1 or 2 in the
  second; two convs 32 -> 16 (ReLU) -> 32 and a residual add of the input (an int32 sum, which the
  notebook leaves to the CPU). Padding 'SAME' throughout (the residual add needs it), edgesim's
  own weights, shifts calibrated (the notebook's shift 0 / 4 would saturate these weights).
- diana_resnet8: ResNet-8 in the shape of MLPerf Tiny ImageClassification (HTVM's
  mlperf_tiny/relay_resnet.py structure, 10 classes as MLPerf Tiny; HTVM uses 12 so that its
  dense output divides by 4), power-of-two requant, ReLU after the adds.
- diana_dscnn: DS-CNN in the shape of MLPerf Tiny KWS as HTVM writes it (relay_ds_cnn.py: the
  input transposed to 1x10x49, a 5x7 stride-2 first conv, four depthwise/pointwise pairs of 64
  channels, 5x25 average pool, dense 64 -> 12).
- diana_resnet8_ternary: the ResNet-8 with ternary weights in every conv after the first (the
  analog core's layers): activations feeding them clipped to [0, 63] (the DACs' 7-bit range), ADC
  clips [0, 31] (ReLU) or [-32, 31] (6 bit); first conv, adds and dense int8 (digital), as HTVM's
  `mixed` variant.
"""
import numpy as np

from .diana import ENCODING, DianaBuilder
from .network import Network

DIALECT = "NEMO/QuantLab-style integer graph, power-of-two requant (HTVM relay semantics, DIALECTS.md §1)"


def _net(name, b, x_in, y, out_dtype, purpose, notes=()):
    c, h, w = x_in.shape[1:]
    shape = (1,) + tuple(y.shape) if y.ndim == 3 else (1, y.size)
    model = b.g.model([("input", np.int8, x_in.shape)], [("output", out_dtype, shape)],
                      f"{purpose}; built by models/generate.py")
    return Network(name=name, dialect=DIALECT, purpose=purpose, model=model, inputs=[x_in],
                   outputs=[y.reshape(shape).astype(out_dtype)], layers=b.layers, intermediates=b.inter,
                   io=[f"input `input`: INT8 [1,{c},{h},{w}]",
                       f"output `output`: {np.dtype(out_dtype).name.upper()} {list(shape)}"],
                   notes=[ENCODING] + list(notes), checker=True)


def nb_single():
    name = "diana_nb_single"
    b = DianaBuilder(name)
    x_in, x = b.input("input", (1, 3, 32, 32))
    n, y = b.conv(0, "conv", "conv 3x3, 3 -> 5 (ReLU)", x, x_in[0].astype(np.int64), 5, 3, 1)
    b.output(n, y, np.uint8)
    return _net(name, b, x_in, y, np.uint8, "HTVM notebook example 1: one digital conv 3 -> 5, 3x3, pad 1, ReLU")


def nb_two(stride2):
    name = "diana_nb_two_s2" if stride2 else "diana_nb_two"
    b = DianaBuilder(name)
    x_in, x = b.input("input", (1, 3, 32, 32))
    n, y = b.conv(0, "conv1", "conv 3x3, 3 -> 32 (ReLU)", x, x_in[0].astype(np.int64), 32, 3, 1)
    s = 2 if stride2 else 1
    n, y = b.conv(1, "conv2", f"conv 3x3, 32 -> 8, stride {s}", n, y, 8, 3, s, relu=False)
    b.output(n, y)
    return _net(name, b, x_in, y, np.int8,
                f"HTVM notebook example 2: two digital convs 3 -> 32 -> 8, stride {s} in the second")


def nb_residual():
    name = "diana_nb_residual"
    b = DianaBuilder(name)
    x_in, x = b.input("input", (1, 32, 32, 32))
    x0 = x_in[0].astype(np.int64)
    n, y = b.conv(0, "conv1", "conv 3x3, 32 -> 16 (ReLU)", x, x0, 16, 3, 1)
    n, y = b.conv(1, "conv2", "conv 3x3, 16 -> 32", n, y, 32, 3, 1, relu=False)
    n, y = b.add(2, "add", x, x0, n, y, requant=False)
    b.output(n, y, np.int32)
    return _net(name, b, x_in, y, np.int32,
                "HTVM notebook example 3: two digital convs 32 -> 16 -> 32 and a residual add of the input "
                "(int32 sum: no requant, so it runs on the host)")


def resnet8(ternary):
    name = "diana_resnet8_ternary" if ternary else "diana_resnet8"
    b = DianaBuilder(name)
    x_in, x = b.input("input", (1, 3, 32, 32))
    act = (0, 63) if ternary else (-128, 127)   # what feeds the next conv: the DACs' range when analog
    adc = dict(ternary=True, clip=(-32, 31), target=28) if ternary else {}
    n, y = b.conv(0, "L00_conv", "conv 3x3, 3 -> 16 (ReLU)", x, x_in[0].astype(np.int64), 16, 3, 1, clip=act,
                  target=act[1] - 10)
    idx = 1
    for stage, cout in enumerate([16, 32, 64], start=1):
        s = 1 if stage == 1 else 2
        kind = "ternary conv" if ternary else "conv"
        n1, y1 = b.conv(idx, f"L{idx:02d}_s{stage}a", f"{kind} 3x3, {y.shape[0]} -> {cout}, /{s} (ReLU)", n, y, cout, 3,
                        s, **adc)
        n2, y2 = b.conv(idx + 1, f"L{idx + 1:02d}_s{stage}b", f"{kind} 3x3, {cout} -> {cout}", n1, y1, cout, 3, 1,
                        relu=False, **adc)
        idx += 2
        if stage == 1:
            sn, sy = n, y
        else:
            sn, sy = b.conv(idx, f"L{idx:02d}_s{stage}bypass", f"{kind} 1x1, {y.shape[0]} -> {cout}, /2", n, y, cout,
                            1, 2, relu=False, **adc)
            idx += 1
        n, y = b.add(idx, f"L{idx:02d}_s{stage}add", sn, sy, n2, y2, clip=act, relu=True)
        idx += 1
    n, y = b.avg_pool(idx, f"L{idx:02d}_pool", n, y, 8, 8)
    n, y = b.dense(idx + 1, f"L{idx + 1:02d}_fc", n, y, 10)
    b.output(n, y)
    what = ("ternary weights in the stage convs (analog core), int8 first conv, adds and dense (digital)"
            if ternary else "int8 weights, power-of-two requant, every conv, add and dense SOMA-shaped")
    return _net(name, b, x_in, y, np.int8, f"ResNet-8 (MLPerf Tiny shape) for DIANA: {what}",
                ["the 10-class dense (10 outputs, not divisible by 4) stays on the host, as HTVM would "
                 "leave it; the average pool runs on the host (no pooling pattern in HTVM)"])


def dscnn():
    name = "diana_dscnn"
    b = DianaBuilder(name)
    x_in, x = b.input("input", (1, 1, 10, 49))
    n, y = b.conv(0, "L00_conv", "conv 5x7, 1 -> 64, /2 (ReLU)", x, x_in[0].astype(np.int64), 64, (5, 7), 2,
                  spread=32)
    idx = 1
    for i in range(4):
        n, y = b.conv(idx, f"L{idx:02d}_dw{i + 1}", "dw 3x3, 64 ch (ReLU)", n, y, 64, 3, 1, group=64)
        n, y = b.conv(idx + 1, f"L{idx + 1:02d}_pw{i + 1}", "pw 1x1, 64 -> 64 (ReLU)", n, y, 64, 1, 1)
        idx += 2
    n, y = b.avg_pool(idx, f"L{idx:02d}_pool", n, y, 5, 25)
    n, y = b.dense(idx + 1, f"L{idx + 1:02d}_fc", n, y, 12)
    b.output(n, y)
    return _net(name, b, x_in, y, np.int8, "DS-CNN (MLPerf Tiny KWS shape, HTVM's transposed 1x10x49 input) for DIANA",
                ["the first conv's input has 490 elements (not divisible by 4): it stays on the host, as "
                 "HTVM would leave it; the 5x25 average pool (floor(sum/125)) runs on the host"])


BUILDERS = {
    "diana_nb_single": nb_single,
    "diana_nb_two": lambda: nb_two(False),
    "diana_nb_two_s2": lambda: nb_two(True),
    "diana_nb_residual": nb_residual,
    "diana_resnet8": lambda: resnet8(False),
    "diana_dscnn": dscnn,
    "diana_resnet8_ternary": lambda: resnet8(True),
}
