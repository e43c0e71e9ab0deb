"""Pictures of a divergence: the chart of how far two runs drift apart, and an overlay of both.

Contract: ``divergence_chart_svg`` draws a ``DivergenceSeries`` (judge/divergence.py, as a dict)
as max |Δposition| per step on log axes, metres and ULPs, with the visibility threshold and the
step from which the difference is visible; ``divergence_overlay_svg`` draws the reference and a
runner at one step in a window around the agent that moved apart most.  Self-contained SVG
strings from the standard library only (drawing.py says why not matplotlib); the same input
gives the same text on every machine.  These pictures are for people: nothing here affects a hash.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .drawing import View, escape_text, scale_bar

REFERENCE_COLOUR = "#1f77b4"
RUNNER_COLOUR = "#ff7f0e"
MARK_COLOUR = "#d62728"
METRES_COLOUR = "#6a3d9a"
ULPS_COLOUR = "#2ca02c"


def _length_text(metres: float) -> str:
    if metres >= 1:
        return f"{metres:.3g} m"
    if metres >= 1e-2:
        return f"{metres * 1e2:.3g} cm"
    if metres >= 1e-3:
        return f"{metres * 1e3:.3g} mm"
    return f"{metres:.2e} m"


def _decades(low: float, high: float) -> tuple[int, int]:
    lo, hi = math.floor(math.log10(low)), math.ceil(math.log10(high))
    return lo, max(hi, lo + 1)


@dataclass(frozen=True)
class _Chart:
    """The plot area of the chart: steps left to right, two log axes (metres, ULPs) upwards."""

    left: int
    top: int
    plot_w: int
    plot_h: int
    first: float
    last: float
    m_lo: int
    m_hi: int
    u_lo: int
    u_hi: int

    def sx(self, step: float) -> float:
        return self.left + (step - self.first) / (self.last - self.first) * self.plot_w

    def sy(self, value: float, lo: int, hi: int) -> float:
        return self.top + self.plot_h - (math.log10(value) - lo) / (hi - lo) * self.plot_h


def divergence_chart_svg(series: dict, title: str, width: int = 640, height: int = 300) -> str:
    """max |Δposition| per step on log axes: metres (left, purple) and ULPs (right, green), the
    visibility threshold (one pixel of the overlay) dashed and the visible step marked in red.
    A step whose positions are bit-equal (zero, which a log axis cannot show) is a hollow marker
    on the bottom edge."""
    steps, metres, ulps = series["steps"], series["metres"], series["ulps"]
    threshold = series["visible_metres"]
    left, right, top, bottom = 78, 82, 34, 48
    plot_w, plot_h = width - left - right, height - top - bottom
    finite = [m for m in metres if m is not None and m > 0]
    m_lo, m_hi = _decades(min(finite + [threshold / 10]), max(finite + [threshold * 10]))
    positive_ulps = [u for u in ulps if u > 0]
    u_lo, u_hi = _decades(1, max(positive_ulps + [10]))
    chart = _Chart(left, top, plot_w, plot_h, steps[0], max(steps[-1], steps[0] + 1), m_lo, m_hi, u_lo, u_hi)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="divergence-chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white" stroke="#ccc"/>',
           f'<text x="{left}" y="16" font-weight="bold">{escape_text(title)}</text>',
           f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>']
    out += _chart_axes(chart, width, height, threshold)
    for values, colour, lo, hi, cls in ((ulps, ULPS_COLOUR, u_lo, u_hi, "ulps"),
                                         (metres, METRES_COLOUR, m_lo, m_hi, "metres")):
        out += _chart_line(chart, steps, values, colour, lo, hi, cls)
    visible = series.get("visible_step")
    if visible is not None:
        out += _chart_visible_mark(chart, visible, series.get("visible_exact", True))
    out += _chart_legend(width - right - 230)
    out.append("</svg>")
    return "\n".join(out)


def _chart_axes(chart: _Chart, width: int, height: int, threshold: float) -> list[str]:
    """Grid and labels of both log axes, the step axis, the axis titles and the dashed threshold."""
    left, top, plot_w, plot_h = chart.left, chart.top, chart.plot_w, chart.plot_h
    m_lo, m_hi, u_lo, u_hi = chart.m_lo, chart.m_hi, chart.u_lo, chart.u_hi
    first, last = chart.first, chart.last
    out = []
    m_step = max(1, (m_hi - m_lo + 7) // 8)
    for e in range(m_lo, m_hi + 1, m_step):
        y = chart.sy(10.0 ** e, m_lo, m_hi)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" fill="{METRES_COLOUR}">1e{e}</text>')
    u_step = max(1, (u_hi - u_lo + 7) // 8)
    for e in range(u_lo, u_hi + 1, u_step):
        y = chart.sy(10.0 ** e, u_lo, u_hi)
        out.append(f'<text x="{left + plot_w + 4}" y="{y + 4:.1f}" fill="{ULPS_COLOUR}">1e{e}</text>')
    for k in range(6):
        step = first + (last - first) * k / 5
        x = chart.sx(step)
        out.append(f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" stroke="#888"/>')
        out.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{step:.0f}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">step</text>')
    out.append(f'<text transform="translate(14,{top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
               f'fill="{METRES_COLOUR}">max |Δposition| (metres, log)</text>')
    out.append(f'<text transform="translate({width - 10},{top + plot_h / 2:.1f}) rotate(90)" '
               f'text-anchor="middle" fill="{ULPS_COLOUR}">max |Δposition| (ulps, log)</text>')
    y = chart.sy(threshold, m_lo, m_hi)
    out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="{METRES_COLOUR}" '
               f'stroke-dasharray="5,4"/>')
    out.append(f'<text x="{left + 4}" y="{y - 4:.1f}" fill="{METRES_COLOUR}">visible: {_length_text(threshold)} '
               f'(1 pixel of the overlay)</text>')
    return out


def _chart_line(chart: _Chart, steps: list, values: list, colour: str, lo: int, hi: int, cls: str) -> list[str]:
    """One series: a polyline with dots through the positive values, hollow markers for zeros."""
    out = []
    points, zeros = [], []
    for step, v in zip(steps, values):
        if v is None:
            continue
        y = chart.sy(v, lo, hi) if v > 0 else chart.top + chart.plot_h
        (points if v > 0 else zeros).append((chart.sx(step), y))
    if points:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(f'<polyline class="{cls}" points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>' for x, y in points)
    out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="white" stroke="{colour}"/>' for x, y in zeros)
    return out


def _chart_visible_mark(chart: _Chart, visible: int, exact_step: bool) -> list[str]:
    """The red line at the step from which the difference is visible, with its label."""
    top, plot_h = chart.top, chart.plot_h
    x = chart.sx(visible)
    exact = "" if exact_step else " (sampled)"
    text = f"visible at step {visible}{exact}"
    out = [f'<line class="visible-mark" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" '
           f'stroke="{MARK_COLOUR}" stroke-width="2"/>']
    wide = 7.2 * len(text)
    tx = x + 6 if x + 6 + wide < chart.left + chart.plot_w else x - 6 - wide
    ty = top + plot_h - 14
    out.append(f'<rect x="{tx - 2:.1f}" y="{ty - 12:.1f}" width="{wide + 4:.1f}" height="16" fill="white" '
               f'opacity="0.85"/>')
    out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" fill="{MARK_COLOUR}" font-weight="bold">{text}</text>')
    return out


def _chart_legend(lx: int) -> list[str]:
    legend_y = 28
    return [f'<line x1="{lx}" y1="{legend_y - 4}" x2="{lx + 18}" y2="{legend_y - 4}" stroke="{METRES_COLOUR}" '
            f'stroke-width="2"/><text x="{lx + 22}" y="{legend_y}">metres</text>',
            f'<line x1="{lx + 80}" y1="{legend_y - 4}" x2="{lx + 98}" y2="{legend_y - 4}" stroke="{ULPS_COLOUR}" '
            f'stroke-width="2"/><text x="{lx + 102}" y="{legend_y}">ulps</text>',
            f'<circle cx="{lx + 150}" cy="{legend_y - 4}" r="3" fill="white" stroke="#555"/>'
            f'<text x="{lx + 157}" y="{legend_y}">0 (equal)</text>']


def divergence_overlay_svg(picture: dict, title: str, runner_label: str = "runner") -> str:
    """Both runs at one step in a fixed window around the agent that moved apart most: the
    reference (blue, wide, underneath) and the runner (orange, on top), discs at the step and
    trails from the first divergent step, the marked agent in red, a legend and a scale bar."""
    size = int(picture["pixels"])
    width = picture["width"]
    cx, cy = picture["center"]
    view = View(cx - width / 2, cy - width / 2, size / width, size)
    legend = 64
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="divergence-overlay" width="{size}" '
           f'height="{size + legend}" viewBox="0 0 {size} {size + legend}" font-family="sans-serif" font-size="12">',
           f'<rect width="{size}" height="{size + legend}" fill="white" stroke="#ccc"/>',
           f'<clipPath id="clip-{id(picture)}"><rect width="{size}" height="{size}"/></clipPath>',
           f'<g clip-path="url(#clip-{id(picture)})">']
    for s in picture.get("segments", []):
        (x1, y1), (x2, y2) = view(s[0], s[1]), view(s[2], s[3])
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="black" stroke-width="3"/>')
    for trails, colour, w in ((picture["reference_trails"], "#9cc3e4", 4),
                              (picture["runner_trails"], RUNNER_COLOUR, 1.5)):
        for trail in trails:
            path = " ".join(f"{view(x, y)[0]:.1f},{view(x, y)[1]:.1f}" for x, y in trail)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{w}"/>')
    marked = None
    for k, index in enumerate(picture["indices"]):
        r = picture["radii"][k] * view.scale
        for (x, y), colour, w in ((picture["reference"][k], REFERENCE_COLOUR, 4),
                                  (picture["runner"][k], RUNNER_COLOUR, 2)):
            px, py = view(x, y)
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{r:.1f}" fill="none" stroke="{colour}" '
                       f'stroke-width="{w}"/>')
        if index == picture["agent"]:
            marked = k
    out.append("</g>")
    if marked is not None:
        (ax, ay), (bx, by) = view(*picture["reference"][marked]), view(*picture["runner"][marked])
        r = picture["radii"][marked] * view.scale
        delta = math.hypot(picture["runner"][marked][0] - picture["reference"][marked][0],
                           picture["runner"][marked][1] - picture["reference"][marked][1])
        out.append(f'<circle cx="{ax:.1f}" cy="{ay:.1f}" r="{r + 6:.1f}" fill="none" stroke="{MARK_COLOUR}" '
                   f'stroke-width="2" stroke-dasharray="4,3"/>')
        out.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{MARK_COLOUR}" '
                   f'stroke-width="2"/>')
        tx = min(ax + r + 10, size - 150)
        out.append(f'<text x="{tx:.1f}" y="{max(14, ay - r - 10):.1f}" fill="{MARK_COLOUR}" font-weight="bold">'
                   f'agent {picture["agent"]}: Δ {_length_text(delta) if delta else "0 (bit-equal)"}</text>')
    out.extend(scale_bar(10, size - 10, view.scale, size / 4))
    y = size + 18
    out.append(f'<text x="6" y="{y}">{escape_text(title)}</text>')
    steps = picture["trail_steps"]
    out.append(f'<circle cx="14" cy="{y + 16}" r="6" fill="none" stroke="{REFERENCE_COLOUR}" stroke-width="4"/>'
               f'<text x="26" y="{y + 20}">reference (wide, underneath)</text>')
    out.append(f'<circle cx="206" cy="{y + 16}" r="6" fill="none" stroke="{RUNNER_COLOUR}" stroke-width="2"/>'
               f'<text x="218" y="{y + 20}">{escape_text(runner_label)}</text>')
    out.append(f'<text x="6" y="{y + 40}" fill="#555">step {picture["step"]}; trails: steps {steps[0]}-{steps[-1]} '
               f'(sampled); window {width:g} m</text>')
    out.append("</svg>")
    return "\n".join(out)
