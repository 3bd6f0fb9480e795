"""ne16_*: single 3x3 layers, Deeploy dialect: the shapes of the single-layer NE16 measurements
of Deeploy's GAP9 NE16 work (docs/validation.md, docs/sources.md [30], [49]-[51], [55]): dense
3x3 64 -> 64 and 32 -> 32 at 32x32, 16 -> 16 at 64x64 and 4 -> 4 at 128x128, depthwise 3x3 with
16 and 32 channels at 32x32, 64 at 32x32, 16 at 64x64, 8 at 96x96, 4 at 128x128, 32 at 96x96
and 16 at 128x128,
stride 1, pad 1, uint8 input, per-channel RequantShift to uint8. edgesim's own weights (the cycle
figures do not depend on them).
"""
import numpy as np

from . import prng
from .deeploy import ENCODING, DeeployBuilder
from .network import Network

SHAPES = {  # name: (channels, depthwise, height = width)
    "ne16_conv3x3_64": (64, False, 32),
    "ne16_conv3x3_32": (32, False, 32),
    "ne16_conv3x3_16_hw64": (16, False, 64),
    "ne16_conv3x3_4_hw128": (4, False, 128),
    "ne16_dw3x3_16": (16, True, 32),
    "ne16_dw3x3_32": (32, True, 32),
    "ne16_dw3x3_64": (64, True, 32),
    "ne16_dw3x3_16_hw64": (16, True, 64),
    "ne16_dw3x3_8_hw96": (8, True, 96),
    "ne16_dw3x3_4_hw128": (4, True, 128),
    "ne16_dw3x3_32_hw96": (32, True, 96),
    "ne16_dw3x3_16_hw128": (16, True, 128),
}
# Built into <build>/models by CMake instead of committed (~600 KB and ~530 KB of golden data).
BUILT = ("ne16_dw3x3_32_hw96", "ne16_dw3x3_16_hw128")


def builder(name):
    c, dw, hw = SHAPES[name]

    def build():
        b = DeeployBuilder(name)
        x_in = prng.image_uint8(f"{name}/input", (1, c, hw, hw), cell=4)
        desc = f"dw 3x3, {c} ch" if dw else f"conv 3x3, {c} -> {c}"
        _, y = b.conv(0, "L00_conv", desc, "input", x_in[0].astype(np.int64), c, 3, 1,
                      group=c if dw else 1)
        model = b.g.model([("input", np.uint8, (1, c, hw, hw))], [("L00_conv_out", np.uint8, (1, c, hw, hw))],
                          f"single {desc} layer at {hw}x{hw} (edgesim's own weights), Deeploy integer "
                          "dialect; built by models/generate.py")
        return Network(
            name=name, dialect="Deeploy/QuantLib integer (RequantShift, DIALECTS.md §3.2)",
            purpose=f"one {desc} layer at {hw}x{hw}, pad 1: the shape of a published single-layer "
                    "NE16 measurement (docs/validation.md)",
            model=model, inputs=[x_in], outputs=[y.reshape(1, c, hw, hw).astype(np.uint8)],
            layers=b.layers, intermediates=b.inter,
            io=[f"input `input`: UINT8 [1,{c},{hw},{hw}] (NCHW)",
                f"output `L00_conv_out`: UINT8 [1,{c},{hw},{hw}]"],
            notes=[ENCODING])

    return build
