"""Strict, data-only YAML: plain mappings, sequences and scalars, nothing else.

Contract: ``load(text, file)`` returns nested dicts, lists, str, int, float, bool and None, or
raises ``InputError`` naming the file, the key path and the reason.  It rejects duplicate keys
(PyYAML would silently keep the last), aliases (so no alias bombs), merge keys, every explicit
or implicit tag other than str/int/float/bool/null (so no ``!!python`` objects, timestamps,
sets or binaries), non-finite floats, and more than one document.  No code is ever executed:
nodes are composed by PyYAML's safe composer and converted here by hand.
"""

from __future__ import annotations

import math

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent

from .errors import InputError, format_path

MAX_BYTES = 4 * 1024 * 1024

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + "str", _TAG + "int", _TAG + "float", _TAG + "bool", _TAG + "null"}


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader whose composer refuses aliases before they are expanded."""

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in scenario files", event.start_mark)
        return Composer.compose_node(self, parent, index)


def load(text: str, file: str) -> object:
    """Parse one YAML document under the rules above."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InputError(file, "", f"file larger than {MAX_BYTES} bytes")
    loader = _NoAliasLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        raise InputError(file, where, f"malformed YAML: {err.problem or err.context}") from None
    except yaml.YAMLError as err:
        raise InputError(file, "", f"malformed YAML: {err}") from None
    finally:
        loader.dispose()
    if node is None:
        raise InputError(file, "", "the file is empty")
    return _convert(node, [], file, loader)


def _where(node: yaml.Node) -> str:
    return f" (line {node.start_mark.line + 1})"


def _convert(node: yaml.Node, path: list[str | int], file: str, loader: yaml.SafeLoader) -> object:
    key_path = format_path(path)
    if isinstance(node, yaml.MappingNode):
        if node.tag != _TAG + "map":
            raise InputError(file, key_path, f"unsupported tag {node.tag}{_where(node)}")
        out: dict[str, object] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                raise InputError(file, key_path, f"merge keys (<<) are not allowed{_where(key_node)}")
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _TAG + "str":
                raise InputError(file, key_path,
                                 f"keys must be plain strings, got {key_node.tag}{_where(key_node)}")
            key = key_node.value
            if key in out:
                raise InputError(file, format_path(path + [key]),
                                 f"duplicate key{_where(key_node)}")
            out[key] = _convert(value_node, path + [key], file, loader)
        return out
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _TAG + "seq":
            raise InputError(file, key_path, f"unsupported tag {node.tag}{_where(node)}")
        return [_convert(item, path + [i], file, loader) for i, item in enumerate(node.value)]
    if node.tag not in _SCALAR_TAGS:
        raise InputError(file, key_path,
                         f"unsupported value {node.value!r} with tag {node.tag}{_where(node)}")
    try:
        value = loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError) as err:
        raise InputError(file, key_path, f"bad scalar {node.value!r}: {err}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(file, key_path, f"non-finite number {node.value!r}{_where(node)}")
    return value
