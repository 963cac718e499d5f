#!/usr/bin/env python3
"""BROKEN COPY of check_pbx_backups (crashes on an extra accounts line), for the certification tests.

It is the example plug-in (../check_pbx_backups.py) with one function replaced by a version
with a bug that plug-ins in the field have; certify-plugin must reject it with evidence.
"""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "check_pbx_backups", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check_pbx_backups.py")
)
example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(example)


def total_accounts(lines):
    """BROKEN: every line of the section is taken for a known counter (`key <int>` or
    `key <int>/0`), so an unknown extra line of a newer version crashes it."""
    counters = {}
    for row in lines:
        if row:
            key, value = row.split(" ", 1)
            counters[key] = int(value.split("/")[0])
    return counters.get("total_accounts")


example.total_accounts = total_accounts

if __name__ == "__main__":
    example.main()
