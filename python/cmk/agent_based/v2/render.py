"""Stand-in for ``cmk.agent_based.v2.render``.

Reference: Checkmk's Plug-in API reference, "cmk.agent_based.v2.render" (every function takes
one number and returns a string). The outputs below follow the examples the reference prints for
each function; where the reference shows no example (``networkbandwidth``, ``date`` and
``datetime`` beyond ``None``), the behaviour is the one its description states and is marked so.
"""

import math as _math
import time as _time

__all__ = [
    "bytes",
    "date",
    "datetime",
    "disksize",
    "filesize",
    "frequency",
    "iobandwidth",
    "networkbandwidth",
    "nicspeed",
    "percent",
    "timespan",
    "time_offset",
]

#: Units of ``timespan``, largest first, with their length in seconds.
_SPANS = (
    ("year", 365 * 86400.0),
    ("day", 86400.0),
    ("hour", 3600.0),
    ("minute", 60.0),
    ("second", 1.0),
    ("millisecond", 1e-3),
    ("microsecond", 1e-6),
    ("nanosecond", 1e-9),
    ("picosecond", 1e-12),
    ("femtosecond", 1e-15),
    ("attosecond", 1e-18),
    ("zeptosecond", 1e-21),
    ("yoctosecond", 1e-24),
)


def _plural(count: float, unit: str) -> str:
    return f"{count:.0f} {unit}" if count == 1 else f"{count:.0f} {unit}s"


def date(epoch: float | None) -> str:
    """Reference: ``render.date()``: seconds since the epoch as ``YYYY-MM-DD`` in local time;
    ``None`` gives ``never``."""
    if epoch is None:
        return "never"
    return _time.strftime("%Y-%m-%d", _time.localtime(float(epoch)))


def datetime(epoch: float | None) -> str:
    """Reference: ``render.datetime()``: seconds since the epoch as ``YYYY-MM-DD HH:MM:SS`` in
    local time; ``None`` gives ``never``."""
    if epoch is None:
        return "never"
    return _time.strftime("%Y-%m-%d %H:%M:%S", _time.localtime(float(epoch)))


def timespan(seconds: float) -> str:
    """Reference: ``render.timespan()``: at most two units, the larger one truncated and the
    smaller one (or a seconds-like last unit) rounded, e.g. ``1606721`` → ``18 days 14 hours``,
    ``0.0001`` → ``100 microseconds``, ``86400`` → ``1 day 0 hours``. A negative span raises
    ``ValueError`` (the reference: "Cannot render negative timespan"; use ``time_offset``)."""
    remaining = float(seconds)
    if remaining < 0:
        raise ValueError("Cannot render negative timespan")
    first = next((i for i, (_, size) in enumerate(_SPANS) if remaining >= size), len(_SPANS) - 1)
    parts: list[str] = []
    for unit, size in _SPANS[first : first + 2]:
        seconds_like = unit.endswith("second")
        count = round(remaining / size) if seconds_like else int(remaining // size)
        parts.append(_plural(count, unit))
        if seconds_like:
            break
        remaining -= count * size
    text = " ".join(parts)
    return "0 seconds" if text == "0 yoctoseconds" else text


def time_offset(seconds: float) -> str:
    """Reference: ``render.time_offset()`` (new in v2): like ``timespan`` but a negative value
    gets a leading ``-``: ``-0.0001`` → ``-100 microseconds``."""
    value = float(seconds)
    return f"-{timespan(-value)}" if value < 0 else timespan(value)


def _scaled(value: float, base: float, prefixes: tuple[str, ...]) -> tuple[str, str]:
    """``value`` scaled to the largest prefix it reaches, with three significant digits left of
    and right of the point together (``3.33``, ``33.3``, ``333``), as the reference's examples show."""
    try:
        exponent = int(_math.log(abs(value), base)) if value else 0
    except ValueError:
        exponent = 0
    exponent = max(0, min(exponent, len(prefixes) - 1))
    scaled = value / base**exponent
    whole_digits = max(int(_math.log10(abs(scaled)) + 1), 1) if scaled else 1
    decimals = max(3 - whole_digits, 0)
    return f"{scaled:.{decimals}f}", prefixes[exponent]


_SI = ("", "k", "M", "G", "T", "P", "E", "Z", "Y")
_IEC = ("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi")


def frequency(hertz: float) -> str:
    """Reference: ``render.frequency()``: SI prefixes, ``1e10 / 3`` → ``3.33 GHz``."""
    number, prefix = _scaled(float(hertz), 1000.0, _SI)
    return f"{number} {prefix}Hz"


def disksize(bytes_: float) -> str:
    """Reference: ``render.disksize()``: SI prefixes, ``1024`` → ``1.02 kB``; plain bytes
    without decimals."""
    number, prefix = _scaled(float(bytes_), 1000.0, _SI)
    return f"{number.split('.')[0] if not prefix else number} {prefix}B"


def bytes(bytes_: float) -> str:  # noqa: A001 - the reference's name
    """Reference: ``render.bytes()``: IEC prefixes, ``1024**2`` → ``1.00 MiB``; plain bytes
    without decimals."""
    number, prefix = _scaled(float(bytes_), 1024.0, _IEC)
    return f"{number.split('.')[0] if not prefix else number} {prefix}B"


def filesize(bytes_: float) -> str:
    """Reference: ``render.filesize()``: whole bytes with thousands commas, ``12345678`` →
    ``12,345,678 B``."""
    return f"{float(bytes_):,.0f} B"


def networkbandwidth(octets_per_sec: float) -> str:
    """Reference: ``render.networkbandwidth()``: octets per second shown as bits per second with
    SI prefixes (``Bit/s``). The reference shows no example; the format follows ``nicspeed``'s
    example without trimming trailing zeros."""
    number, prefix = _scaled(float(octets_per_sec) * 8, 1000.0, _SI)
    return f"{number} {prefix}Bit/s"


def nicspeed(octets_per_sec: float) -> str:
    """Reference: ``render.nicspeed()``: like ``networkbandwidth`` with trailing zeros dropped,
    ``1050`` → ``8.4 kBit/s``."""
    number, prefix = _scaled(float(octets_per_sec) * 8, 1000.0, _SI)
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    return f"{number} {prefix}Bit/s"


def iobandwidth(bytes_: float) -> str:
    """Reference: ``render.iobandwidth()``: SI prefixes per second, ``128`` → ``128 B/s``."""
    number, prefix = _scaled(float(bytes_), 1000.0, _SI)
    return f"{number} {prefix}B/s"


def percent(percentage: float) -> str:
    """Reference: ``render.percent()``: two decimals and ``%`` (a value of 0 to 100, not 0 to 1):
    ``23.4203245`` → ``23.42%``, ``0.003`` → ``<0.01%``, ``-0.003`` → ``-0.00%``, ``0`` → ``0%``."""
    value = float(percentage)
    if value == 0.0:
        return "0%"
    if 0.0 < value < 0.01:
        return "<0.01%"
    return f"{value:.2f}%"
