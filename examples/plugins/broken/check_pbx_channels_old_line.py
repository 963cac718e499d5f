#!/usr/bin/env python3
"""Broken on purpose: check_pbx_channels written against the OLD first line of
`<<<pbx_channels>>>`, `60 max calls 23 last_5min_calls`. It takes the first line apart as
`<N> max calls <M> last_5min_calls` and gives up (UNKNOWN) when the line has another shape, so
against a PBX that writes exactly `<N> max calls` it cannot read anything (PLUGIN-KNOWN-WHEN-SERVED).
"""

import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_channels as plugin  # noqa: E402

OLD_FIRST_LINE = re.compile(r"^(-?\d+) max calls (-?\d+) last_5min_calls$")


def read_channels(lines):
    rows = [row for row in lines if row.strip() != ""]
    first = OLD_FIRST_LINE.match(rows[0]) if rows else None
    if not first:
        plugin.finish(plugin.UNKNOWN, "unexpected first line of <<<pbx_channels>>>: %r" % (rows[0] if rows else ""))
    return int(first.group(1)), rows[1:]


plugin.read_channels = read_channels

if __name__ == "__main__":
    plugin.main()
