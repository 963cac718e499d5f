"""Section ``<<<pbx_modules>>>``: the service Modules (installed modules and their instances).

Groups of facts, each opened by ``module:``, then ``id``, ``version``, ``vendor`` and one
``instance`` per instance. The state of each instance is the module's local check
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
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import decode_value, fact_lines


@dataclass
class Module:
    name: str
    id: str = ""
    version: str = ""
    vendor: str = ""
    instances: list[str] = field(default_factory=list)


def parse_pbx_modules(string_table: StringTable) -> list[Module]:
    modules: list[Module] = []
    for key, fields in fact_lines(string_table):
        value = decode_value(" ".join(fields))
        if key == "module":
            modules.append(Module(name=value))
        elif modules and key in ("id", "version", "vendor"):
            setattr(modules[-1], key, value)
        elif modules and key == "instance":
            modules[-1].instances.append(value)
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
