"""Section ``<<<pbx_backups>>>``: one service ``Backup <target>`` per backup target.

One line per run, ``[<TYPE>]<location> <epoch ms> <result key>``, e.g.
``[SMB]192.0.2.6:/Backup 1556666025340 de.vendor.backup.mountfail``; a target that never ran has
no line. The item is the type and, when there is one, a space and
the location (``Backup HDD``, ``Backup SMB 192.0.2.6:/Backup``), as in the module's local check.
"""

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass

from cmk.agent_based.v2 import (
    AgentSection,
    CheckPlugin,
    CheckResult,
    DiscoveryResult,
    Metric,
    Result,
    Service,
    State,
    StringTable,
    render,
)
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import decode_token, number

_TARGET = re.compile(r"^\[([^\]]*)\](.*)$")


@dataclass(frozen=True)
class BackupRun:
    #: Epoch seconds of the run.
    time: float
    result: str


Section = Mapping[str, list[BackupRun]]


def parse_pbx_backups(string_table: StringTable) -> Section:
    targets: dict[str, list[BackupRun]] = {}
    for line in string_table:
        if len(line) < 3:
            continue
        match = _TARGET.match(" ".join(line[:-2]))
        if not match:
            continue
        kind = decode_token(match.group(1)) if match.group(1) else ""
        location = decode_token(match.group(2)) if match.group(2) else ""
        item = f"{kind} {location}" if location else kind
        runs = targets.setdefault(item, [])
        when = number(line[-2])
        if when is not None:
            runs.append(BackupRun(time=when / 1000.0, result=decode_token(line[-1])))
    return targets


agent_section_pbx_backups = AgentSection(name="pbx_backups", parse_function=parse_pbx_backups)


def discover_pbx_backups(section: Section) -> DiscoveryResult:
    for item in section:
        if item:
            yield Service(item=item)


def check_pbx_backups(item: str, section: Section) -> CheckResult:
    """The newest run decides: a result key ending in ``successful`` is OK, any other is CRIT; a
    target that never ran is WARN. The age is shown and graphed but has no levels, because the
    backup schedule is not part of the agent data."""
    runs = section.get(item)
    if runs is None:
        return
    if not runs:
        yield Result(state=State.WARN, summary="No backup has run yet")
        return
    newest = max(runs, key=lambda run: run.time)
    good = newest.result.endswith("successful")
    if good:
        yield Result(state=State.OK, summary="Last run successful")
    else:
        yield Result(state=State.CRIT, summary=f"Last run failed: {newest.result or 'no result'}")
    yield Result(state=State.OK, summary=f"at {render.datetime(newest.time)}")
    age = time.time() - newest.time
    if age >= 0:
        yield Result(state=State.OK, notice=f"Age: {render.timespan(age)}")
        yield Metric("backup_age", age)
    yield Result(state=State.OK, notice=f"Runs reported: {len(runs)}")


check_plugin_pbx_backups = CheckPlugin(
    name="pbx_backups",
    service_name="Backup %s",
    discovery_function=discover_pbx_backups,
    check_function=check_pbx_backups,
)
