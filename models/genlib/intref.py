"""Integer reference kernels used while building a network (layer by layer, to calibrate).

Everything is exact integer arithmetic on int64 numpy arrays in [C, H, W] layout (batch 1):
- conv: im2col + int64 matmul, padding with the (zero-point-subtracted) value 0;
- RequantShift: DIALECTS.md §3.2, y = clamp((x*mul + add + div/2) >> log2(div), lo, hi);
- QDQ requant: DIALECTS.md §4, y = clamp(rne(acc * M) + zp, lo, hi), M = x_s*w_s/y_s in
  double from float32 scales, rne = np.rint (ties to even).
The golden files are NOT taken from here: generate.py re-evaluates the serialised ONNX file
with the independent node-by-node evaluator in evaluate.py and requires both to agree.
"""
import numpy as np


def conv(x, w, stride=1, pad=0, group=1):
    """x int [C, H, W], w int [O, C/group, kh, kw] -> int64 [O, Ho, Wo]; pad an int or
    (top/bottom, left/right)."""
    ph, pw = (pad, pad) if isinstance(pad, int) else pad
    c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    assert c == cg * group and o % group == 0, (x.shape, w.shape, group)
    xp = np.zeros((c, h + 2 * ph, wd + 2 * pw), np.int64)
    xp[:, ph:ph + h, pw:pw + wd] = x
    ho = (h + 2 * ph - kh) // stride + 1
    wo = (wd + 2 * pw - kw) // stride + 1
    cols = np.empty((c, kh, kw, ho, wo), np.int64)
    for i in range(kh):
        for j in range(kw):
            cols[:, i, j] = xp[:, i:i + stride * (ho - 1) + 1:stride,
                               j:j + stride * (wo - 1) + 1:stride]
    cols = cols.reshape(group, cg * kh * kw, ho * wo)
    wm = w.astype(np.int64).reshape(group, o // group, cg * kh * kw)
    return np.matmul(wm, cols).reshape(o, ho, wo)


def requant_shift(x, mul, add, div, n_levels=256, signed=False):
    shift = int(div).bit_length() - 1
    assert div == 1 << shift, "div must be a power of two"
    v = (x.astype(np.int64) * mul + add + div // 2) >> shift
    lo, hi = (-(n_levels // 2), n_levels // 2 - 1) if signed else (0, n_levels - 1)
    return np.clip(v, lo, hi)


def window_sum(x, k):
    """Non-overlapping k x k window sums of int [C, H, W] (H, W multiples of k)."""
    c, h, w = x.shape
    return x.astype(np.int64).reshape(c, h // k, k, w // k, k).sum(axis=(2, 4))


def window_max(x, k):
    c, h, w = x.shape
    return x.astype(np.int64).reshape(c, h // k, k, w // k, k).max(axis=(2, 4))


def multiplier(x_s, w_s, y_s):
    """Real requant multiplier M = x_s * w_s / y_s, in double from float32 scales."""
    return np.float64(np.float32(x_s)) * np.asarray(w_s, np.float32).astype(np.float64) \
        / np.float64(np.float32(y_s))


def qdq_requant(acc, m, zp, lo, hi):
    """clamp(rne(acc * M) + zp, lo, hi) with M broadcast along acc's first axis."""
    m = np.asarray(m, np.float64).reshape((-1,) + (1,) * (acc.ndim - 1))
    return np.clip(np.rint(acc.astype(np.float64) * m) + zp, lo, hi).astype(np.int64)


def stats(y):
    """Activation statistics for the per-layer table."""
    y = np.asarray(y)
    n = y.size
    return {
        "min": int(y.min()), "max": int(y.max()),
        "mean": round(float(y.astype(np.int64).sum()) / n, 1),
        "zero_pct": round(100.0 * int((y == 0).sum()) / n, 1),
        "sat_pct": round(100.0 * int((y == 255).sum()) / n, 1),
    }


def macs_conv(cin, cout, k, ho, wo, group=1):
    return ho * wo * cout * (cin // group) * k * k


def weights_conv(cin, cout, k, group=1):
    return cout * (cin // group) * k * k
