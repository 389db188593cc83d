"""Notre Dame (Stefan Feld, 2007): the rules engine. Exports GAME."""

from .rules import NotreDame

GAME = NotreDame()

__all__ = ["GAME", "NotreDame"]
