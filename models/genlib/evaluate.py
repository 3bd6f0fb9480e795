"""Independent node-by-node evaluator of the generated ONNX files (the golden source).

It parses the serialised model and executes each node literally, without recognising any
fused pattern:
- integer tensors are int64; Conv/Gemm/Add/Mul on them are exact integer arithmetic;
- RequantShift is DIALECTS.md §3.2: clamp((x*mul + add + div/2) >> log2(div), lo, hi);
- AveragePool gives the exact window mean (float64) and Mul(k*k) turns it back into the
  integer window sum; RequantShift then requires an integral input;
- float graphs holding integers (the DIANA networks: Cast, Conv, Div(2^s), Floor, Clip) run as
  the ONNX specification states, every node rounding once to float32 (exact: their values stay
  below 2^24, which the builder asserts);
- QDQ graphs run in float32 as the ONNX specification states (DequantizeLinear
  (q - zp) * s, QuantizeLinear saturate(rint(x / s) + zp)); float Conv/Gemm/pooling
  accumulate exactly in float64 and round once to float32 at the node output.
Its convolution is a shifted-window sum (not the im2col of intref.py), so a wiring or
attribute mistake in a builder shows up as a disagreement with the builder's own forward.
"""
import numpy as np
import onnx
from onnx import helper, numpy_helper

_INT_RANGE = {np.dtype(np.uint8): (0, 255), np.dtype(np.int8): (-128, 127),
              np.dtype(np.int32): (-2**31, 2**31 - 1)}


_DECLARED = {onnx.TensorProto.UINT8: np.dtype(np.uint8), onnx.TensorProto.INT8: np.dtype(np.int8),
             onnx.TensorProto.INT32: np.dtype(np.int32),
             onnx.TensorProto.FLOAT: np.dtype(np.float32)}


def _i64(a):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        if not np.all(np.floor(a) == a):
            raise ValueError("non-integral value in an integer op")
    return a.astype(np.int64)


def _is_float(a):
    return np.asarray(a).dtype.kind == "f"


def _axis_shape(p, ndim, axis):
    p = np.asarray(p)
    if p.ndim == 0 or p.size == 1:
        return p.reshape(())
    shape = [1] * ndim
    shape[axis % ndim] = p.size
    return p.reshape(shape)


def _windows(x, kernel, strides, pads, fill):
    """Yields (i, j, view [N, C, Ho, Wo]) for each kernel offset."""
    n, c, h, w = x.shape
    t, l, b, r = pads
    xp = np.full((n, c, h + t + b, w + l + r), fill, x.dtype)
    xp[:, :, t:t + h, l:l + w] = x
    ho = (h + t + b - kernel[0]) // strides[0] + 1
    wo = (w + l + r - kernel[1]) // strides[1] + 1
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            yield i, j, xp[:, :, i:i + strides[0] * (ho - 1) + 1:strides[0],
                           j:j + strides[1] * (wo - 1) + 1:strides[1]]


def _conv(ins, a):
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else None
    if any(d != 1 for d in a.get("dilations", [1, 1])):
        raise ValueError("dilations != 1 not used by the generator")
    fl = _is_float(x)
    t = np.float64 if fl else np.int64
    x, w = np.asarray(x).astype(t), np.asarray(w).astype(t)
    g = a.get("group", 1)
    o, cg, kh, kw = w.shape
    n = x.shape[0]
    wg = w.reshape(g, o // g, cg, kh, kw)
    acc = None
    for i, j, v in _windows(x, (kh, kw), a.get("strides", [1, 1]), a.get("pads", [0] * 4), 0):
        vg = v.reshape(n, g, cg, v.shape[2], v.shape[3])
        term = np.einsum("goc,ngchw->ngohw", wg[:, :, :, i, j], vg)
        acc = term if acc is None else acc + term
    acc = acc.reshape(n, o, acc.shape[3], acc.shape[4])
    if b is not None:
        acc = acc + np.asarray(b).astype(t).reshape(1, -1, 1, 1)
    return acc.astype(np.float32) if fl else acc


def _gemm(ins, a):
    x, w = ins[0], ins[1]
    if a.get("alpha", 1.0) != 1.0 or a.get("beta", 1.0) != 1.0:
        raise ValueError("alpha/beta != 1 not used by the generator")
    fl = _is_float(x)
    t = np.float64 if fl else np.int64
    x, w = np.asarray(x).astype(t), np.asarray(w).astype(t)
    if a.get("transA", 0):
        x = x.T
    if a.get("transB", 0):
        w = w.T
    y = x @ w
    if len(ins) > 2 and ins[2] is not None:
        y = y + np.asarray(ins[2]).astype(t)
    return y.astype(np.float32) if fl else y


def _requant_shift(ins, a):
    x, mul, add = _i64(ins[0]), _i64(ins[1]), _i64(ins[2])
    div, n = int(a["div"]), int(a.get("n_levels", a.get("n_levels_out", 256)))
    shift = div.bit_length() - 1
    if div != 1 << shift:
        raise ValueError("RequantShift div must be a power of two")
    lo, hi = (-(n // 2), n // 2 - 1) if a.get("signed", 0) else (0, n - 1)
    return np.clip((x * mul + add + div // 2) >> shift, lo, hi)


def _avg_pool(ins, a):
    x = ins[0]
    k = a["kernel_shape"]
    s = a.get("strides", [1, 1])
    if any(a.get("pads", [0] * 4)):
        raise ValueError("padded AveragePool not used by the generator")
    xs = np.asarray(x).astype(np.float64)
    acc = sum(v for _, _, v in _windows(xs, k, s, [0] * 4, 0.0))
    mean = acc / (k[0] * k[1])
    return mean.astype(np.float32) if _is_float(x) else mean


def _max_pool(ins, a):
    x = np.asarray(ins[0])
    k = a["kernel_shape"]
    out = None
    for _, _, v in _windows(x, k, a.get("strides", [1, 1]), a.get("pads", [0] * 4), x.min()):
        out = v.copy() if out is None else np.maximum(out, v)
    return out


def _global_avg_pool(ins, a):
    x = np.asarray(ins[0]).astype(np.float64)
    return (x.sum(axis=(2, 3), keepdims=True) / (x.shape[2] * x.shape[3])).astype(np.float32)


def _mul(ins, a):
    x, y = np.asarray(ins[0]), np.asarray(ins[1])
    if _is_float(x) or _is_float(y):
        return x.astype(np.float64) * y.astype(np.float64)
    return _i64(x) * _i64(y)


def _dequantize(ins, a):
    q = _i64(ins[0])
    ax = a.get("axis", 1)
    s = _axis_shape(np.asarray(ins[1], np.float32), q.ndim, ax).astype(np.float64)
    zp = _axis_shape(_i64(ins[2]), q.ndim, ax) if len(ins) > 2 else 0
    return ((q - zp).astype(np.float64) * s).astype(np.float32)


def _quantize(ins, a):
    x = np.asarray(ins[0], np.float32)
    ax = a.get("axis", 1)
    s = _axis_shape(np.asarray(ins[1], np.float32), x.ndim, ax)
    zpa = np.asarray(ins[2]) if len(ins) > 2 else np.zeros((), np.uint8)
    lo, hi = _INT_RANGE[zpa.dtype]
    zp = _axis_shape(zpa.astype(np.int64), x.ndim, ax)
    q = np.rint(x / s).astype(np.float64) + zp
    return np.clip(q, lo, hi).astype(zpa.dtype)


def _reshape(ins, a):
    x = np.asarray(ins[0])
    shape = [int(d) if d != 0 else x.shape[i] for i, d in enumerate(np.asarray(ins[1]))]
    return x.reshape(shape)


def _attr(x):
    """Attribute value; 1-element TENSOR attributes (Deeploy's div, signed) become scalars."""
    v = helper.get_attribute_value(x)
    if isinstance(v, onnx.TensorProto):
        arr = numpy_helper.to_array(v).reshape(-1)
        v = arr[0].item() if arr.size == 1 else arr
    return v


def _add(ins, a):
    x, y = np.asarray(ins[0]), np.asarray(ins[1])
    if _is_float(x) or _is_float(y):   # float containers: one rounding to float32
        return (x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    return _i64(x) + _i64(y)


def _cast(ins, a):
    """Cast between float and integer containers; an integer target must hold every value (the
    generator never relies on a wrapping or rounding cast)."""
    dt = _DECLARED[a["to"]]
    x = np.asarray(ins[0])
    if dt.kind == "f":
        return x.astype(dt)
    v = _i64(x)
    info = np.iinfo(dt)
    if v.size and (v.min() < info.min or v.max() > info.max):
        raise ValueError(f"Cast to {dt} would change values")
    return v.astype(dt)


def _div(ins, a):
    """Float Div (true division, rounded once to float32); integer Div is not used."""
    if not _is_float(ins[0]):
        raise ValueError("integer Div not used by the generator")
    return (np.asarray(ins[0]).astype(np.float64) / np.asarray(ins[1]).astype(np.float64)).astype(np.float32)


def _clip(ins, a):
    x = np.asarray(ins[0])
    lo = ins[1] if len(ins) > 1 and ins[1] is not None else None
    hi = ins[2] if len(ins) > 2 and ins[2] is not None else None
    return np.clip(x, lo, hi).astype(x.dtype)


def _flatten(ins, a):
    x = np.asarray(ins[0])
    ax = a.get("axis", 1)
    return x.reshape(int(np.prod(x.shape[:ax])), -1)


OPS = {
    "Conv": _conv, "Gemm": _gemm, "RequantShift": _requant_shift,
    "Add": _add,
    "Mul": _mul, "AveragePool": _avg_pool, "MaxPool": _max_pool,
    "GlobalAveragePool": _global_avg_pool, "Relu": lambda ins, a: np.maximum(ins[0], 0),
    "DequantizeLinear": _dequantize, "QuantizeLinear": _quantize, "Flatten": _flatten,
    "Reshape": _reshape, "Cast": _cast, "Div": _div, "Clip": _clip,
    "Floor": lambda ins, a: np.floor(np.asarray(ins[0])),
}


def evaluate(model_bytes, inputs):
    """Runs the serialised model on `inputs` (real graph inputs in order); returns the graph
    outputs and a dict of every tensor (for per-layer cross-checks)."""
    m = onnx.ModelProto()
    m.ParseFromString(model_bytes)
    env = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    real = [i.name for i in m.graph.input if i.name not in env]
    if len(real) != len(inputs):
        raise ValueError(f"model has {len(real)} inputs, {len(inputs)} given")
    env.update(zip(real, inputs))
    for node in m.graph.node:
        if node.op_type not in OPS:
            raise ValueError(f"node '{node.name}': op {node.op_type} not supported")
        attrs = {x.name: _attr(x) for x in node.attribute}
        env[node.output[0]] = OPS[node.op_type]([env[i] for i in node.input if i], attrs)
    outs = []
    for o in m.graph.output:
        dt = _DECLARED[o.type.tensor_type.elem_type]
        v = np.asarray(env[o.name])
        if dt.kind in "iu" and (v.min() < np.iinfo(dt).min or v.max() > np.iinfo(dt).max):
            raise ValueError(f"output '{o.name}' exceeds its declared type {dt}")
        outs.append(v.astype(dt))
    return outs, env
