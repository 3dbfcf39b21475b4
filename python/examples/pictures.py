"""Draws the pictures of docs/python.md with palace and matplotlib.

    python python/examples/pictures.py [OUTPUT_DIR]

writes, into OUTPUT_DIR (default docs/python/ of the checkout):

* k500.png: game k = 500 on a 1500 x 1500 board, in the paper's colours, with the palaces'
  density per row beside it;
* skin.png: the thickness of the skin of game k = 4003 along its arm, column by column;
* compare.png: games 500 and 501 side by side and where their palace numbers differ.
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import palace  # noqa: E402

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "docs" / "python"
DPI = 72


def draw_k500() -> None:
    k, n = 500, 1500
    picture = palace.render(k=k, size=n)          # (1500, 1500, 3) RGB, the paper's colours
    v = palace.values(k=k, size=n)                # the CA values v = N - k
    density = (v < 0).mean(axis=1)                # palaces per cell, row by row
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 4.5), gridspec_kw={"width_ratios": [3, 1]})
    a.imshow(picture, interpolation="nearest")
    a.set_title(f"k = {k}: {int((v < 0).sum())} palaces in {n} x {n}")
    a.set_xlabel("x (first heap)")
    a.set_ylabel("y (second heap)")
    b.plot(density, np.arange(n), lw=0.8)
    b.invert_yaxis()
    b.set_xlabel("palaces per cell")
    b.set_title("row density")
    fig.tight_layout()
    fig.savefig(OUT / "k500.png", dpi=DPI)
    plt.close(fig)


def draw_skin() -> None:
    k, to = 4003, 304_003
    s = palace.skin(k=k, to=to)
    x, t = s.columns["x"], s.thickness
    fig, (a, b) = plt.subplots(2, 1, figsize=(9, 5))
    a.plot(x, t, lw=0.3, label="each column")
    w = 2000
    a.plot(x[w - 1 :], np.convolve(t, np.ones(w) / w, mode="valid"), lw=1.2, label=f"mean of {w} columns")
    a.legend(loc="lower right", fontsize=8)
    a.set_title(f"skin of game k = {k}: vertical thickness of each column from the shoulder to {to}")
    a.set_ylabel("palaces")
    first = slice(0, 400)
    b.step(x[first], t[first], where="mid", lw=0.8)
    b.set_xlabel("column x")
    b.set_ylabel("palaces")
    b.set_title("the first 400 columns")
    fig.tight_layout()
    fig.savefig(OUT / "skin.png", dpi=DPI)
    plt.close(fig)


def draw_compare() -> None:
    a_k, b_k, n = 500, 501, 1500
    na = palace.values(k=a_k, size=n).astype(np.int32) + a_k   # palace numbers N
    nb = palace.values(k=b_k, size=n).astype(np.int32) + b_k
    report = palace.compare(a_k, b_k, size=n)                  # N_501 = N_500 cell by cell?
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.3))
    axes[0].imshow(na < a_k, cmap="gray_r", interpolation="nearest")
    axes[0].set_title(f"palaces of k = {a_k}")
    axes[1].imshow(nb < b_k, cmap="gray_r", interpolation="nearest")
    axes[1].set_title(f"palaces of k = {b_k}")
    im = axes[2].imshow(np.clip(nb - na, -3, 3), cmap="coolwarm", vmin=-3, vmax=3, interpolation="nearest")
    axes[2].set_title(f"N({b_k}) - N({a_k}): 0 in {report['fraction']:.0%} of cells")
    fig.colorbar(im, ax=axes[2], shrink=0.8)
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])
    fig.tight_layout()
    fig.savefig(OUT / "compare.png", dpi=DPI)
    plt.close(fig)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    draw_k500()
    draw_skin()
    draw_compare()
    for p in sorted(OUT.glob("*.png")):
        print(f"wrote {p} ({p.stat().st_size // 1024} KiB)")
