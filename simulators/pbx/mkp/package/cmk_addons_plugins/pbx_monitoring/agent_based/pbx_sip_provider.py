"""Section ``<<<pbx_sip_provider>>>``: one service ``Trunk <URI>`` per SIP trunk.

The engine's registration listing: per trunk ``<uri> <username> <refresh> <State>`` (State
``Registered`` when registered), then the summary ``N SIP registrations.``; a header line
``Host …`` is skipped.
"""

from collections.abc import Mapping

from cmk.agent_based.v2 import (
    AgentSection,
    CheckPlugin,
    CheckResult,
    DiscoveryResult,
    Result,
    Service,
    State,
    StringTable,
)
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import decode_token

Section = Mapping[str, bool]


def parse_pbx_sip_provider(string_table: StringTable) -> Section:
    trunks: dict[str, bool] = {}
    for line in string_table:
        if len(line) < 2 or line[0] == "Host":
            continue
        if line[-1] == "registrations." and line[-2] == "SIP":
            continue
        trunks[decode_token(line[0])] = line[-1] == "Registered"
    return trunks


agent_section_pbx_sip_provider = AgentSection(name="pbx_sip_provider", parse_function=parse_pbx_sip_provider)


def discover_pbx_sip_provider(section: Section) -> DiscoveryResult:
    for uri in section:
        if uri:
            yield Service(item=uri)


def check_pbx_sip_provider(item: str, section: Section) -> CheckResult:
    registered = section.get(item)
    if registered is None:
        return
    if registered:
        yield Result(state=State.OK, summary="Registered")
    else:
        yield Result(state=State.CRIT, summary="Not registered")


check_plugin_pbx_sip_provider = CheckPlugin(
    name="pbx_sip_provider",
    service_name="Trunk %s",
    discovery_function=discover_pbx_sip_provider,
    check_function=check_pbx_sip_provider,
)
