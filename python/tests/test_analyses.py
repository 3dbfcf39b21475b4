"""The analyses and pictures against the command line's JSON, CSV and PNG files."""

import csv

import numpy as np
import pytest

import palace
from conftest import as_json, read_png


def same(text, value):
    """Whether a CSV entry and the typed value agree: empty and None, ``true`` and True, a
    list and its entries joined by spaces, a number and the CSV's rounding of it, or equal
    numbers or text."""
    if value is None:
        return text == ""
    if isinstance(value, (bool, np.bool_)):
        return text == str(bool(value)).lower()
    if isinstance(value, list):
        return text == " ".join(map(str, value))
    if isinstance(value, (float, np.floating)):
        if "." in text:
            return f"{value:.{len(text.split('.')[1])}f}" == text
        return float(text) == value
    return text == str(value)


@pytest.mark.parametrize(
    "k, args, kw",
    [
        (500, ["--size", "1500"], {"size": 1500}),
        (40, ["--width", "300", "--height", "200", "--window", "10,20,250,180"], {"width": 300, "height": 200, "window": (10, 20, 250, 180)}),
        (3001, ["--size", "5000"], {"size": 5000}),
    ],
)
def test_stats_equal_palace_stats(cli, k, args, kw):
    want = cli.json("stats", "--k", str(k), *args)["stats"]
    got = palace.stats(k=k, **kw)
    assert as_json(got.raw["stats"]) == want
    assert got.palaces == want["total"]["palaces"]
    assert list(got.histogram_values) == [h[0] for h in want["histogram"]]
    assert list(got.histogram_counts) == [h[1] for h in want["histogram"]]


def test_stats_by_counters_and_palace_count_agree_with_the_cli(cli):
    assert palace.stats(k=700, size=2100, by_counters=True).raw["stats"] == palace.stats(k=700, size=2100).raw["stats"]
    want = cli.json("stats", "--k", "700", "--size", "2100", "--palaces-only")["palaces"]
    got = palace.stats(k=700, size=2100, palaces_only=True)
    assert isinstance(got, palace.PalaceCount)
    assert (got.k, got.width, got.height, got.cells, got.palaces) == (
        want["k"], want["width"], want["height"], want["cells"], want["palaces"])
    assert got.palaces == int(palace.palaces(k=700, size=2100).sum())


def test_skin_equals_palace_skin(cli, tmp_path):
    out = tmp_path / "skin.csv"
    report = cli.json("skin", "--k", "1003", "--to", "60000", "--csv", str(out))
    got = palace.skin(k=1003, to=60000)
    assert as_json(got.report) == report
    with open(out) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(got.thickness)
    for name in ("x", "top", "top_v", "vertical", "diagonal"):
        assert np.array_equal(got.columns[name], np.array([int(r[name]) for r in rows])), name
    level = np.array([int(r["level"]) if r["level"] else -1 for r in rows])
    assert np.array_equal(got.columns["level"], level)


def test_compare_and_regions_equal_the_cli(cli):
    want = cli.json("compare", "--k", "500", "--k2", "501", "--size", "900", "--shift", "1,0", "--offset", "1")
    assert as_json(palace.compare(500, 501, size=900, shift=(1, 0), offset=1)) == want
    want = cli.json("regions", "--k", "300", "--size", "900")
    assert as_json(palace.regions(300, size=900)) == want


def test_survey_equals_palace_survey(cli, tmp_path):
    out = tmp_path / "survey.csv"
    summary = cli.json("survey", "--k", "20..40", "--step", "5", "--output", str(out))
    got = palace.survey(k=(20, 40), step=5)
    assert as_json(got.summary) == summary
    with open(out) as f:
        rows = list(csv.DictReader(f))
    assert list(got.rows) == list(rows[0])
    for name, col in got.rows.items():
        assert all(same(r[name], c) for r, c in zip(rows, col)), name


def test_render_equals_palace_render(cli, tmp_path):
    want = tmp_path / "cli.png"
    cli.run("render", "--k", "150", "--size", "200", "--no-legend", "--output", str(want))
    got = tmp_path / "py.png"
    assert palace.render(k=150, size=200, path=got) is None
    assert got.read_bytes() == want.read_bytes()
    rgb = palace.render(k=150, size=200)
    assert rgb.shape == (200, 200, 3) and rgb.dtype == np.uint8
    assert np.array_equal(rgb, read_png(want))


def test_render_scaled_equals_palace_render(cli, tmp_path):
    want = tmp_path / "cli.png"
    cli.run("render", "--k", "2000", "--size", "6000", "--scale", "40", "--aggregate", "min", "--no-legend", "--output", str(want))
    rgb = palace.render(k=2000, size=6000, scale=40, aggregate="min")
    assert rgb.shape == (150, 150, 3)
    assert np.array_equal(rgb, read_png(want))


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    s = palace.skin(k=503, to=5000)
    df = s.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(s.thickness)
    h = palace.stats(k=50, size=200).to_pandas()
    assert list(h.columns) == ["v", "count"]


def test_render_with_its_legend_equals_palace_render(cli, tmp_path):
    want = tmp_path / "cli.png"
    cli.run("render", "--k", "90", "--size", "120", "--zoom", "3", "--output", str(want))
    got = tmp_path / "py.png"
    palace.render(k=90, size=120, zoom=3, legend=True, path=got)
    assert got.read_bytes() == want.read_bytes()


def test_threads_equal_palace_threads(cli, tmp_path):
    out = tmp_path / "threads.csv"
    report = cli.json("threads", "--k", "400", "--size", "1200", "--reach", "3", "--csv", str(out))
    got = palace.threads(k=400, size=1200, reach=3)
    assert as_json(got.report) == report
    with open(out) as f:
        rows = list(csv.DictReader(f))
    assert rows, "the window has threads"
    assert list(got.table) == list(rows[0])
    for name, col in got.table.items():
        assert all(same(r[name], c) for r, c in zip(rows, col)), name


def test_the_skin_on_the_gpu_equals_the_cpu():
    if not palace.HAS_GPU:
        pytest.skip("this build has no GPU backend (pip install ./python with --features gpu)")
    cpu = palace.skin(k=1003, to=30000)
    gpu = palace.skin(k=1003, to=30000, backend="gpu")
    assert gpu.report == cpu.report
    for name in ("x", "top", "top_v", "vertical", "diagonal", "level"):
        assert np.array_equal(gpu.columns[name], cpu.columns[name]), name


def test_the_survey_on_the_gpu_equals_the_cpu():
    if not palace.HAS_GPU:
        pytest.skip("this build has no GPU backend (pip install ./python with --features gpu)")
    cpu = palace.survey(k=(600, 1200), step=600)
    gpu = palace.survey(k=(600, 1200), step=600, backend="gpu")
    assert gpu.summary == cpu.summary
    assert list(gpu.rows) == list(cpu.rows)
    for name, col in cpu.rows.items():
        assert list(gpu.rows[name]) == list(col), name
