#!/usr/bin/env python3
"""check_pbx_phones: a check plug-in for the PBX's phones, written the way plug-ins in the field
read the PBX sections (docs/certify-plugin.md; field-line-shapes.md).

It connects to the data endpoint, sends nothing, reads until the server closes, cuts
`<<<pbx>>>` out by its exact header line and reads `known_phones` and `online_phones` by prefix.

State from the percentage of known phones online, judged on the thresholds -w and -c, which are
ranges in the Monitoring Plugins' grammar `[@][start:][end]` (alert outside start..end, or inside
it with `@`; `~` is minus infinity): CRITICAL when -c alerts (default `@0`: no phone online, as
the PBX's own local check `PBX All Phones Offline`), WARNING when -w alerts (default `50:`: fewer
than half online). UNKNOWN when the endpoint cannot be read within --timeout seconds, answers
nothing or an `ERROR:` line, or the counts are unknown (`-1`). Perfdata only from what was served:
phones_online, phones_known, and phones_online_percent with the two ranges, as judged.

Usage: check_pbx_phones.py -H HOST [-p PORT] [-w RANGE] [-c RANGE] [-t SECONDS]
"""

import socket
import sys

OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3
NAMES = ("OK", "WARNING", "CRITICAL", "UNKNOWN")
VERSION = "check_pbx_phones 1.0.0"
USAGE = "Usage: check_pbx_phones.py -H HOST [-p PORT] [-w RANGE] [-c RANGE] [-t SECONDS]"


def finish(state, text, perfdata=()):
    line = "PBX PHONES %s - %s" % (NAMES[state], text)
    if perfdata:
        line += " | " + " ".join(perfdata)
    print(line)
    sys.exit(state)


def parse_range(text):
    """A threshold range `[@][start:][end]` as (start, end, inside); None when `text` is none."""
    inside = text.startswith("@")
    body = text[1:] if inside else text
    if ":" in body:
        start_text, end_text = body.split(":", 1)
    else:
        start_text, end_text = "", body
    try:
        start = float("-inf") if start_text == "~" else float(start_text) if start_text else 0.0
        end = float(end_text) if end_text else float("inf")
    except ValueError:
        return None
    if body == "" or start > end:
        return None
    return (start, end, inside)


def alerts(threshold, value):
    """Whether `value` raises an alert: outside start..end, or inside it for `@`."""
    start, end, inside = threshold
    within = start <= value <= end
    return within if inside else not within


def parse_args(argv, defaults=None):
    """-H, -p, -w, -c, -t; --help and --version print their text and exit 3, as the guidelines say."""
    options = {"host": None, "port": 6556, "warning": "50:", "critical": "@0", "timeout": 10.0}
    options.update(defaults or {})
    flags = {"-H": "host", "-p": "port", "-w": "warning", "-c": "critical", "-t": "timeout"}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(UNKNOWN)
        if arg in ("-V", "--version"):
            print(VERSION)
            sys.exit(UNKNOWN)
        if arg in flags and i + 1 < len(argv):
            options[flags[arg]] = argv[i + 1]
            i += 2
            continue
        finish(UNKNOWN, "unknown argument %s; %s" % (arg, USAGE))
    if not options["host"]:
        finish(UNKNOWN, "no host given; %s" % USAGE)
    try:
        options["port"] = int(options["port"])
        options["timeout"] = float(options["timeout"])
    except ValueError:
        finish(UNKNOWN, "a number is not a number; %s" % USAGE)
    for name in ("warning", "critical"):
        if parse_range(options[name]) is None:
            finish(UNKNOWN, "%s %r is not a range [@][start:][end]; %s" % (name, options[name], USAGE))
    return options


def fetch(host, port, timeout):
    """Connect, send nothing, read to EOF within `timeout` seconds in all."""
    chunks = []
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.settimeout(timeout)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", errors="replace")


def section(text, name):
    """The lines of `<<<name>>>`, cut by the exact header line up to the next `<<<`; None if absent."""
    lines = None
    for row in text.splitlines():
        if row.startswith("<<<"):
            if lines is not None:
                break
            if row == "<<<%s>>>" % name:
                lines = []
            continue
        if lines is not None:
            lines.append(row)
    return lines


def lookup(lines, key):
    """The value of the first `key value` line (prefix lookup, as field plug-ins do)."""
    for row in lines:
        if row.startswith(key + " "):
            return row[len(key) + 1:]
    return None


def count(lines, key):
    value = lookup(lines, key)
    return int(value) if value is not None and value.isdigit() else None


def read_phones(lines):
    """(known, online) from `<<<pbx>>>`; None for a count that is missing or unknown."""
    return count(lines, "known_phones"), count(lines, "online_phones")


def get_text(options):
    """The agent text, or a finish() with UNKNOWN when there is none."""
    try:
        return fetch(options["host"], options["port"], options["timeout"])
    except socket.timeout:
        finish(UNKNOWN, "no answer from %s:%d within %g s" % (options["host"], options["port"], options["timeout"]))
    except OSError as error:
        finish(UNKNOWN, "cannot read %s:%d: %s" % (options["host"], options["port"], error.strerror or error))


def main(argv=None):
    options = parse_args(sys.argv[1:] if argv is None else argv)
    text = get_text(options)
    if text.strip() == "":
        finish(UNKNOWN, "no data from %s:%d (is this host in the monitoring hosts?)" % (options["host"], options["port"]))
    if text.startswith("ERROR:"):
        finish(UNKNOWN, "the PBX reports %s" % text.splitlines()[0])
    lines = section(text, "pbx")
    if lines is None:
        finish(UNKNOWN, "no <<<pbx>>> section in the agent output")
    known, online = read_phones(lines)
    if known is None or online is None:
        finish(UNKNOWN, "phone counts unknown")
    perfdata = ["phones_online=%d;;;0;%d" % (online, known), "phones_known=%d;;;0" % known]
    text = "%d of %d phones online" % (online, known)
    if known == 0:
        finish(OK, text, perfdata)
    # Judged on the value as printed, so that the printed ranges say what the state says.
    percent = round(100.0 * online / known, 1)
    perfdata.append(
        "phones_online_percent=%.1f%%;%s;%s;0;100" % (percent, options["warning"], options["critical"])
    )
    if alerts(parse_range(options["critical"]), percent):
        finish(CRITICAL, text + " (%.1f %%, critical %s)" % (percent, options["critical"]), perfdata)
    if alerts(parse_range(options["warning"]), percent):
        finish(WARNING, text + " (%.1f %%, warning %s)" % (percent, options["warning"]), perfdata)
    finish(OK, text, perfdata)


if __name__ == "__main__":
    main()
