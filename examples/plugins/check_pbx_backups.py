#!/usr/bin/env python3
"""check_pbx_backups: a check plug-in for the PBX's backups, written the way plug-ins in the
field read the PBX sections (docs/certify-plugin.md; field-line-shapes.md).

It connects to the data endpoint (port 6556), sends nothing, reads until the server closes
(8 s socket timeout), cuts a section out by its exact header line up to the next `<<<`, and
reads `key value` lines by prefix (FIELD-KEY-VALUE-LINES, FIELD-BACKUP-LINE,
FIELD-ACCOUNTS-LINES). Standard library only.

State: CRITICAL when the newest run of any backup target failed (its result key does not end
with `successful`) or is older than --critical hours; WARNING when older than --warning hours or
no target is configured; UNKNOWN when the endpoint answers nothing, an `ERROR:` line or no
`<<<pbx_backups>>>` section, or no answer within --timeout seconds per read; CRITICAL when it
cannot be reached. --help and --version print their text and exit 3 (UNKNOWN), as does a bad
argument.

Perfdata: backup_targets, backups_failed, oldest_newest_backup_age (seconds) and, from
`<<<pbx_accounts>>>`, accounts (the `total_accounts` line; left out when unknown).

Usage: check_pbx_backups.py -H HOST [-p PORT] [-w HOURS] [-c HOURS] [-t SECONDS]
"""

import argparse
import socket
import sys
import time

VERSION = "check_pbx_backups 1.1.0"
OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3
NAMES = ("OK", "WARNING", "CRITICAL", "UNKNOWN")


def finish(state, text, perfdata=()):
    line = "PBX BACKUPS %s - %s" % (NAMES[state], text)
    if perfdata:
        line += " | " + " ".join(perfdata)
    print(line)
    sys.exit(state)


def fetch(host, port, timeout):
    """Connect, send nothing, read to EOF: what a monitoring fetcher does."""
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


def backup_runs(lines):
    """Newest run per target from `[<TYPE>]<location> <epoch ms> <result key>` lines.

    Lines that are not runs (empty lines, unknown `key value` lines of newer versions) are
    ignored; a location may hold spaces, so the line is split from the right.
    """
    newest = {}
    for row in lines:
        if not row.startswith("["):
            continue
        parts = row.rsplit(" ", 2)
        if len(parts) != 3:
            continue
        target, stamp, key = parts
        try:
            when = int(stamp)
        except ValueError:
            continue
        if target not in newest or when > newest[target][0]:
            newest[target] = (when, key)
    return newest


def total_accounts(lines):
    """The number of accounts from `total_accounts <A>/0` (the trailing `/0` stripped, as field
    plug-ins do); None when the line is missing or not a count (e.g. the `-1` sentinel)."""
    value = lookup(lines, "total_accounts")
    if value is not None and value.endswith("/0"):
        value = value[:-2]
    return int(value) if value is not None and value.isdigit() else None


class Arguments(argparse.ArgumentParser):
    """argparse, but every way out before a check (--help, --version, a bad argument) ends
    UNKNOWN (exit 3), as the Monitoring Plugins guidelines say."""

    def exit(self, status=0, message=None):
        if message:
            sys.stdout.write(message)
        sys.exit(UNKNOWN)

    def error(self, message):
        self.exit(UNKNOWN, "PBX BACKUPS UNKNOWN - %s\n%s" % (message, self.format_usage()))


def main():
    parser = Arguments(description="Check the PBX's backups over its data endpoint")
    parser.add_argument("-V", "--version", action="version", version=VERSION)
    parser.add_argument("-H", "--host", required=True)
    parser.add_argument("-p", "--port", type=int, default=6556)
    parser.add_argument("-w", "--warning", type=float, default=26.0, help="hours")
    parser.add_argument("-c", "--critical", type=float, default=50.0, help="hours")
    parser.add_argument("-t", "--timeout", type=float, default=8.0, help="seconds per read")
    args = parser.parse_args()

    try:
        text = fetch(args.host, args.port, args.timeout)
    except socket.timeout:
        finish(UNKNOWN, "no answer from %s:%d within %g s" % (args.host, args.port, args.timeout))
    except OSError as error:
        finish(CRITICAL, "cannot connect to %s:%d: %s" % (args.host, args.port, error.strerror or error))

    if text == "":
        finish(UNKNOWN, "empty output from %s:%d (is this host in the monitoring hosts?)" % (args.host, args.port))
    if text.startswith("ERROR:"):
        finish(UNKNOWN, "the PBX reports %s" % text.splitlines()[0])
    lines = section(text, "pbx_backups")
    if lines is None:
        finish(UNKNOWN, "no <<<pbx_backups>>> section in the agent output")

    perfdata = []
    accounts = total_accounts(section(text, "pbx_accounts") or [])
    accounts_text = ""
    if accounts is not None:
        perfdata.append("'accounts'=%d;;;0" % accounts)
        accounts_text = ", %d accounts" % accounts

    newest = backup_runs(lines)
    now_ms = time.time() * 1000
    failed = sorted(t for t, (_, key) in newest.items() if not key.endswith("successful"))
    ages = [max(0.0, (now_ms - when) / 1000) for when, _ in newest.values() if when >= 0]
    oldest_age = max(ages) if ages else 0.0
    warn_s, crit_s = args.warning * 3600, args.critical * 3600
    perfdata[:0] = [
        "'backup_targets'=%d;;;0" % len(newest),
        "'backups_failed'=%d;;0;0" % len(failed),
    ]
    if ages:
        perfdata.insert(2, "'oldest_newest_backup_age'=%ds;%d;%d;0" % (oldest_age, warn_s, crit_s))

    if failed:
        finish(CRITICAL, "last backup failed: %s%s" % (", ".join(failed), accounts_text), perfdata)
    if not newest:
        finish(WARNING, "no backup target configured%s" % accounts_text, perfdata)
    if oldest_age > crit_s:
        finish(CRITICAL, "newest backup of a target is %.1f h old%s" % (oldest_age / 3600, accounts_text), perfdata)
    if oldest_age > warn_s:
        finish(WARNING, "newest backup of a target is %.1f h old%s" % (oldest_age / 3600, accounts_text), perfdata)
    finish(OK, "%d backup targets, all fine%s" % (len(newest), accounts_text), perfdata)


if __name__ == "__main__":
    main()
