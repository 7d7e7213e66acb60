"""The ``type`` URIs of problem documents (imported by apps that never import games)."""

from __future__ import annotations

PROBLEM_TYPE_BASE = "https://chickenfoot.dev/problems/"


def problem_type(code: str) -> str:
    """The ``type`` URI of the problem with machine code ``code``."""
    return PROBLEM_TYPE_BASE + code.replace("_", "-")
