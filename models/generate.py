#!/usr/bin/python3
"""Builds the int8 ONNX networks that edgesim ships itself, with golden data.

  /usr/bin/python3 models/generate.py [--out DIR] [--only NAME...] [--check] [--quiet]
  /usr/bin/python3 models/generate.py --selftest

For each network it writes DIR/<name>/model.onnx and DIR/<name>/test_data_set_0/{input_0,
output_0}.pb (ONNX backend-test layout). The golden output is the node-by-node numpy
evaluation of the written model (genlib/evaluate.py); it must equal the builder's own
integer forward, layer by layer, or the generator fails. With all networks and the default
DIR (models/), it also rewrites models/MANIFEST.md.

--check regenerates into a temporary directory and compares: committed files byte for byte,
MANIFEST.md (except its toolchain line), and the sha256 of uncommitted outputs against the
manifest. Exit status 1 on any difference. --selftest runs the golden evaluator on golden
data it did not produce (ONNX node tests, Deeploy models; genlib/selftest.py).
Needs only numpy and onnx (no network access).
"""
import argparse
import hashlib
import os
import re
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

from genlib import diana_nets, manifest, mobilenet, ne16_layers, resnet8, selftest, tiny  # noqa: E402
from genlib.evaluate import evaluate  # noqa: E402

NETWORKS = {"tiny": tiny.build, "resnet8": resnet8.build, "mobilenetv1_128": mobilenet.build,
            **{n: ne16_layers.builder(n) for n in ne16_layers.SHAPES}, **diana_nets.BUILDERS}
# mobilenetv1_128 (~4.3 MB) and the larger ne16_layers.BUILT are built by CMake instead
COMMITTED = (("tiny", "resnet8") + tuple(n for n in ne16_layers.SHAPES if n not in ne16_layers.BUILT)
             + tuple(diana_nets.BUILDERS))
FILES = ("model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/output_0.pb")


def fail(msg):
    sys.exit(f"generate.py: {msg}")


def cross_check(net, outs, env):
    """The evaluator's result must equal the builder's forward, tensor by tensor."""
    for name, val in net.intermediates.items():
        got = env.get(name)
        if got is None or not np.array_equal(np.asarray(got).reshape(-1), val.reshape(-1)):
            fail(f"{net.name}: tensor '{name}': node-by-node evaluation differs from the "
                 "builder's forward")
    for i, (want, got) in enumerate(zip(net.outputs, outs)):
        if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
            fail(f"{net.name}: output {i}: evaluation {got.dtype}{list(got.shape)} differs from "
                 f"the builder's {want.dtype}{list(want.shape)}")


def produce(name, quiet):
    t0 = time.time()
    net = NETWORKS[name]()
    model_bytes = net.model.SerializeToString()
    outs, env = evaluate(model_bytes, net.inputs)
    cross_check(net, outs, env)
    for l in net.layers:
        if l.stats and (l.stats["min"] == l.stats["max"] or l.stats["zero_pct"] > 90
                        or l.stats["sat_pct"] > 10):
            fail(f"{name}: layer {l.index} '{l.name}' is degenerate after calibration: {l.stats}")
    if net.checker:
        try:
            onnx.checker.check_model(onnx.load_from_string(model_bytes), full_check=True)
        except onnx.checker.ValidationError as e:
            fail(f"{name}: onnx.checker rejects the model: {str(e).splitlines()[0]}")
    g = net.model.graph
    inits = {t.name for t in g.initializer}
    in_names = [i.name for i in g.input if i.name not in inits]
    blobs = {"model.onnx": model_bytes}
    pb = lambda a, n: numpy_helper.from_array(a, n).SerializeToString()  # noqa: E731
    for i, (n, a) in enumerate(zip(in_names, net.inputs)):
        blobs[f"test_data_set_0/input_{i}.pb"] = pb(a, n)
    for j, (o, a) in enumerate(zip(g.output, outs)):
        blobs[f"test_data_set_0/output_{j}.pb"] = pb(a, o.name)
    if not quiet:
        print(f"== {name}: {net.macs:,} MACs, {net.weight_bytes:,} weight B, "
              f"{len(model_bytes):,} B model, {time.time() - t0:.1f} s")
        for l in net.layers:
            s = l.stats
            st = (f"min {s['min']:3d} max {s['max']:3d} mean {s['mean']:6.1f} "
                  f"zero {s['zero_pct']:5.1f}% sat {s['sat_pct']:4.1f}%") if s else ""
            print(f"  {l.index:2d} {l.name:16s} {l.out_shape:>11s} {l.requant:28.28s} {st}")
        for n in net.notes:
            print(f"  {n}")
    return net, blobs


def write_atomic(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def generate(names, out, quiet, with_manifest):
    nets, files = [], {}
    for name in names:
        net, blobs = produce(name, quiet)
        nets.append(net)
        files[name] = []
        for rel in FILES:
            write_atomic(os.path.join(out, name, rel), blobs[rel])
            files[name].append((rel, hashlib.sha256(blobs[rel]).hexdigest(), len(blobs[rel])))
    if with_manifest:
        text = manifest.render(nets, files, COMMITTED)
        write_atomic(os.path.join(out, "MANIFEST.md"), text.encode())
    return files


def _strip_toolchain(text):
    return "\n".join(l for l in text.splitlines() if not l.startswith(manifest.TOOLCHAIN_PREFIX))


def check(names, quiet):
    with tempfile.TemporaryDirectory(prefix="edgesim-models-") as tmp:
        files = generate(names, tmp, quiet, with_manifest=len(names) == len(NETWORKS))
        problems = []
        man_path = os.path.join(HERE, "MANIFEST.md")
        man = open(man_path).read() if os.path.exists(man_path) else ""
        for name in names:
            for rel, sha, _ in files[name]:
                mine = os.path.join(HERE, name, rel)
                if name in COMMITTED:
                    if not os.path.exists(mine):
                        problems.append(f"missing committed file models/{name}/{rel}")
                    elif open(mine, "rb").read() != open(os.path.join(tmp, name, rel), "rb").read():
                        problems.append(f"models/{name}/{rel} differs from a fresh generation")
                else:
                    key = re.escape(f"{name}/{rel}")
                    m = re.search(rf"\| `{key}` \| `([0-9a-f]{{64}})`", man)
                    if not m or m.group(1) != sha:
                        problems.append(f"{name}/{rel}: sha256 {sha} does not match MANIFEST.md")
        if len(names) == len(NETWORKS):
            fresh = open(os.path.join(tmp, "MANIFEST.md")).read()
            if _strip_toolchain(fresh) != _strip_toolchain(man):
                problems.append("models/MANIFEST.md differs from a fresh generation")
            elif fresh != man:
                print("note: MANIFEST.md toolchain line differs (not an error): "
                      + manifest.toolchain_line())
    for p in problems:
        print(f"CHECK FAILED: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"check OK: {', '.join(names)} regenerate byte-identically")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=HERE, help="output directory (default: models/)")
    ap.add_argument("--only", nargs="+", choices=list(NETWORKS), metavar="NAME",
                    help=f"networks to build (default: all of {', '.join(NETWORKS)})")
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temporary directory and compare with models/")
    ap.add_argument("--quiet", action="store_true", help="no per-layer statistics")
    ap.add_argument("--selftest", action="store_true",
                    help="check the golden evaluator against ONNX node tests and Deeploy goldens")
    a = ap.parse_args(argv)
    if a.selftest:
        shared = os.environ.get("EDGESIM_SHARED_NETWORKS",
                                os.path.join(HERE, "..", "..", "shared", "networks"))
        bad = selftest.run("/usr/share/libonnx-testdata/data/node", os.path.normpath(shared))
        print("selftest " + ("OK" if not bad else f"FAILED ({bad})"))
        return 1 if bad else 0
    names = [n for n in NETWORKS if n in (a.only or NETWORKS)]
    if a.check:
        return check(names, a.quiet)
    out = os.path.abspath(a.out)
    with_manifest = len(names) == len(NETWORKS) and out == HERE
    generate(names, out, a.quiet, with_manifest)
    if not a.quiet:
        print(f"wrote {', '.join(names)} to {out}" + (" and MANIFEST.md" if with_manifest else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
