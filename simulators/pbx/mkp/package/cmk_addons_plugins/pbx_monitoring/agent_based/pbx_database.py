"""Sections ``<<<pbx_database>>>`` and ``<<<pbx_db_connections>>>``: the service Database
(database and call-record sizes, connections against the maximum).

``<<<pbx_database>>>``: ``opened_connections``, ``closed_connections``, ``active_connections``,
``idle_connections`` (the earlier component's counters), then ``database_size`` and ``cdr_size``.
``<<<pbx_db_connections>>>``: ``total_connections``, ``active_connections``, ``idle_connections``,
``idle_in_transaction_connections``, ``max_connections``, and ``by_app <name> <count>`` /
``by_db <name> <count>`` lines.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

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
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import (
    decode_token,
    describe,
    key_lines,
    key_values,
    number,
    upper_levels_state,
)

#: Connection usage levels in percent of the maximum.
CONNECTION_LEVELS = (80.0, 90.0)


_DATABASE_KEYS = (
    "database_size",
    "cdr_size",
    "opened_connections",
    "closed_connections",
    "active_connections",
    "idle_connections",
)


def parse_pbx_database(string_table: StringTable) -> Mapping[str, float | None]:
    values = key_values(string_table)
    return {key: number(values.get(key)) for key in _DATABASE_KEYS}


agent_section_pbx_database = AgentSection(name="pbx_database", parse_function=parse_pbx_database)


@dataclass(frozen=True)
class DbConnections:
    counts: Mapping[str, float | None]
    by_app: list[tuple[str, float | None]] = field(default_factory=list)
    by_db: list[tuple[str, float | None]] = field(default_factory=list)


def parse_pbx_db_connections(string_table: StringTable) -> DbConnections:
    values = key_values(string_table)
    groups: dict[str, list[tuple[str, float | None]]] = {"by_app": [], "by_db": []}
    for key, fields in key_lines(string_table):
        if key in groups and len(fields) >= 2:
            groups[key].append((decode_token(" ".join(fields[:-1])), number(fields[-1])))
    keys = ("total", "active", "idle", "idle_in_transaction", "max")
    counts = {key: number(values.get(f"{key}_connections")) for key in keys}
    return DbConnections(counts=counts, by_app=groups["by_app"], by_db=groups["by_db"])


agent_section_pbx_db_connections = AgentSection(
    name="pbx_db_connections", parse_function=parse_pbx_db_connections
)


def discover_pbx_database(
    section_pbx_database: Mapping[str, float | None] | None,
    section_pbx_db_connections: DbConnections | None,
) -> DiscoveryResult:
    if section_pbx_database is not None:
        yield Service()


def check_pbx_database(
    section_pbx_database: Mapping[str, float | None] | None,
    section_pbx_db_connections: DbConnections | None,
) -> CheckResult:
    if section_pbx_database is not None:
        for key, label in (("database_size", "Database size"), ("cdr_size", "Call records")):
            value = section_pbx_database.get(key)
            shown = render.bytes(value) if value is not None else "unknown"
            yield Result(state=State.OK, summary=f"{label}: {shown}")
            if value is not None:
                yield Metric(key, value)
        opened, closed = (section_pbx_database.get(k) for k in ("opened_connections", "closed_connections"))
        yield Result(
            state=State.OK, notice=f"Connections opened: {describe(opened)}, closed: {describe(closed)}"
        )
    if section_pbx_db_connections is None:
        return
    counts = section_pbx_db_connections.counts
    total, maximum = counts.get("total"), counts.get("max")
    if total is not None and maximum is not None and maximum > 0:
        usage = 100.0 * total / maximum
        warn, crit = CONNECTION_LEVELS
        state = State(upper_levels_state(usage, warn, crit))
        text = f"Connections: {describe(total)} of {describe(maximum)} ({render.percent(usage)})"
        if state != State.OK:
            text += f" (warn/crit at {render.percent(warn)}/{render.percent(crit)})"
        yield Result(state=state, summary=text)
    else:
        yield Result(state=State.OK, summary=f"Connections: {describe(total)} (maximum {describe(maximum)})")
    for key in ("total", "active", "idle", "idle_in_transaction"):
        value = counts.get(key)
        if value is not None:
            yield Metric(
                f"db_connections_{key}",
                value,
                boundaries=(0.0, maximum) if maximum is not None and maximum > 0 else None,
            )
    yield Result(
        state=State.OK,
        notice=(
            f"Active: {describe(counts.get('active'))}, idle: {describe(counts.get('idle'))}, "
            f"idle in transaction: {describe(counts.get('idle_in_transaction'))}"
        ),
    )
    connections = section_pbx_db_connections
    for label, groups in (("application", connections.by_app), ("database", connections.by_db)):
        for name, count in groups:
            yield Result(state=State.OK, notice=f"Connections of {label} {name}: {describe(count)}")


check_plugin_pbx_database = CheckPlugin(
    name="pbx_database",
    sections=["pbx_database", "pbx_db_connections"],
    service_name="Database",
    discovery_function=discover_pbx_database,
    check_function=check_pbx_database,
)
