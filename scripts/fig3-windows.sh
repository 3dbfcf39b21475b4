#!/usr/bin/env bash
# Fig. 3 (claim 29 of docs/paper-claims.md): are the windows of game 100 by the nose and by the
# shoulder "identical, without any scaling factor" to game 1000's? For every 100 x 100 window of
# game 100's 300 x 300 board, the share of its cells whose palace number plus 900 is game
# 1000's at the cell moved by the displacement of the nose, (300, 300), or of the shoulder,
# (900, 0): the best windows, the best windows holding the nose (33, 33) or the shoulder
# (100, 0), and where the windows that match whole lie. The palace numbers come from
# `palace dump --values palace`; the windows are summed with prefix sums (numpy).
# Writes outputs/fig3-windows.txt. Usage: scripts/fig3-windows.sh [path/to/palace]
set -euo pipefail
cd "$(dirname "$0")/.."
P=${1:-target/release/palace}
tmp=$(mktemp -d)
report=$(mktemp outputs/.fig3-windows.txt.XXXXXX)
trap 'rm -rf "$tmp" "$report"' EXIT
$P dump --k 100 --size 300 --values palace -q -o "$tmp/k100.npy"
$P dump --k 1000 --size 3000 --window 0,0,1200,1200 --values palace -q -o "$tmp/k1000.npy"
python3 - "$tmp/k100.npy" "$tmp/k1000.npy" > "$report" <<'PY'
import sys
import numpy as np
a = np.load(sys.argv[1]).astype(np.int64)
b = np.load(sys.argv[2]).astype(np.int64)
W = 100
n = a.shape[0]
print("Fig. 3: 100 x 100 windows (x0, y0, x0 + 100, y0 + 100) of game 100 (300 x 300) against game 1000,")
print("palace numbers + 900, moved by the nose's or the shoulder's displacement; share of the 10000 cells equal")
for name, (dx, dy), point in (("nose", (300, 300), (33, 33)), ("shoulder", (900, 0), (100, 0))):
    eq = (b[dy:dy + n, dx:dx + n] == a + 900).astype(np.int64)
    c = np.pad(eq.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    s = c[W:, W:] - c[:-W, W:] - c[W:, :-W] + c[:-W, :-W]  # s[y0, x0]
    def fmt(y0, x0):
        return f"({x0}, {y0}, {x0 + W}, {y0 + W}) {100 * s[y0, x0] / W / W:.2f} %"
    order = np.dstack(np.unravel_index(np.argsort(-s, axis=None, kind="stable"), s.shape))[0]
    px, py = point
    holds = [(y0, x0) for y0, x0 in order if x0 <= px < x0 + W and y0 <= py < y0 + W]
    print(f"\nby the {name}: shift ({dx}, {dy}), +900")
    print("  best windows:", "; ".join(fmt(y0, x0) for y0, x0 in order[:3]))
    print(f"  best windows holding the {name} {point}:", "; ".join(fmt(y0, x0) for y0, x0 in holds[:3]))
    whole = np.argwhere(s == W * W)
    if len(whole):
        print(f"  windows matching whole: {len(whole)} of {s.size}, x0 in {whole[:, 1].min()}..={whole[:, 1].max()},"
              f" y0 in {whole[:, 0].min()}..={whole[:, 0].max()}; holding the {name}: "
              f"{sum(1 for y0, x0 in whole if x0 <= px < x0 + W and y0 <= py < y0 + W)}")
    else:
        print("  windows matching whole: none")
    print(f"  the paper's reading, the window centred on the {name} as far as the board allows:",
          fmt(max(0, min(py - W // 2, n - W)), max(0, min(px - W // 2, n - W))))
PY
# Only a complete report replaces the committed one (a failed step leaves it as it was).
chmod 644 "$report"
mv "$report" outputs/fig3-windows.txt
cat outputs/fig3-windows.txt
