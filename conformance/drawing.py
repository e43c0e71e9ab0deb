"""Pictures of scenes: trajectories and divergence neighbourhoods, as SVG or (with Pillow) PNG/GIF.

Contract: ``Frame`` lists of agent positions plus radii, segments and goals go in; a
self-contained SVG string or a raster file comes out.  SVG needs nothing beyond the standard
library; PNG and GIF need Pillow (the ``plot`` extra), and ``PlotUnavailable`` says so.
These pictures are for people: nothing here affects a hash.
"""

from __future__ import annotations

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


def trajectories_svg(frames: list[list[Point]], radii: list[float], segments: list[list[float]],
                     goals: list[Point], title: str, size: int = 720) -> str:
    """Every agent's path (thin line), its last position (disc) and goal (cross), and the walls."""
    points = [p for f in frames for p in f] + goals + [(s[0], s[1]) for s in segments] + [(s[2], s[3]) for s in segments]
    view = View.fit(points, size)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 24}" '
           f'viewBox="0 0 {size} {size + 24}" font-family="sans-serif" font-size="13">',
           f'<rect width="{size}" height="{size + 24}" fill="white"/>',
           f'<text x="6" y="{size + 18}">{_escape(title)}</text>']
    for s in segments:
        (x1, y1), (x2, y2) = view(s[0], s[1]), view(s[2], s[3])
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="black" stroke-width="3"/>')
    agents = len(frames[0]) if frames else 0
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


def _raster_frame(frames: list[list[Point]], upto: int, radii, segments, goals, view: View, size: int, title: str):
    Image, ImageDraw = _pillow()
    image = Image.new("RGB", (size, size + 24), "white")
    draw = ImageDraw.Draw(image)
    for s in segments:
        draw.line([view(s[0], s[1]), view(s[2], s[3])], fill="black", width=3)
    agents = len(frames[0]) if frames else 0
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
    draw.text((6, size + 4), title, fill="black", font=_font())
    return image


def _font():
    from PIL import ImageFont
    try:
        return ImageFont.load_default(size=14)
    except TypeError:  # Pillow older than 10.1: fixed-size bitmap font
        return ImageFont.load_default()


def write_picture(path: Path, frames: list[list[Point]], radii: list[float], segments: list[list[float]],
                  goals: list[Point], title: str, size: int = 720) -> None:
    """.svg (no dependency), .png or .gif (Pillow; the GIF animates the frames)."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(trajectories_svg(frames, radii, segments, goals, title, size), encoding="utf-8")
        return
    points = [p for f in frames for p in f] + goals + [(s[0], s[1]) for s in segments] + [(s[2], s[3]) for s in segments]
    view = View.fit(points, size)
    if suffix == ".png":
        _raster_frame(frames, len(frames) - 1, radii, segments, goals, view, size, title).save(path)
    elif suffix == ".gif":
        images = [_raster_frame(frames, k, radii, segments, goals, view, size, f"{title} ({k + 1}/{len(frames)})")
                  for k in range(len(frames))]
        images[0].save(path, save_all=True, append_images=images[1:], duration=60, loop=0)
    else:
        raise ValueError(f"unknown picture type {suffix!r} (use .svg, .png or .gif)")
