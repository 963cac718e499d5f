#!/usr/bin/env python3
"""BROKEN COPY of check_pbx_backups (misses a failed backup), for the certification tests.

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


def backup_runs(lines):
    """BROKEN: only the newest run over all targets counts, so an older failed target is missed."""
    newest = {}
    for row in lines:
        if not row.startswith("["):
            continue
        target, stamp, key = row.rsplit(" ", 2)
        when = int(stamp)
        if not newest or when > next(iter(newest.values()))[0]:
            newest = {target: (when, key)}
    return newest


example.backup_runs = backup_runs

if __name__ == "__main__":
    example.main()
