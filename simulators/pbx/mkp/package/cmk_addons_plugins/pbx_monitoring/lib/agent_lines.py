"""Reading the PBX sections of the monitoring module's agent text.

The sections follow the line shapes of the earlier monitoring component, which check plug-ins in
the field parse (docs/agent-text-grammar.md in pbx-conformance): ``key value`` lines (one space,
no colon) in ``<<<pbx>>>``, ``<<<pbx_accounts>>>``, ``<<<pbx_database>>>``,
``<<<pbx_db_connections>>>`` and ``<<<pbx_java>>>``; the engine's own listings in the others. The
sections carry no ``sep(...)`` option, so Checkmk hands each line over split on white space: a
line ``known_phones 148`` arrives as ``["known_phones", "148"]``. Values are percent-encoded only
where a character would break a line reader. Unknown keys are ignored (extensions are additive).

Shared by every plug-in of this package (``cmk_addons/plugins/pbx_monitoring/lib``).
"""

import re
from collections.abc import Iterator, Sequence
from urllib.parse import unquote

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")

#: The number a PBX writes when it cannot determine a value.
UNKNOWN_SENTINEL = -1.0


_LINE_BREAKING = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")


def decode_value(text: str) -> str:
    """The text of a value (the grammar's value encoding), for service texts and items: decoded
    line breaks and control characters become spaces, so a text stays on one line."""
    return _LINE_BREAKING.sub(" ", unquote(text))


def decode_token(text: str) -> str:
    """The text of one field of a listing line; ``-`` stands for the empty text."""
    return "" if text == "-" else decode_value(text)


def key_lines(string_table: Sequence[Sequence[str]]) -> Iterator[tuple[str, list[str]]]:
    """``(key, fields)`` of every ``key value`` line, in order; other lines are skipped."""
    for line in string_table:
        if line and _KEY.match(line[0]):
            yield line[0], list(line[1:])


def key_values(string_table: Sequence[Sequence[str]]) -> dict[str, str]:
    """Every ``key value`` line, decoded; a repeated key keeps its first value."""
    values: dict[str, str] = {}
    for key, fields in key_lines(string_table):
        values.setdefault(key, decode_value(" ".join(fields)))
    return values


def unquote_text(text: str | None) -> str | None:
    """A value in double quotes (``"PBX Free"``) without them; other text as it is."""
    if text is not None and len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        return text[1:-1]
    return text


def number(text: str | None) -> float | None:
    """A number, or None when the line is missing or holds the unknown sentinel ``-1``.

    Text that is not a number raises ``ValueError``: Checkmk's guidelines for check plug-ins
    ("Exceptions") want an exception, which Checkmk turns into a crash report and an UNKNOWN
    service, rather than a plug-in's own guess when the agent output is not in the known format.
    """
    if text is None:
        return None
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"not a finite number: {text!r}")
    if value == UNKNOWN_SENTINEL:
        return None
    return value


def used_max(text: str | None) -> tuple[float | None, float | None]:
    """``<used>/<max>`` as two numbers (each None when unknown; a max of ``-1`` is unlimited)."""
    if text is None or "/" not in text:
        return None, None
    used, _, maximum = text.partition("/")
    return number(used), number(maximum)


def boolean(text: str | None) -> bool | None:
    """``true`` / ``false``; None for anything else."""
    if text == "true":
        return True
    if text == "false":
        return False
    return None


def switch(text: str | None) -> bool | None:
    """``enabled`` / ``disabled``; None for anything else."""
    if text == "enabled":
        return True
    if text == "disabled":
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
