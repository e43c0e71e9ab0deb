"""``orca-conformance render ID --out FILE``: one scenario's trajectories on one runner.

Contract: the drawing is ``reports.render_run``'s; a picture name that is not .svg, .png or
.gif, or an unwritable one, is bad input; a runner or plotting library that fails is one
``error: render:`` line and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError
from ..jsonfile import writable_file
from . import options
from .command import EXIT_FAILED, EXIT_OK, Command, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``ID``, ``--runner``, ``--out`` and the sampling (``--every``, ``--steps``)."""
    p.add_argument("id", metavar="ID", help="scenario id, e.g. orca/wall-gap")
    p.add_argument("--runner", default="reference", help="runner id (default: reference)")
    p.add_argument("--out", required=True, metavar="FILE", help="picture file: .svg, .png or .gif")
    p.add_argument("--every", type=int, help="sample every N steps (default: about 400 frames, 60 for GIF)")
    p.add_argument("--steps", type=int, help="stop after N steps")


def run(args: argparse.Namespace) -> int:
    """Check the picture's name, draw it, say what was drawn."""
    from ..reports.render_run import RenderFailed, render_on
    scenario = options.suite(args).scenario(args.id)
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png", ".gif"):
        raise InputError("command line", "--out", "the picture must end in .svg, .png or .gif")
    writable_file(out, "--out")
    try:
        frames, runner_id = render_on(scenario, args.runner, out, args.every, args.steps)
    except RenderFailed as err:
        print(f"error: render: {err}", file=sys.stderr)
        return EXIT_FAILED
    say(f"render: {out} ({frames} frames of {scenario.id} on {runner_id})")
    return EXIT_OK


COMMAND = Command(
    "render", "draw a scenario's trajectories (SVG, PNG or animated GIF)", """
Draw one scenario's trajectories as one runner runs them, over the reference's
in grey.  SVG needs nothing; PNG and GIF need the plot extra (Pillow).""",
    ("orca-conformance render orca/wall-gap --out wall.png",
     "orca-conformance render orca/head-on-exact --runner c --out head-on.gif --every 5"),
    ok="the picture was written", failed="the runner or the plotting library failed",
    add_arguments=add_arguments, run=run)
