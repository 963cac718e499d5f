"""Section ``<<<pbx_modules>>>``: the service Modules (installed modules and their instances).

One line per module, ``<name>:<version>:<vendor>:<<instance>,<instance>,…>``, e.g.
``Voicemail:70:Example GmbH:<>``. The state of each instance is the module's local check
``PBX Module <instance>``; this service lists what is installed.
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
)
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import decode_token, decode_value


@dataclass
class Module:
    name: str
    version: str = ""
    vendor: str = ""
    instances: list[str] = field(default_factory=list)


def parse_pbx_modules(string_table: StringTable) -> list[Module]:
    modules: list[Module] = []
    for line in string_table:
        parts = " ".join(line).split(":", 3)
        if len(parts) != 4 or not (parts[3].startswith("<") and parts[3].endswith(">")):
            continue
        name, version, vendor, instances = parts
        inner = instances[1:-1]
        modules.append(
            Module(
                name=decode_value(name),
                version=decode_value(version),
                vendor=decode_value(vendor),
                instances=[decode_token(i) for i in inner.split(",")] if inner else [],
            )
        )
    return modules


agent_section_pbx_modules = AgentSection(name="pbx_modules", parse_function=parse_pbx_modules)


def discover_pbx_modules(section: list[Module]) -> DiscoveryResult:
    yield Service()


def check_pbx_modules(section: list[Module]) -> CheckResult:
    instances = sum(len(module.instances) for module in section)
    yield Result(state=State.OK, summary=f"{len(section)} modules installed, {instances} instances")
    for module in section:
        names = ", ".join(module.instances) if module.instances else "no instances"
        version = module.version or "(no version)"
        vendor = module.vendor or "unknown vendor"
        yield Result(state=State.OK, notice=f"{module.name} {version} by {vendor}: {names}")
    yield Metric("modules", float(len(section)))
    yield Metric("module_instances", float(instances))


check_plugin_pbx_modules = CheckPlugin(
    name="pbx_modules",
    service_name="Modules",
    discovery_function=discover_pbx_modules,
    check_function=check_pbx_modules,
)
