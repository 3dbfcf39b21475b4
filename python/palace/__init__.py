"""The blocking-queen cellular automaton of k-Blocking Wythoff Nim, as numpy arrays.

``palace`` computes the palace numbers of Cook, Larsson and Neary (AUTOMATA 2015): for game
``k`` and every position ``(x, y)`` of the two heaps, the number ``N`` of palaces (P-positions)
that the queen at ``(x, y)`` sees west, north and north-west. The arrays hold the CA value
``v = N - k``, negative exactly at the palaces. Column ``x`` is the first heap, row ``y`` the
second; ``(0, 0)`` is the top-left corner, so ``values(...)[y, x]`` is the cell ``(x, y)``.

Every number comes from the same Rust library as the ``palace`` command line, computed on a
worker thread with the GIL released; Ctrl-C stops a long call and raises
``KeyboardInterrupt``. A board is given as ``size=N`` (square) or ``width=W, height=H``, and a
part of it as ``window=(x0, y0, x1, y1)`` (half-open: columns ``x0..x1-1``, rows
``y0..y1-1``).

    >>> import palace
    >>> v = palace.values(k=500, size=1500)      # shape (1500, 1500); int32, as the hood reaches -500
    >>> s = palace.skin(k=40003, to=3_040_003)   # the skin's columns as arrays

The analyses (:func:`stats`, :func:`skin`, :func:`compare`, :func:`regions`, :func:`survey`,
:func:`threads`, and for small games :func:`positions` and :func:`branches`)
return dictionaries or small dataclasses whose tables are numpy arrays, with ``.to_pandas()``
where pandas is installed; the games lab (:func:`fibonacci_nim`, :func:`fibonacci_nim_grundy`,
:func:`subtraction`, :func:`fraenkel_array`) returns arrays.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _palace

__all__ = [
    "values",
    "palaces",
    "stats",
    "Stats",
    "PalaceCount",
    "skin",
    "Skin",
    "compare",
    "regions",
    "survey",
    "Survey",
    "threads",
    "Threads",
    "positions",
    "Positions",
    "branches",
    "render",
    "fibonacci_nim",
    "FibonacciNim",
    "fibonacci_nim_grundy",
    "subtraction",
    "Subtraction",
    "fraenkel_array",
    "MAX_K",
    "HAS_GPU",
]

#: The largest game accepted: palace numbers reach 3k and must fit int32.
MAX_K: int = _palace.MAX_K
#: Whether this build has the GPU backend (``backend="gpu"`` of :func:`stats`).
HAS_GPU: bool = _palace.GPU

Window = Tuple[int, int, int, int]
_Path = Union[str, "os.PathLike[str]"]


# --- helpers ---------------------------------------------------------------------------------


class _Named:
    """The native module, its functions' ``TypeError`` for an argument of the wrong type
    worded ``argument 'k': ...``: pyo3 names the argument in a note on the exception, which
    Python prints only from 3.11 on and ``str()`` never shows. The check itself is pyo3's."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Callable[..., Any]:
        f = getattr(self._module, name)

        def call(*args: Any, **kw: Any) -> Any:
            try:
                return f(*args, **kw)
            except TypeError as e:
                for note in getattr(e, "__notes__", ()):
                    m = re.fullmatch(r"while processing '(\w+)'", note)
                    if m:
                        raise TypeError(f"argument '{m.group(1)}': {e}") from None
                raise

        return call


_native: Any = _Named(_palace)


class _Bar:
    """A tqdm progress bar fed by the native module's callback ``(position, length, message)``;
    without tqdm, no bar."""

    def __init__(self, show: bool, desc: str, unit: str) -> None:
        self.bar = None
        if show:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(desc=desc, unit=unit, total=None)

    def callback(self) -> Optional[Callable[[int, int, Optional[str]], None]]:
        if self.bar is None:
            return None

        def update(pos: int, length: int, message: Optional[str]) -> None:
            bar = self.bar
            if length and bar.total != length:
                bar.total = length
            bar.n = pos
            if message:
                bar.set_postfix_str(message, refresh=False)
            bar.refresh()

        return update

    def __enter__(self) -> "_Bar":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()


def _dtype_name(dtype: Any) -> Optional[str]:
    """The name of a numpy dtype given any way numpy takes one (``np.int8``, ``"int8"``); the
    native module says which it accepts."""
    if dtype is None:
        return None
    try:
        return np.dtype(dtype).name
    except TypeError:
        raise TypeError(f"dtype = {dtype!r}: dtype is int8, int32 or None") from None


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError("to_pandas() needs pandas: pip install pandas") from None
    return pandas


# --- the engine ------------------------------------------------------------------------------


def values(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: Optional[Window] = None,
    threads: Optional[int] = None,
    dtype: Any = None,
    progress: bool = False,
) -> np.ndarray:
    """The CA values ``v = N - k`` of game ``k`` as a 2-D numpy array.

    Parameters
    ----------
    k : int
        The game, 1 to ``MAX_K`` (k = 1 is classical Wythoff Nim).
    size : int, optional
        A square board of ``size x size`` cells; or give ``width`` and ``height``.
    width, height : int, optional
        The board's columns and rows.
    window : (x0, y0, x1, y1), optional
        The half-open part ``[x0, x1) x [y0, y1)`` of the board to return (default: all of
        it). The cells outside it are computed as needed but not kept.
    threads : int, optional
        Worker threads; ``None`` or 0 means one per core. The values do not depend on it.
    dtype : {None, "int8", "int32"}, optional
        ``None`` picks ``int8`` where every value of the window fits (outside the hood values
        stay within a few units of 0; inside it ``v`` reaches ``-k``), else ``int32``.
    progress : bool
        Show a progress bar (rows) when tqdm is installed.

    Returns
    -------
    numpy.ndarray
        Shape ``(y1 - y0, x1 - x0)``; ``a[y - y0, x - x0]`` is the cell ``(x, y)``. The
        palaces are the negative entries; ``a + k`` is the palace number ``N``.

    Raises
    ------
    ValueError
        A bad ``k``, board, ``window``, ``threads`` or ``dtype``, or an array larger than the
        memory available.
    TypeError
        The board given both ways, or not at all.
    KeyboardInterrupt
        Ctrl-C during the computation (the workers stop first).

    Examples
    --------
    >>> v = palace.values(k=500, size=1500)
    >>> (v < 0).sum()                       # the palaces of the board
    >>> palace.values(k=5, size=6) + 5      # the palace numbers of the paper's Fig. 1
    """
    name = _dtype_name(dtype)
    with _Bar(progress, f"values k={k}", "rows") as bar:
        return _native.values(k, size, width, height, window, threads, name, bar.callback())


def palaces(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: Optional[Window] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> np.ndarray:
    """Where the palaces (P-positions, ``v < 0``) of game ``k`` lie, as a 2-D bool array.

    The arguments are those of :func:`values`; ``palaces(...)`` equals ``values(...) < 0``
    at a byte a cell.
    """
    with _Bar(progress, f"palaces k={k}", "rows") as bar:
        return _native.palaces(k, size, width, height, window, threads, bar.callback())


# --- analyses --------------------------------------------------------------------------------


@dataclass
class Stats:
    """Statistics of a window (``palace stats``).

    ``total``, ``hood`` and ``rest`` are dictionaries ``{"cells", "palaces", "min", "max"}``
    for the whole window, its hood (the closed-form corner) and the rest; ``min`` and ``max``
    are ``{"v", "x", "y"}``, the extreme value and its first cell in row-major order.
    ``histogram_values`` and ``histogram_counts`` count every value ``v`` outside the hood.
    ``engine`` is what the engine did (cells per path, threads, seconds, and under
    ``workers`` where the workers' time went); ``raw`` the report of the command line's JSON
    (``{"stats": ..., "engine": ...}``), built from the library's types.
    """

    k: int
    window: Window
    total: Dict[str, Any]
    hood: Dict[str, Any]
    rest: Dict[str, Any]
    histogram_values: np.ndarray
    histogram_counts: np.ndarray
    engine: Dict[str, Any] = field(repr=False)
    raw: Dict[str, Any] = field(repr=False)

    @property
    def palaces(self) -> int:
        """Palaces in the window, hood included."""
        return int(self.total["palaces"])

    @property
    def density(self) -> float:
        """Palaces per cell."""
        return self.total["palaces"] / self.total["cells"]

    def to_pandas(self):
        """The histogram as a DataFrame with columns ``v`` and ``count``."""
        pd = _pandas()
        return pd.DataFrame({"v": self.histogram_values, "count": self.histogram_counts})


@dataclass
class PalaceCount:
    """The palaces of a board from its corner (``palace stats --palaces-only``)."""

    k: int
    width: int
    height: int
    cells: int
    palaces: int
    engine: Dict[str, Any] = field(repr=False)


def stats(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: Optional[Window] = None,
    palaces_only: bool = False,
    by_counters: bool = False,
    threads: Optional[int] = None,
    backend: str = "cpu",
    checkpoint: Optional[_Path] = None,
    every: Optional[float] = None,
    resume: Optional[_Path] = None,
    progress: bool = False,
) -> Union[Stats, PalaceCount]:
    """Counts, extremes and the value histogram of a window of game ``k`` (``palace stats``).

    The board and ``window`` are given as in :func:`values`. ``palaces_only=True`` counts
    only the palaces of the whole board, several times faster, and returns a
    :class:`PalaceCount`; ``by_counters=True`` computes the same :class:`Stats` through the
    three-counter sweep (whole boards only). ``backend="gpu"`` runs on the GPU where this
    build has it (:data:`HAS_GPU`); otherwise it raises ``ValueError``.

    A long run on the CPU can be saved and continued (``palace stats --checkpoint``):
    ``checkpoint=FILE`` saves its progress to ``FILE`` every ``every`` seconds (default 600)
    and when it is interrupted (Ctrl-C raises ``KeyboardInterrupt`` once the file is
    written); the same call with ``resume=FILE`` (and ``checkpoint=FILE`` to keep saving)
    continues it to the result an uninterrupted run gives. ``FILE`` must be new or the file
    resumed from; it is removed when the run finishes.

    >>> palace.stats(k=9999, size=500_000, checkpoint="run.ckpt")  # Ctrl-C, then:
    >>> palace.stats(k=9999, size=500_000, checkpoint="run.ckpt", resume="run.ckpt")
    """
    with _Bar(progress, f"stats k={k}", "rows") as bar:
        found = _native.stats(
            k, size, width, height, window, palaces_only, by_counters, threads, backend, checkpoint, every, resume,
            bar.callback(),
        )
    return PalaceCount(**found) if palaces_only else Stats(**found)


@dataclass
class Skin:
    """The skin of the upper arm of game ``k``, from the shoulder ``(k, 0)`` to column ``to``
    (``palace skin``; ``docs/skin.md``).

    ``columns`` holds the CSV's columns as arrays: ``x``; ``top``, the row of the first cell
    below outer space; ``top_v``, its value; ``vertical``, the palaces from it straight down
    (the skin's thickness); ``diagonal``, those along (1, 1); ``level``, the Fibonacci level
    of the thickness (-1 where it is none). ``report`` is the command line's report (levels,
    periods, the paper's checks), as a dictionary.
    """

    k: int
    to: int
    columns: Dict[str, np.ndarray]
    report: Dict[str, Any] = field(repr=False)

    @property
    def thickness(self) -> np.ndarray:
        """The vertical thickness of the skin per column (``columns["vertical"]``)."""
        return self.columns["vertical"]

    def to_pandas(self):
        """The columns as a DataFrame (the command line's CSV)."""
        pd = _pandas()
        return pd.DataFrame(self.columns)


def skin(
    k: int,
    to: int,
    threads: Optional[int] = None,
    backend: str = "cpu",
    checkpoint: Optional[_Path] = None,
    every: Optional[float] = None,
    resume: Optional[_Path] = None,
    progress: bool = False,
) -> Skin:
    """Follows the skin of game ``k`` (``k >= 3``) from the shoulder to column ``to``
    (exclusive; ``k < to``), measuring every column (``palace skin``). ``backend="gpu"``
    computes the cells on the GPU where this build has it (:data:`HAS_GPU`; the same columns
    and report as the CPU's); otherwise it raises ``ValueError``. ``checkpoint``, ``every``
    and ``resume`` save and continue a long run as :func:`stats` does (``palace skin
    --checkpoint``), on the CPU and on the GPU.

    >>> s = palace.skin(k=40003, to=3_040_003)
    >>> s.thickness.max(), s.report["levels"][0]
    """
    with _Bar(progress, f"skin k={k}", "cells") as bar:
        return Skin(**_native.skin(k, to, threads, backend, checkpoint, every, resume, bar.callback()))


def compare(
    k: int,
    k2: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: Optional[Window] = None,
    shift: Tuple[int, int] = (0, 0),
    offset: int = 0,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Dict[str, Any]:
    """Compares games ``k`` and ``k2`` cell by cell over a window of ``k``'s board: how many
    cells satisfy ``N_k2(x + dx, y + dy) = N_k(x, y) + offset`` with ``shift = (dx, dy)``
    (both >= 0), in all and per region of game ``k`` (``palace compare --json``, as a
    dictionary: ``cells``, ``matched``, ``fraction``, ``per_region``)."""
    with _Bar(progress, f"compare {k} {k2}", "rows") as bar:
        return _native.compare(k, k2, size, width, height, window, shift, offset, threads, bar.callback())


def regions(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: Optional[Window] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Dict[str, Any]:
    """The paper's regions of a window of game ``k``, with their cells, palaces and
    boundaries (``palace regions --json``, as a dictionary; ``docs/regions.md``)."""
    with _Bar(progress, f"regions k={k}", "rows") as bar:
        return _native.regions(k, size, width, height, window, threads, bar.callback())


@dataclass
class Survey:
    """A survey of many games (``palace survey``): ``rows`` holds the columns of the command's
    CSV, one entry per game (numpy arrays; object arrays with ``None`` where a column has
    gaps, and of ``str`` for ``hot_region``), ``summary`` the command's summary
    (``docs/survey.md`` explains each column)."""

    rows: Dict[str, np.ndarray]
    summary: Dict[str, Any]

    def to_pandas(self):
        """The rows as a DataFrame, one row per game."""
        pd = _pandas()
        return pd.DataFrame(self.rows)


def survey(
    k: Union[Tuple[int, int], range],
    step: int = 1,
    size_factor: int = 3,
    skin: bool = True,
    detail_step: int = 1,
    threads: Optional[int] = None,
    backend: str = "cpu",
    progress: bool = False,
) -> Survey:
    """Measures many games on boards of side ``size_factor * k`` (``palace survey``;
    ``docs/survey.md``): ``k = (first, last)`` surveys ``first, first + step, ..., <= last``
    (both ends included, as the command's ``A..B``); a ``range`` gives its own step.
    ``skin=False`` skips following the skin; ``detail_step`` computes the region labels for
    every ``detail_step``-th game only. ``backend="gpu"`` sweeps the boards and follows the
    skin on the GPU where this build has it (:data:`HAS_GPU`; the same rows as the CPU's);
    otherwise it raises ``ValueError``.

    >>> palace.survey(k=(20, 40), step=5).to_pandas()
    """
    if isinstance(k, range):
        if len(k) == 0:
            raise ValueError(f"k = {k!r}: the range holds no game")
        start, stop, step = k[0], k[-1], abs(k.step)
        start, stop = min(start, stop), max(start, stop)
    else:
        try:
            start, stop = k
        except (TypeError, ValueError):
            raise TypeError(f"k = {k!r}: k is (first, last), both included, or a range") from None
    with _Bar(progress, "survey", "k") as bar:
        rows, summary = _native.survey(
            (start, stop), step, size_factor, skin, detail_step, threads, backend, bar.callback()
        )
    return Survey(rows=rows, summary=summary)


@dataclass
class Threads:
    """The threads of a window (``palace threads``; ``docs/threads.md``): ``table`` holds the
    columns of the command's CSV, one entry per thread (numpy arrays; object arrays with
    ``None`` where a column has gaps, of ``str`` for ``end`` and of lists for ``parents``;
    ``near_share`` and ``slope`` unrounded); ``report`` the command's report."""

    table: Dict[str, np.ndarray]
    report: Dict[str, Any] = field(repr=False)

    def to_pandas(self):
        """The threads as a DataFrame, one row per thread."""
        pd = _pandas()
        return pd.DataFrame(self.table)


def threads(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: Optional[Window] = None,
    reach: int = 4,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Threads:
    """Traces the threads of palaces through a window of game ``k`` (``palace threads``):
    cells on the same or the next row at most ``reach`` columns apart belong to one thread.
    ``threads`` is the number of worker threads, as everywhere."""
    with _Bar(progress, f"threads k={k}", "rows") as bar:
        report, table = _native.threads(k, size, width, height, window, reach, threads, bar.callback())
    return Threads(table=table, report=report)


@dataclass
class Positions:
    """The P-positions of the first rows of a game (``palace positions``): ``xy`` is an
    ``(n, 2)`` int64 array of ``(x, y)``, sorted by ``y`` then ``x``; ``report`` the command's
    report (the exact-k-cover check: ``full_rows``, ``first_short_row``, ...)."""

    k: int
    rows: int
    xy: np.ndarray
    report: Dict[str, Any] = field(repr=False)

    @property
    def every_row_holds_k(self) -> bool:
        """Whether each row ``0..rows`` holds exactly ``k`` P-positions."""
        return self.report["first_short_row"] is None

    def upper(self) -> np.ndarray:
        """The positions with ``x <= y`` (the others are their mirror images)."""
        return self.xy[self.xy[:, 0] <= self.xy[:, 1]]

    def to_pandas(self):
        """The positions as a DataFrame with columns ``x`` and ``y``."""
        pd = _pandas()
        return pd.DataFrame(self.xy, columns=["x", "y"])


def positions(
    k: int,
    rows: int,
    width: Optional[int] = None,
    method: str = "auto",
    threads: Optional[int] = None,
    backend: str = "cpu",
    progress: bool = False,
) -> Positions:
    """Every P-position ``(x, y)`` of game ``k`` with ``y < rows`` (``palace positions``), on a
    board ``width`` columns wide (default ``k + 3 rows``, which holds them all; a row found
    short is reported). ``method="lines"`` (the default for ``k <= 255``) tests only the cells
    that could still be P-positions and takes seconds for a million rows; ``"sweep"`` computes
    every cell with the CA (any ``k``; the check of the other). ``backend="gpu"`` runs the
    sweep on the GPU where this build has it (:data:`HAS_GPU`), with the same list and report;
    otherwise it raises ``ValueError``.

    >>> p = palace.positions(k=7, rows=1_000_000)
    >>> p.every_row_holds_k, p.xy.shape
    (True, (7000000, 2))
    """
    with _Bar(progress, f"positions k={k}", "rows") as bar:
        xy, report = _native.positions(k, rows, width, method, threads, backend, bar.callback())
    return Positions(k=k, rows=rows, xy=xy, report=report)


def branches(
    k: int,
    rows: int,
    width: Optional[int] = None,
    method: str = "auto",
    min_gap: Optional[float] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Dict[str, Any]:
    """The branches of the upper P-positions (``x <= y``) of rows ``0..rows`` of game ``k``
    (``palace branches --json``, as a dictionary; ``docs/small-k.md``): for each branch its
    share, its ratio ``y / x`` measured at ``y = 10**3, 10**4, ...``, the limit with its error
    and its exact form where one is recognised; ``cover`` holds the k-cover check.

    >>> [b["limit"] for b in palace.branches(k=5, rows=100_000)["branches"]]
    """
    with _Bar(progress, f"branches k={k}", "rows") as bar:
        return _native.branches(k, rows, width, method, min_gap, threads, bar.callback())


def render(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: Optional[Window] = None,
    scale: int = 1,
    zoom: int = 1,
    aggregate: str = "mean",
    scheme: str = "paper",
    legend: bool = False,
    path: Union[str, "os.PathLike[str]", None] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Optional[np.ndarray]:
    """Draws a window of game ``k`` in the paper's colours (``palace render``).

    With ``path``, writes the PNG there (the file appears whole or not at all) and returns
    ``None``; without, returns the picture as an RGB array of shape ``(H, W, 3)``, ``uint8``.
    ``scale`` makes each ``scale x scale`` block of cells one pixel, combined by
    ``aggregate`` (``"mean"``, ``"min"`` or ``"max"``); ``zoom`` draws each cell as a
    ``zoom x zoom`` block (with ``scale=1``). ``scheme="values"`` colours the hood by value
    too; ``legend=True`` adds the key below the picture.

    >>> import matplotlib.pyplot as plt
    >>> plt.imshow(palace.render(k=500, size=1500))
    """
    with _Bar(progress, f"render k={k}", "rows") as bar:
        return _native.render(
            k, size, width, height, window, scale, zoom, aggregate, scheme, legend, path, threads, bar.callback()
        )


# --- the games lab ---------------------------------------------------------------------------


@dataclass
class FibonacciNim:
    """Fibonacci nim from every pile ``1..to`` (``palace game fibonacci-nim``).

    ``winner[n]`` is 1 when the first player wins from a pile of ``n`` coins, 2 when the
    second does (``winner[0]`` is 0); ``p_positions`` lists the piles the first player
    loses; ``winning_moves[n]`` every winning first move (coins taken) from ``n``.
    """

    to: int
    winner: np.ndarray
    p_positions: np.ndarray
    winning_moves: List[np.ndarray] = field(repr=False)


def fibonacci_nim(to: int, threads: Optional[int] = None, progress: bool = False) -> FibonacciNim:
    """Solves Fibonacci nim for every pile ``1..to`` (at most 10**6)."""
    with _Bar(progress, "fibonacci nim", "piles") as bar:
        p, moves = _native.fibonacci_nim(to, threads, bar.callback())
    winner = np.array([0] + [2 if len(m) == 0 else 1 for m in moves[1:]], dtype=np.int8)
    return FibonacciNim(to=to, winner=winner, p_positions=p, winning_moves=moves)


def fibonacci_nim_grundy(to: int, threads: Optional[int] = None, progress: bool = False) -> np.ndarray:
    """The Grundy values ``G(n, q)`` of Fibonacci nim (pile ``n``, quota ``q``) for
    ``0 <= n, q <= to`` (at most 30000), as a ``uint16`` array indexed ``[n, q]``.
    ``G(n, q) = mex{G(n - j, min(2j, n - j)) : 1 <= j <= min(q, n)}``, 0 without a move."""
    with _Bar(progress, "grundy values", "rows") as bar:
        return _native.fibonacci_nim_grundy(to, threads, bar.callback())


@dataclass
class Subtraction:
    """A subtraction game solved for piles ``0..to`` (``palace game subtraction``):
    ``grundy[n]`` is the Grundy value of a pile of ``n``; ``period`` is ``(p, n0)`` when the
    values repeat with period ``p`` from ``n0`` on within the piles computed, else ``None``."""

    set: str
    members: np.ndarray
    to: int
    grundy: np.ndarray
    period: Optional[Tuple[int, int]]

    @property
    def counts(self) -> np.ndarray:
        """How many piles have each Grundy value ``0, 1, ..., max``."""
        return np.bincount(self.grundy)


def subtraction(
    set: Union[str, Sequence[int]],
    to: int,
    period_bound: int = 1_000_000,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Subtraction:
    """Solves the subtraction game whose moves are ``set``: a family ``"F(an+b)+c"`` of
    Fibonacci numbers (``"paper"`` is Larsson and Fox's ``F(2n+1)-1``) or a list of positive
    integers, for piles ``0..to``."""
    spec = set if isinstance(set, str) else ",".join(str(int(s)) for s in set)
    with _Bar(progress, f"subtraction {spec}", "piles") as bar:
        name, members, grundy, period = _native.subtraction(spec, to, period_bound, threads, bar.callback())
    return Subtraction(set=name, members=np.array(members, dtype=np.uint64), to=to, grundy=grundy, period=period)


def fraenkel_array(rows: int, columns: int = 8) -> np.ndarray:
    """Rows ``0..rows-1`` and columns ``0..columns-1`` of Fraenkel's array ``A`` (*Arrays,
    Numeration Systems and Frankenstein Games*), as ``uint64`` (``palace game
    fraenkel-array``)."""
    return _native.fraenkel_array(rows, columns)
