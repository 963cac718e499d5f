#!/usr/bin/env python3
"""Broken on purpose: check_pbx_backups that prints the age of the oldest newest backup in
minutes, the unit the PBX serves it in, with the UOM `s`: a figure of one unit under the UOM of
another, not converted (PLUGIN-UOM-MATCHES-SERVED).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_backups as plugin  # noqa: E402

finish = plugin.finish
LABEL = "'oldest_newest_backup_age'="


def in_minutes(item):
    if not item.startswith(LABEL):
        return item
    value, _, rest = item[len(LABEL):].partition("s;")
    return "%s%ds;%s" % (LABEL, int(value) // 60, rest)


def finish_in_minutes(state, text, perfdata=()):
    finish(state, text, [in_minutes(item) for item in perfdata])


plugin.finish = finish_in_minutes

if __name__ == "__main__":
    plugin.main()
