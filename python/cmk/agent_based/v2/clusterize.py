"""Stand-in for ``cmk.agent_based.v2.clusterize``.

Reference: "cmk.agent_based.v2.clusterize" › ``make_node_notice_results()``. certify-plugin runs
no cluster checks (a PBX is one node); the function is here so that packages importing it load.
"""

from collections.abc import Iterable, Iterator
from typing import Any


def make_node_notice_results(node_name: str, node_check_results: Iterable[Any], *, force_ok: bool = False) -> Iterator[Any]:
    """Reference: ``make_node_notice_results()``: the node's results as notices prefixed with
    ``[node_name]``; with ``force_ok`` their states become OK, the text keeping the original
    state's marker. The marker's form (``(!)``, ``(!!)``, ``(?)``) is not in the reference's
    text; it follows Checkmk's service output convention."""
    from . import Result, State

    markers = {State.OK: "", State.WARN: "(!)", State.CRIT: "(!!)", State.UNKNOWN: "(?)"}
    for result in node_check_results:
        if not isinstance(result, Result):
            continue
        text = result.details or result.summary
        lines = [f"[{node_name}]: {line}" for line in text.split("\n")]
        if force_ok:
            marker = markers[result.state]
            lines = [f"{line}{marker}" if marker else line for line in lines]
        yield Result(state=State.OK if force_ok else result.state, notice="\n".join(lines))
