"""Type stubs of the native module ``palace._palace``; ``palace/__init__.py`` wraps it in the
documented functions. ``python/tests/test_stubs.py`` checks every signature here against the
compiled module's (names, order and defaults), and the wrappers' parameters against them."""

import os
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

_Progress = Optional[Callable[[int, int, Optional[str]], None]]
_Window = Optional[Tuple[int, int, int, int]]
_Path = Optional[Union[str, "os.PathLike[str]"]]

GPU: bool
MAX_K: int

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
    checkpoint: _Path = None,
    every: Optional[float] = None,
    resume: _Path = None,
    progress: _Progress = None,
) -> Dict[str, Any]: ...
def skin(
    k: int,
    to: int,
    threads: Optional[int] = None,
    backend: str = "cpu",
    checkpoint: _Path = None,
    every: Optional[float] = None,
    resume: _Path = None,
    progress: _Progress = None,
) -> Dict[str, Any]: ...
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
) -> Dict[str, Any]: ...
def regions(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> Dict[str, Any]: ...
def survey(
    k: Tuple[int, int],
    step: int = 1,
    size_factor: int = 3,
    skin: bool = True,
    detail_step: int = 1,
    threads: Optional[int] = None,
    backend: str = "cpu",
    progress: _Progress = None,
) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]: ...
def threads(
    k: int,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    window: _Window = None,
    reach: int = 4,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> Tuple[Dict[str, Any], Dict[str, np.ndarray]]: ...
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
    path: _Path = None,
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
    backend: str = "cpu",
    progress: _Progress = None,
) -> Tuple[np.ndarray, Dict[str, Any]]: ...
def branches(
    k: int,
    rows: int,
    width: Optional[int] = None,
    method: str = "auto",
    min_gap: Optional[float] = None,
    threads: Optional[int] = None,
    progress: _Progress = None,
) -> Dict[str, Any]: ...
