"""Files of the suite (goldens, vectors, reports): JSON read with one clear error, every file
written atomically (``write_text_atomic``: a reader sees the old file or the whole new one), and
where a command will write checked before it does any work.

Contract of the checks: ``writable_folder(path, option)`` and ``writable_file(path, option)``
return quietly when the command could later make and write ``path`` (a folder of reports, a
picture, a port), and otherwise raise ``InputError("command line", option, reason)``, one line
naming the path and the reason: it is a file where a folder is wanted (or the reverse), a part
of the way is a file, or the folder that would hold it cannot be written (the operating
system's words).  Nothing is left behind: a folder that does not exist yet is not made, and
writing is tried with a temporary file in the nearest folder that exists, removed at once (so
a read-only mount or a folder of another user's counts as unwritable, whatever its mode bits
say to root).  A command calls these before its first build or cell, so that a bad path costs
nothing.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .errors import InputError, cannot_read


def read_json(path: Path) -> object:
    """Parsed JSON; InputError naming the file (and line and column) on any failure."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise cannot_read(path, err) from None
    except json.JSONDecodeError as err:
        raise InputError(str(path), f"line {err.lineno} column {err.colno}", f"malformed JSON: {err.msg}") from None


def write_json_atomic(path: Path, data: object) -> None:
    """``data`` as indented JSON, written by ``write_text_atomic``."""
    write_text_atomic(path, json.dumps(data, indent=1, sort_keys=False) + "\n")


def write_text_atomic(path: Path, text: str) -> None:
    """A temporary file in the same folder, fsync, then rename over the target; the file gets
    the mode a plain ``open`` would give it (0666 less the umask, usually 0644), not mkstemp's 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            if hasattr(os, "fchmod"):  # POSIX; on Windows the file keeps the folder's permissions
                os.fchmod(out.fileno(), 0o666 & ~_umask())
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    """The process umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def writable_folder(path: Path | str, option: str) -> None:
    """``path`` is a folder that can be written, or can be made in one that can (see the module)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise InputError("command line", option, f"{str(path)!r} is a file, not a folder")
    _probe(path, option)


def writable_file(path: Path | str, option: str, folder_ok: bool = False) -> None:
    """``path`` is a file that can be written (replaced, when it exists) in a folder that exists
    or can be made; ``folder_ok``: an existing folder is accepted too (the file goes inside it)."""
    path = Path(path)
    if path.is_dir():
        if folder_ok:
            _probe(path, option)
            return
        raise InputError("command line", option, f"{str(path)!r} is a folder, not a file")
    _probe(path.parent if str(path.parent) else Path("."), option)


def _probe(folder: Path, option: str) -> None:
    """Write and remove a temporary file in ``folder`` or, when it does not exist yet, in the
    nearest folder above it that does; InputError when a part of the way is a file or the
    write fails."""
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise InputError("command line", option, f"cannot make {str(folder)!r}: {str(existing)!r} is a file")
    try:
        handle, name = tempfile.mkstemp(prefix=".orca-conformance-probe-", dir=existing)
    except OSError as err:
        why = err.strerror or str(err)
        raise InputError("command line", option, f"cannot write in {str(existing)!r}: {why}") from None
    os.close(handle)
    os.unlink(name)
