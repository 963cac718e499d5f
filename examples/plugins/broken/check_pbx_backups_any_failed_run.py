#!/usr/bin/env python3
"""Broken on purpose: check_pbx_backups that reports CRITICAL when any run of a backup target
failed, not only its newest run: after a failure the PBX has since recovered from (scenario
`backup-recovered`) it is more severe than the PBX's own `PBX Backup …` check. With
check_pbx_backups_any_failed_run.yaml (`agree: exact`) that fails (PLUGIN-STATE-EQUALS-PBX).
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_backups as plugin  # noqa: E402

backup_runs = plugin.backup_runs


def any_failed_run(lines):
    newest = backup_runs(lines)
    for row in lines:
        parts = row.rsplit(" ", 2)
        if row.startswith("[") and len(parts) == 3 and not parts[2].endswith("successful"):
            when, _ = newest.get(parts[0], (0, ""))
            newest[parts[0]] = (when, parts[2])
    return newest


plugin.backup_runs = any_failed_run

if __name__ == "__main__":
    plugin.main()
