"""pbx-conformance's stand-in for the parts of Checkmk that agent-based check plug-ins import.

Only ``cmk.agent_based.v2`` is provided (see its docstring). Checkmk itself is not needed and is
not installed; nothing here is Checkmk's code.
"""
