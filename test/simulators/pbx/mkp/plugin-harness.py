"""Runs the monitoring package's check plug-ins the way a Checkmk site would, without Checkmk.

Usage: python3 -B plugin-harness.py <cmk_addons_plugins folder> < agent-text

A tiny stand-in for ``cmk.agent_based.v2`` (AgentSection, CheckPlugin, Service, Result, State,
Metric, render) is put into ``sys.modules``; ``cmk_addons.plugins`` is pointed at the package's
``cmk_addons_plugins`` folder. Every module of ``<family>/agent_based/`` is imported, plug-ins are
picked up by their variable-name prefixes (``agent_section_``, ``check_plugin_``) as Checkmk's
plug-in discovery does, the agent text from stdin is cut into sections and split into string
tables (white space, or the header's ``sep(n)``), and discovery and check run for every plug-in.

Prints one JSON document: ``{"sections": [...], "services": [{"plugin", "name", "item", "state",
"results": [...], "metrics": [...]}]}``. Any exception ends the run with exit code 1.
"""

import enum
import importlib
import json
import re
import sys
import types
from pathlib import Path


# --- the stand-in for cmk.agent_based.v2 ---------------------------------------------------------


class State(enum.IntEnum):
    OK = 0
    WARN = 1
    CRIT = 2
    UNKNOWN = 3

    @classmethod
    def worst(cls, *states: "State") -> "State":
        if cls.CRIT in states:
            return cls.CRIT
        return cls(max(states))


class Service:
    def __init__(self, *, item=None, parameters=None, labels=None):
        if item is not None and (not isinstance(item, str) or not item):
            raise TypeError(f"item must be a non-empty string: {item!r}")
        self.item = item
        self.parameters = parameters
        self.labels = labels


class Result:
    def __init__(self, *, state, summary=None, notice=None, details=None):
        if not isinstance(state, State):
            raise TypeError(f"state must be a State: {state!r}")
        if (summary is None) == (notice is None):
            raise TypeError("exactly one of summary and notice is required")
        text = summary if summary is not None else notice
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"empty or non-string result text: {text!r}")
        if summary is not None and "\n" in summary:
            raise ValueError(f"a summary must not contain a newline: {summary!r}")
        self.state = state
        self.summary = summary
        self.notice = notice
        self.details = details


class Metric:
    _NAME = re.compile(r"^[a-zA-Z0-9_]+$")

    def __init__(self, name, value, *, levels=None, boundaries=None):
        if not self._NAME.match(name):
            raise ValueError(f"invalid metric name: {name!r}")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"metric {name}: value must be a number: {value!r}")
        for pair in (levels, boundaries):
            if pair is not None and (len(pair) != 2):
                raise TypeError(f"metric {name}: levels and boundaries are pairs")
        self.name = name
        self.value = float(value)
        self.levels = levels
        self.boundaries = boundaries


class AgentSection:
    def __init__(self, *, name, parse_function, parsed_section_name=None, **_ignored):
        self.name = name
        self.parse_function = parse_function
        self.parsed_section_name = parsed_section_name or name


class CheckPlugin:
    def __init__(self, *, name, service_name, discovery_function, check_function, sections=None, **_ignored):
        code = check_function.__code__
        if ("%s" in service_name) != ("item" in code.co_varnames[: code.co_argcount]):
            raise TypeError(f"{name}: an item in the service name needs an item argument and vice versa")
        self.name = name
        self.service_name = service_name
        self.discovery_function = discovery_function
        self.check_function = check_function
        self.sections = list(sections) if sections else [name]


class _Render:
    @staticmethod
    def bytes(value):
        units = ["B", "KiB", "MiB", "GiB", "TiB"]
        size, unit = float(value), 0
        while abs(size) >= 1024 and unit < len(units) - 1:
            size, unit = size / 1024, unit + 1
        return f"{size:.2f} {units[unit]}"

    @staticmethod
    def timespan(seconds):
        return f"{float(seconds):.0f} seconds"

    @staticmethod
    def percent(value):
        return f"{float(value):.2f}%"

    @staticmethod
    def datetime(epoch):
        import time

        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(float(epoch)))


def _install_stubs(part_folder: Path) -> None:
    cmk = types.ModuleType("cmk")
    cmk.__path__ = []
    agent_based = types.ModuleType("cmk.agent_based")
    agent_based.__path__ = []
    v2 = types.ModuleType("cmk.agent_based.v2")
    for name, value in {
        "AgentSection": AgentSection,
        "CheckPlugin": CheckPlugin,
        "Service": Service,
        "Result": Result,
        "State": State,
        "Metric": Metric,
        "render": _Render,
        "StringTable": list,
        "CheckResult": object,
        "DiscoveryResult": object,
    }.items():
        setattr(v2, name, value)
    addons = types.ModuleType("cmk_addons")
    addons.__path__ = []
    plugins = types.ModuleType("cmk_addons.plugins")
    plugins.__path__ = [str(part_folder)]
    sys.modules.update(
        {
            "cmk": cmk,
            "cmk.agent_based": agent_based,
            "cmk.agent_based.v2": v2,
            "cmk_addons": addons,
            "cmk_addons.plugins": plugins,
        }
    )


# --- what the site does ----------------------------------------------------------------------------

_HEADER = re.compile(r"^<<<([A-Za-z0-9_]*)((?::[a-z]+\([^)]*\))*)>>>$")
_SEP = re.compile(r":sep\((\d+)\)")


def load_plugins(part_folder: Path) -> tuple[dict, dict]:
    sections, checks = {}, {}
    for family in sorted(p for p in part_folder.iterdir() if p.is_dir()):
        for source in sorted((family / "agent_based").glob("*.py")):
            module = importlib.import_module(f"cmk_addons.plugins.{family.name}.agent_based.{source.stem}")
            for var, value in vars(module).items():
                if var.startswith("agent_section_") and isinstance(value, AgentSection):
                    if value.name in sections:
                        raise ValueError(f"section {value.name} defined twice")
                    sections[value.name] = value
                elif var.startswith("check_plugin_") and isinstance(value, CheckPlugin):
                    if value.name in checks:
                        raise ValueError(f"check plug-in {value.name} defined twice")
                    checks[value.name] = value
    return sections, checks


def string_tables(text: str) -> dict[str, list[list[str]]]:
    """Sections as Checkmk's agent parser cuts them: bytes split on ASCII white space by default."""
    tables: dict[str, list[list[str]]] = {}
    current, sep = None, None
    for line in text.split("\n"):
        match = _HEADER.match(line)
        if match:
            current = match.group(1) or None
            sep_match = _SEP.search(match.group(2) or "")
            sep = chr(int(sep_match.group(1))) if sep_match else None
            if current is not None:
                tables.setdefault(current, [])
            continue
        if current is None or line == "":
            continue
        if sep is None:
            fields = [part.decode("utf-8") for part in line.encode("utf-8").split()]
        else:
            fields = line.split(sep)
        tables[current].append(fields)
    return tables


def run(part_folder: Path, text: str) -> dict:
    _install_stubs(part_folder)
    sections, checks = load_plugins(part_folder)
    parsed = {}
    for name, table in string_tables(text).items():
        section = sections.get(name)
        if section is not None:
            parsed[section.parsed_section_name] = section.parse_function(table)
    services = []
    for plugin in checks.values():
        if len(plugin.sections) == 1:
            if plugin.sections[0] not in parsed:
                continue
            kwargs = {"section": parsed[plugin.sections[0]]}
        else:
            if not any(name in parsed for name in plugin.sections):
                continue
            kwargs = {f"section_{name}": parsed.get(name) for name in plugin.sections}
        for service in plugin.discovery_function(**kwargs):
            if not isinstance(service, Service):
                raise TypeError(f"{plugin.name}: discovery yielded {service!r}")
            item_args = {"item": service.item} if service.item is not None else {}
            name = plugin.service_name % service.item if service.item is not None else plugin.service_name
            outputs = list(plugin.check_function(**item_args, **kwargs))
            results = [o for o in outputs if isinstance(o, Result)]
            metrics = [o for o in outputs if isinstance(o, Metric)]
            if len(results) + len(metrics) != len(outputs):
                raise TypeError(f"{plugin.name}: check yielded something else than Result or Metric")
            services.append(
                {
                    "plugin": plugin.name,
                    "name": name,
                    "item": service.item,
                    "state": int(State.worst(*(r.state for r in results))) if results else 3,
                    "results": [
                        {"state": int(r.state), "summary": r.summary, "notice": r.notice} for r in results
                    ],
                    "metrics": [
                        {"name": m.name, "value": m.value, "levels": m.levels, "boundaries": m.boundaries}
                        for m in metrics
                    ],
                }
            )
    return {"sections": sorted(parsed), "services": services}


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]), sys.stdin.read())))
