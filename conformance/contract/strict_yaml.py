"""Strict, data-only YAML: plain mappings, sequences and scalars, nothing else.

Contract: ``load(text, file)`` returns nested dicts, lists, str, int, float, bool and None, or
raises ``InputError`` naming the file, the key path and the reason.  It rejects duplicate keys
(PyYAML would silently keep the last), aliases (so no alias bombs), merge keys, every explicit
or implicit tag other than str/int/float/bool/null (so no ``!!python`` objects, timestamps,
sets or binaries), non-finite floats, integers beyond 2^53 in magnitude (not exact as doubles),
nesting deeper than ``MAX_DEPTH``, characters YAML does not allow (control characters), and
more than one document.  No code is ever executed: nodes are composed by PyYAML's safe
composer and converted here by hand.  Values quoted in reasons are shortened.
"""

from __future__ import annotations

import math

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent

from ..errors import InputError, format_path

MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 32
"""Nesting deeper than this is refused (a scenario needs about 6 levels)."""
MAX_EXACT_INT = 2 ** 53
"""Integers must have magnitude at most this: each one is used as, or beside, a double."""

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + "str", _TAG + "int", _TAG + "float", _TAG + "bool", _TAG + "null"}


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader whose composer refuses aliases before they are expanded, and nesting deeper
    than ``MAX_DEPTH`` before Python's recursion limit is reached."""

    _depth = 0

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in scenario files", event.start_mark)
        if self._depth >= MAX_DEPTH:
            raise yaml.composer.ComposerError(
                None, None, f"nested deeper than {MAX_DEPTH} levels", self.peek_event().start_mark)
        self._depth += 1
        try:
            return Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1


def load(text: str, file: str) -> object:
    """Parse one YAML document under the rules above."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InputError(file, "", f"file larger than {MAX_BYTES} bytes")
    loader = None
    try:
        loader = _NoAliasLoader(text)  # the reader refuses control characters right here
        node = loader.get_single_node()
    except yaml.reader.ReaderError as err:
        raise InputError(file, _reader_where(text, err.position),
                         f"malformed YAML: character {_char_name(err.character)} is not allowed "
                         "(control characters must be escaped in a double-quoted string)") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        reason = err.problem or err.context or "not a YAML document"
        raise InputError(file, where, f"malformed YAML: {reason}") from None
    except yaml.YAMLError as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InputError(file, "", f"malformed YAML: {first}") from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise InputError(file, "", "the file is empty")
    return _convert(node, [], file, loader)


def _reader_where(text: str, position: int) -> str:
    """``line L column C`` of a character offset."""
    before = text[:position]
    line = before.count("\n") + 1
    return f"line {line} column {position - (before.rfind(chr(10)) + 1) + 1}"


def _char_name(character: object) -> str:
    if isinstance(character, str):
        return f"U+{ord(character):04X}"
    if isinstance(character, int):
        return f"U+{character:04X}"
    return repr(character)


def _short(value: str, limit: int = 60) -> str:
    """``repr`` of a scalar's text, cut for messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 4] + "...'"


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
                         f"unsupported value {_short(str(node.value))} with tag {node.tag}{_where(node)}")
    try:
        value = loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InputError(file, key_path, f"bad scalar {_short(node.value)}: {reason}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(file, key_path, f"non-finite number {_short(node.value)}{_where(node)}")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_EXACT_INT:
        raise InputError(file, key_path, f"integer {_short(node.value)} is beyond 2^53 in magnitude "
                                         f"(not exact as a double){_where(node)}")
    return value
