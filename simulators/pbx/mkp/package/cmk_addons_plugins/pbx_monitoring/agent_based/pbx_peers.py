"""Section ``<<<pbx_peers>>>``: one service ``Peer <name>`` per SIP peer.

Peer lines are ``<name> <ipaddr> <lastms> monitored|unmonitored online|offline``; the telephony
engine's summary line ``N sip peers [Monitored: …]`` follows and is not a peer.
"""

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
)
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import decode_token, describe, number


@dataclass(frozen=True)
class Peer:
    ipaddr: str
    #: Latency in milliseconds; None when unreachable or unmonitored.
    lastms: float | None
    monitored: bool
    online: bool


Section = Mapping[str, Peer]


def parse_pbx_peers(string_table: StringTable) -> Section:
    peers: dict[str, Peer] = {}
    for line in string_table:
        if len(line) >= 3 and line[1] == "sip" and line[2] == "peers":
            continue
        if len(line) < 5 or line[-2] not in ("monitored", "unmonitored"):
            continue
        name = decode_token(" ".join(line[:-4]))
        peers[name] = Peer(
            ipaddr=decode_token(line[-4]),
            lastms=number(line[-3]),
            monitored=line[-2] == "monitored",
            online=line[-1] == "online",
        )
    return peers


agent_section_pbx_peers = AgentSection(name="pbx_peers", parse_function=parse_pbx_peers)


def discover_pbx_peers(section: Section) -> DiscoveryResult:
    for name in section:
        if name:
            yield Service(item=name)


def check_pbx_peers(item: str, section: Section) -> CheckResult:
    """A monitored peer that is offline is CRIT; an unmonitored peer is reported, never judged."""
    peer = section.get(item)
    if peer is None:
        return
    if not peer.monitored:
        yield Result(state=State.OK, summary=f"Not monitored ({'online' if peer.online else 'offline'})")
    elif peer.online:
        yield Result(state=State.OK, summary=f"Online, latency {describe(peer.lastms, ' ms')}")
    else:
        yield Result(state=State.CRIT, summary="Offline")
    yield Result(state=State.OK, summary=f"Address {peer.ipaddr or 'unknown'}")
    if peer.lastms is not None:
        yield Metric("rtt", peer.lastms / 1000.0)


check_plugin_pbx_peers = CheckPlugin(
    name="pbx_peers",
    service_name="Peer %s",
    discovery_function=discover_pbx_peers,
    check_function=check_pbx_peers,
)
