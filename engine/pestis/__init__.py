"""1347: De Nigrae Pestis Ludo (2-6 players): the engine package. Exports `GAME`."""

from .rules import PestisGame

GAME = PestisGame()

__all__ = ["GAME", "PestisGame"]
