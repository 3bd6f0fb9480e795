"""Counter-based pseudo-random numbers that do not depend on numpy's generator streams.

Every value is splitmix64(key(stream name) + i * golden-ratio constant), computed with
wrapping uint64 numpy arithmetic. The output is a pure function of (seed, stream name,
index): it does not change with the numpy version, the platform, Python's hash seed or the
order in which streams are drawn. Only integer arithmetic is used, so the bytes that the
generator writes are reproducible everywhere.
"""
import numpy as np

SEED = 20240607
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def bits64(stream, n):
    """n uint64 values of the named stream."""
    key = np.uint64((_fnv1a64(stream) ^ SEED) & 0xFFFFFFFFFFFFFFFF)
    z = np.arange(1, n + 1, dtype=np.uint64) * _GOLDEN + key
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def integers(stream, shape, lo, hi):
    """int64 array of `shape`, uniform in [lo, hi] (inclusive)."""
    n = int(np.prod(shape, dtype=np.int64))
    span = np.uint64(hi - lo + 1)
    r = (bits64(stream, n) >> np.uint64(11)) % span
    return (r.astype(np.int64) + lo).reshape(shape)


def int8_weights(stream, shape, spread=32):
    """Bell-shaped int8 values: the sum of four uniforms in [-spread, spread-1], clipped to
    [-127, 127] (symmetric, as int8 weight quantisers produce). spread=32 gives sigma ~37."""
    parts = integers(stream, (4,) + tuple(shape), -spread, spread - 1)
    return np.clip(parts.sum(axis=0), -127, 127).astype(np.int8)


def image_uint8(stream, shape, cell=4):
    """A deterministic uint8 'image' [1, C, H, W]: a coarse random grid (cell x cell blocks)
    plus fine noise in [-24, 24], clipped to 0..255, so that it has both structure and detail."""
    n, c, h, w = shape
    gh, gw = -(-h // cell), -(-w // cell)
    coarse = integers(stream + "/coarse", (n, c, gh, gw), 16, 239)
    coarse = np.repeat(np.repeat(coarse, cell, axis=2), cell, axis=3)[:, :, :h, :w]
    fine = integers(stream + "/fine", shape, -24, 24)
    return np.clip(coarse + fine, 0, 255).astype(np.uint8)
