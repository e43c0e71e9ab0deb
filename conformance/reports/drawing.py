"""Pictures of scenes: trajectories and divergence neighbourhoods, as SVG or (with Pillow) PNG/GIF.

Contract: ``Frame`` lists of agent positions plus radii, segments and goals go in; a
self-contained SVG string or a raster file comes out.  SVG needs nothing beyond the standard
library; PNG and GIF need Pillow (the ``plot`` extra), and ``PlotUnavailable`` says so.
The divergence chart (``divergence_chart_svg``) and overlay (``divergence_overlay_svg``) draw
a ``DivergenceSeries`` (divergence.py); ``trajectories_svg`` can draw a runner over the
reference.  All are hand-drawn SVG, not matplotlib: no dependency (matplotlib and numpy would be
the largest install, for a CI artefact), a few kilobytes inline in one self-contained HTML
file, text that tests can read, and the same output on every machine (merged reports alike).
These pictures are for people: nothing here affects a hash.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float]
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")


class PlotUnavailable(RuntimeError):
    """PNG/GIF output needs Pillow: pip install 'orca-conformance[plot]'."""


@dataclass
class View:
    """World-to-picture transform with the y axis pointing up."""

    xmin: float
    ymin: float
    scale: float
    height: int

    @classmethod
    def fit(cls, points: list[Point], size: int, margin: float = 1.0) -> "View":
        xs = [p[0] for p in points] or [0.0]
        ys = [p[1] for p in points] or [0.0]
        xmin, xmax = min(xs) - margin, max(xs) + margin
        ymin, ymax = min(ys) - margin, max(ys) + margin
        scale = size / max(xmax - xmin, ymax - ymin, 1e-9)
        return cls(xmin, ymin, scale, size)

    def __call__(self, x: float, y: float) -> Point:
        return (x - self.xmin) * self.scale, self.height - (y - self.ymin) * self.scale


def _colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


OVERLAY_COLOUR = "#9a9a9a"
"""The reference under a runner's trajectories (render --runner X): wide grey, underneath."""


def _all_points(frames, goals, segments, reference=None) -> list[Point]:
    return ([p for f in frames for p in f] + [p for f in reference or [] for p in f] + list(goals)
            + [(s[0], s[1]) for s in segments] + [(s[2], s[3]) for s in segments])


def trajectories_svg(frames: list[list[Point]], radii: list[float], segments: list[list[float]],
                     goals: list[Point], title: str, size: int = 720, reference: list[list[Point]] | None = None,
                     runner_label: str = "") -> str:
    """Every agent's path (thin line), its last position (disc) and goal (cross), the walls and
    a scale bar.  With ``reference`` (the reference's frames at the same steps), the reference
    is drawn first, wide and grey, with dashed discs, so that the runner's coloured paths lie on
    it where the two agree and leave it where they do not; a legend names both."""
    points = _all_points(frames, goals, segments, reference)
    view = View.fit(points, size)
    extra = 24 + (22 if reference is not None else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + extra}" '
           f'viewBox="0 0 {size} {size + extra}" font-family="sans-serif" font-size="13">',
           f'<rect width="{size}" height="{size + extra}" fill="white"/>',
           f'<text x="6" y="{size + 18}">{_escape(title)}</text>']
    for s in segments:
        (x1, y1), (x2, y2) = view(s[0], s[1]), view(s[2], s[3])
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="black" stroke-width="3"/>')
    agents = len(frames[0]) if frames else 0
    if reference:
        for i in range(agents):
            path = " ".join(f"{view(*f[i])[0]:.1f},{view(*f[i])[1]:.1f}" for f in reference)
            out.append(f'<polyline class="reference" points="{path}" fill="none" stroke="{OVERLAY_COLOUR}" '
                       f'stroke-width="4" opacity="0.6"/>')
        for i, (px, py) in enumerate(reference[-1]):
            x, y = view(px, py)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{max(1.0, radii[i] * view.scale):.1f}" fill="none" '
                       f'stroke="{OVERLAY_COLOUR}" stroke-width="2" stroke-dasharray="4,3"/>')
    for i in range(agents):
        path = " ".join(f"{view(*f[i])[0]:.1f},{view(*f[i])[1]:.1f}" for f in frames)
        out.append(f'<polyline points="{path}" fill="none" stroke="{_colour(i)}" stroke-width="1" opacity="0.6"/>')
    for i, (gx, gy) in enumerate(goals):
        x, y = view(gx, gy)
        out.append(f'<path d="M{x - 3:.1f},{y - 3:.1f}L{x + 3:.1f},{y + 3:.1f}M{x - 3:.1f},{y + 3:.1f}'
                   f'L{x + 3:.1f},{y - 3:.1f}" stroke="{_colour(i)}" stroke-width="1"/>')
    if frames:
        for i, (px, py) in enumerate(frames[-1]):
            x, y = view(px, py)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{max(1.0, radii[i] * view.scale):.1f}" '
                       f'fill="{_colour(i)}" fill-opacity="0.5" stroke="{_colour(i)}"/>')
    out.extend(_scale_bar(size - size / 4 - 60, size - 12, view.scale, size / 4))
    if reference is not None:
        y = size + 38
        out.append(f'<line x1="6" y1="{y - 4}" x2="30" y2="{y - 4}" stroke="{OVERLAY_COLOUR}" stroke-width="4" '
                   f'opacity="0.6"/><text x="36" y="{y}">reference (underneath)</text>')
        out.append(f'<line x1="210" y1="{y - 4}" x2="234" y2="{y - 4}" stroke="{_colour(0)}" stroke-width="1"/>'
                   f'<line x1="236" y1="{y - 4}" x2="260" y2="{y - 4}" stroke="{_colour(1)}" stroke-width="1"/>'
                   f'<text x="266" y="{y}">{_escape(runner_label or "runner")} (one colour per agent); '
                   f'discs: last step, crosses: goals</text>')
    out.append("</svg>")
    return "\n".join(out)


def neighbourhood_svg(picture: dict, title: str, size: int = 420) -> str:
    """Reference (blue discs) and runner (orange) around the divergent agent (red), with velocities."""
    ref = picture["reference"]
    got = picture["runner"]
    cx, cy = picture["center"]
    points = [(r[0], r[1]) for r in ref] + [(cx - 3, cy - 3), (cx + 3, cy + 3)]
    view = View.fit(points, size, margin=1.5)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 40}" '
           f'viewBox="0 0 {size} {size + 40}" font-family="sans-serif" font-size="12">',
           f'<rect width="{size}" height="{size + 40}" fill="white" stroke="#ccc"/>']
    for s in picture.get("segments", []):
        (x1, y1), (x2, y2) = view(s[0], s[1]), view(s[2], s[3])
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="black" stroke-width="3"/>')
    for k, index in enumerate(picture["indices"]):
        radius = picture["radii"][k] * view.scale
        marked = index == picture["agent"]
        for row, colour, width in ((ref[k], "#1f77b4", 1.5), (got[k], "#ff7f0e", 1.0)):
            x, y = view(row[0], row[1])
            vx, vy = view(row[0] + row[2], row[1] + row[3])
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="none" '
                       f'stroke="{"#d62728" if marked else colour}" stroke-width="{3 if marked else width}"/>')
            out.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{vx:.1f}" y2="{vy:.1f}" stroke="{colour}" stroke-width="1"/>')
        if marked:
            x, y = view(ref[k][0], ref[k][1])
            out.append(f'<text x="{x + radius + 3:.1f}" y="{y:.1f}" fill="#d62728">agent {index}</text>')
    out.append(f'<text x="6" y="{size + 16}">{_escape(title)}</text>')
    out.append(f'<text x="6" y="{size + 32}"><tspan fill="#1f77b4">reference</tspan>, '
               f'<tspan fill="#ff7f0e">runner</tspan>, step {picture["step"]}, lines = velocity (1 s)</text>')
    out.append("</svg>")
    return "\n".join(out)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _pillow():
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise PlotUnavailable("PNG and GIF output need Pillow: pip install 'orca-conformance[plot]' "
                              "(or write .svg)") from None
    return Image, ImageDraw


def _raster_frame(frames: list[list[Point]], upto: int, radii, segments, goals, view: View, size: int, title: str,
                  reference: list[list[Point]] | None = None, runner_label: str = ""):
    Image, ImageDraw = _pillow()
    extra = 24 + (22 if reference is not None else 0)
    image = Image.new("RGB", (size, size + extra), "white")
    draw = ImageDraw.Draw(image)
    for s in segments:
        draw.line([view(s[0], s[1]), view(s[2], s[3])], fill="black", width=3)
    agents = len(frames[0]) if frames else 0
    if reference:
        for i in range(agents):
            path = [view(*f[i]) for f in reference[:upto + 1]]
            if len(path) > 1:
                draw.line(path, fill="#c8c8c8", width=4, joint="curve")
            x, y = view(*reference[upto][i])
            r = max(1.0, radii[i] * view.scale)
            draw.ellipse([x - r, y - r, x + r, y + r], outline=OVERLAY_COLOUR, width=2)
    for i in range(agents):
        path = [view(*f[i]) for f in frames[:upto + 1]]
        if len(path) > 1:
            draw.line(path, fill=_colour(i), width=1)
        gx, gy = view(*goals[i])
        draw.line([(gx - 3, gy - 3), (gx + 3, gy + 3)], fill=_colour(i))
        draw.line([(gx - 3, gy + 3), (gx + 3, gy - 3)], fill=_colour(i))
        x, y = view(*frames[upto][i])
        r = max(1.0, radii[i] * view.scale)
        draw.ellipse([x - r, y - r, x + r, y + r], outline=_colour(i))
    _raster_scale_bar(draw, size - size / 4 - 60, size - 12, view.scale, size / 4)
    draw.text((6, size + 4), title, fill="black", font=_font())
    if reference is not None:
        y = size + 34
        draw.line([(6, y), (30, y)], fill="#c8c8c8", width=4)
        draw.text((36, y - 8), "reference (underneath)", fill="black", font=_font())
        draw.line([(210, y), (234, y)], fill=_colour(0))
        draw.line([(236, y), (260, y)], fill=_colour(1))
        draw.text((266, y - 8), f"{runner_label or 'runner'} (one colour per agent)", fill="black", font=_font())
    return image


def _raster_scale_bar(draw, x: float, y: float, scale: float, max_px: float) -> None:
    px, label = _scale_length(scale, max_px)
    draw.line([(x, y - 4), (x, y), (x + px, y), (x + px, y - 4)], fill="black", width=2)
    draw.text((x + px + 5, y - 10), label, fill="black", font=_font())


def _scale_length(scale: float, max_px: float) -> tuple[float, str]:
    """The longest 1-2-5 length that fits in max_px at ``scale`` pixels a metre: (pixels, label)."""
    length = 10.0 ** math.floor(math.log10(max(max_px / scale, 1e-12)))
    for factor in (5, 2, 1):
        if factor * length * scale <= max_px:
            length *= factor
            break
    return length * scale, (f"{length:g} m" if length >= 1 else f"{length * 100:g} cm")


def _font():
    from PIL import ImageFont
    try:
        return ImageFont.load_default(size=14)
    except TypeError:  # Pillow older than 10.1: fixed-size bitmap font
        return ImageFont.load_default()


def write_picture(path: Path, frames: list[list[Point]], radii: list[float], segments: list[list[float]],
                  goals: list[Point], title: str, size: int = 720, reference: list[list[Point]] | None = None,
                  runner_label: str = "") -> None:
    """.svg (no dependency), .png or .gif (Pillow; the GIF animates the frames); ``reference``
    (frames at the same steps) is drawn underneath with a legend (see ``trajectories_svg``)."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(trajectories_svg(frames, radii, segments, goals, title, size, reference, runner_label),
                        encoding="utf-8")
        return
    view = View.fit(_all_points(frames, goals, segments, reference), size)
    if suffix == ".png":
        _raster_frame(frames, len(frames) - 1, radii, segments, goals, view, size, title, reference,
                      runner_label).save(path)
    elif suffix == ".gif":
        images = [_raster_frame(frames, k, radii, segments, goals, view, size, f"{title} ({k + 1}/{len(frames)})",
                                reference, runner_label)
                  for k in range(len(frames))]
        images[0].save(path, save_all=True, append_images=images[1:], duration=60, loop=0)
    else:
        raise ValueError(f"unknown picture type {suffix!r} (use .svg, .png or .gif)")


# ----------------------------------------------------------------------------- divergence

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


def _scale_bar(x: float, y: float, scale: float, max_px: float) -> list[str]:
    """The longest 1-2-5 length that fits in max_px, drawn from (x, y) rightwards with its label."""
    px, label = _scale_length(scale, max_px)
    return [f'<path d="M{x:.1f},{y - 4:.1f}V{y:.1f}H{x + px:.1f}V{y - 4:.1f}" fill="none" stroke="black" '
            f'stroke-width="2" class="scale-bar"/>',
            f'<text x="{x + px + 5:.1f}" y="{y:.1f}">{label}</text>']


def _decades(low: float, high: float) -> tuple[int, int]:
    lo, hi = math.floor(math.log10(low)), math.ceil(math.log10(high))
    return lo, max(hi, lo + 1)


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
    first, last = steps[0], max(steps[-1], steps[0] + 1)

    def sx(step: float) -> float:
        return left + (step - first) / (last - first) * plot_w

    def sy(value: float, lo: int, hi: int) -> float:
        return top + plot_h - (math.log10(value) - lo) / (hi - lo) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="divergence-chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white" stroke="#ccc"/>',
           f'<text x="{left}" y="16" font-weight="bold">{_escape(title)}</text>',
           f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>']
    m_step = max(1, (m_hi - m_lo + 7) // 8)
    for e in range(m_lo, m_hi + 1, m_step):
        y = sy(10.0 ** e, m_lo, m_hi)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" fill="{METRES_COLOUR}">1e{e}</text>')
    u_step = max(1, (u_hi - u_lo + 7) // 8)
    for e in range(u_lo, u_hi + 1, u_step):
        y = sy(10.0 ** e, u_lo, u_hi)
        out.append(f'<text x="{left + plot_w + 4}" y="{y + 4:.1f}" fill="{ULPS_COLOUR}">1e{e}</text>')
    for k in range(6):
        step = first + (last - first) * k / 5
        x = sx(step)
        out.append(f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" stroke="#888"/>')
        out.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{step:.0f}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">step</text>')
    out.append(f'<text transform="translate(14,{top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
               f'fill="{METRES_COLOUR}">max |Δposition| (metres, log)</text>')
    out.append(f'<text transform="translate({width - 10},{top + plot_h / 2:.1f}) rotate(90)" '
               f'text-anchor="middle" fill="{ULPS_COLOUR}">max |Δposition| (ulps, log)</text>')
    y = sy(threshold, m_lo, m_hi)
    out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="{METRES_COLOUR}" '
               f'stroke-dasharray="5,4"/>')
    out.append(f'<text x="{left + 4}" y="{y - 4:.1f}" fill="{METRES_COLOUR}">visible: {_length_text(threshold)} '
               f'(1 pixel of the overlay)</text>')
    for values, colour, lo, hi, cls in ((ulps, ULPS_COLOUR, u_lo, u_hi, "ulps"),
                                         (metres, METRES_COLOUR, m_lo, m_hi, "metres")):
        points, zeros = [], []
        for step, v in zip(steps, values):
            if v is None:
                continue
            (points if v > 0 else zeros).append((sx(step), sy(v, lo, hi) if v > 0 else top + plot_h))
        if points:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            out.append(f'<polyline class="{cls}" points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
            out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>' for x, y in points)
        out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="white" stroke="{colour}"/>' for x, y in zeros)
    visible = series.get("visible_step")
    if visible is not None:
        x = sx(visible)
        exact = "" if series.get("visible_exact", True) else " (sampled)"
        text = f"visible at step {visible}{exact}"
        out.append(f'<line class="visible-mark" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" '
                   f'stroke="{MARK_COLOUR}" stroke-width="2"/>')
        wide = 7.2 * len(text)
        tx = x + 6 if x + 6 + wide < left + plot_w else x - 6 - wide
        ty = top + plot_h - 14
        out.append(f'<rect x="{tx - 2:.1f}" y="{ty - 12:.1f}" width="{wide + 4:.1f}" height="16" fill="white" '
                   f'opacity="0.85"/>')
        out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" fill="{MARK_COLOUR}" font-weight="bold">{text}</text>')
    legend_y = 28
    lx = width - right - 230
    out.append(f'<line x1="{lx}" y1="{legend_y - 4}" x2="{lx + 18}" y2="{legend_y - 4}" stroke="{METRES_COLOUR}" '
               f'stroke-width="2"/><text x="{lx + 22}" y="{legend_y}">metres</text>')
    out.append(f'<line x1="{lx + 80}" y1="{legend_y - 4}" x2="{lx + 98}" y2="{legend_y - 4}" stroke="{ULPS_COLOUR}" '
               f'stroke-width="2"/><text x="{lx + 102}" y="{legend_y}">ulps</text>')
    out.append(f'<circle cx="{lx + 150}" cy="{legend_y - 4}" r="3" fill="white" stroke="#555"/>'
               f'<text x="{lx + 157}" y="{legend_y}">0 (equal)</text>')
    out.append("</svg>")
    return "\n".join(out)


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
    out.extend(_scale_bar(10, size - 10, view.scale, size / 4))
    y = size + 18
    out.append(f'<text x="6" y="{y}">{_escape(title)}</text>')
    steps = picture["trail_steps"]
    out.append(f'<circle cx="14" cy="{y + 16}" r="6" fill="none" stroke="{REFERENCE_COLOUR}" stroke-width="4"/>'
               f'<text x="26" y="{y + 20}">reference (wide, underneath)</text>')
    out.append(f'<circle cx="206" cy="{y + 16}" r="6" fill="none" stroke="{RUNNER_COLOUR}" stroke-width="2"/>'
               f'<text x="218" y="{y + 20}">{_escape(runner_label)}</text>')
    out.append(f'<text x="6" y="{y + 40}" fill="#555">step {picture["step"]}; trails: steps {steps[0]}-{steps[-1]} '
               f'(sampled); window {width:g} m</text>')
    out.append("</svg>")
    return "\n".join(out)
