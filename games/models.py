"""Rows the games app keeps."""

from __future__ import annotations
