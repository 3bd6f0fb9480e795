"""mobilenetv1_128: MobileNetV1-1.0 at 128x128 in the Deeploy integer dialect, with exactly the
29 layers of networks/README.md §5 (27 convs, avg pool 4x4 -> floor(sum/16), FC 1024 -> 1000
with int32 output). The builder fails if any layer's MACs or weight bytes differ from that
table, or if the totals differ from 186,400,768 MACs and 4,209,088 weight bytes.
"""
import numpy as np

from . import prng
from .deeploy import ENCODING, DeeployBuilder
from .network import Network

NAME = "mobilenetv1_128"
DW_STRIDES = [1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1]
PW_OUT = [64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024]

# networks/README.md §5: (MACs, weight bytes) of layers 0..28.
EXPECTED = [
    (3538944, 864), (1179648, 288), (8388608, 2048), (589824, 576), (8388608, 8192),
    (1179648, 1152), (16777216, 16384), (294912, 1152), (8388608, 32768), (589824, 2304),
    (16777216, 65536), (147456, 2304), (8388608, 131072), (294912, 4608),
    (16777216, 262144), (294912, 4608), (16777216, 262144), (294912, 4608),
    (16777216, 262144), (294912, 4608), (16777216, 262144), (294912, 4608),
    (16777216, 262144), (73728, 4608), (8388608, 524288), (147456, 9216),
    (16777216, 1048576), (0, 0), (1024000, 1024000),
]
EXPECTED_MACS = 186_400_768
EXPECTED_WEIGHT_BYTES = 4_209_088


def check_against_readme(layers):
    if len(layers) != len(EXPECTED):
        raise SystemExit(f"{NAME}: {len(layers)} layers, README §5 has {len(EXPECTED)}")
    for l, (macs, wb) in zip(layers, EXPECTED):
        if (l.macs, l.weight_bytes) != (macs, wb):
            raise SystemExit(f"{NAME}: layer {l.index} ({l.desc}): MACs/weights "
                             f"{l.macs}/{l.weight_bytes}, README §5 says {macs}/{wb}")
    tm, tw = sum(l.macs for l in layers), sum(l.weight_bytes for l in layers)
    if (tm, tw) != (EXPECTED_MACS, EXPECTED_WEIGHT_BYTES):
        raise SystemExit(f"{NAME}: totals {tm} MACs / {tw} B differ from README §5 "
                         f"({EXPECTED_MACS} / {EXPECTED_WEIGHT_BYTES})")


def build():
    b = DeeployBuilder(NAME)
    x_in = prng.image_uint8(f"{NAME}/input", (1, 3, 128, 128), cell=8)
    name, x = b.conv(0, "L00_conv", "conv 3x3, 3 -> 32", "input", x_in[0].astype(np.int64),
                     32, 3, 2)
    idx = 1
    for blk, (s, cout) in enumerate(zip(DW_STRIDES, PW_OUT)):
        c = x.shape[0]
        name, x = b.conv(idx, f"L{idx:02d}_dw", "dw 3x3", name, x, c, 3, s, group=c)
        idx += 1
        name, x = b.conv(idx, f"L{idx:02d}_pw", f"pw {c} -> {cout}", name, x, cout, 1, 1)
        idx += 1
    name, x = b.avg_pool(27, "L27_pool", name, x, 4)
    _, logits = b.fc(28, "L28_fc", name, x, 1000)
    check_against_readme(b.layers)
    model = b.g.model([("input", np.uint8, (1, 3, 128, 128))], [("output", np.int32, (1, 1000))],
                      "MobileNetV1-1.0-128 (edgesim's own weights), Deeploy integer dialect; "
                      "built by models/generate.py")
    return Network(
        name=NAME, dialect="Deeploy/QuantLib integer (RequantShift, DIALECTS.md §3.2)",
        purpose="the 29-layer MobileNetV1-128 benchmark of networks/README.md §5 with a graph "
                "and weights (DORY's MV1-128 goldens have neither)",
        model=model, inputs=[x_in], outputs=[logits.reshape(1, -1).astype(np.int32)],
        layers=b.layers, intermediates=b.inter,
        io=["input `input`: UINT8 [1,3,128,128] (NCHW)",
            "output `output`: INT32 [1,1000] (raw FC accumulators, no requant)"],
        notes=[ENCODING, f"argmax of the golden logits: class {int(np.argmax(logits))}"])
