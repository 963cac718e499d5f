#!/usr/bin/env python3
"""Broken on purpose: check_pbx_phones reading the phones online from the wrong key,
`known_phones`, every time. Its figures follow a served figure consistently, so figure tracking
cannot see it; the PBX's own judgement of `PBX All Phones Offline` can
(PLUGIN-STATE-AGREES-WITH-PBX, with `watches` in the expectations).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_phones as plugin  # noqa: E402


def read_phones(lines):
    known = plugin.count(lines, "known_phones")
    return known, known


plugin.read_phones = read_phones

if __name__ == "__main__":
    plugin.main()
