"""Section ``<<<pbx>>>``: the services PBX Info, Phones, SIP Health, Security, Server Traffic,
RTP Quality, Debug Mode and RAID (the last only when a RAID is configured)."""

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
    boolean,
    decode_token,
    describe,
    fact_lines,
    facts,
    lower_levels_state,
    number,
    upper_levels_state,
)


@dataclass(frozen=True)
class PbxSection:
    facts: Mapping[str, str]
    raid_devices: list[tuple[str, str]] = field(default_factory=list)

    def num(self, key: str) -> float | None:
        return number(self.facts.get(key))

    def flag(self, key: str) -> bool | None:
        return boolean(self.facts.get(key))


def parse_pbx(string_table: StringTable) -> PbxSection:
    devices = [
        (decode_token(" ".join(fields[:-1])), decode_token(fields[-1]))
        for key, fields in fact_lines(string_table)
        if key == "raid_device" and len(fields) >= 2
    ]
    return PbxSection(facts=facts(string_table), raid_devices=devices)


agent_section_pbx = AgentSection(name="pbx", parse_function=parse_pbx)


def _discover_single(section: PbxSection) -> DiscoveryResult:
    yield Service()


# --- PBX Info -----------------------------------------------------------------------------------


def check_pbx_info(section: PbxSection) -> CheckResult:
    f = section.facts
    yield Result(
        state=State.OK,
        summary=(
            f"{f.get('appliance_type', 'unknown appliance')}, serial {f.get('serial_number', 'unknown')}, "
            f"version {f.get('pbx_version', 'unknown')} (build date {f.get('pbx_build_date', 'unknown')})"
        ),
    )
    licence = section.flag("license_valid")
    if licence is False:
        yield Result(state=State.CRIT, summary="Module licence is not valid")
    elif licence is None:
        yield Result(state=State.UNKNOWN, summary="Module licence state unknown")
    yield Result(
        state=State.OK,
        notice=(
            f"Licence owner: {f.get('license_owner', 'unknown')}, "
            f"licensed users: {describe(section.num('license_max_users'))}, "
            f"valid until {f.get('license_valid_until', 'unknown')}"
        ),
    )
    yield Result(
        state=State.OK,
        notice=f"Update contract valid until {f.get('update_contract_valid_until', 'unknown')}",
    )
    if f.get("update_kind") in ("major", "minor"):
        yield Result(
            state=State.OK,
            notice=f"{f['update_kind'].capitalize()} update available: {f.get('latest_version', 'unknown')}",
        )
    yield Result(
        state=State.OK,
        notice=(
            f"Maximum users: {describe(section.num('max_users'))}, "
            f"maximum connections: {describe(section.num('max_connections'))}"
        ),
    )
    if manufacturer := f.get("manufacturer"):
        yield Result(state=State.OK, notice=f"Manufacturer: {manufacturer}")
    uptime_ms = section.num("uptime_linux_ms")
    if uptime_ms is not None:
        yield Result(state=State.OK, notice=f"System up for {render.timespan(uptime_ms / 1000)}")
        yield Metric("uptime", uptime_ms / 1000)
    if engine := f.get("engine_uptime"):
        yield Result(state=State.OK, notice=f"Telephony engine up for {engine}")


check_plugin_pbx_info = CheckPlugin(
    name="pbx_info",
    sections=["pbx"],
    service_name="PBX Info",
    discovery_function=_discover_single,
    check_function=check_pbx_info,
)


# --- Phones -------------------------------------------------------------------------------------


def check_pbx_phones(section: PbxSection) -> CheckResult:
    known = section.num("phones_known")
    online = section.num("phones_online")
    changed = section.num("phones_ip_changed")
    provisioned = section.num("phones_provisioned")
    if known is None or online is None:
        yield Result(state=State.UNKNOWN, summary="Phone counts unknown")
    elif known > 0 and online == 0:
        yield Result(state=State.CRIT, summary=f"All {describe(known)} known phones are offline")
    else:
        yield Result(state=State.OK, summary=f"{describe(online)} of {describe(known)} phones online")
    yield Result(state=State.OK, summary=f"IP address changed: {describe(changed)}")
    yield Result(state=State.OK, notice=f"Provisioned phones: {describe(provisioned)}")
    for name, value in (
        ("phones_known", known),
        ("phones_online", online),
        ("phones_ip_changed", changed),
        ("phones_provisioned", provisioned),
    ):
        if value is not None:
            yield Metric(name, value)


check_plugin_pbx_phones = CheckPlugin(
    name="pbx_phones",
    sections=["pbx"],
    service_name="Phones",
    discovery_function=_discover_single,
    check_function=check_pbx_phones,
)


# --- SIP Health ---------------------------------------------------------------------------------


def check_pbx_sip_health(section: PbxSection) -> CheckResult:
    status = section.facts.get("sip_localhost_status")
    if status is None or status == "":
        yield Result(state=State.UNKNOWN, summary="SIP status of the local registrar unknown")
        return
    state = State.OK if status.upper() == "OK" else State.CRIT
    yield Result(state=state, summary=f"Local registrar: {status}")


check_plugin_pbx_sip_health = CheckPlugin(
    name="pbx_sip_health",
    sections=["pbx"],
    service_name="SIP Health",
    discovery_function=_discover_single,
    check_function=check_pbx_sip_health,
)


# --- Security -----------------------------------------------------------------------------------

_SECURITY_SWITCHES = (
    ("security_password_check", "Password check"),
    ("security_attack_detection", "Attack detection"),
    ("security_sip_flood_protection", "SIP flood protection"),
)


def check_pbx_security(section: PbxSection) -> CheckResult:
    """A protection that is switched off is a warning; the blocked addresses are informational."""
    for key, label in _SECURITY_SWITCHES:
        value = section.flag(key)
        if value is True:
            yield Result(state=State.OK, summary=f"{label}: on")
        elif value is False:
            yield Result(state=State.WARN, summary=f"{label}: off")
        else:
            yield Result(state=State.UNKNOWN, summary=f"{label}: unknown")
    blocked = section.num("security_blocked_ips")
    yield Result(state=State.OK, summary=f"Blocked IP addresses: {describe(blocked)}")
    if blocked is not None:
        yield Metric("blocked_ips", blocked)


check_plugin_pbx_security = CheckPlugin(
    name="pbx_security",
    sections=["pbx"],
    service_name="Security",
    discovery_function=_discover_single,
    check_function=check_pbx_security,
)


# --- Server Traffic -----------------------------------------------------------------------------

_TRAFFIC = (
    ("web_sessions", "Web sessions"),
    ("app_connections", "App connections"),
    ("calls_connected", "Connected calls"),
    ("calls_parked", "Parked calls"),
    ("calls_conference", "Conference calls"),
)


def check_pbx_server_traffic(section: PbxSection) -> CheckResult:
    for key, label in _TRAFFIC:
        value = section.num(key)
        yield Result(state=State.OK, summary=f"{label}: {describe(value)}")
        if value is not None:
            yield Metric(key, value)


check_plugin_pbx_server_traffic = CheckPlugin(
    name="pbx_server_traffic",
    sections=["pbx"],
    service_name="Server Traffic",
    discovery_function=_discover_single,
    check_function=check_pbx_server_traffic,
)


# --- RTP Quality --------------------------------------------------------------------------------

#: Levels on the averages: (metric key, label, unit, warn, crit, upper levels?).
#: Jitter and packet loss follow common VoIP guidance (30 ms / 1 %), MOS the ITU-T G.107 bands
#: ("some users dissatisfied" below 3.6, "many" below 3.1).
_RTP_LEVELS = (
    ("rtp_jitter_avg_ms", "Jitter", " ms", 30.0, 50.0, True),
    ("rtp_packet_loss_avg_percent", "Packet loss", "%", 1.0, 5.0, True),
    ("rtp_rtt_avg_ms", "Round trip time", " ms", 300.0, 500.0, True),
    ("rtp_mos_avg", "MOS", "", 3.6, 3.1, False),
)

_RTP_DETAILS = (
    ("rtp_jitter_median_ms", "Jitter median", " ms"),
    ("rtp_jitter_max_ms", "Jitter maximum", " ms"),
    ("rtp_packet_loss_median_percent", "Packet loss median", "%"),
    ("rtp_packet_loss_max_percent", "Packet loss maximum", "%"),
    ("rtp_rtt_median_ms", "Round trip time median", " ms"),
    ("rtp_rtt_max_ms", "Round trip time maximum", " ms"),
    ("rtp_mos_median", "MOS median", ""),
    ("rtp_mos_min", "MOS minimum", ""),
)


def check_pbx_rtp_quality(section: PbxSection) -> CheckResult:
    """Averages are judged only while RTP streams are active: with none the figures are empty."""
    active = section.num("rtp_active_channels")
    yield Result(state=State.OK, summary=f"Active RTP channels: {describe(active)}")
    if active is not None:
        yield Metric("rtp_active_channels", active)
    judge = active is None or active > 0
    for key, label, unit, warn, crit, upper in _RTP_LEVELS:
        value = section.num(key)
        if value is None:
            yield Result(state=State.OK, notice=f"{label}: unknown")
            continue
        state = State.OK
        if judge:
            levels_state = upper_levels_state if upper else lower_levels_state
            state = State(levels_state(value, warn, crit))
        text = f"{label}: {describe(value, unit)}"
        if state != State.OK:
            where = "warn/crit at" if upper else "warn/crit below"
            text += f" ({where} {describe(warn, unit)}/{describe(crit, unit)})"
        yield Result(state=state, summary=text)
        yield Metric(key, value, levels=(warn, crit) if upper else None)
    for key, label, unit in _RTP_DETAILS:
        value = section.num(key)
        yield Result(state=State.OK, notice=f"{label}: {describe(value, unit)}")
        if value is not None:
            yield Metric(key, value)


check_plugin_pbx_rtp_quality = CheckPlugin(
    name="pbx_rtp_quality",
    sections=["pbx"],
    service_name="RTP Quality",
    discovery_function=_discover_single,
    check_function=check_pbx_rtp_quality,
)


# --- Debug Mode ---------------------------------------------------------------------------------


def check_pbx_debug_mode(section: PbxSection) -> CheckResult:
    """Debug mode slows the PBX and fills its logs: on is a warning."""
    value = section.flag("debug_mode")
    if value is True:
        yield Result(state=State.WARN, summary="Debug mode is on")
    elif value is False:
        yield Result(state=State.OK, summary="Debug mode is off")
    else:
        yield Result(state=State.UNKNOWN, summary="Debug mode unknown")


check_plugin_pbx_debug_mode = CheckPlugin(
    name="pbx_debug_mode",
    sections=["pbx"],
    service_name="Debug Mode",
    discovery_function=_discover_single,
    check_function=check_pbx_debug_mode,
)


# --- RAID ---------------------------------------------------------------------------------------

_RAID_OK = {"clean", "active", "optimal", "ok", "online", "in_sync", "spare"}
_RAID_WARN = {"rebuilding", "resyncing", "recovering", "reshaping", "checking", "rebuild", "resync"}
_RAID_CRIT = {"degraded", "failed", "faulty", "inactive", "offline", "removed", "missing", "broken"}


def _raid_state(text: str) -> State:
    word = text.strip().lower()
    if word in _RAID_OK:
        return State.OK
    if word in _RAID_WARN:
        return State.WARN
    if word in _RAID_CRIT:
        return State.CRIT
    return State.UNKNOWN


def discover_pbx_raid(section: PbxSection) -> DiscoveryResult:
    """Only a PBX with a configured RAID writes ``raid_level`` and ``raid_status``."""
    if "raid_level" in section.facts or "raid_status" in section.facts:
        yield Service()


def check_pbx_raid(section: PbxSection) -> CheckResult:
    level = section.facts.get("raid_level", "unknown level")
    status = section.facts.get("raid_status")
    if status is None:
        yield Result(state=State.UNKNOWN, summary=f"{level}: no RAID status")
    else:
        yield Result(state=_raid_state(status), summary=f"{level}: {status}")
    for name, device_state in section.raid_devices:
        yield Result(state=_raid_state(device_state), notice=f"Device {name}: {device_state}")


check_plugin_pbx_raid = CheckPlugin(
    name="pbx_raid",
    sections=["pbx"],
    service_name="RAID",
    discovery_function=discover_pbx_raid,
    check_function=check_pbx_raid,
)
