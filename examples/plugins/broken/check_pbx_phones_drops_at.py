#!/usr/bin/env python3
"""Broken on purpose: check_pbx_phones that drops the `@` of a threshold range, so that it alerts
outside start..end where the range says inside: with the default critical range `@0`, when no
phone is online (0 %, inside `@0`) it reports WARNING, not the CRITICAL its own printed crit range
gives (PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_phones as plugin  # noqa: E402

parse_range = plugin.parse_range


def parse_range_without_at(text):
    threshold = parse_range(text)
    return None if threshold is None else (threshold[0], threshold[1], False)


plugin.parse_range = parse_range_without_at

if __name__ == "__main__":
    plugin.main()
