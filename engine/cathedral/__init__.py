"""The Cathedral of Orléans (co-operative, 1-4 players): the game package."""

from .rules import CathedralGame

GAME = CathedralGame()

__all__ = ["GAME", "CathedralGame"]
