"""Calibration of Deeploy RequantShift parameters from integer accumulators.

For each channel, the accumulator's lo-th per-mille value maps to 0 and its hi-th per-mille
value maps to TARGET (230), so that the uint8 activations spread over 0..255: about lo/10 %
of them become 0 (the ReLU part) and a fraction below (1000-hi)/10 % saturate at 255.
All statistics are integer order statistics (np.sort), all parameters integer divisions, so
the result is bit-reproducible. The shift D is the largest that keeps every mul below 2^15
and |x*mul + add| + div below 2^30 on the calibration data (int32-safe kernels).
"""
import numpy as np

TARGET = 230
MUL_LIMIT = 1 << 15
ABS_LIMIT = 1 << 30


def _order_stat(sorted_rows, per_mille):
    n = sorted_rows.shape[1]
    return sorted_rows[:, min(n - 1, (n * per_mille) // 1000)]


def rqs_params(acc, per_channel=True, lo_pm=250, hi_pm=995):
    """acc: int64 [C, ...]. Returns (mul, add, div): mul/add int64 [C] (or 0-d if not
    per_channel), div a Python int power of two."""
    rows = acc.reshape(acc.shape[0], -1) if per_channel else acc.reshape(1, -1)
    srt = np.sort(rows, axis=1)
    lo = _order_stat(srt, lo_pm) if lo_pm is not None else np.zeros(rows.shape[0], np.int64)
    hi = _order_stat(srt, hi_pm)
    rng = np.maximum(hi - lo, 1)
    best = None
    for d in range(1, 31):
        div = 1 << d
        mul = np.maximum((TARGET * div) // rng, 1)
        add = -lo * mul
        peak = int(np.abs(rows * mul[:, None] + add[:, None]).max()) + div
        if int(mul.max()) >= MUL_LIMIT or peak >= ABS_LIMIT:
            break
        best = (mul, add, div)
    if best is None:
        raise RuntimeError("RequantShift calibration failed: accumulators too large for int32")
    mul, add, div = best
    if not per_channel:
        mul, add = mul.reshape(()), add.reshape(())
    return mul.astype(np.int64), add.astype(np.int64), div
