"""What every game shares: moves, prompts, seeded chance, match history, saves."""

from .decisions import Decision, DecisionTable, Kind
from .match import BOT_LEVELS, HUMAN, Match, Seat, Step
from .protocol import (
    PUBLIC,
    BaseState,
    Event,
    Game,
    IllegalMove,
    Move,
    Option,
    Prompt,
    Result,
    ScoreLine,
    SetupError,
)
from .registry import UnknownGame, all_games, catalog, game_ids, get_game, get_title
from .titles import AIHints, SearchSettings, Title

__all__ = [
    "BOT_LEVELS",
    "HUMAN",
    "PUBLIC",
    "AIHints",
    "BaseState",
    "Decision",
    "DecisionTable",
    "Event",
    "Game",
    "IllegalMove",
    "Kind",
    "Match",
    "Move",
    "Option",
    "Prompt",
    "Result",
    "ScoreLine",
    "SearchSettings",
    "Seat",
    "SetupError",
    "Step",
    "Title",
    "UnknownGame",
    "all_games",
    "catalog",
    "game_ids",
    "get_game",
    "get_title",
]
