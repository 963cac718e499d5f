"""pbx-conformance's stand-in for ``cmk.agent_based.v2``, Checkmk's agent-based check API.

Checkmk cannot be installed where ``certify-plugin --mkp`` runs, so this module gives a vendor's
plug-ins the names, signatures and documented behaviour of the API's public reference ("Checkmk's
Plug-in APIs" › "Agent based ("Check API")" › "Version 2", docs.checkmk.com/plugin-api/). Each
name's docstring cites the part of the reference it follows. Where the reference leaves a
behaviour open, the docstring says so and follows what Checkmk's published examples show
(docs.checkmk.com "Developing agent-based check plug-ins", devel_check_plugins).

What is checked at construction is what the reference states (e.g. ``Result`` needs exactly one
of ``summary`` and ``notice``, a ``summary`` has no newline); the errors are the reference's
``TypeError`` and ``ValueError``. They carry an ``api_rule`` attribute naming the rule of
certify-plugin they touch, so the runner can tell an API misuse from any other exception.

Agent sections and check plug-ins are run by pbx-conformance's runner (``run_agent_plugins.py``);
SNMP sections and inventory plug-ins are accepted so that a package holding them loads, and are
not run: the PBX is monitored through its agent output only.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from typing import Any, Literal, NamedTuple, Union

from . import clusterize, render

__all__ = [
    "entry_point_prefixes",
    "AgentSection",
    "AgentParseFunction",
    "CheckPlugin",
    "SNMPSection",
    "SimpleSNMPSection",
    "SNMPDetectSpecification",
    "InventoryPlugin",
    "CheckResult",
    "DiscoveryResult",
    "HostLabelGenerator",
    "InventoryResult",
    "StringByteTable",
    "StringTable",
    "all_of",
    "any_of",
    "exists",
    "equals",
    "startswith",
    "endswith",
    "contains",
    "matches",
    "not_exists",
    "not_equals",
    "not_contains",
    "not_endswith",
    "not_matches",
    "not_startswith",
    "Attributes",
    "check_levels",
    "LevelsT",
    "FixedLevelsT",
    "NoLevelsT",
    "PredictiveLevelsT",
    "clusterize",
    "get_average",
    "get_rate",
    "get_value_store",
    "HostLabel",
    "IgnoreResults",
    "IgnoreResultsError",
    "Metric",
    "OIDBytes",
    "OIDCached",
    "OIDEnd",
    "render",
    "Result",
    "RuleSetType",
    "Service",
    "ServiceLabel",
    "SNMPTree",
    "State",
    "TableRow",
    "GetRateError",
]


class ApiTypeError(TypeError):
    """A ``TypeError`` the reference documents, marked with the certify-plugin rule it touches."""

    def __init__(self, message: str, api_rule: str) -> None:
        super().__init__(message)
        self.api_rule = api_rule


class ApiValueError(ValueError):
    """A ``ValueError`` the reference documents, marked with the certify-plugin rule it touches."""

    def __init__(self, message: str, api_rule: str) -> None:
        super().__init__(message)
        self.api_rule = api_rule


# --- type aliases (reference: "CheckResult", "DiscoveryResult", "StringTable", …) ----------------

#: Reference: ``StringTable``: the lines of a section, each a list of words.
StringTable = list[list[str]]
#: Reference: ``StringByteTable``: SNMP tables whose cells may be byte lists.
StringByteTable = list[list[Union[str, list[int]]]]
#: Reference: ``CheckResult``: what a check function yields (``Result``, ``Metric``, ``IgnoreResults``).
CheckResult = Iterable[Any]
#: Reference: ``DiscoveryResult``: what a discovery function yields (``Service``).
DiscoveryResult = Iterable[Any]
#: Reference: ``HostLabelGenerator``: what a host label function yields (``HostLabel``).
HostLabelGenerator = Iterable[Any]
#: Reference: ``InventoryResult``: what an inventory function yields (``Attributes``, ``TableRow``).
InventoryResult = Iterable[Any]
#: Reference: ``AgentParseFunction``: ``Callable[[StringTable], section]``.
AgentParseFunction = Callable[[StringTable], Any]

#: Reference: ``NoLevelsT``: ``("no_levels", None)``.
NoLevelsT = tuple[Literal["no_levels"], None]
#: Reference: ``FixedLevelsT``: ``("fixed", (warn, crit))``.
FixedLevelsT = tuple[Literal["fixed"], tuple[float, float]]
#: Reference: ``PredictiveLevelsT``: ``("predictive", (metric, predicted value or None,
#: (warn, crit) or None))``; Checkmk's core fills in the prediction before the check runs.
PredictiveLevelsT = tuple[Literal["predictive"], tuple[str, Union[float, None], Union[tuple[float, float], None]]]
#: Reference: ``LevelsT``: one of the three level forms.
LevelsT = Union[NoLevelsT, FixedLevelsT, PredictiveLevelsT]


# --- State ----------------------------------------------------------------------------------------


class State(enum.Enum):
    """Reference: ``State``: ``OK`` (0), ``WARN`` (1), ``CRIT`` (2), ``UNKNOWN`` (3).

    Deliberately not an ``IntEnum`` (as the reference's class is not): states do not compare with
    ``<``, because CRIT is worse than UNKNOWN although its number is smaller. ``int(state)`` gives
    the number.
    """

    OK = 0
    WARN = 1
    CRIT = 2
    UNKNOWN = 3

    def __int__(self) -> int:
        return int(self.value)

    @classmethod
    def worst(cls, *args: State | int) -> State:
        """Reference: ``State.worst()``: the worst of the states given, in the order
        OK < WARN < UNKNOWN < CRIT; plain numbers 0-3 are accepted as their states.
        ``State.worst(State.OK, State.WARN, State.CRIT, State.UNKNOWN)`` is ``State.CRIT``."""
        states = [cls(int(s)) for s in args]
        return max(states, key=_SEVERITY.__getitem__)

    @classmethod
    def best(cls, *args: State | int) -> State:
        """Reference: ``State.best()``: the best of the states given, in the same order as
        ``worst``: ``State.best(State.OK, State.WARN, State.CRIT, State.UNKNOWN)`` is ``State.OK``."""
        states = [cls(int(s)) for s in args]
        return min(states, key=_SEVERITY.__getitem__)


#: Severity rank: UNKNOWN sorts between WARN and CRIT (reference: ``State.worst``/``best``).
_SEVERITY = {State.OK: 0, State.WARN: 1, State.UNKNOWN: 2, State.CRIT: 3}


# --- labels, services ---------------------------------------------------------------------------


class _Label(NamedTuple):
    name: str
    value: str


class HostLabel(_Label):
    """Reference: ``HostLabel(name, value)``: both must be strings (``TypeError`` otherwise)."""

    __slots__ = ()

    def __new__(cls, name: str, value: str) -> HostLabel:
        _require_strings(cls.__name__, name, value)
        return super().__new__(cls, name, value)


class ServiceLabel(_Label):
    """Reference: ``ServiceLabel(name, value)``: both must be strings (``TypeError`` otherwise)."""

    __slots__ = ()

    def __new__(cls, name: str, value: str) -> ServiceLabel:
        _require_strings(cls.__name__, name, value)
        return super().__new__(cls, name, value)


def _require_strings(kind: str, name: object, value: object) -> None:
    if not isinstance(name, str):
        raise ApiTypeError(f"{kind}: invalid label name {name!r}, expected a string", "api")
    if not isinstance(value, str):
        raise ApiTypeError(f"{kind}: invalid label value {value!r}, expected a string", "api")


class _ServiceFields(NamedTuple):
    item: str | None
    parameters: Mapping[str, object]
    labels: Sequence[ServiceLabel]


class Service(_ServiceFields):
    """Reference: ``Service(*, item=None, parameters=None, labels=None)``, yielded by discovery.

    ``item`` is a non-empty string or omitted; ``parameters`` a dict with string keys;
    ``labels`` a list of ``ServiceLabel``. Anything else is a ``TypeError``.
    """

    __slots__ = ()

    def __new__(  # type: ignore[misc]
        cls,
        *,
        item: str | None = None,
        parameters: Mapping[str, object] | None = None,
        labels: Sequence[ServiceLabel] | None = None,
    ) -> Service:
        if item is not None and (not isinstance(item, str) or not item):
            raise ApiTypeError(f"'item' must be a non-empty string or omitted, got {item!r}", "api")
        if parameters is None:
            parameters = {}
        elif not isinstance(parameters, dict) or not all(isinstance(k, str) for k in parameters):
            raise ApiTypeError(f"'parameters' must be a dict or None, got {parameters!r}", "api")
        if not labels:
            labels = []
        elif not isinstance(labels, list) or not all(isinstance(x, ServiceLabel) for x in labels):
            raise ApiTypeError(f"'labels' must be a list of ServiceLabel or None, got {labels!r}", "api")
        return super().__new__(cls, item, parameters, labels)


# --- Result, Metric -----------------------------------------------------------------------------


class _ResultFields(NamedTuple):
    state: State
    summary: str
    details: str


class Result(_ResultFields):
    """Reference: ``Result(*, state, summary=None, notice=None, details=None)``.

    Exactly one of ``summary`` and ``notice`` is given, each a non-empty string; a ``summary``
    holds no newline (``ValueError``). ``notice`` shows in the summary only when the state is
    not OK (its newlines become ``", "`` there); ``details`` defaults to the summary or notice.
    The fields are ``state``, ``summary`` (empty for an OK notice) and ``details``.
    """

    __slots__ = ()

    def __new__(  # type: ignore[misc]
        cls,
        *,
        state: State,
        summary: str | None = None,
        notice: str | None = None,
        details: str | None = None,
    ) -> Result:
        if not isinstance(state, State):
            raise ApiTypeError(f"'state' must be a State, got {state!r}", "result-text")
        for name, text in (("summary", summary), ("notice", notice), ("details", details)):
            if text is None:
                continue
            if not isinstance(text, str):
                raise ApiTypeError(f"'{name}' must be a non-empty str or None, got {text!r}", "result-text")
            if not text:
                raise ApiValueError(f"'{name}' must be a non-empty str or None, got {text!r}", "result-text")
        if summary and notice:
            raise ApiTypeError("'summary' and 'notice' are mutually exclusive arguments", "result-text")
        if summary:
            if "\n" in summary:
                raise ApiValueError("'\\n' not allowed in 'summary'", "result-text")
            return super().__new__(cls, state, summary, details or summary)
        if notice:
            shown = notice.replace("\n", ", ") if state is not State.OK else ""
            return super().__new__(cls, state, shown, details or notice)
        raise ApiTypeError("at least 'summary' or 'notice' is required", "result-text")


def _optional_pair(field: str, pair: object) -> tuple[float | None, float | None]:
    if pair is None:
        return (None, None)
    if not isinstance(pair, tuple) or len(pair) != 2:
        raise ApiTypeError(f"{field!r} for metric must be a 2-tuple or None", "api")
    out: list[float | None] = []
    for value in pair:
        if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool)):
            raise ApiTypeError(f"{field} values for metric must be float, int or None", "api")
        out.append(None if value is None else float(value))
    return (out[0], out[1])


class _MetricFields(NamedTuple):
    name: str
    value: float
    levels: tuple[float | None, float | None]
    boundaries: tuple[float | None, float | None]


class Metric(_MetricFields):
    """Reference: ``Metric(name, value, *, levels=None, boundaries=None)``.

    The reference refuses an empty name and the characters space, ``:``, ``/`` and ``\\``
    (``TypeError``); it does not enforce the guidelines' lower-case-with-underscores form, and
    neither does this stand-in: certify-plugin judges that as a rule of its own. ``value`` must
    be an ``int`` or ``float``; ``levels`` (upper warn/crit, for graphs only) and ``boundaries``
    (min/max) are pairs of numbers or ``None``.
    """

    __slots__ = ()

    def __new__(  # type: ignore[misc]
        cls,
        name: str,
        value: float,
        *,
        levels: tuple[float | None, float | None] | None = None,
        boundaries: tuple[float | None, float | None] | None = None,
    ) -> Metric:
        if not isinstance(name, str) or not name:
            raise ApiTypeError("metric name must not be empty", "metric-name")
        bad = sorted(set(name) & {" ", ":", "/", "\\"})
        if bad:
            raise ApiTypeError(f"invalid character(s) in metric name: {''.join(bad)!r}", "metric-name")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ApiTypeError(f"value for metric must be float or int, got {value!r}", "api")
        return super().__new__(
            cls, name, float(value), _optional_pair("levels", levels), _optional_pair("boundaries", boundaries)
        )


class IgnoreResultsError(RuntimeError):
    """Reference: ``IgnoreResultsError``: raised by a check function, the service goes stale
    (keeps its last state) instead of crashing."""


class GetRateError(IgnoreResultsError):
    """Reference: ``GetRateError``: raised by ``get_rate`` when no rate can be computed yet."""


class IgnoreResults:
    """Reference: ``IgnoreResults(value="currently no results")``: yielded by a check function,
    the service goes stale, but the function runs on (e.g. to initialise all counters)."""

    def __init__(self, value: str = "currently no results") -> None:
        self._value = value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._value!r})"

    def __str__(self) -> str:
        return self._value


# --- check_levels -------------------------------------------------------------------------------


def _two_decimals(value: float) -> str:
    return f"{value:.2f}"


class _Judged(NamedTuple):
    state: State
    #: The fixed or predicted levels in force, for the Metric's ``levels`` (upper only).
    levels: tuple[float, float] | None
    text: str
    predictive: bool
    prediction: Metric | None


def _judge(value: float, levels: object, upper: bool, render_func: Callable[[float], str]) -> _Judged:
    """One direction of ``check_levels``. Reference: ``check_levels`` with ``LevelsT``: upper
    levels are reached at ``value >= level``, lower levels below ``value < level`` (the
    guidelines: thresholds compare with ``>=``/``<=``, and "warn/crit below" for lower levels)."""
    if levels is None or levels == ("no_levels", None):
        return _Judged(State.OK, None, "", False, None)
    if not isinstance(levels, tuple) or len(levels) != 2:
        raise ApiTypeError(f"Incorrect level parameters: {levels!r}", "api")
    kind, spec = levels
    prediction: Metric | None = None
    predictive = False
    if kind == "fixed" and isinstance(spec, tuple) and len(spec) == 2:
        pair = spec
    elif kind == "predictive" and isinstance(spec, tuple) and len(spec) == 3:
        metric, predicted, pair = spec
        if not isinstance(metric, str):
            raise ApiTypeError(f"Incorrect level parameters: {levels!r}", "api")
        predictive = True
        if predicted is not None:
            prediction = Metric(f"predict_{metric}" if upper else f"predict_lower_{metric}", predicted)
        if pair is None:
            return _Judged(State.OK, None, "", True, prediction)
    else:
        raise ApiTypeError(f"Incorrect level parameters: {levels!r}", "api")
    warn, crit = pair
    if upper:
        state = State.CRIT if value >= crit else State.WARN if value >= warn else State.OK
    else:
        state = State.CRIT if value < crit else State.WARN if value < warn else State.OK
    text = ""
    if state is not State.OK:
        where = "at" if upper else "below"
        text = f"(warn/crit {where} {render_func(warn)}/{render_func(crit)})"
    return _Judged(state, (warn, crit), text, predictive, prediction)


def _prediction_text(upper: _Judged, lower: _Judged, render_func: Callable[[float], str]) -> tuple[list[Metric], str]:
    """Reference: ``check_levels`` with predictive levels adds ``(prediction: <value>)`` (or
    ``N/A`` without a prediction) and the metric ``predict_<metric>`` / ``predict_lower_<metric>``.
    The exact wording for two different predictions is not in the reference's text; it follows
    the reference implementation's published behaviour: ``(upper levels prediction: …, lower
    levels prediction: …)``."""
    if not (upper.predictive or lower.predictive):
        return [], ""
    metrics = [m for m in (upper.prediction, lower.prediction) if m is not None]
    if not metrics:
        return [], "(prediction: N/A)"
    if len(metrics) == 1 or metrics[0].value == metrics[1].value:
        return metrics, f"(prediction: {render_func(metrics[0].value)})"
    return metrics, (
        f"(upper levels prediction: {render_func(metrics[0].value)}, "
        f"lower levels prediction: {render_func(metrics[1].value)})"
    )


def check_levels(
    value: float,
    *,
    levels_upper: LevelsT | None = None,
    levels_lower: LevelsT | None = None,
    metric_name: str | None = None,
    render_func: Callable[[float], str] | None = None,
    label: str | None = None,
    boundaries: tuple[float | None, float | None] | None = None,
    notice_only: bool = False,
) -> Iterator[Result | Metric]:
    """Reference: ``check_levels()`` (v2 signature, "check_levels signature changed" in "New in
    this version").

    Yields one ``Result`` whose state is the worse of the upper and lower judgement and whose text
    is ``"<label>: <rendered value>"`` followed by the prediction and the levels reached, e.g.
    ``check_levels(23.0, levels_upper=("fixed", (12.0, 42.0)), metric_name="temperature",
    label="Fridge", render_func=lambda v: "%.1f°" % v)`` gives the summary
    ``Fridge: 23.0° (warn/crit at 12.0°/42.0°)``; with ``notice_only`` the text is a notice. Then,
    with a ``metric_name``, a ``Metric`` carrying the upper levels and the boundaries, then any
    prediction metrics. Levels are ``("no_levels", None)``, ``("fixed", (warn, crit))`` or
    ``("predictive", (metric, prediction, (warn, crit) or None))``; anything else — also the
    bare ``(warn, crit)`` tuple of the v1 API — raises ``TypeError``. Without a ``render_func``
    values are shown with two decimals.
    """
    show = render_func or _two_decimals
    upper = _judge(value, levels_upper, True, show)
    lower = _judge(value, levels_lower, False, show)
    state = State.worst(upper.state, lower.state)
    predictions, prediction_text = _prediction_text(upper, lower, show)
    shown = show(value)
    parts = [f"{label}: {shown}" if label else shown, prediction_text, upper.text, lower.text]
    text = " ".join(p for p in parts if p)
    yield Result(state=state, notice=text) if notice_only else Result(state=state, summary=text)
    if metric_name:
        yield Metric(metric_name, value, levels=upper.levels, boundaries=boundaries)
    yield from predictions


# --- value store, rates, averages ---------------------------------------------------------------

#: The value store of the service being checked; the runner sets it before each check call.
_value_store: MutableMapping[str, Any] = {}


def _set_value_store(store: MutableMapping[str, Any]) -> None:
    """Used by the runner: the store ``get_value_store()`` returns during one service's check."""
    global _value_store
    _value_store = store


def get_value_store() -> MutableMapping[str, Any]:
    """Reference: ``get_value_store()``: a mutable mapping kept per host and service between check
    runs. In the stand-in it lives as long as the runner's process, per service."""
    return _value_store


def get_rate(
    value_store: MutableMapping[str, Any], key: str, time: float, value: float, *, raise_overflow: bool = False
) -> float:
    """Reference: ``get_rate()``: stores ``(time, value)`` under ``key`` and returns
    ``(value - last value) / (time - last time)``; raises ``GetRateError`` on the first call,
    when the time did not advance, and (with ``raise_overflow``) on a negative rate. The
    reference's example: ``{}`` then ``get_rate(store, 'my_rate', 10, 23)`` raises, then
    ``get_rate(store, 'my_rate', 70, 56)`` returns ``0.55``."""
    last = value_store.get(key)
    value_store[key] = (time, value)
    if not (isinstance(last, tuple) and len(last) == 2 and all(isinstance(x, (int, float)) for x in last)):
        raise GetRateError(f"Counter {key!r} has been initialized. Result available on second check execution.")
    last_time, last_value = last
    if time <= last_time:
        raise GetRateError("No rate available (time anomaly detected)")
    rate = float(value - last_value) / (time - last_time)
    if raise_overflow and rate < 0:
        raise GetRateError(f"Negative rate for {key!r}. Suspecting value overflow.")
    return rate


def get_average(value_store: MutableMapping[str, Any], key: str, time: float, value: float, backlog_minutes: float) -> float:
    """Reference: ``get_average()``: an exponential moving average ``aₙ = (1 - w)·xₙ + w·aₙ₋₁``
    whose weight gives the last ``backlog_minutes`` half of the average; until the horizon is
    reached, the time since averaging started serves as the horizon. The first call returns the
    value; a time that did not advance returns the last average."""
    stored = value_store.get(key)
    if not (isinstance(stored, tuple) and len(stored) == 3):
        value_store[key] = (time, time, value)
        return value
    start, last_time, last_average = stored
    step = time - last_time
    if step <= 0:
        return last_average
    horizon = min(backlog_minutes * 60.0, time - start)
    count = horizon / step
    weight = 0.5 ** (1.0 / count)
    average = (1.0 - weight) * value + weight * last_average
    value_store[key] = (start, time, average)
    return average


# --- plug-in classes ----------------------------------------------------------------------------


class RuleSetType(enum.Enum):
    """Reference: ``RuleSetType``: ``MERGED`` (one dict of the merged rules) or ``ALL`` (every
    matching rule)."""

    MERGED = enum.auto()
    ALL = enum.auto()


class AgentSection:
    """Reference: ``AgentSection(*, name, parse_function, parsed_section_name=None,
    host_label_function=None, host_label_default_parameters=None, host_label_ruleset_name=None,
    host_label_ruleset_type=RuleSetType.MERGED, supersedes=None)``.

    Picked up only from a module variable whose name starts with ``agent_section_``. ``name``
    matches the section header ``<<<name>>>``; the parse function takes exactly one argument,
    ``string_table``; returning ``None`` means "no data", as if the section were absent. The
    reference says a parse function "should expect well formatted data" and may raise.
    """

    def __init__(
        self,
        *,
        name: str,
        parse_function: AgentParseFunction,
        parsed_section_name: str | None = None,
        host_label_function: Callable[..., HostLabelGenerator] | None = None,
        host_label_default_parameters: Mapping[str, object] | None = None,
        host_label_ruleset_name: str | None = None,
        host_label_ruleset_type: RuleSetType = RuleSetType.MERGED,
        supersedes: list[str] | None = None,
    ) -> None:
        self.name = name
        self.parse_function = parse_function
        self.parsed_section_name = parsed_section_name
        self.host_label_function = host_label_function
        self.host_label_default_parameters = host_label_default_parameters
        self.host_label_ruleset_name = host_label_ruleset_name
        self.host_label_ruleset_type = host_label_ruleset_type
        self.supersedes = supersedes


class CheckPlugin:
    """Reference: ``CheckPlugin(*, name, sections=None, service_name, discovery_function,
    discovery_default_parameters=None, discovery_ruleset_name=None,
    discovery_ruleset_type=RuleSetType.MERGED, check_function, check_default_parameters=None,
    check_ruleset_name=None, cluster_check_function=None)``.

    Picked up only from a module variable whose name starts with ``check_plugin_``. ``name`` holds
    only ``A-Z a-z 0-9 _``; ``sections`` defaults to ``[name]``; the check function takes
    ``item`` if and only if ``service_name`` holds ``%s``, ``params`` if default parameters are
    given, and ``section`` (one section) or ``section_<name>`` per section. The reference states
    these rules; Checkmk checks them when it loads the plug-in, and so does the stand-in's runner
    (rule MKP-PLUGIN-LOADS), not this constructor, as in the reference's frozen dataclass.
    """

    def __init__(
        self,
        *,
        name: str,
        sections: list[str] | None = None,
        service_name: str,
        discovery_function: Callable[..., DiscoveryResult],
        discovery_default_parameters: Mapping[str, object] | None = None,
        discovery_ruleset_name: str | None = None,
        discovery_ruleset_type: RuleSetType = RuleSetType.MERGED,
        check_function: Callable[..., CheckResult],
        check_default_parameters: Mapping[str, object] | None = None,
        check_ruleset_name: str | None = None,
        cluster_check_function: Callable[..., CheckResult] | None = None,
    ) -> None:
        self.name = name
        self.sections = sections
        self.service_name = service_name
        self.discovery_function = discovery_function
        self.discovery_default_parameters = discovery_default_parameters
        self.discovery_ruleset_name = discovery_ruleset_name
        self.discovery_ruleset_type = discovery_ruleset_type
        self.check_function = check_function
        self.check_default_parameters = check_default_parameters
        self.check_ruleset_name = check_ruleset_name
        self.cluster_check_function = cluster_check_function


class InventoryPlugin:
    """Reference: ``InventoryPlugin(*, name, sections=None, inventory_function,
    inventory_default_parameters=None, inventory_ruleset_name=None)``; prefix
    ``inventory_plugin_``. Loaded, not run by certify-plugin."""

    def __init__(
        self,
        *,
        name: str,
        sections: list[str] | None = None,
        inventory_function: Callable[..., InventoryResult],
        inventory_default_parameters: Mapping[str, object] | None = None,
        inventory_ruleset_name: str | None = None,
    ) -> None:
        self.name = name
        self.sections = sections
        self.inventory_function = inventory_function
        self.inventory_default_parameters = inventory_default_parameters
        self.inventory_ruleset_name = inventory_ruleset_name


class Attributes(NamedTuple):
    """Reference: ``Attributes(*, path, inventory_attributes=None, status_attributes=None)``."""

    path: list[str]
    inventory_attributes: Mapping[str, object] | None = None
    status_attributes: Mapping[str, object] | None = None


class TableRow(NamedTuple):
    """Reference: ``TableRow(*, path, key_columns, inventory_columns=None, status_columns=None)``."""

    path: list[str]
    key_columns: Mapping[str, object]
    inventory_columns: Mapping[str, object] | None = None
    status_columns: Mapping[str, object] | None = None


# --- SNMP: accepted, not run --------------------------------------------------------------------


class SNMPDetectSpecification(list):  # type: ignore[type-arg]
    """Reference: ``SNMPDetectSpecification``: a detection condition (a list of alternatives, each
    a list of OID conditions). Built by the functions below; certify-plugin does not run SNMP."""


def _condition(oid: str, pattern: str, negate: bool) -> SNMPDetectSpecification:
    return SNMPDetectSpecification([[(oid, pattern, not negate)]])


def exists(oidstr: str) -> SNMPDetectSpecification:
    """Reference: ``exists()``."""
    return _condition(oidstr, ".*", False)


def not_exists(oidstr: str) -> SNMPDetectSpecification:
    """Reference: ``not_exists()``."""
    return _condition(oidstr, ".*", True)


def equals(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``equals()``."""
    return _condition(oidstr, value, False)


def not_equals(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``not_equals()``."""
    return _condition(oidstr, value, True)


def startswith(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``startswith()``."""
    return _condition(oidstr, f"{value}.*", False)


def not_startswith(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``not_startswith()``."""
    return _condition(oidstr, f"{value}.*", True)


def endswith(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``endswith()``."""
    return _condition(oidstr, f".*{value}", False)


def not_endswith(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``not_endswith()``."""
    return _condition(oidstr, f".*{value}", True)


def contains(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``contains()``."""
    return _condition(oidstr, f".*{value}.*", False)


def not_contains(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``not_contains()``."""
    return _condition(oidstr, f".*{value}.*", True)


def matches(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``matches()``."""
    return _condition(oidstr, value, False)


def not_matches(oidstr: str, value: str) -> SNMPDetectSpecification:
    """Reference: ``not_matches()``."""
    return _condition(oidstr, value, True)


def all_of(spec_0: SNMPDetectSpecification, spec_1: SNMPDetectSpecification, *specs: SNMPDetectSpecification) -> SNMPDetectSpecification:
    """Reference: ``all_of()``: every condition holds."""
    result: list[list[Any]] = [[]]
    for spec in (spec_0, spec_1, *specs):
        result = [a + b for a in result for b in spec]
    return SNMPDetectSpecification(result)


def any_of(*specs: SNMPDetectSpecification) -> SNMPDetectSpecification:
    """Reference: ``any_of()``: one of the conditions holds."""
    return SNMPDetectSpecification([alternative for spec in specs for alternative in spec])


class OIDEnd:
    """Reference: ``OIDEnd()``: the OID's end as a column of an ``SNMPTree``."""


class OIDCached(str):
    """Reference: ``OIDCached(value)``: an OID whose value may be cached."""


class OIDBytes(str):
    """Reference: ``OIDBytes(value)``: an OID whose value is returned as a list of bytes."""


class SNMPTree(NamedTuple):
    """Reference: ``SNMPTree(base, oids)``."""

    base: str
    oids: Sequence[Any]


class SimpleSNMPSection:
    """Reference: ``SimpleSNMPSection(*, name, detect, fetch, parse_function, …)``; prefix
    ``snmp_section_``. Loaded, not run by certify-plugin."""

    def __init__(self, *, name: str, detect: SNMPDetectSpecification, fetch: SNMPTree, parse_function: Callable[..., Any], **options: Any) -> None:
        self.name = name
        self.detect = detect
        self.fetch = [fetch]
        self.parse_function = parse_function
        self.options = options


class SNMPSection:
    """Reference: ``SNMPSection(*, name, detect, fetch, parse_function, …)``; prefix
    ``snmp_section_``. Loaded, not run by certify-plugin."""

    def __init__(self, *, name: str, detect: SNMPDetectSpecification, fetch: Sequence[SNMPTree], parse_function: Callable[..., Any], **options: Any) -> None:
        self.name = name
        self.detect = detect
        self.fetch = fetch
        self.parse_function = parse_function
        self.options = options


def entry_point_prefixes() -> Mapping[type, str]:
    """Reference: ``entry_point_prefixes()``: the plug-in classes and the prefixes of the module
    variables Checkmk picks them up from."""
    return {
        SimpleSNMPSection: "snmp_section_",
        SNMPSection: "snmp_section_",
        AgentSection: "agent_section_",
        CheckPlugin: "check_plugin_",
        InventoryPlugin: "inventory_plugin_",
    }
