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
    key_values,
    lower_levels_state,
    number,
    switch,
    unquote_text,
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

    def on(self, key: str) -> bool | None:
        return switch(self.facts.get(key))

    def text(self, key: str, default: str = "unknown") -> str:
        value = unquote_text(self.facts.get(key))
        return default if value is None or value == "" else value


def _raid_device(token: str) -> tuple[str, str]:
    name, _, state = token.partition("=")
    return decode_token(name), decode_token(state)


def parse_pbx(string_table: StringTable) -> PbxSection:
    """``key value`` lines; the RAID controller's table lines after ``raid_status`` are skipped
    (their first word is no key of this section), the devices come from ``raid_devices``."""
    values = key_values(string_table)
    devices = [_raid_device(token) for token in values.get("raid_devices", "").split() if "=" in token]
    return PbxSection(facts=values, raid_devices=devices)


agent_section_pbx = AgentSection(name="pbx", parse_function=parse_pbx)


def _discover_single(section: PbxSection) -> DiscoveryResult:
    yield Service()


# --- PBX Info -----------------------------------------------------------------------------------


def check_pbx_info(section: PbxSection) -> CheckResult:
    f = section.facts
    yield Result(
        state=State.OK,
        summary=(
            f"{section.text('appliance_type', 'unknown appliance')}, "
            f"serial {section.text('appliance_serial_number')}, "
            f"version {section.text('pbx_version')} (build date {section.text('pbx_build_date')})"
        ),
    )
    licence = f.get("license_state")
    if licence == "invalid":
        yield Result(state=State.CRIT, summary="Module licence is not valid")
    elif licence != "valid":
        yield Result(state=State.UNKNOWN, summary="Module licence state unknown")
    yield Result(
        state=State.OK,
        notice=(
            f"Licence owner: {section.text('owner')}, "
            f"licensed users: {describe(section.num('license_max_users'))}, "
            f"valid until {section.text('license_valid_until')}"
        ),
    )
    yield Result(
        state=State.OK,
        notice=f"Update contract valid until {section.text('update_contract_valid_until')}",
    )
    if f.get("update_kind") in ("major", "minor"):
        yield Result(
            state=State.OK,
            notice=f"{f['update_kind'].capitalize()} update available: {section.text('update_latest_version')}",
        )
    yield Result(
        state=State.OK,
        notice=(
            f"Maximum users: {describe(section.num('appliance_max_users'))}, "
            f"maximum connections: {describe(section.num('appliance_max_connections'))}"
        ),
    )
    if manufacturer := f.get("system_manufacturer"):
        product = f.get("system_product_name")
        yield Result(state=State.OK, notice=f"Hardware: {manufacturer} {product or ''}".strip())
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
    known = section.num("known_phones")
    online = section.num("online_phones")
    changed = section.num("ip_changed_phones")
    provisioned = section.num("provisioned_phones")
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
    status = section.facts.get("sip_status_localhost")
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
    ("password_check", "Password check"),
    ("attack_detection", "Attack detection"),
    ("sip_flood_protection", "SIP flood protection"),
)


def check_pbx_security(section: PbxSection) -> CheckResult:
    """A protection that is switched off is a warning; the blocked addresses are informational."""
    for key, label in _SECURITY_SWITCHES:
        value = section.on(key)
        if value is True:
            yield Result(state=State.OK, summary=f"{label}: on")
        elif value is False:
            yield Result(state=State.WARN, summary=f"{label}: off")
        else:
            yield Result(state=State.UNKNOWN, summary=f"{label}: unknown")
    blocked = section.num("blacklisted_hosts")
    yield Result(state=State.OK, summary=f"Blocked IP addresses: {describe(blocked)}")
    if blocked is not None:
        yield Metric("blocked_ips", blocked)
    allowed = section.num("whitelisted_hosts")
    yield Result(state=State.OK, notice=f"Allowed hosts: {describe(allowed)}")


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


def _rtp_metric(key: str, value: float) -> tuple[str, float]:
    """Checkmk's guidelines ("Metrics": canonical units): durations in seconds, so the served
    milliseconds are converted and the metric is named after the thing, not the unit."""
    if key.endswith("_ms"):
        return key[: -len("_ms")], value / 1000.0
    return key, value


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
        name, shown = _rtp_metric(key, value)
        levels = (_rtp_metric(key, warn)[1], _rtp_metric(key, crit)[1]) if upper else None
        yield Metric(name, shown, levels=levels)
    for key, label, unit in _RTP_DETAILS:
        value = section.num(key)
        yield Result(state=State.OK, notice=f"{label}: {describe(value, unit)}")
        if value is not None:
            yield Metric(*_rtp_metric(key, value))


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
    value = section.on("debug_mode")
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
    """Only a PBX with a configured RAID writes ``raid_status`` and ``raid_diagnosis``."""
    if "raid_status" in section.facts or "raid_diagnosis" in section.facts:
        yield Service()


def check_pbx_raid(section: PbxSection) -> CheckResult:
    """``raid_diagnosis HEALTHY`` is OK; otherwise the state word decides (unknown words: WARN,
    as plug-ins in the field warn on anything but ``HEALTHY``)."""
    level = section.text("raid_level", "RAID")
    diagnosis = section.facts.get("raid_diagnosis")
    status = section.facts.get("raid_state") or (diagnosis or "")
    if diagnosis is None:
        yield Result(state=State.UNKNOWN, summary=f"{level}: no RAID diagnosis")
    elif diagnosis == "HEALTHY":
        yield Result(state=State.OK, summary=f"{level}: {status or 'healthy'}")
    else:
        state = _raid_state(status)
        yield Result(state=State.WARN if state == State.UNKNOWN else state, summary=f"{level}: {status}")
    for name, device_state in section.raid_devices:
        yield Result(state=_raid_state(device_state), notice=f"Device {name}: {device_state}")


check_plugin_pbx_raid = CheckPlugin(
    name="pbx_raid",
    sections=["pbx"],
    service_name="RAID",
    discovery_function=discover_pbx_raid,
    check_function=check_pbx_raid,
)
