"""Dates as the menus show them."""

from __future__ import annotations

from datetime import datetime


def short_date(iso: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """`2026-11-29T21:54:17+00:00` → `2026-11-29 21:54` (local time)."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime(fmt)
    except ValueError:
        return iso[:16].replace("T", " ")
