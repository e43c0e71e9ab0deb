"""Files of the suite (goldens, vectors, reports): JSON read with one clear error, every file
written atomically (``write_text_atomic``: a reader sees the old file or the whole new one)."""

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
