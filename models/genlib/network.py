"""The result of building one network: the model, its golden input/output, the per-layer
table for MANIFEST.md and the checks that must hold."""
from dataclasses import dataclass, field


@dataclass
class Layer:
    index: int
    name: str           # node name of the layer's compute node
    desc: str           # e.g. "dw 3x3", "pw 32 -> 64"
    stride: str
    in_shape: str       # H x W x C (as in networks/README.md)
    out_shape: str
    macs: int
    weight_bytes: int
    requant: str = ""   # e.g. "div 2^14" or "M 0.0123"
    stats: dict = None  # output activation statistics (intref.stats)


@dataclass
class Network:
    name: str
    dialect: str
    purpose: str
    model: object               # onnx.ModelProto
    inputs: list                # numpy arrays, ONNX shapes
    outputs: list               # the builder's own forward (cross-checked, see evaluate.py)
    layers: list
    io: list                    # lines describing inputs/outputs
    notes: list = field(default_factory=list)
    checker: bool = False       # whether onnx.checker must accept the model
    intermediates: dict = field(default_factory=dict)  # tensor name -> builder value

    @property
    def macs(self):
        return sum(l.macs for l in self.layers)

    @property
    def weight_bytes(self):
        return sum(l.weight_bytes for l in self.layers)
