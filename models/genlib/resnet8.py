"""resnet8: a ResNet-8 in the shape of MLPerf Tiny ImageClassification, Deeploy dialect.

32x32x3 uint8 input; conv 3x3 16; three stages of two 3x3 convs (the first with stride 2 in
stages 2 and 3) with a residual Add -> RequantShift (identity shortcut in stage 1, a 1x1/s2
bypass conv in stages 2 and 3); avg pool 8x8 -> floor(sum/64); FC 64 -> 10 with int32 bias
and int32 output. MACs (12,501,632) equal Deeploy's Models/MLPerf/ImageClassification
(networks/README.md §3.2); the builder fails if they differ.
"""
import numpy as np

from . import prng
from .deeploy import ENCODING, DeeployBuilder
from .network import Network

NAME = "resnet8"
EXPECTED_MACS = 12_501_632


def build():
    b = DeeployBuilder(NAME)
    x_in = prng.image_uint8(f"{NAME}/input", (1, 3, 32, 32), cell=4)
    name, x = b.conv(0, "L00_conv", "conv 3x3, 3 -> 16", "input", x_in[0].astype(np.int64),
                     16, 3, 1)
    idx = 1
    for stage, cout in enumerate([16, 32, 64], start=1):
        cin = x.shape[0]
        s = 1 if stage == 1 else 2
        n1, y = b.conv(idx, f"L{idx:02d}_s{stage}a", f"conv 3x3, {cin} -> {cout}", name, x,
                       cout, 3, s)
        n2, y = b.conv(idx + 1, f"L{idx + 1:02d}_s{stage}b", f"conv 3x3, {cout} -> {cout}",
                       n1, y, cout, 3, 1)
        idx += 2
        if stage == 1:
            sc_name, sc = name, x
        else:
            sc_name, sc = b.conv(idx, f"L{idx:02d}_s{stage}bypass", f"bypass 1x1, {cin} -> {cout}",
                                 name, x, cout, 1, 2)
            idx += 1
        name, x = b.add(idx, f"L{idx:02d}_s{stage}add", sc_name, sc, n2, y)
        idx += 1
    name, x = b.avg_pool(idx, f"L{idx:02d}_pool", name, x, 8)
    _, logits = b.fc(idx + 1, f"L{idx + 1:02d}_fc", name, x, 10, bias=True)
    macs = sum(l.macs for l in b.layers)
    if macs != EXPECTED_MACS:
        raise SystemExit(f"{NAME}: {macs} MACs, expected {EXPECTED_MACS}")
    model = b.g.model([("input", np.uint8, (1, 3, 32, 32))], [("output", np.int32, (1, 10))],
                      "ResNet-8 (MLPerf Tiny ImageClassification shape, edgesim's own weights), "
                      "Deeploy integer dialect; built by models/generate.py")
    return Network(
        name=NAME, dialect="Deeploy/QuantLib integer (RequantShift, DIALECTS.md §3.2)",
        purpose="residual network: unsaturated uint8+uint8 Add -> RequantShift, 1x1/s2 bypass "
                "convs, strided 3x3 convs; small enough to commit",
        model=model, inputs=[x_in], outputs=[logits.reshape(1, -1).astype(np.int32)],
        layers=b.layers, intermediates=b.inter,
        io=["input `input`: UINT8 [1,3,32,32] (NCHW)",
            "output `output`: INT32 [1,10] (raw FC accumulators + bias, no requant)"],
        notes=[ENCODING, f"argmax of the golden logits: class {int(np.argmax(logits))}"])
