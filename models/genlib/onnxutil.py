"""Small helpers to assemble an ONNX ModelProto deterministically.

Nodes and initializers keep insertion order; attributes are sorted by onnx.helper; the IR
version, opset and producer strings are fixed, so the serialised bytes depend only on the
network definition (not on the installed onnx package's defaults).
"""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

IR_VERSION = 8
OPSET = 13
PRODUCER = "edgesim models/generate.py"
PRODUCER_VERSION = "1"

ELEM = {np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int8): TensorProto.INT8,
        np.dtype(np.int32): TensorProto.INT32, np.dtype(np.float32): TensorProto.FLOAT}


class GraphBuilder:
    def __init__(self, name):
        self.name = name
        self.nodes = []
        self.inits = []
        self._used = set()

    def _claim(self, name):
        if name in self._used:
            raise ValueError(f"duplicate tensor name '{name}'")
        self._used.add(name)
        return name

    def const(self, name, array):
        """Adds an initializer (dtype as given) and returns its name."""
        arr = np.array(array, copy=True, order="C")  # keeps 0-d shapes (ascontiguousarray does not)
        self.inits.append(numpy_helper.from_array(arr, self._claim(name)))
        return name

    def node(self, op, inputs, output, name, **attrs):
        self.nodes.append(helper.make_node(op, list(inputs), [self._claim(output)], name=name,
                                           **attrs))
        return output

    def model(self, inputs, outputs, doc):
        """inputs/outputs: lists of (name, numpy dtype, shape)."""
        def vi(name, dtype, shape):
            return helper.make_tensor_value_info(name, ELEM[np.dtype(dtype)], list(shape))
        graph = helper.make_graph(self.nodes, self.name, [vi(*i) for i in inputs],
                                  [vi(*o) for o in outputs], initializer=self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name=PRODUCER, producer_version=PRODUCER_VERSION,
                                  doc_string=doc)
        model.ir_version = IR_VERSION
        return model
