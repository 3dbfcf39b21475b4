"""Type stubs of the native module ``palace._palace``; ``palace/__init__.py`` wraps it in the
documented functions."""

from typing import Callable, List, Optional, Tuple

import numpy as np

_Progress = Optional[Callable[[int, int, Optional[str]], None]]
_Window = Optional[Tuple[int, int, int, int]]

GPU: bool
MAX_K: int

def plan(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    dtype: Optional[str] = None,
) -> Tuple[int, int, int, Tuple[int, int, int, int], str]: ...
def values(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    threads: Optional[int] = None,
    dtype: Optional[str] = None,
    progress: _Progress = None,
) -> np.ndarray: ...
def palaces(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> np.ndarray: ...
def stats(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    palaces_only: bool = False,
    by_counters: bool = False,
    threads: Optional[int] = None,
    backend: str = "cpu",
    progress: _Progress = None,
) -> str: ...
def skin(
    k: int, to: int, threads: Optional[int] = None, backend: str = "cpu", progress: _Progress = None
) -> Tuple[str, List[np.ndarray]]: ...
def compare(
    k: int,
    k2: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    shift: Tuple[int, int] = (0, 0),
    offset: int = 0,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> str: ...
def regions(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> str: ...
def survey(
    start: int,
    stop: int,
    step: int = 1,
    size_factor: int = 3,
    skin: bool = True,
    detail_step: int = 1,
    threads: Optional[int] = None,
    backend: str = "cpu",
    progress: _Progress = None,
) -> Tuple[str, str]: ...
def threads(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    reach: int = 4,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> Tuple[str, str]: ...
def render(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    scale: int = 1,
    zoom: int = 1,
    aggregate: str = "mean",
    scheme: str = "paper",
    legend: bool = False,
    path: Optional[str] = None,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> Optional[np.ndarray]: ...
def fibonacci_nim(
    to: int, threads: Optional[int] = None, progress: _Progress = None
) -> Tuple[np.ndarray, List[np.ndarray]]: ...
def fibonacci_nim_grundy(to: int, threads: Optional[int] = None, progress: _Progress = None) -> np.ndarray: ...
def subtraction(
    set: str, to: int, period_bound: int = 1000000, threads: Optional[int] = None, progress: _Progress = None
) -> Tuple[str, List[int], np.ndarray, Optional[Tuple[int, int]]]: ...
def fraenkel_array(rows: int, columns: int = 8) -> np.ndarray: ...
def positions(
    k: int,
    rows: int,
    width: Optional[int] = None,
    method: str = "auto",
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> Tuple[np.ndarray, str]: ...
def branches(
    k: int,
    rows: int,
    width: Optional[int] = None,
    method: str = "auto",
    min_gap: Optional[float] = None,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> str: ...
