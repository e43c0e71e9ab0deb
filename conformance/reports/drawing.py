"""Pictures of scenes: trajectories and divergence neighborhoods, as SVG or (with Pillow) PNG/GIF.

Contract: ``Frame`` lists of agent positions plus radii, segments and goals go in; a
self-contained SVG string or a raster file comes out.  SVG needs nothing beyond the standard
library; PNG and GIF need Pillow (the ``plot`` extra), and ``PlotUnavailable`` says so.
``trajectories_svg`` can draw a runner over the reference; the pictures of a divergence are in
divergence_drawing.py, built on ``View``, ``escape_text`` and ``scale_bar`` from here.  All are
hand-drawn SVG, not matplotlib: no dependency (matplotlib and numpy would be the largest
install, for a CI artefact), a few kilobytes inline in one self-contained HTML file, text that
tests can read, and the same output on every machine (merged reports alike).
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
    def fit(cls, points: list[Point], size: int, margin: float = 1.0, min_height: int | None = None) -> "View":
        """The points, with ``margin`` metres around them, centred in a picture ``size`` pixels
        wide: square (``min_height`` None), or as tall as the content needs but at least
        ``min_height``, so that a wide scene leaves no blank band above it."""
        xs = [p[0] for p in points] or [0.0]
        ys = [p[1] for p in points] or [0.0]
        xmin, xmax = min(xs) - margin, max(xs) + margin
        ymin, ymax = min(ys) - margin, max(ys) + margin
        scale = size / max(xmax - xmin, ymax - ymin, 1e-9)
        height = size if min_height is None else max(min_height, math.ceil((ymax - ymin) * scale))
        xmin -= (size / scale - (xmax - xmin)) / 2
        ymin -= (height / scale - (ymax - ymin)) / 2
        return cls(xmin, ymin, scale, height)

    def __call__(self, x: float, y: float) -> Point:
        return (x - self.xmin) * self.scale, self.height - (y - self.ymin) * self.scale


def _colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


MIN_HEIGHT = 200
"""The least height of a trajectories picture (a wide, flat scene): room for the scale bar."""

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
    view = View.fit(points, size, min_height=MIN_HEIGHT)
    height = view.height
    extra = 24 + (22 if reference is not None else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height + extra}" '
           f'viewBox="0 0 {size} {height + extra}" font-family="sans-serif" font-size="13">',
           f'<rect width="{size}" height="{height + extra}" fill="white"/>',
           f'<text x="6" y="{height + 18}">{escape_text(title)}</text>']
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
    out.extend(scale_bar(size - size / 4 - 60, height - 12, view.scale, size / 4))
    if reference is not None:
        y = height + 38
        out.append(f'<line x1="6" y1="{y - 4}" x2="30" y2="{y - 4}" stroke="{OVERLAY_COLOUR}" stroke-width="4" '
                   f'opacity="0.6"/><text x="36" y="{y}">reference (underneath)</text>')
        out.append(f'<line x1="210" y1="{y - 4}" x2="234" y2="{y - 4}" stroke="{_colour(0)}" stroke-width="1"/>'
                   f'<line x1="236" y1="{y - 4}" x2="260" y2="{y - 4}" stroke="{_colour(1)}" stroke-width="1"/>'
                   f'<text x="266" y="{y}">{escape_text(runner_label or "runner")} (one colour per agent); '
                   f'discs: last step, crosses: goals</text>')
    out.append("</svg>")
    return "\n".join(out)


def neighborhood_svg(picture: dict, title: str, size: int = 420) -> str:
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
    out.append(f'<text x="6" y="{size + 16}">{escape_text(title)}</text>')
    out.append(f'<text x="6" y="{size + 32}"><tspan fill="#1f77b4">reference</tspan>, '
               f'<tspan fill="#ff7f0e">runner</tspan>, step {picture["step"]}, lines = velocity (1 s)</text>')
    out.append("</svg>")
    return "\n".join(out)


def escape_text(text: str) -> str:
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
    height = view.height
    image = Image.new("RGB", (size, height + extra), "white")
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
    _rasterscale_bar(draw, size - size / 4 - 60, height - 12, view.scale, size / 4)
    draw.text((6, height + 4), title, fill="black", font=_font())
    if reference is not None:
        y = height + 34
        draw.line([(6, y), (30, y)], fill="#c8c8c8", width=4)
        draw.text((36, y - 8), "reference (underneath)", fill="black", font=_font())
        draw.line([(210, y), (234, y)], fill=_colour(0))
        draw.line([(236, y), (260, y)], fill=_colour(1))
        draw.text((266, y - 8), f"{runner_label or 'runner'} (one colour per agent)", fill="black", font=_font())
    return image


def _rasterscale_bar(draw, x: float, y: float, scale: float, max_px: float) -> None:
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


def scale_bar(x: float, y: float, scale: float, max_px: float) -> list[str]:
    """The longest 1-2-5 length that fits in max_px, drawn from (x, y) rightwards with its label."""
    px, label = _scale_length(scale, max_px)
    return [f'<path d="M{x:.1f},{y - 4:.1f}V{y:.1f}H{x + px:.1f}V{y - 4:.1f}" fill="none" stroke="black" '
            f'stroke-width="2" class="scale-bar"/>',
            f'<text x="{x + px + 5:.1f}" y="{y:.1f}">{label}</text>']


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
    view = View.fit(_all_points(frames, goals, segments, reference), size, min_height=MIN_HEIGHT)
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
