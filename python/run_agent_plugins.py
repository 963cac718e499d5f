"""Runs a package's agent-based check plug-ins on agent text, the way a Checkmk site would.

Used by ``pbx-conformance certify-plugin --mkp`` / ``--plugin-dir``; the TypeScript side judges
what this prints. Usage::

    python3 -B run_agent_plugins.py < request.json > outcome.json

The request is ``{"pluginsDir": <folder holding <family>/agent_based/*.py>, "now": <epoch s>,
"texts": [{"label": …, "text": <agent text>}], "probes": {"malformed": bool, "missingItem": bool,
"discoverTwice": bool}}``. The outcome has ``load`` (what was loaded, and every load problem)
and one entry in ``runs`` per text: the sections served and parsed, every exception with its
phase and traceback, every discovered service with its check outputs, and the probes' findings.

What the runner does, and where it follows Checkmk:
- ``cmk.agent_based.v2`` is pbx-conformance's stand-in (``python/cmk``); ``cmk_addons.plugins``
  is the package's folder. Every module of ``<family>/agent_based/`` is imported and plug-ins are
  picked up from module variables by ``entry_point_prefixes()``, as the API reference describes.
- The agent text is cut into sections at ``<<<name[:options]>>>`` headers, piggyback data
  (``<<<<host>>>>``) is skipped, and each line is split on white space, or on ``sep(n)``.
- Parse, discovery and check run with ``time.time()`` fixed at the request's ``now``, so the
  same text always gives the same outcome; each service gets its own value store.
- Output a plug-in prints is captured (the guidelines forbid printing) and reported.
"""

import contextlib
import importlib
import inspect
import io
import json
import re
import sys
import time
import traceback
import types
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_NO_SUCH_ITEM = "zz pbx-conformance missing item"
_HEADER = re.compile(r"^<<<([^<>:]*)((?::[^<>]*)?)>>>\s*$")
_PIGGYBACK = re.compile(r"^<<<<([^<>]*)>>>>\s*$")
_SEP = re.compile(r":sep\((\d+)\)")
_NUMBER_TOKEN = re.compile(r"^[-+]?\d+(?:\.\d+)?$")
_NAME = re.compile(r"^[A-Za-z0-9_]+$")


def _error(phase, exc, **where):
    """An exception as evidence: where it happened, its type and message, the traceback's tail."""
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    text = "".join(lines).splitlines()
    kind = type(exc)
    if getattr(exc, "api_rule", None) is not None:
        kind = kind.__mro__[1]  # the reference's TypeError / ValueError, not the stand-in's marker class
    return {
        "phase": phase,
        **where,
        "type": kind.__name__,
        "message": str(exc)[:2000],
        "apiRule": getattr(exc, "api_rule", None),
        "traceback": "\n".join(text[-16:]),
    }


# --- loading --------------------------------------------------------------------------------------


def _install(plugins_dir: Path, now: float):
    time.time = lambda: float(now)
    time.time_ns = lambda: int(now * 1e9)
    sys.path.insert(0, str(_HERE))
    v2 = importlib.import_module("cmk.agent_based.v2")
    addons = types.ModuleType("cmk_addons")
    addons.__path__ = []
    plugins = types.ModuleType("cmk_addons.plugins")
    plugins.__path__ = [str(plugins_dir)]
    sys.modules["cmk_addons"] = addons
    sys.modules["cmk_addons.plugins"] = plugins
    return v2


def _parameters(function):
    try:
        return list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return None


def _check_signatures(plugin, sections, problems):
    """The argument rules the reference states for ``CheckPlugin`` (checked when Checkmk loads)."""
    wants_item = "%s" in plugin.service_name
    section_args = ["section"] if len(sections) == 1 else [f"section_{s}" for s in sections]
    discovery = (["params"] if plugin.discovery_default_parameters is not None else []) + section_args
    check = (
        (["item"] if wants_item else [])
        + (["params"] if plugin.check_default_parameters is not None else [])
        + section_args
    )
    for kind, function, expected in (
        ("discovery", plugin.discovery_function, discovery),
        ("check", plugin.check_function, check),
    ):
        got = _parameters(function)
        if got is None:
            problems.append(f"check plug-in {plugin.name}: its {kind} function is not a function")
        elif got != expected:
            problems.append(
                f"check plug-in {plugin.name}: the {kind} function takes ({', '.join(got)}),"
                f" the reference requires ({', '.join(expected)})"
                + (" ('item' if and only if the service name has %s)" if kind == "check" else "")
            )


def load(plugins_dir: Path, v2):
    """Imports every ``<family>/agent_based/*.py`` and collects the plug-ins by prefix."""
    prefixes = v2.entry_point_prefixes()
    sections, checks, errors, problems, skipped = {}, {}, [], [], {"snmpSections": 0, "inventoryPlugins": 0}
    if not plugins_dir.is_dir():
        problems.append(f"{plugins_dir} is not a folder")
    families = sorted(p for p in plugins_dir.iterdir() if p.is_dir()) if plugins_dir.is_dir() else []
    modules = [
        (family.name, source.stem)
        for family in families
        if not family.name.startswith((".", "_"))
        for source in sorted((family / "agent_based").glob("*.py"))
        if not source.name.startswith("_")
    ]
    if not modules:
        problems.append("no module in <family>/agent_based/ (cmk_addons_plugins part of an MKP)")
    for family, stem in modules:
        name = f"cmk_addons.plugins.{family}.agent_based.{stem}"
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                module = importlib.import_module(name)
        except BaseException as exc:  # noqa: BLE001 - a plug-in's import error is evidence
            error = _error("import", exc, module=name)
            missing = getattr(exc, "name", None) or ""
            if isinstance(exc, ModuleNotFoundError) and (missing == "cmk" or missing.startswith("cmk.")):
                error["message"] += " (plug-ins may import only Checkmk's public API; the stand-in provides cmk.agent_based.v2)"
            errors.append(error)
            continue
        for var, value in vars(module).items():
            for cls, prefix in prefixes.items():
                if not isinstance(value, cls):
                    continue
                if not var.startswith(prefix):
                    break
                if cls is v2.AgentSection:
                    if value.name in sections:
                        problems.append(f"agent section {value.name} is defined twice")
                    sections[value.name] = value
                elif cls is v2.CheckPlugin:
                    if value.name in checks:
                        problems.append(f"check plug-in {value.name} is defined twice")
                    checks[value.name] = value
                elif cls is v2.InventoryPlugin:
                    skipped["inventoryPlugins"] += 1
                else:
                    skipped["snmpSections"] += 1
                break
    for section in sections.values():
        if not isinstance(section.name, str) or not _NAME.match(section.name):
            problems.append(f"agent section name {section.name!r} is not made of A-Z a-z 0-9 _")
        if _parameters(section.parse_function) != ["string_table"]:
            problems.append(f"agent section {section.name}: the parse function must take exactly 'string_table'")
    for plugin in checks.values():
        if not isinstance(plugin.name, str) or not _NAME.match(plugin.name):
            problems.append(f"check plug-in name {plugin.name!r} is not made of A-Z a-z 0-9 _")
            continue
        if not isinstance(plugin.service_name, str) or plugin.service_name.count("%s") > 1:
            problems.append(f"check plug-in {plugin.name}: service name {plugin.service_name!r}")
            continue
        _check_signatures(plugin, plugin.sections or [plugin.name], problems)
    if not errors and modules and not checks:
        problems.append("the package defines no check plug-in (no variable check_plugin_… = CheckPlugin(…))")
    return sections, checks, errors, problems, skipped


# --- the agent text -----------------------------------------------------------------------------


def string_tables(text: str) -> dict:
    """Sections as Checkmk's agent parser cuts them (white space, or the header's ``sep(n)``)."""
    tables: dict = {}
    current, sep, piggyback = None, None, False
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if _PIGGYBACK.match(line):
            piggyback = _PIGGYBACK.match(line).group(1) != ""
            current = None
            continue
        match = _HEADER.match(line)
        if match:
            current = match.group(1) or None
            sep_match = _SEP.search(match.group(2) or "")
            sep = chr(int(sep_match.group(1))) if sep_match else None
            if current is not None and not piggyback:
                tables.setdefault(current, [])
            continue
        if current is None or piggyback or line == "":
            continue
        if sep is None:
            words = [part.decode("utf-8", "surrogateescape") for part in line.encode("utf-8", "surrogateescape").split()]
        else:
            words = line.split(sep)
        tables[current].append(words)
    return tables


# --- running --------------------------------------------------------------------------------------


class Runner:
    def __init__(self, v2, sections, checks):
        self.v2 = v2
        self.sections = sections
        self.checks = checks
        self.printed = io.StringIO()

    def parse(self, tables, errors, only=None):
        parsed = {}
        for raw_name, table in tables.items():
            section = self.sections.get(raw_name)
            if section is None or (only is not None and raw_name not in only):
                continue
            try:
                with contextlib.redirect_stdout(self.printed):
                    value = section.parse_function([list(line) for line in table])
            except BaseException as exc:  # noqa: BLE001
                errors.append(_error("parse", exc, section=raw_name))
                continue
            if value is not None:
                parsed[section.parsed_section_name or section.name] = value
        return parsed

    def _section_kwargs(self, plugin, parsed):
        names = plugin.sections or [plugin.name]
        if len(names) == 1:
            return None if names[0] not in parsed else {"section": parsed[names[0]]}
        if not any(n in parsed for n in names):
            return None
        return {f"section_{n}": parsed.get(n) for n in names}

    def discover(self, parsed, errors, plugins=None):
        found = []
        for plugin in self.checks.values():
            if plugins is not None and plugin.name not in plugins:
                continue
            kwargs = self._section_kwargs(plugin, parsed)
            if kwargs is None:
                continue
            if plugin.discovery_default_parameters is not None:
                kwargs = {"params": dict(plugin.discovery_default_parameters), **kwargs}
            try:
                with contextlib.redirect_stdout(self.printed):
                    services = list(plugin.discovery_function(**kwargs))
            except BaseException as exc:  # noqa: BLE001
                errors.append(_error("discovery", exc, plugin=plugin.name))
                continue
            for service in services:
                if not isinstance(service, self.v2.Service):
                    errors.append(
                        {
                            "phase": "discovery",
                            "plugin": plugin.name,
                            "type": "TypeError",
                            "message": f"discovery yielded {service!r}, not a Service",
                            "apiRule": "api",
                            "traceback": "",
                        }
                    )
                    continue
                found.append((plugin, service))
        return found

    def check(self, plugin, item, parameters, parsed, store):
        """Runs one check; returns ``(outputs, ignored, error)``."""
        kwargs = self._section_kwargs(plugin, parsed) or {}
        if plugin.check_default_parameters is not None:
            kwargs = {"params": {**plugin.check_default_parameters, **parameters}, **kwargs}
        if "%s" in plugin.service_name:
            kwargs = {"item": item, **kwargs}
        self.v2._set_value_store(store)
        outputs, ignored = [], False
        try:
            with contextlib.redirect_stdout(self.printed):
                for output in plugin.check_function(**kwargs):
                    if isinstance(output, self.v2.IgnoreResults):
                        ignored = True
                    elif isinstance(output, (self.v2.Result, self.v2.Metric)):
                        outputs.append(output)
                    else:
                        raise TypeError(f"the check yielded {output!r}, not a Result, Metric or IgnoreResults")
        except self.v2.IgnoreResultsError:
            return outputs, True, None
        except BaseException as exc:  # noqa: BLE001
            return outputs, ignored, _error("check", exc, plugin=plugin.name, item=item)
        return outputs, ignored, None

    def service_record(self, plugin, service, outputs, ignored, error):
        item = service.item
        name = plugin.service_name.replace("%s", item) if item is not None else plugin.service_name
        results = [o for o in outputs if isinstance(o, self.v2.Result)]
        metrics = [o for o in outputs if isinstance(o, self.v2.Metric)]
        state = int(self.v2.State.worst(*(r.state for r in results))) if results else None
        return {
            "plugin": plugin.name,
            "item": item,
            "name": name,
            "state": state,
            "ignored": ignored,
            "error": error,
            "results": [{"state": int(r.state), "summary": r.summary, "details": r.details} for r in results],
            "metrics": [
                {"name": m.name, "value": m.value, "levels": list(m.levels), "boundaries": list(m.boundaries)}
                for m in metrics
            ],
        }

    def check_all(self, found, parsed, stores):
        records = []
        for plugin, service in found:
            key = (plugin.name, service.item)
            store = stores.setdefault(key, {})
            outputs, ignored, error = self.check(plugin, service.item, dict(service.parameters), parsed, store)
            records.append(self.service_record(plugin, service, outputs, ignored, error))
        return records

    def run(self, text, probes):
        errors = []
        tables = string_tables(text)
        parsed = self.parse(tables, errors)
        found = self.discover(parsed, errors)
        services = self.check_all(found, parsed, {})
        errors.extend(s["error"] for s in services if s["error"])
        outcome = {
            "sectionsServed": sorted(tables),
            "sectionsParsed": sorted(parsed),
            "errors": errors,
            "services": services,
        }
        if probes.get("discoverTwice"):
            again_errors = []
            again = self.discover(self.parse(tables, again_errors), again_errors)
            first = sorted(f"{p.name}\x00{s.item}" for p, s in found)
            second = sorted(f"{p.name}\x00{s.item}" for p, s in again)
            outcome["discoveryRepeat"] = {
                "same": first == second and not again_errors,
                "first": [_service_label(self.checks, k) for k in first],
                "second": [_service_label(self.checks, k) for k in second],
            }
        if probes.get("missingItem"):
            outcome["missingItem"] = self.probe_missing_item(parsed, found)
        if probes.get("malformed") and not errors:
            outcome["malformed"] = self.probe_malformed(tables, parsed, services)
        printed = self.printed.getvalue()
        if printed:
            outcome["printed"] = printed[:4000]
        return outcome

    def probe_missing_item(self, parsed, found):
        """Checks each plug-in with an item on an item no discovery yielded: the guidelines ask
        for no result at all (Checkmk then reports the item as missing), not a made-up one."""
        probes = []
        discovered = {(p.name, s.item) for p, s in found}
        for plugin in self.checks.values():
            if "%s" not in plugin.service_name or self._section_kwargs(plugin, parsed) is None:
                continue
            if (plugin.name, _NO_SUCH_ITEM) in discovered:
                continue
            outputs, ignored, error = self.check(plugin, _NO_SUCH_ITEM, {}, parsed, {})
            record = self.service_record(plugin, self.v2.Service(item=_NO_SUCH_ITEM), outputs, ignored, error)
            probes.append(record)
        return probes

    def probe_malformed(self, tables, parsed, services):
        """For each section the package parses: every whole-number field but a line's first (often
        the item's name) replaced by ``x``. The
        plug-ins on that section must raise, or report exactly what they report on the
        well-formed text (then they do not read those fields); anything else is made-up data."""
        findings = []
        for raw_name, table in tables.items():
            section = self.sections.get(raw_name)
            if section is None:
                continue
            corrupted, replaced = [], 0
            for line in table:
                words = []
                for index, word in enumerate(line):
                    if index > 0 and _NUMBER_TOKEN.match(word):
                        words.append("x")
                        replaced += 1
                    else:
                        words.append(word)
                corrupted.append(words)
            if replaced == 0:
                continue
            parsed_name = section.parsed_section_name or section.name
            plugins = {p.name for p in self.checks.values() if parsed_name in (p.sections or [p.name])}
            if not plugins:
                continue
            errors = []
            bad = self.parse({raw_name: corrupted}, errors)
            finding = {"section": raw_name, "fieldsReplaced": replaced, "plugins": sorted(plugins)}
            if not errors:
                mixed = {k: v for k, v in parsed.items() if k != parsed_name}
                if parsed_name in bad:
                    mixed[parsed_name] = bad[parsed_name]
                found = self.discover(mixed, errors, plugins)
                if not errors:
                    records = self.check_all(found, mixed, {})
                    errors.extend(r["error"] for r in records if r["error"])
                    if not errors:
                        clean = {s["name"]: _comparable(s) for s in services if s["plugin"] in plugins}
                        dirty = {r["name"]: _comparable(r) for r in records}
                        finding["changed"] = [
                            {"service": name, "wellFormed": clean.get(name), "malformed": dirty.get(name)}
                            for name in sorted(set(clean) | set(dirty))
                            if clean.get(name) != dirty.get(name)
                        ][:5]
            finding["raised"] = errors[0] if errors else None
            findings.append(finding)
        return findings


def _comparable(record):
    if record is None:
        return None
    return {
        "state": record["state"],
        "results": [r["details"] for r in record["results"]],
        "metrics": [[m["name"], m["value"]] for m in record["metrics"]],
    }


def _service_label(checks, key):
    name, _, item = key.partition("\x00")
    plugin = checks[name]
    return plugin.service_name.replace("%s", item) if "%s" in plugin.service_name else plugin.service_name


def main():
    request = json.load(sys.stdin)
    real_stdout = sys.stdout
    v2 = _install(Path(request["pluginsDir"]), request.get("now", time.time()))
    sections, checks, errors, problems, skipped = load(Path(request["pluginsDir"]), v2)
    outcome = {
        "load": {
            "errors": errors,
            "problems": problems,
            "sections": sorted(sections),
            "checks": [
                {
                    "name": p.name,
                    "serviceName": p.service_name,
                    "sections": list(p.sections or [p.name]),
                    "runnable": any(s in {x.parsed_section_name or x.name for x in sections.values()} for s in (p.sections or [p.name])),
                }
                for p in checks.values()
                if isinstance(p.name, str)
            ],
            "skipped": skipped,
        },
        "runs": [],
    }
    if not errors and not problems:
        runner = Runner(v2, sections, checks)
        for entry in request.get("texts", []):
            runner.printed = io.StringIO()
            result = runner.run(entry["text"], request.get("probes", {}))
            outcome["runs"].append({"label": entry["label"], **result})
    real_stdout.write(json.dumps(outcome))
    real_stdout.write("\n")


if __name__ == "__main__":
    main()
