"""The P-positions of small games (``positions``) and their branches (``branches``) against
the command line and the plain definition."""

import csv
import io

import numpy as np
import pytest

import palace
from conftest import as_json, direct


@pytest.mark.parametrize("k, rows", [(1, 300), (7, 400), (20, 250), (300, 60)])
def test_positions_equal_the_definition_and_the_cli(cli, k, rows):
    p = palace.positions(k=k, rows=rows)
    assert p.xy.dtype == np.int64 and p.xy.shape == (k * rows, 2)
    v = direct(k, k + 3 * rows, rows)
    ys, xs = np.nonzero(v < 0)  # row-major: sorted by y, then x
    assert (p.xy == np.stack([xs, ys], axis=1)).all()
    assert p.every_row_holds_k
    assert p.report["method"] == ("lines" if k <= 255 else "sweep")
    text = cli.run("positions", "--k", str(k), "--rows", str(rows), "-o", "-")
    want = np.array([[int(r["x"]), int(r["y"])] for r in csv.DictReader(io.StringIO(text))])
    assert (p.xy == want).all()
    report = cli.json("positions", "--k", str(k), "--rows", str(rows), "-o", "/dev/null")
    assert as_json(p.report) == report
    assert (p.upper()[:, 0] <= p.upper()[:, 1]).all()
    if _has_pandas():
        assert list(p.to_pandas().columns) == ["x", "y"]


def test_the_two_methods_agree_and_a_narrow_board_runs_short():
    lines = palace.positions(k=9, rows=3000, method="lines")
    sweep = palace.positions(k=9, rows=3000, method="sweep")
    assert (lines.xy == sweep.xy).all()
    assert lines.report["cells_computed"] < sweep.report["cells_computed"]
    narrow = palace.positions(k=4, rows=100, width=30)
    assert not narrow.every_row_holds_k
    assert narrow.report["first_short_row"][1] < 4


def test_positions_on_the_gpu_equal_the_sweep():
    if not palace.HAS_GPU:
        pytest.skip("this build has no GPU backend (pip install ./python with --features gpu)")
    for k, rows, width in [(7, 3000, None), (300, 500, None), (4, 100, 30)]:
        cpu = palace.positions(k=k, rows=rows, width=width, method="sweep")
        gpu = palace.positions(k=k, rows=rows, width=width, backend="gpu")
        assert (gpu.xy == cpu.xy).all() and gpu.report == cpu.report


def test_branches_equal_the_cli(cli):
    got = palace.branches(k=5, rows=20000)
    assert as_json(got) == cli.json("branches", "--k", "5", "--rows", "20000")
    limits = sorted(b["limit"] for b in got["branches"])
    assert abs(limits[-1] - 2.5) < 1e-6


@pytest.mark.parametrize(
    "call, says",
    [
        (lambda: palace.positions(k=300, rows=10, method="lines"), "method = 'sweep'"),
        (lambda: palace.positions(k=3, rows=10, method="fast"), "method = 'fast'"),
        (lambda: palace.positions(k=3, rows=0), "rows = 0"),
        (lambda: palace.positions(k=0, rows=10), "k = 0"),
        (lambda: palace.positions(k=3, rows=10, width=0), "width = 0"),
        (lambda: palace.branches(k=3, rows=100, min_gap=2.0), "min_gap = 2"),
    ],
)
def test_refusals_name_the_argument(call, says):
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        call()


def _has_pandas():
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True
