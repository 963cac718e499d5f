"""Namespace of the agent-based check API; the stand-in provides version 2 only."""
