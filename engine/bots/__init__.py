"""Computer players that work for every game through the core protocol."""

from .players import Bot, make_bot

__all__ = ["Bot", "make_bot"]
