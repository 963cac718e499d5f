"""Section ``<<<pbx_channels>>>``: the service Channels (active channels against the maximum)."""

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
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import (
    decode_value,
    describe,
    fact_lines,
    facts,
    number,
    upper_levels_state,
)

#: Channel usage levels in percent of the maximum.
USAGE_LEVELS = (80.0, 90.0)


@dataclass(frozen=True)
class ChannelsSection:
    max: float | None
    active: float | None
    last_5min_calls: float | None
    channels: list[str]


def parse_pbx_channels(string_table: StringTable) -> ChannelsSection:
    values = facts(string_table)
    channels = [
        decode_value(" ".join(fields)) for key, fields in fact_lines(string_table) if key == "channel"
    ]
    active = number(values.get("active"))
    if active is None and channels:
        active = float(len(channels))
    return ChannelsSection(
        max=number(values.get("max")),
        active=active,
        last_5min_calls=number(values.get("last_5min_calls")),
        channels=channels,
    )


agent_section_pbx_channels = AgentSection(name="pbx_channels", parse_function=parse_pbx_channels)


def discover_pbx_channels(section: ChannelsSection) -> DiscoveryResult:
    yield Service()


def check_pbx_channels(section: ChannelsSection) -> CheckResult:
    if section.active is None:
        yield Result(state=State.UNKNOWN, summary="Active channels unknown")
    elif section.max is None or section.max <= 0:
        yield Result(state=State.OK, summary=f"Active channels: {describe(section.active)} (maximum unknown)")
        yield Metric("channels_active", section.active)
    else:
        usage = 100.0 * section.active / section.max
        warn, crit = USAGE_LEVELS
        state = State(upper_levels_state(usage, warn, crit))
        text = (
            f"Active channels: {describe(section.active)} of {describe(section.max)} "
            f"({render.percent(usage)})"
        )
        if state != State.OK:
            text += f" (warn/crit at {render.percent(warn)}/{render.percent(crit)})"
        yield Result(state=state, summary=text)
        yield Metric(
            "channels_active",
            section.active,
            levels=(section.max * warn / 100.0, section.max * crit / 100.0),
            boundaries=(0.0, section.max),
        )
    yield Result(state=State.OK, summary=f"Calls in the last 5 minutes: {describe(section.last_5min_calls)}")
    if section.last_5min_calls is not None:
        yield Metric("calls_last_5min", section.last_5min_calls)
    for channel in section.channels:
        yield Result(state=State.OK, notice=f"Channel {channel}")


check_plugin_pbx_channels = CheckPlugin(
    name="pbx_channels",
    service_name="Channels",
    discovery_function=discover_pbx_channels,
    check_function=check_pbx_channels,
)
