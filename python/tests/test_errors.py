"""Bad input raises the right exception, with a message naming the Python argument and never
a command-line flag."""

import re

import pytest

import palace


def raises(exc, pattern, f, *args, **kw):
    with pytest.raises(exc) as info:
        f(*args, **kw)
    msg = str(info.value)
    assert re.search(pattern, msg), msg
    assert "--" not in msg, f"a command-line flag in {msg!r}"
    return msg


def test_bad_games():
    raises(ValueError, r"^k = 0 is not a game", palace.values, k=0, size=10)
    raises(ValueError, r"^k = -3", palace.values, k=-3, size=10)
    raises(ValueError, r"^k = 700000001 is too large.*k <= 700000000", palace.values, k=palace.MAX_K + 1, size=10)
    raises(ValueError, r"^k2 = 0", palace.compare, 5, 0, size=10)
    # Python's types are the extension's to check (pyo3's errors name the argument).
    raises(TypeError, r"^argument 'k': 'str' object cannot be interpreted as an integer", palace.values, k="five",
           size=10)
    raises(TypeError, r"^argument 'size': 'float' object cannot be interpreted as an integer", palace.stats, k=5,
           size=2.5)
    raises(TypeError, r"^argument 'k2'", palace.compare, 5, "six", size=10)
    raises(TypeError, r"^argument 'min_gap'", palace.branches, k=3, rows=10, min_gap="wide")
    raises(TypeError, r"^argument 'k'", palace.survey, k=("a", 9))


def test_bad_boards_and_windows():
    raises(ValueError, r"^size = 0", palace.values, k=5, size=0)
    raises(ValueError, r"^height = -1", palace.stats, k=5, width=4, height=-1)
    raises(TypeError, r"size=N or as width=W, height=H", palace.values, k=5)
    raises(TypeError, r"not both", palace.values, k=5, size=10, width=3)
    raises(TypeError, r"both width and height", palace.palaces, k=5, width=10)
    raises(ValueError, r"^window = \(0, 0, 11, 5\) lies outside the 10 x 10 board; use x1 <= 10",
           palace.values, k=5, size=10, window=(0, 0, 11, 5))
    raises(ValueError, r"^window = \(3, 0, 3, 5\) is empty", palace.render, k=5, size=10, window=(3, 0, 3, 5))
    raises(ValueError, r"^window = .*corners", palace.values, k=5, size=10, window=(-1, 0, 3, 5))
    raises(ValueError, r"palaces_only.*window", palace.stats, k=5, size=10, window=(1, 1, 5, 5), palaces_only=True)
    raises(ValueError, r"^window = \(1, 1, 5, 5\): the statistics by counters cover a board from its corner",
           palace.stats, k=5, size=10, window=(1, 1, 5, 5), by_counters=True)


def test_bad_options():
    raises(ValueError, r"^dtype = int8 cannot hold", palace.values, k=500, size=100, dtype="int8")
    raises(ValueError, r"^dtype = float32", palace.values, k=5, size=10, dtype="float32")
    raises(ValueError, r"^threads = -1", palace.values, k=5, size=10, threads=-1)
    raises(ValueError, r"^scale = 0", palace.render, k=5, size=10, scale=0)
    raises(ValueError, r"^aggregate = 'median'", palace.render, k=5, size=10, aggregate="median")
    raises(ValueError, r"^scheme = 'rainbow'", palace.render, k=5, size=10, scheme="rainbow")
    raises(ValueError, r"^backend = 'tpu'", palace.stats, k=5, size=10, backend="tpu")
    raises(ValueError, r"^backend = 'tpu'", palace.skin, k=50, to=100, backend="tpu")
    raises(ValueError, r"^backend = 'tpu'", palace.survey, k=(50, 60), backend="tpu")
    raises(ValueError, r"^backend = 'tpu'", palace.positions, k=7, rows=10, backend="tpu")
    raises(ValueError, r"^method = 'lines' runs on the CPU", palace.positions, k=7, rows=10, method="lines",
           backend="gpu")


def test_the_gpu_backend_is_refused_by_a_build_without_it():
    if palace.HAS_GPU:
        pytest.skip("this build has the GPU backend")
    raises(ValueError, r"^backend = 'gpu'.*no GPU backend", palace.stats, k=5, size=10, backend="gpu")
    raises(ValueError, r"^backend = 'gpu'.*no GPU backend", palace.skin, k=50, to=100, backend="gpu")
    raises(ValueError, r"^backend = 'gpu'.*no GPU backend", palace.survey, k=(50, 60), backend="gpu")
    raises(ValueError, r"^backend = 'gpu'.*no GPU backend", palace.positions, k=7, rows=10, backend="gpu")


def test_arrays_larger_than_memory_are_refused_before_computing():
    raises(ValueError, r"values would take .* GiB .* more than the .* available; .*window", palace.values,
           k=5, size=2**30)
    raises(ValueError, r"palaces would take", palace.palaces, k=5, width=2**30, height=2**20)


def test_bad_skin_and_games():
    raises(ValueError, r"^k = 2: games k = 1 and 2 have no arm", palace.skin, k=2, to=100)
    raises(ValueError, r"^to = 50: .*use 100 < to", palace.skin, k=100, to=50)
    raises(ValueError, r"^to = 0", palace.fibonacci_nim, 0)
    raises(ValueError, r"^to = 40000: at most 30000", palace.fibonacci_nim_grundy, 40000)
    raises(ValueError, r"^set = ", palace.subtraction, "F(x)", 100)
    raises(ValueError, r"^columns = 0", palace.fraenkel_array, 10, 0)
    raises(ValueError, r"^k = \(9, 3\)", palace.survey, k=(9, 3))


def test_unwritable_paths_are_os_errors(tmp_path):
    raises(OSError, r"^path .*x\.png: cannot write in .*dir \(no such folder\)", palace.render, k=5, size=10,
           path=tmp_path / "no" / "such" / "dir" / "x.png")
    raises(OSError, r"^path .*: is a folder", palace.render, k=5, size=10, path=tmp_path)
    assert not list(tmp_path.rglob("*.png"))


def test_a_board_too_large_for_the_gpu_is_a_memory_error(monkeypatch):
    if not palace.HAS_GPU:
        pytest.skip("this build has no GPU backend (pip install ./python with --features gpu)")
    monkeypatch.setenv("PALACE_GPU_MEMORY", "100000")
    for f, kw in [(palace.stats, dict(k=500, size=30000)), (palace.skin, dict(k=500, to=30000)),
                  (palace.survey, dict(k=(500, 510)))]:
        raises(MemoryError, r"needs .* of GPU memory for its arrays; the GPU has 100000 bytes.*backend=\"cpu\"",
               f, backend="gpu", **kw)
