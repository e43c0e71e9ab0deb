"""Rewrite operators: the floating-point and bookkeeping rewrites plausible ports make, applied by
the suite at every site of their kind in the C port.

Contract: an operator is a file ``runners/c/operators/<name>.json`` (schema
``operator.schema.json``): a class title, where such code comes from, the causes its red cell
may name, a scope (names of ``scopes.json`` or ``file:function`` globs, files relative to
runners/c) and regex rewrites.  ``load_operators()`` reads them all (``InputError`` naming the
file, the key path and the reason for a bad one: a schema break, a regular expression that does
not compile, an unknown scope, a template naming no value list).  ``find_variants(operators)``
matches every rewrite against every code line (comments stripped) of every function in scope;
each match, and each value of a ``{NAME}`` in its template, is one ``Variant`` of the
``operator`` generator (its kind the operator's name, its prelude the operator's) with a stable
id ``operator:file:line:hash``.  The variant engine edits, builds and judges it
(``tree.variant_tree``, ``worker``'s ``operator`` profile); the run and its classification are
``operator_run``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from ...contract import schema_files
from ...errors import InputError, did_you_mean
from ...runners.build.sources import C_DIR
from .variant import OPERATOR, Variant

OPERATORS_DIR = C_DIR / "operators"
SCOPES_FILE = "scopes.json"
SCANNED = ("solver", "harness")
"""The folders of runners/c whose files a scope may name."""

_FUNCTION = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \t*]*?\b(oc_\w+)\s*\(")
_VALUE = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")


@dataclass(frozen=True)
class Rewrite:
    find: re.Pattern
    replace: str
    bound: tuple[str, str] | None = None
    """(group, regex): the site counts only when the function binds that group's text to the regex."""
    followed_by: str = ""
    """A template: the site counts only when one of the next three code lines is it, expanded."""


@dataclass(frozen=True)
class Operator:
    name: str
    title: str
    origin: str
    causes: tuple[str, ...]
    band: str
    scope: tuple[str, ...]
    """``file:function`` globs, scope names already resolved."""
    rewrites: tuple[Rewrite, ...]
    prelude: str = ""
    values: tuple[tuple[str, tuple[str, ...]], ...] = ()
    components: tuple[tuple[str, str], ...] = ()
    """(file, regex) of scopes.json's components: what a cell says of each file's part of the solver."""

    def cause_matches(self, text: str) -> bool:
        """Whether a red cell's headline names one of the causes this class may be blamed on."""
        return any(re.search(c, text, re.IGNORECASE) for c in self.causes)

    def names_cause(self, file: str, text: str) -> str:
        """How a red cell's headline names the cause of a variant of this operator in ``file``:
        ``class`` (one of the class's causes), ``component`` (the part of the solver the file
        holds), or "" (neither: the cell blames something else)."""
        if self.cause_matches(text):
            return "class"
        pattern = dict(self.components).get(file)
        return "component" if pattern and re.search(pattern, text, re.IGNORECASE) else ""


def _compile(pattern: str, where: str, file: str) -> re.Pattern:
    try:
        return re.compile(pattern)
    except re.error as err:
        raise InputError(file, where, f"not a regular expression: {err}") from None


def load_scopes(folder: Path = OPERATORS_DIR) -> tuple[dict[str, tuple[str, ...]], tuple[tuple[str, str], ...]]:
    """scopes.json: name -> ``file:function`` globs, and the components (file, regex)."""
    path = folder / SCOPES_FILE
    data = schema_files.read_valid(path, "operator-scopes")
    components = tuple(sorted(data.get("components", {}).items()))
    for file, pattern in components:
        _compile(pattern, f"components.{file}", str(path))
    return {name: tuple(globs) for name, globs in data["scopes"].items()}, components


def load_operator(path: Path, scopes: dict[str, tuple[str, ...]],
                  components: tuple[tuple[str, str], ...] = ()) -> Operator:
    """One operator file, checked beyond its schema (regexes, scopes, value names)."""
    data = schema_files.read_valid(path, "operator")
    file = str(path)
    scope: list[str] = []
    for k, name in enumerate(data["scope"]):
        if ":" in name:
            scope.append(name)
        elif name in scopes:
            scope.extend(scopes[name])
        else:
            hint = did_you_mean(name, list(scopes)) or f" (scopes: {', '.join(sorted(scopes))})"
            raise InputError(file, f"scope[{k}]", f"no scope named {name!r}{hint}")
    for k, cause in enumerate(data["cause"]):
        _compile(cause, f"cause[{k}]", file)
    values = data.get("values", {})
    rewrites = []
    for k, r in enumerate(data["rewrites"]):
        find = _compile(r["find"], f"rewrites[{k}].find", file)
        for name in _VALUE.findall(r["replace"]):
            if name not in values:
                raise InputError(file, f"rewrites[{k}].replace", f"names {{{name}}}, which no list of 'values' holds")
        bound = None
        if "bound" in r:
            if r["bound"]["group"] not in find.groupindex:
                raise InputError(file, f"rewrites[{k}].bound.group", f"find has no group named {r['bound']['group']!r}")
            _compile(r["bound"]["to"], f"rewrites[{k}].bound.to", file)
            bound = (r["bound"]["group"], r["bound"]["to"])
        rewrites.append(Rewrite(find, r["replace"], bound, r.get("followed_by", "")))
    return Operator(path.stem, data["title"], data["origin"], tuple(data["cause"]), data.get("band", "none"),
                    tuple(scope), tuple(rewrites), data.get("prelude", ""),
                    tuple((k, tuple(v)) for k, v in sorted(values.items())), components)


def load_operators(folder: Path = OPERATORS_DIR) -> list[Operator]:
    """Every operator file of the folder, by name (scopes.json is not one)."""
    scopes, components = load_scopes(folder)
    return [load_operator(p, scopes, components) for p in sorted(folder.glob("*.json")) if p.name != SCOPES_FILE]


def operators_digest(folder: Path = OPERATORS_DIR) -> str:
    """SHA-256 of the operator files (part of the report's freshness key)."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.json")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def functions(text: str) -> list[tuple[str, int, int]]:
    """(name, first body line, last body line) of every top-level ``oc_`` function definition of a
    C file (1-based; the body runs from the line holding ``{`` alone to the next ``}`` alone)."""
    lines = text.splitlines()
    out = []
    k = 0
    while k < len(lines):
        m = _FUNCTION.match(lines[k])
        if m and not lines[k].rstrip().endswith(";"):
            start = k
            while start < len(lines) and lines[start] != "{":
                if lines[start].rstrip().endswith(";"):
                    break
                start += 1
            if start < len(lines) and lines[start] == "{":
                end = lines.index("}", start)
                out.append((m.group(1), start + 1, end + 1))
                k = end
        k += 1
    return out


def code_of(line: str) -> str:
    """The line without its ``//`` comment (the sources hold no string literal with ``//``)."""
    return line.split("//")[0].rstrip()


def _in_scope(operator: Operator, file: str, function: str) -> bool:
    return any(fnmatchcase(f"{file}:{function}", glob) for glob in operator.scope)


def _templates(operator: Operator, template: str) -> list[str]:
    """The template with each combination of the values it names (itself when it names none)."""
    out = [template]
    for name, values in operator.values:
        if "{" + name + "}" in template:
            out = [t.replace("{" + name + "}", v) for t in out for v in values]
    return out


def _variant_id(operator: str, file: str, line: int, original: str, mutated: str) -> str:
    key = hashlib.sha256(f"{file}\0{line}\0{original}\0{mutated}".encode()).hexdigest()[:10]
    return f"{operator}:{Path(file).name}:{line}:{key}"


def _line_variants(operator: Operator, file: str, function: str, number: int, line: str,
                   body: str, following: list[str]) -> list[Variant]:
    code = code_of(line)
    comment = line[len(code):]
    out = []
    for rewrite in operator.rewrites:
        for m in rewrite.find.finditer(code):
            if rewrite.bound is not None:
                name = re.escape(m.group(rewrite.bound[0]))
                if not re.search(rf"\b{name}\s*=\s*{rewrite.bound[1]}", body):
                    continue
            if rewrite.followed_by and m.expand(rewrite.followed_by) not in following:
                continue
            for template in _templates(operator, rewrite.replace):
                mutated = code[:m.start()] + m.expand(template) + code[m.end():] + comment
                if mutated != line:
                    out.append(Variant(_variant_id(operator.name, file, number, line, mutated), OPERATOR,
                                       operator.name, file, file, number, line, mutated, function, operator.prelude))
    return out


def find_variants(operators: list[Operator], source_dir: Path = C_DIR) -> list[Variant]:
    """Every site of every operator, in operator, file and line order (ids unique)."""
    files = sorted(p for folder in SCANNED for p in (source_dir / folder).glob("*.[ch]"))
    texts = {p.relative_to(source_dir).as_posix(): p.read_text() for p in files}
    seen: dict[str, Variant] = {}
    for operator in operators:
        for file, text in texts.items():
            lines = text.splitlines()
            for name, first, last in functions(text):
                if not _in_scope(operator, file, name):
                    continue
                body = "\n".join(code_of(x) for x in lines[first - 1:last])
                for number in range(first, last + 1):
                    stripped = lines[number - 1].strip()
                    if not stripped or stripped.startswith(("//", "/*", "*", "#", "assert(")):
                        continue
                    following = [code_of(x).strip() for x in lines[number:number + 3]]
                    for v in _line_variants(operator, file, name, number, lines[number - 1], body, following):
                        seen.setdefault(v.id, v)
    return list(seen.values())
