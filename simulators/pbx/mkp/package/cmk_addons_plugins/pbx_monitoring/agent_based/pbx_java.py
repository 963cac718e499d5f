"""Section ``<<<pbx_java>>>``: the service Java (runtime VM, heap against its maximum)."""

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
    render,
)
from cmk_addons.plugins.pbx_monitoring.lib.agent_lines import key_values, number, upper_levels_state, used_max

#: Heap usage levels in percent of the maximum heap.
HEAP_LEVELS = (80.0, 90.0)


@dataclass(frozen=True)
class JavaSection:
    vm_name: str
    vm_vendor: str
    version: str
    memory: Mapping[str, float | None]


def parse_pbx_java(string_table: StringTable) -> JavaSection:
    """``java_vm_name``, ``java_vm_vendor``, ``java_vm_version``, ``java_version``,
    ``java_heap_memory <used>/<max>``, ``java_non_heap_memory <used>/<max>`` (max ``-1`` is
    unlimited) and ``java_max_memory <bytes>``."""
    values = key_values(string_table)
    heap_used, heap_max = used_max(values.get("java_heap_memory"))
    non_heap_used, non_heap_max = used_max(values.get("java_non_heap_memory"))
    return JavaSection(
        vm_name=values.get("java_vm_name", ""),
        vm_vendor=values.get("java_vm_vendor", ""),
        version=values.get("java_version", ""),
        memory={
            "heap_used": heap_used,
            "heap_max": heap_max,
            "non_heap_used": non_heap_used,
            "non_heap_max": non_heap_max,
            "max_memory": number(values.get("java_max_memory")),
        },
    )


agent_section_pbx_java = AgentSection(name="pbx_java", parse_function=parse_pbx_java)


def discover_pbx_java(section: JavaSection) -> DiscoveryResult:
    yield Service()


def _bytes(value: float | None) -> str:
    return render.bytes(value) if value is not None else "unknown"


def check_pbx_java(section: JavaSection) -> CheckResult:
    yield Result(state=State.OK, summary=f"{section.vm_name or 'unknown VM'} {section.version}".strip())
    used, heap_max = section.memory.get("heap_used"), section.memory.get("heap_max")
    if used is not None and heap_max is not None and heap_max > 0:
        usage = 100.0 * used / heap_max
        warn, crit = HEAP_LEVELS
        state = State(upper_levels_state(usage, warn, crit))
        text = f"Heap: {_bytes(used)} of {_bytes(heap_max)} ({render.percent(usage)})"
        if state != State.OK:
            text += f" (warn/crit at {render.percent(warn)}/{render.percent(crit)})"
        yield Result(state=state, summary=text)
        yield Metric(
            "mem_heap",
            used,
            levels=(heap_max * warn / 100.0, heap_max * crit / 100.0),
            boundaries=(0.0, heap_max),
        )
        yield Metric("mem_heap_max", heap_max)
    else:
        yield Result(state=State.OK, summary=f"Heap: {_bytes(used)} (maximum {_bytes(heap_max)})")
        if used is not None:
            yield Metric("mem_heap", used)
    non_heap = section.memory.get("non_heap_used")
    non_heap_max = section.memory.get("non_heap_max")
    limit = f" of {_bytes(non_heap_max)}" if non_heap_max is not None else ""
    yield Result(state=State.OK, summary=f"Non-heap: {_bytes(non_heap)}{limit}")
    if non_heap is not None:
        yield Metric("mem_nonheap", non_heap)
    yield Result(state=State.OK, notice=f"Maximum memory: {_bytes(section.memory.get('max_memory'))}")
    if section.vm_vendor:
        yield Result(state=State.OK, notice=f"VM vendor: {section.vm_vendor}")


check_plugin_pbx_java = CheckPlugin(
    name="pbx_java",
    service_name="Java",
    discovery_function=discover_pbx_java,
    check_function=check_pbx_java,
)
