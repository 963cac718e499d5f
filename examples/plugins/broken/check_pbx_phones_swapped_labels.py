#!/usr/bin/env python3
"""Broken on purpose: check_pbx_phones whose perfdata swaps the labels of the two counts, so that
`phones_online` carries the known phones and `phones_known` the online ones; the state and the
text are right. With check_pbx_phones_swapped_labels.yaml (the example's declaration:
`phones_online: phones.online`, `phones_known: phones.known`) the labels are not the figures
they are declared to measure (PLUGIN-FIGURES-AS-DECLARED).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_phones as plugin  # noqa: E402

finish = plugin.finish
SWAP = {"phones_online": "phones_known", "phones_known": "phones_online"}


def swapped(item):
    label, _, rest = item.partition("=")
    return "%s=%s" % (SWAP.get(label, label), rest)


def finish_swapped(state, text, perfdata=()):
    finish(state, text, [swapped(item) for item in perfdata])


plugin.finish = finish_swapped

if __name__ == "__main__":
    plugin.main()
