"""Rows the scoring app keeps."""

from __future__ import annotations
