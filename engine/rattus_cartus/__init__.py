"""Rattus Cartus (2-5 players): the game engine."""

from .rules import RattusCartus

GAME = RattusCartus()

__all__ = ["GAME", "RattusCartus"]
