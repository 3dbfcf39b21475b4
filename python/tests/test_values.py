"""``values`` and ``palaces`` against the plain definition and against ``palace dump``."""

import random

import numpy as np
import pytest

import palace
from conftest import direct


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 7, 10, 17, 30, 64, 129, 200])
def test_values_equal_the_definition_on_whole_boards(k):
    width, height = 150, 130
    want = direct(k, width, height)
    got = palace.values(k=k, width=width, height=height)
    assert got.shape == (height, width)
    assert np.array_equal(got.astype(np.int64), want)


def test_values_equal_the_definition_on_random_windows():
    rng = random.Random(33)
    for _ in range(40):
        k = rng.choice([1, 2, 3, 6, 11, 40, 97, 150, 250])
        w, h = rng.randint(1, 160), rng.randint(1, 160)
        x0, x1 = sorted(rng.sample(range(w + 1), 2))
        y0, y1 = sorted(rng.sample(range(h + 1), 2))
        want = direct(k, w, h)[y0:y1, x0:x1]
        got = palace.values(k=k, width=w, height=h, window=(x0, y0, x1, y1), threads=rng.choice([1, 2, None]))
        assert np.array_equal(got.astype(np.int64), want), (k, w, h, (x0, y0, x1, y1))


def test_dtype_is_int8_exactly_where_every_value_fits():
    assert palace.values(k=128, size=50).dtype == np.int8
    assert palace.values(k=129, size=50).dtype == np.int32
    # The window's corner decides: away from the hood every value fits 8 bits.
    assert palace.values(k=500, size=1500, window=(400, 0, 1500, 1500)).dtype == np.int8
    forced = palace.values(k=20, size=60, dtype="int32")
    assert forced.dtype == np.int32
    assert np.array_equal(forced, palace.values(k=20, size=60, dtype=np.int8))


def test_palaces_are_the_negative_values():
    v = palace.values(k=300, size=900, window=(100, 50, 900, 700))
    p = palace.palaces(k=300, size=900, window=(100, 50, 900, 700))
    assert p.dtype == np.bool_
    assert np.array_equal(p, v < 0)


@pytest.mark.parametrize(
    "k, board, window",
    [
        (500, ["--size", "1500"], None),
        (5, ["--size", "40"], None),
        (1000, ["--width", "3000", "--height", "1200"], (900, 300, 2999, 1100)),
        (9999, ["--size", "12000"], (9000, 0, 12000, 3000)),
        (2, ["--size", "700"], (1, 1, 700, 700)),
    ],
)
def test_values_equal_palace_dump(cli, tmp_path, k, board, window):
    out = tmp_path / "dump.npy"
    args = ["dump", "--k", str(k), *board, "--output", str(out)]
    kw = {"size": int(board[1])} if board[0] == "--size" else {"width": int(board[1]), "height": int(board[3])}
    if window:
        args += ["--window", ",".join(map(str, window))]
    cli.run(*args)
    want = np.load(out)
    got = palace.values(k=k, window=window, **kw)
    assert got.shape == want.shape
    assert np.array_equal(got.astype(np.int32), want)


def test_values_do_not_depend_on_the_thread_count():
    a = palace.values(k=777, size=2000, threads=1)
    b = palace.values(k=777, size=2000, threads=2)
    assert np.array_equal(a, b)
