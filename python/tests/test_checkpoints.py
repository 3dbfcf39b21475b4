"""Checkpoints of ``stats`` and ``skin``: a run stopped with a checkpoint and resumed from it
ends with the result of an uninterrupted run, and a path that cannot be a checkpoint is
refused before any work, naming the argument."""

import re

import numpy as np
import pytest

import palace
from palace import _palace


def stop_once_begun(pos, length, message):
    """A progress callback that stops the run (as Ctrl-C does) once it has made progress. The
    callback is called every 50 ms; the runs below take a second or more on one thread."""
    if pos > 0:
        raise KeyboardInterrupt


def stopped(call, ck):
    """Runs ``call`` until ``stop_once_begun`` stops it; the checkpoint it left is ``ck``."""
    with pytest.raises(KeyboardInterrupt) as info:
        call()
    msg = str(info.value)
    assert "checkpoint" in msg and str(ck) in msg, msg
    assert ck.exists(), "the stopped run saved its checkpoint"


def test_stats_stopped_and_resumed_equal_an_uninterrupted_run(tmp_path):
    ck = tmp_path / "stats.ckpt"
    board = dict(k=20000, width=120000, height=120000, threads=1)
    stopped(lambda: _palace.stats(**board, checkpoint=ck, every=0, progress=stop_once_begun), ck)
    resumed = palace.stats(**board, checkpoint=ck, every=0, resume=ck)
    assert not ck.exists(), "the finished run removes its checkpoint"
    assert resumed.raw["stats"] == palace.stats(**board).raw["stats"]


def test_the_palace_count_resumes_too(tmp_path):
    ck = tmp_path / "count.ckpt"
    board = dict(k=20000, size=120000, palaces_only=True, threads=1)
    stopped(lambda: _palace.stats(**board, checkpoint=ck, every=0, progress=stop_once_begun), ck)
    assert palace.stats(**board, resume=ck).palaces == palace.stats(**board).palaces


def test_the_skin_stopped_and_resumed_equals_an_uninterrupted_run(tmp_path):
    ck = tmp_path / "skin.ckpt"
    game = dict(k=2003, to=400_003, threads=1)
    stopped(lambda: _palace.skin(**game, checkpoint=ck, every=0, progress=stop_once_begun), ck)
    resumed = palace.skin(**game, checkpoint=ck, resume=ck)
    whole = palace.skin(**game)
    assert resumed.report == whole.report
    for name, col in whole.columns.items():
        assert np.array_equal(resumed.columns[name], col), name


def test_a_run_with_a_checkpoint_that_finishes_leaves_none(tmp_path):
    ck = tmp_path / "quick.ckpt"
    s = palace.stats(k=50, size=200, checkpoint=ck)
    assert s.raw["stats"] == palace.stats(k=50, size=200).raw["stats"] and not ck.exists()


def refused(pattern, f, **kw):
    with pytest.raises(ValueError) as info:
        f(**kw)
    msg = str(info.value)
    assert re.search(pattern, msg), msg
    assert "--" not in msg, f"a command-line flag in {msg!r}"


def test_bad_checkpoint_paths_are_refused_naming_the_argument(tmp_path):
    nowhere = tmp_path / "no" / "such" / "run.ckpt"
    refused(r"^checkpoint = '.*run\.ckpt': no such folder", palace.stats, k=5, size=10, checkpoint=nowhere)
    refused(r"^checkpoint = .*is a folder", palace.skin, k=50, to=100, checkpoint=tmp_path)
    refused(r"^resume = '.*run\.ckpt': no such file", palace.skin, k=50, to=100, resume=nowhere)
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    refused(r"^checkpoint = .*not a palace checkpoint", palace.stats, k=5, size=10, checkpoint=other)
    assert other.read_text() == "mine"
    refused(r"^every = -1: every is a number of seconds", palace.stats, k=5, size=10,
            checkpoint=tmp_path / "a.ckpt", every=-1)
    refused(r"^every = 5: .*give checkpoint=FILE", palace.skin, k=50, to=100, every=5)
    refused(r"^backend=gpu keeps no checkpoints", palace.stats, k=5, size=10, backend="gpu", checkpoint=tmp_path / "g.ckpt")


def test_a_checkpoint_of_another_run_is_refused(tmp_path):
    ck = tmp_path / "stats.ckpt"
    board = dict(k=20000, width=120000, height=120000, threads=1)
    stopped(lambda: _palace.stats(**board, checkpoint=ck, every=0, progress=stop_once_begun), ck)
    with pytest.raises(ValueError, match=r"resume = .*: the checkpoint is of the run `stats k=20000 .*not of this one"):
        palace.stats(**{**board, "k": 20001}, resume=ck)
    assert ck.exists(), "a refused resume leaves the checkpoint"
