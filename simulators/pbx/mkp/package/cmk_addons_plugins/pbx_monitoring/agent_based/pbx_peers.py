"""Section ``<<<pbx_peers>>>``: one service ``Peer <name>`` per SIP peer.

The telephony engine's peer listing: one fixed-width line per peer,
``<name> <ip> <flags …> <port> <status>`` with a status such as ``OK (21 ms)``, ``LAGGED (310 ms)``,
``UNKNOWN``, ``UNREACHABLE`` or ``Unmonitored``; then the summary line
``N sip peers [Monitored: …]``, which is not a peer. A header line ``Name/username …`` is skipped.
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
    #: The engine's status word: OK, LAGGED, UNKNOWN, UNREACHABLE or Unmonitored.
    status: str


Section = Mapping[str, Peer]


def _peer(line: list[str]) -> tuple[str, Peer] | None:
    if len(line) >= 5 and line[-1] == "ms)" and line[-2].startswith("("):
        status, lastms, rest = line[-3], number(line[-2][1:]), line[2:-3]
    elif len(line) >= 3:
        status, lastms, rest = line[-1], None, line[2:-1]
    else:
        return None
    if not rest:
        return None
    peer = Peer(
        ipaddr=decode_token(line[1]),
        lastms=lastms,
        monitored=status != "Unmonitored",
        online=status in ("OK", "LAGGED"),
        status=status,
    )
    return decode_token(line[0]), peer


def parse_pbx_peers(string_table: StringTable) -> Section:
    peers: dict[str, Peer] = {}
    for line in string_table:
        if len(line) >= 3 and line[1] == "sip" and line[2] == "peers":
            continue
        if line and line[0] == "Name/username":
            continue
        parsed = _peer(list(line))
        if parsed is not None:
            peers[parsed[0]] = parsed[1]
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
        yield Result(state=State.OK, summary="Not monitored")
    elif peer.status == "LAGGED":
        yield Result(state=State.WARN, summary=f"Lagged, latency {describe(peer.lastms, ' ms')}")
    elif peer.online:
        yield Result(state=State.OK, summary=f"Online, latency {describe(peer.lastms, ' ms')}")
    else:
        yield Result(state=State.CRIT, summary=f"Offline ({peer.status})")
    yield Result(state=State.OK, summary=f"Address {peer.ipaddr or 'unknown'}")
    if peer.lastms is not None:
        yield Metric("rtt", peer.lastms / 1000.0)


check_plugin_pbx_peers = CheckPlugin(
    name="pbx_peers",
    service_name="Peer %s",
    discovery_function=discover_pbx_peers,
    check_function=check_pbx_peers,
)
