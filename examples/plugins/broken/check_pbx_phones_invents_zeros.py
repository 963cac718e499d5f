#!/usr/bin/env python3
"""Broken on purpose: check_pbx_phones that, when the PBX cannot be read or sends no data,
reports OK with zero phones instead of UNKNOWN: figures presented as data that were never served
(PLUGIN-FIGURES-FOLLOW-SERVED).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_phones as plugin  # noqa: E402

ZEROS = "<<<pbx>>>\nknown_phones 0\nonline_phones 0\n"


def get_text(options):
    try:
        text = plugin.fetch(options["host"], options["port"], options["timeout"])
    except OSError:
        return ZEROS
    return ZEROS if text.strip() == "" or text.startswith("ERROR:") else text


plugin.get_text = get_text

if __name__ == "__main__":
    plugin.main()
