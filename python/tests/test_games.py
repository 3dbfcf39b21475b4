"""The games lab against ``palace game``."""

import numpy as np

import palace


def test_fibonacci_nim_equals_the_cli(cli):
    want = cli.json("game", "fibonacci-nim", "--to", "3000")
    got = palace.fibonacci_nim(3000)
    assert list(got.p_positions) == want["p_positions"]
    for n in range(1, 3001):
        assert list(got.winning_moves[n]) == want["winning_moves"][str(n)]
    assert got.winner[1] == 2 and got.winner[4] == 1
    assert set(np.flatnonzero(got.winner == 2)) == set(want["p_positions"])


def test_fibonacci_nim_grundy_equals_the_cli(cli, tmp_path):
    out = tmp_path / "g.npy"
    cli.run("game", "fibonacci-nim", "--grundy", "--to", "300", "--output", str(out))
    want = np.load(out)
    got = palace.fibonacci_nim_grundy(300)
    assert got.shape == (301, 301) and got.dtype == np.uint16
    assert np.array_equal(got[1:, 1:], want)
    assert not got[0].any() and not got[:, 0].any()


def test_fibonacci_nim_grundy_follows_its_definition():
    g = palace.fibonacci_nim_grundy(60).astype(int)
    for n in range(1, 61):
        for q in range(1, 61):
            options = {g[n - j, min(2 * j, n - j)] for j in range(1, min(q, n) + 1)}
            mex = next(m for m in range(len(options) + 1) if m not in options)
            assert g[n, q] == mex, (n, q)


def test_subtraction_equals_the_cli(cli, tmp_path):
    for spec in ("paper", "1,4,12", "F(2n)-1"):
        out = tmp_path / "s.npy"
        cli.run("game", "subtraction", "--to", "20000", "--set", spec, "--output", str(out))
        got = palace.subtraction(spec, 20000)
        assert np.array_equal(got.grundy, np.load(out)), spec
    s = palace.subtraction([1, 4, 12], 300)
    g = s.grundy.astype(int)
    for n in range(301):
        options = {g[n - m] for m in (1, 4, 12) if m <= n}
        assert g[n] == next(m for m in range(4) if m not in options)


def test_fraenkel_array_equals_the_cli(cli):
    want = cli.json("game", "fraenkel-array", "--rows", "200", "--columns", "6")["rows"]
    got = palace.fraenkel_array(200, 6)
    assert got.dtype == np.uint64
    assert got.tolist() == want
