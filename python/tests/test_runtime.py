"""Behaviour of a call: Ctrl-C stops it quickly and leaves no thread running, the GIL is
released while it computes, and repeated calls do not leak memory."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import palace

LONG = {
    # A sweep of 9 * 10^10 cells: minutes on any machine.
    "sweep": "palace.stats(k=1000, size=300_000)",
    # A small window at the far corner of a board of 10^12 cells: the sweep computes every
    # cell above and to the left of it.
    "values": "palace.values(k=100, size=1_000_000, window=(999_000, 999_000, 1_000_000, 1_000_000))",
    # Fibonacci nim to 10^6: about 10^11 steps.
    "game": "palace.fibonacci_nim(1_000_000)",
}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts threads in /proc")
@pytest.mark.parametrize("what", sorted(LONG))
def test_ctrl_c_raises_keyboard_interrupt_quickly_and_stops_the_workers(what):
    script = textwrap.dedent(
        f"""
        import os, signal, time, palace
        # Python leaves Ctrl-C ignored when it starts with SIGINT ignored, as under a
        # non-interactive shell's `&`; the test is about palace's handling, so install
        # Python's own handler.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        def tasks():
            return len(os.listdir("/proc/self/task"))
        before = tasks()
        print("started", flush=True)
        try:
            {LONG[what]}
        except KeyboardInterrupt:
            print("caught at", time.monotonic(), flush=True)
            # The engine's pool is dropped when the call returns; its idle threads exit
            # within moments. None may stay.
            deadline = time.monotonic() + 2
            while tasks() > before and time.monotonic() < deadline:
                time.sleep(0.01)
            print("threads left", tasks() - before, flush=True)
            raise
        print("finished", flush=True)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.0)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
    finally:
        p.kill()
    assert "KeyboardInterrupt" in err, err
    assert p.returncode != 0
    assert "threads left 0" in out, out
    # CLOCK_MONOTONIC is one clock for every process of the machine.
    caught = float(out.split("caught at", 1)[1].split()[0])
    assert caught - sent < 1.0, f"KeyboardInterrupt came {caught - sent:.2f} s after the signal"


def test_the_gil_is_released_while_computing():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    try:
        start = time.monotonic()
        palace.stats(k=9999, size=120_000, threads=1)
        took = time.monotonic() - start
    finally:
        stop.set()
        t.join()
    assert took > 0.3, "the call is too short to tell"
    # The Python thread kept running during the call. Holding the GIL, the call would have
    # stopped it from the first tick to the end; on a busy machine its ticks may come late,
    # so the test asks for many ticks and no gap of half the call.
    during = [s for s in ticks if start <= s <= start + took]
    assert len(during) >= 10, f"{len(during)} ticks in {took:.2f} s"
    assert np.diff(during).max() < took / 2


def _rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_repeated_calls_do_not_leak():
    def calls():
        palace.values(k=700, size=1000)
        palace.palaces(k=70, size=300)
        palace.stats(k=300, size=900)
        palace.skin(k=103, to=2000)
        palace.render(k=100, size=200, scale=2)
        palace.fibonacci_nim(200)
        try:
            palace.values(k=0, size=10)
        except ValueError:
            pass

    for _ in range(10):
        calls()
    before = _rss()
    for _ in range(100):
        calls()
    grown = _rss() - before
    assert grown < 16 << 20, f"RSS grew by {grown >> 20} MiB over 100 rounds"


def test_progress_reaches_the_end():
    seen = []
    palace._palace.values(300, 900, None, None, None, None, None, lambda pos, length, msg: seen.append((pos, length)))
    assert seen, "the callback was never called"
    assert seen[-1] == (900, 900), seen[-1]
    assert all(p <= n for p, n in seen)


def test_progress_without_tqdm_shows_nothing(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    v = palace.values(k=30, size=90, progress=True)
    assert v.shape == (90, 90)
    assert capsys.readouterr().err == ""
