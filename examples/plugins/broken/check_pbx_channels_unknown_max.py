#!/usr/bin/env python3
"""Broken on purpose: check_pbx_channels that reads the `-1 max calls` the PBX serves for an
unknown maximum as a number and prints it as `channels_max=-1`: an unknown printed as a figure
(PLUGIN-UNKNOWN-NOT-A-FIGURE).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_channels as plugin  # noqa: E402


def read_channels(lines):
    maximum = None
    channels = []
    for row in lines:
        if row.strip() == "":
            continue
        if row.endswith("max calls"):
            value = row[: -len(" max calls")]
            maximum = int(value) if value.lstrip("-").isdigit() else None
            continue
        channels.append(row)
    return maximum, channels


plugin.read_channels = read_channels

if __name__ == "__main__":
    plugin.main()
