"""The pictures as a person sees them: a real red cell's HTML report rendered by headless Chromium.

The screenshot tests need Debian's ``chromium`` package (``apt-get install chromium``) and
Pillow; without them they are SKIPPED with that reason, never passed.  The text tests read the
SVG in the page: legend entries, axis labels, the "visible at step N" mark.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from conformance.judge.divergence import VISIBLE_METRES, divergence_series, sample_steps
from conformance.reports.divergence_drawing import REFERENCE_COLOUR, RUNNER_COLOUR
from conformance.judge.matrix import DIVERGED, run_matrix
from conformance.reports.render import render
from conformance.reports.report import write_reports
from conformance.runners import resolve
from conformance.contract.scenario import load_suite
from conformance.data.suite import Suite
from conftest import ROOT

SCENE = "orca/equal-distance-ties"
CONTROL = "control:leg-tie-left"


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


@pytest.fixture(scope="module")
def red_report(tmp_path_factory) -> Path:
    """The report folder of a real red cell: the leg-tie-left control on equal-distance-ties."""
    suite = Suite(ROOT)
    scenarios = [s for s in load_suite(ROOT / "scenarios") if s.id == SCENE]
    result = run_matrix(scenarios, [CONTROL], suite.goldens_dir, with_vectors=False, with_protocol=False)
    cell = result.cells[(SCENE, CONTROL)]
    if cell.status != DIVERGED:
        pytest.skip(f"{CONTROL} did not diverge here ({cell.status}: {cell.reason[:200]})")
    folder = tmp_path_factory.mktemp("red")
    write_reports(result, suite, folder)
    return folder


def test_series_is_bounded_and_marks_the_visible_step() -> None:
    scenario = next(s for s in load_suite(ROOT / "scenarios") if s.id == SCENE)
    runner = resolve(CONTROL)
    try:
        series = divergence_series(scenario.scene, 2, runner)
    finally:
        runner.close()
    assert series.steps[0] == 2 and series.steps == sorted(series.steps)
    assert series.dumps <= 50 and len(series.steps) <= 50
    assert series.visible_step is not None and series.visible_exact
    below = [m for s, m in zip(series.steps, series.metres) if s < series.visible_step]
    at = series.metres[series.steps.index(series.visible_step)]
    assert at >= VISIBLE_METRES and all(m < VISIBLE_METRES for m in below)
    assert series.picture is not None and series.picture["step"] == series.visible_step
    assert sample_steps(10, 2000)[:3] == [10, 11, 12] and sample_steps(10, 2000)[-1] == 2000
    assert len(sample_steps(10, 2000)) <= 40


def test_report_files_are_world_readable_like_the_others(red_report: Path) -> None:
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in red_report.iterdir()}
    umask = os.umask(0o022)
    os.umask(umask)
    assert modes["report.json"] == 0o666 & ~umask
    assert modes["report.json"] == modes["matrix.html"], modes


def test_html_text_has_chart_overlay_legend_and_columns(red_report: Path) -> None:
    html = (red_report / "matrix.html").read_text()
    assert 'class="divergence-chart"' in html and 'class="divergence-overlay"' in html
    assert "max |Δposition| (metres, log)" in html and "max |Δposition| (ulps, log)" in html
    assert ">step</text>" in html
    mark = re.search(r"visible at step (\d+)", html)
    assert mark is not None and 'class="visible-mark"' in html
    assert "reference (wide, underneath)" in html and f"runner {CONTROL}" in html
    assert 'class="scale-bar"' in html
    # the column table: platform, compiler and flags of the column
    assert "<h2>Columns</h2>" in html and "-ffp-contract=off" in html and "linux-" in html
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")  # still self-contained


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("headless screenshots need Debian's 'chromium' package: apt-get install chromium")


def _screenshot(html: Path, out: Path, height: int) -> "object":
    image_module = pytest.importorskip("PIL.Image", reason="reading the screenshot needs Pillow (the plot extra)")
    subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={out}", f"--window-size=1400,{height}", html.as_uri()],
                   check=True, capture_output=True, timeout=120)
    return image_module.open(out).convert("RGB")


def _near(pixel: tuple[int, int, int], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel, colour)) <= tolerance


def test_screenshot_shows_chart_and_both_runs(red_report: Path, tmp_path: Path) -> None:
    image = _screenshot(red_report / "matrix.html", tmp_path / "page.png", 2600)
    width, height = image.size
    pixels = image.load()
    colours = image.getcolors(maxcolors=width * height)
    assert colours is not None and len(colours) > 50, "the page is blank"
    counts: dict[str, int] = {"reference": 0, "runner": 0, "mark": 0, "metres": 0}
    targets = {"reference": _rgb(REFERENCE_COLOUR), "runner": _rgb(RUNNER_COLOUR), "mark": _rgb("#d62728"),
               "metres": _rgb("#6a3d9a")}
    rows_with_metres = []
    for y in range(0, height, 2):
        row_metres = 0
        for x in range(0, width, 2):
            p = pixels[x, y]
            for name, colour in targets.items():
                if _near(p, colour):
                    counts[name] += 1
                    row_metres += name == "metres"
        if row_metres:
            rows_with_metres.append(y)
    assert counts["reference"] > 100, f"no reference blue on the page: {counts}"
    assert counts["runner"] > 100, f"no runner orange on the page: {counts}"
    assert counts["mark"] > 20, f"no red mark (divergent agent, visible step): {counts}"
    # the chart: its purple metres curve and axis labels occupy a band of rows below the matrix
    assert rows_with_metres and rows_with_metres[-1] - rows_with_metres[0] > 120, rows_with_metres[:5]


def test_render_overlay_draws_the_reference_underneath(tmp_path: Path) -> None:
    pytest.importorskip("PIL", reason="PNG output needs Pillow (the plot extra)")
    scenario = next(s for s in load_suite(ROOT / "scenarios") if s.id == SCENE)
    runner = resolve(CONTROL)
    try:
        render(scenario, runner, tmp_path / "o.svg", steps=60)
        render(scenario, runner, tmp_path / "o.png", steps=60)
    finally:
        runner.close()
    svg = (tmp_path / "o.svg").read_text()
    assert 'class="reference"' in svg and "reference (underneath)" in svg and CONTROL in svg
    assert svg.index('class="reference"') < svg.index("<polyline points=")  # drawn first: underneath
    assert 'class="scale-bar"' in svg
    from PIL import Image
    image = Image.open(tmp_path / "o.png").convert("RGB")
    grey = sum(n for n, p in image.getcolors(maxcolors=image.width * image.height) if _near(p, (200, 200, 200), 12))
    assert grey > 200, "the reference's grey paths are missing from the PNG"


CAUSE_BOX = (0xFF, 0xF1, 0xC2)
"""The cause box's background (reports/page.html)."""


def test_html_reads_top_down_cause_first(red_report: Path) -> None:
    html = (red_report / "matrix.html").read_text()
    # the distinct causes come before the matrix; each red cell's block: cause, chart, overlay, details
    assert html.index("<h2>What failed</h2>") < html.index("<table>")
    block = html[html.index('<div class="detail"'):]
    order = [block.index(mark) for mark in ('class="cause"', 'class="divergence-chart"',
                                             'class="divergence-overlay"', "<details>")]
    assert order == sorted(order), order
    # the whole diagnosis is folded, not lost
    report = (red_report / "report.json").read_text()
    assert "the whole diagnosis" in html and "breaks agents.leg" in html and '"brief"' in report


def test_screenshot_has_the_cause_above_the_fold(red_report: Path, tmp_path: Path) -> None:
    image = _screenshot(red_report / "matrix.html", tmp_path / "fold.png", 900)
    assert image.size == (1400, 900), image.size
    box = sum(n for n, p in image.getcolors(maxcolors=image.width * image.height) if _near(p, CAUSE_BOX, 6))
    assert box > 20000, f"no cause box in the first 900 pixels ({box} pixels of its colour)"


def test_a_wide_scene_leaves_no_blank_band(tmp_path: Path) -> None:
    pytest.importorskip("PIL", reason="PNG output needs Pillow (the plot extra)")
    scenario = next(s for s in load_suite(ROOT / "scenarios") if s.id == "orca/two-way-corridor")
    runner = resolve("reference")
    render(scenario, runner, tmp_path / "wide.png", steps=20)
    from PIL import Image
    image = Image.open(tmp_path / "wide.png").convert("L")
    inked = [y for y in range(image.height) if image.crop((0, y, image.width, y + 1)).getextrema()[0] < 128]
    assert image.height < image.width / 2, image.size  # as tall as the corridor needs
    assert inked[0] < image.height * 0.35, (inked[0], image.size)  # centred: no blank band above it
