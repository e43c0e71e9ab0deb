"""The JSON Schemas the suite ships (conformance/schemas/), loaded once, and the one way to say
what is wrong with a document that breaks one.

Contract: ``read_valid(path, name)`` reads a JSON file that must follow
``schemas/<name>.schema.json`` (InputError naming the file, the key path and the reason
otherwise): every loader of a committed or exchanged file goes through it.  ``validator(name)``
is the Draft 2020-12 validator of ``schemas/<name>.schema.json`` (``scenario``, ``report``,
``protocol/run-step-reply``, ...); ``problem(name, data)`` is None for a valid document, else
``(key path, reason)`` of its most specific error: into the alternatives of a oneOf/anyOf, an
unknown key named in the path and said as such (``unknown key 'max_sped'; did you mean
'max_speed'?``), and a missing key named in the path.  The key path reads
``agents[2].circle.count``.  A scene (``scene``) must also hold finite numbers only: JSON
Schema cannot say so (a NaN passes every bound), so ``problem`` names the first NaN or infinity
itself, as the YAML loader does for a scenario file.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from importlib import resources

import jsonschema
from referencing import Registry, Resource

from pathlib import Path

from ..errors import InputError, did_you_mean, format_path
from ..jsonfile import read_json


def _schema(name: str) -> dict:
    return json.loads(resources.files("conformance").joinpath(f"schemas/{name}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _registry() -> Registry:
    """Every shipped schema under its $id, so that a ``$ref`` to another file (the run request's
    scene is ``scene.schema.json``) resolves here, never over the network."""
    folder = resources.files("conformance").joinpath("schemas")
    names = [f.name[:-len(".schema.json")] for f in folder.iterdir() if f.name.endswith(".schema.json")]
    names += [f"protocol/{f.name[:-len('.schema.json')]}" for f in folder.joinpath("protocol").iterdir()
              if f.name.endswith(".schema.json")]
    resources_ = [(s["$id"], Resource.from_contents(s)) for s in map(_schema, names)]
    return Registry().with_resources(resources_)


@lru_cache(maxsize=None)
def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_schema(name), registry=_registry())


FINITE_ONLY = ("scene",)
"""Schemas whose documents hold finite numbers only (checked beside the schema)."""


def problem(name: str, data: object) -> tuple[str, str] | None:
    checker = validator(name)
    if checker.is_valid(data):
        return _non_finite(data, []) if name in FINITE_ONLY else None
    err = jsonschema.exceptions.best_match(checker.iter_errors(data))
    while err.context:  # descend into oneOf/anyOf to the most specific reason
        err = jsonschema.exceptions.best_match(err.context)
    path, reason = list(err.absolute_path), err.message
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        unknown, known = _unknown_key(err.instance, err.schema)
        path, reason = path + [unknown], f"unknown key {unknown!r}{did_you_mean(unknown, known)}"
    if err.validator == "required" and isinstance(err.instance, dict):
        missing = [key for key in err.validator_value if key not in err.instance]
        if missing:
            path, reason = path + [missing[0]], "missing (required)"
    return format_path(path), reason


def _non_finite(data: object, path: list) -> tuple[str, str] | None:
    """(key path, reason) of the first NaN or infinity in ``data``, in document order."""
    if isinstance(data, float) and not math.isfinite(data):
        return format_path(path), f"{data!r} is not a finite number"
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found = _non_finite(value, path + [key])
        if found:
            return found
    return None


def _unknown_key(instance: dict, schema: dict) -> tuple[str, list[str]]:
    """The first key of ``instance`` that ``schema`` does not allow, and the keys it names."""
    known = list(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    for key in instance:
        if key not in known and not any(p.search(key) for p in patterns):
            return str(key), known
    return "", known


def read_valid(path: Path, name: str) -> object:
    """The parsed JSON of ``path``, valid against ``schemas/<name>.schema.json``."""
    data = read_json(path)
    found = problem(name, data)
    if found:
        raise InputError(str(path), *found)
    return data
