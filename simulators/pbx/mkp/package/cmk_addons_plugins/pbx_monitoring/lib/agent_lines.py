"""Reading the PBX sections of the monitoring module's agent text.

The line grammar is the one of docs/agent-text-grammar.md in pbx-conformance. The sections carry
no ``sep(...)`` option, so Checkmk hands each line over split on white space; a fact line
``key: value`` arrives as ``["key:", "value", "words", ...]`` and token lines arrive one field per
token. Values are percent-encoded only where a character would break a line reader.

Shared by every plug-in of this package (``cmk_addons/plugins/pbx_monitoring/lib``).
"""

import re
from collections.abc import Iterator, Sequence
from urllib.parse import unquote

_FACT_KEY = re.compile(r"^[a-z0-9_]+:$")

#: The number a PBX writes when it cannot determine a value.
UNKNOWN_SENTINEL = -1.0


def decode_value(text: str) -> str:
    """The text of a fact value (the grammar's value encoding)."""
    return unquote(text)


def decode_token(text: str) -> str:
    """The text of one field of a token line; ``-`` stands for the empty text."""
    return "" if text == "-" else unquote(text)


def fact_lines(string_table: Sequence[Sequence[str]]) -> Iterator[tuple[str, list[str]]]:
    """``(key, fields)`` of every fact line, in order; other lines are skipped."""
    for line in string_table:
        if line and _FACT_KEY.match(line[0]):
            yield line[0][:-1], list(line[1:])


def facts(string_table: Sequence[Sequence[str]]) -> dict[str, str]:
    """Every fact, decoded; a repeated key keeps its last value."""
    return {key: decode_value(" ".join(fields)) for key, fields in fact_lines(string_table)}


def number(text: str | None) -> float | None:
    """A number, or None when it is missing, unreadable or the unknown sentinel ``-1``."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value == UNKNOWN_SENTINEL:
        return None
    return value


def boolean(text: str | None) -> bool | None:
    """``true`` / ``false``; None for anything else."""
    if text == "true":
        return True
    if text == "false":
        return False
    return None


def describe(value: float | None, unit: str = "") -> str:
    """A number for a service text; ``unknown`` for a value the PBX could not determine."""
    if value is None:
        return "unknown"
    shown = f"{int(value)}" if value == int(value) else f"{value:g}"
    return f"{shown}{unit}"


def upper_levels_state(value: float, warn: float, crit: float) -> int:
    """0 below ``warn``, 1 from ``warn``, 2 from ``crit`` (a State value)."""
    if value >= crit:
        return 2
    if value >= warn:
        return 1
    return 0


def lower_levels_state(value: float, warn: float, crit: float) -> int:
    """0 at or above ``warn``, 1 below ``warn``, 2 below ``crit`` (a State value)."""
    if value < crit:
        return 2
    if value < warn:
        return 1
    return 0
