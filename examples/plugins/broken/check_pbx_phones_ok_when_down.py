#!/usr/bin/env python3
"""Broken on purpose: check_pbx_phones that reports OK, without figures, when the data endpoint
cannot be read (the port refuses or does not answer), instead of UNKNOWN: a state that claims all
is well where the PBX served no data (PLUGIN-NOT-OK-WITHOUT-DATA).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_phones as plugin  # noqa: E402


def get_text(options):
    try:
        return plugin.fetch(options["host"], options["port"], options["timeout"])
    except OSError:
        plugin.finish(plugin.OK, "phones not readable, assuming all is well")


plugin.get_text = get_text

if __name__ == "__main__":
    plugin.main()
