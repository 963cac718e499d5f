"""Section ``<<<pbx_accounts>>>``: the service Accounts (user accounts by kind and presence).

``total_accounts 155/0``, ``admin_accounts 4``, ``active_accounts …``, ``available_accounts …``,
``ringing_accounts …``, ``unavailable_accounts …``.
"""

from collections.abc import Mapping

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
)
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import describe, key_values, number

_COUNTS = (
    ("total", "Total"),
    ("admin", "Admins"),
    ("active", "Active"),
    ("available", "Available"),
    ("ringing", "Ringing"),
    ("unavailable", "Unavailable"),
)


def parse_pbx_accounts(string_table: StringTable) -> Mapping[str, float | None]:
    """``total_accounts <A>/0`` (the trailing ``/0`` is stripped) and ``<kind>_accounts N``."""
    values = key_values(string_table)
    total = values.get("total_accounts")
    if total is not None and total.endswith("/0"):
        values["total_accounts"] = total[:-2]
    return {key: number(values.get(f"{key}_accounts")) for key, _label in _COUNTS}


agent_section_pbx_accounts = AgentSection(name="pbx_accounts", parse_function=parse_pbx_accounts)


def discover_pbx_accounts(section: Mapping[str, float | None]) -> DiscoveryResult:
    yield Service()


def check_pbx_accounts(section: Mapping[str, float | None]) -> CheckResult:
    for key, label in _COUNTS:
        value = section.get(key)
        yield Result(state=State.OK, summary=f"{label}: {describe(value)}")
        if value is not None:
            yield Metric(f"accounts_{key}", value)


check_plugin_pbx_accounts = CheckPlugin(
    name="pbx_accounts",
    service_name="Accounts",
    discovery_function=discover_pbx_accounts,
    check_function=check_pbx_accounts,
)
