"""Shared helpers of the Python package's tests: the ``palace`` command line to compare with,
the plain definition of the palace numbers, and a small PNG reader."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _find_cli() -> Path:
    """``PALACE_BIN``, else the newest of the checkout's release and debug binaries, else a
    debug build made now (the tests check results, not speed)."""
    env = os.environ.get("PALACE_BIN")
    if env:
        return Path(env)
    built = [p for p in (ROOT / "target/release/palace", ROOT / "target/debug/palace") if p.exists()]
    if built:
        return max(built, key=lambda p: p.stat().st_mtime)
    if shutil.which("cargo") is None:
        pytest.skip("no palace binary (set PALACE_BIN) and no cargo to build one")
    subprocess.run(["cargo", "build", "--bin", "palace"], cwd=ROOT, check=True)
    return ROOT / "target/debug/palace"


class Cli:
    """Runs the ``palace`` binary."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, *args: str) -> str:
        r = subprocess.run([str(self.path), *args, "--quiet"], capture_output=True, text=True)
        assert r.returncode == 0, f"palace {' '.join(args)} failed: {r.stderr}"
        return r.stdout

    def json(self, *args: str):
        return json.loads(self.run(*args, "--json"))


def as_json(report):
    """A report as the command line's JSON has it: tuples as lists, keys as strings (the
    package builds reports from the library's types, where a pair is a tuple)."""
    return json.loads(json.dumps(report))


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_find_cli())


def direct(k: int, width: int, height: int) -> np.ndarray:
    """The CA values ``v = N - k`` of the ``width x height`` board straight from the game's
    definition (``docs/rule.md``, "The game"): ``N(x, y)`` counts the palaces the queen sees
    west, north and north-west, and ``(x, y)`` is a palace exactly when ``N(x, y) < k``. Row by
    row with running counts of the palaces in each column and each diagonal."""
    v = np.zeros((height, width), dtype=np.int64)
    col = [0] * width  # palaces above, per column
    diag = {}  # palaces per diagonal x - y, above-left
    for y in range(height):
        row = 0  # palaces to the left in this row
        for x in range(width):
            n = row + col[x] + diag.get(x - y, 0)
            v[y, x] = n - k
            if n < k:
                row += 1
                col[x] += 1
                diag[x - y] = diag.get(x - y, 0) + 1
    return v


def read_png(path: Path) -> np.ndarray:
    """The pixels of a non-interlaced 8-bit RGB or palette PNG (bit depth 1 to 8) as an
    ``(H, W, 3)`` uint8 array: enough for the pictures palace writes."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, plte = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert interlace == 0 and color in (2, 3)
        elif kind == b"PLTE":
            plte = np.frombuffer(body, dtype=np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    bits = depth * (3 if color == 2 else 1)
    stride = (w * bits + 7) // 8
    bpp = max(1, bits // 8)
    out = np.zeros((h, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    at = 0
    for y in range(h):
        f, line = raw[at], np.frombuffer(raw[at + 1 : at + 1 + stride], dtype=np.uint8).astype(np.int32)
        at += 1 + stride
        cur = np.zeros(stride, dtype=np.int32)
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[i] = (line[i] + p) & 0xFF
        out[y] = cur
        prev = cur
    if color == 2:
        return out.reshape(h, w, 3)
    idx = np.unpackbits(out, axis=1)[:, : w * depth].reshape(h, w, depth) if depth < 8 else out[:, :w, None]
    if depth < 8:
        weights = 1 << np.arange(depth - 1, -1, -1)
        idx = (idx * weights).sum(axis=2)
    else:
        idx = idx[:, :, 0]
    return plte[idx]
