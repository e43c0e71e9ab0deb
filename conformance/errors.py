"""The one error type of bad input: file, key path and reason, printed as a single line."""

from __future__ import annotations


class InputError(Exception):
    """Bad input (scenario, golden, report, protocol message): where it is and what is wrong.

    ``str(err)`` is ``"<file>: <key path>: <reason>"``; the CLI prints it and exits with 2.
    """

    def __init__(self, file: str, key_path: str, reason: str):
        self.file = file
        self.key_path = key_path
        self.reason = reason
        super().__init__(f"{file}: {key_path or '(document)'}: {reason}")


def format_path(parts: list[str | int] | tuple[str | int, ...]) -> str:
    """Key path in the form ``agents[2].circle.count``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
