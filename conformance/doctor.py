"""``orca-conformance doctor``: every column, whether it can run here, and how to install what
is missing (the needs themselves are ``runners.needs``).

Contract: ``doctor_columns()`` is every column: the default ones first, then the optional ones.
``format_doctor()`` returns the table and the number of columns that cannot run here, then
says where the shipped sources, scenarios and documents are (``shipped.root``: a checkout, or
the copy installed with the package).
"""

from __future__ import annotations

from . import shipped
from .runners.needs import Need, check, need_kinds
from .selftest.controls.catalogue import register_columns


def doctor_columns() -> list[str]:
    """Every column: the default ones in their order, then the optional ones, then the patterns."""
    register_columns()
    from .runners import DEFAULT_COLUMNS, known_ids
    others = [c for c in known_ids() if c not in DEFAULT_COLUMNS and "<" not in c]
    return list(DEFAULT_COLUMNS) + others + ["exec:<command>", "control:<name>"]


def where(column: str, here: list[str]) -> str:
    """``default`` (on any host), ``default here`` (in ``here``, the default matrix of this host:
    an ``<arch>:qemu`` or ``c:windows`` column whose emulator is present) or ``optional``."""
    from .runners import DEFAULT_COLUMNS
    if column in DEFAULT_COLUMNS:
        return "default"
    return "default here" if column in here else "optional"


def format_doctor(columns: list[str] | None = None) -> tuple[str, int]:
    """The doctor's table and the number of columns that cannot run here."""
    register_columns()
    from .runners import default_columns
    columns = columns if columns is not None else doctor_columns()
    here = default_columns()
    cache: dict[str, Need] = {}
    rows: list[tuple[str, str, str, str]] = []
    installs: list[str] = []
    blocked = 0
    for column in columns:
        kinds = need_kinds(column)
        if kinds is None:
            rows.append((column, where(column, here), "ready?", "your port"))
            continue
        for kind in kinds:
            if kind not in cache:
                cache[kind] = check(kind)
        needs = [cache[k] for k in kinds]
        ok = all(n.present for n in needs)
        blocked += not ok
        text = ", ".join(n.short() for n in needs) if needs else "Python only"
        rows.append((column, where(column, here), "ready" if ok else "MISSING", text))
        installs += [n.install for n in needs if not n.present and n.install not in installs]
    header = ("column", "matrix", "status", "needs")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(3)]
    lines = ["  ".join([header[0].ljust(widths[0]), header[1].ljust(widths[1]), header[2].ljust(widths[2]), header[3]])]
    lines += ["  ".join([r[0].ljust(widths[0]), r[1].ljust(widths[1]), r[2].ljust(widths[2]), r[3]]) for r in rows]
    lines.append("")
    lines.append(f"doctor: the suite's sources and scenarios are in {shipped.root()} "
                 f"({'a checkout' if shipped.is_checkout() else 'installed with the package'})")
    lines.append(f"doctor: the documents for a port's author are in {shipped.root() / 'docs'} "
                 f"(porting.md, protocol.md, spec-notes.md, install.md)")
    if installs:
        lines.append(f"doctor: {blocked} column(s) cannot run here; to install what is missing:")
        lines += [f"  {command}" for command in installs]
    else:
        lines.append("doctor: every column can run here")
    return "\n".join(lines), blocked
