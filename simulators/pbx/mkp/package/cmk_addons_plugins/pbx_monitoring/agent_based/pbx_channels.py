"""Sections ``<<<pbx_channels>>>`` and ``<<<pbx_calls>>>``: the service Channels (active channels
against the maximum, and the calls of the last 5 minutes).

``<<<pbx_channels>>>`` is the line ``<N> max calls`` (N the channel maximum), then one active
channel name per line, e.g. ``SIP/4461.phone-0000567d`` or ``DAHDI/i1/0791234567-11d4``; the
channels are counted by technology (the prefix up to ``/``). As the field's readers do, the maximum
is the line that ends in ``max calls`` and every other line is a channel.
``<<<pbx_calls>>>`` holds ``last_5min_calls <N>`` (field-line-shapes.md).
"""

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
    channels: list[str] = field(default_factory=list)

    def by_technology(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for channel in self.channels:
            technology = channel.split("/", 1)[0] if "/" in channel else "other"
            counts[technology] = counts.get(technology, 0) + 1
        return counts


def parse_pbx_channels(string_table: StringTable) -> ChannelsSection:
    maximum = None
    channels: list[str] = []
    for line in string_table:
        if len(line) == 3 and line[1:3] == ["max", "calls"]:
            maximum = number(line[0])
        elif line:
            channels.append(decode_token(" ".join(line)))
    return ChannelsSection(max=maximum, active=float(len(channels)), last_5min_calls=None, channels=channels)


def parse_pbx_calls(string_table: StringTable) -> float | None:
    for line in string_table:
        if len(line) == 2 and line[0] == "last_5min_calls":
            return number(line[1])
    return None


agent_section_pbx_channels = AgentSection(name="pbx_channels", parse_function=parse_pbx_channels)
agent_section_pbx_calls = AgentSection(name="pbx_calls", parse_function=parse_pbx_calls)


def discover_pbx_channels(
    section_pbx_channels: ChannelsSection | None, section_pbx_calls: float | None
) -> DiscoveryResult:
    if section_pbx_channels is not None:
        yield Service()


def check_pbx_channels(
    section_pbx_channels: ChannelsSection | None, section_pbx_calls: float | None
) -> CheckResult:
    if section_pbx_channels is None:
        return
    section = ChannelsSection(
        max=section_pbx_channels.max,
        active=section_pbx_channels.active,
        last_5min_calls=section_pbx_calls,
        channels=section_pbx_channels.channels,
    )
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
    technologies = section.by_technology()
    if technologies:
        shown = ", ".join(f"{name} {count}" for name, count in sorted(technologies.items()))
        yield Result(state=State.OK, summary=f"By technology: {shown}")
    for name, count in sorted(technologies.items()):
        metric = "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in name.lower())
        yield Metric(f"channels_{metric}", float(count))
    for channel in section.channels:
        yield Result(state=State.OK, notice=f"Channel {channel}")


check_plugin_pbx_channels = CheckPlugin(
    name="pbx_channels",
    sections=["pbx_channels", "pbx_calls"],
    service_name="Channels",
    discovery_function=discover_pbx_channels,
    check_function=check_pbx_channels,
)
