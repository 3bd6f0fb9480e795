"""ne16_*: single 3x3 layers at 32x32, Deeploy dialect: the shapes of the single-layer NE16
measurements of Deeploy's GAP9 NE16 report (docs/validation.md, docs/sources.md [30]): dense
3x3 64 -> 64 and 32 -> 32, depthwise 3x3 with 16 and 32 channels, stride 1, pad 1, uint8
input 32x32, per-channel RequantShift to uint8. edgesim's own weights (the cycle figures do not
depend on them).
"""
import numpy as np

from . import prng
from .deeploy import ENCODING, DeeployBuilder
from .network import Network

SHAPES = {  # name: (channels, depthwise)
    "ne16_conv3x3_64": (64, False),
    "ne16_conv3x3_32": (32, False),
    "ne16_dw3x3_16": (16, True),
    "ne16_dw3x3_32": (32, True),
}


def builder(name):
    c, dw = SHAPES[name]

    def build():
        b = DeeployBuilder(name)
        x_in = prng.image_uint8(f"{name}/input", (1, c, 32, 32), cell=4)
        desc = f"dw 3x3, {c} ch" if dw else f"conv 3x3, {c} -> {c}"
        _, y = b.conv(0, "L00_conv", desc, "input", x_in[0].astype(np.int64), c, 3, 1,
                      group=c if dw else 1)
        model = b.g.model([("input", np.uint8, (1, c, 32, 32))], [("L00_conv_out", np.uint8, (1, c, 32, 32))],
                          f"single {desc} layer at 32x32 (edgesim's own weights), Deeploy integer "
                          "dialect; built by models/generate.py")
        return Network(
            name=name, dialect="Deeploy/QuantLib integer (RequantShift, DIALECTS.md §3.2)",
            purpose=f"one {desc} layer at 32x32, pad 1: the shape of a published single-layer "
                    "NE16 measurement (docs/validation.md)",
            model=model, inputs=[x_in], outputs=[y.reshape(1, c, 32, 32).astype(np.uint8)],
            layers=b.layers, intermediates=b.inter,
            io=[f"input `input`: UINT8 [1,{c},32,32] (NCHW)",
                f"output `L00_conv_out`: UINT8 [1,{c},32,32]"],
            notes=[ENCODING])

    return build
