"""Ratings and statistics as people read them: the CLI's lines and the app's player card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgames_tui.engine.core import get_game
from boardgames_tui.engine.tables.results import player_label


def title(game: str) -> str:
    """A game's title (its id when it is not installed)."""
    try:
        return get_game(game).title
    except KeyError:
        return game


def stats_text(doc: Mapping[str, Any]) -> str:
    """A player's statistics as lines (the CLI, the line mode, the player card)."""
    lines = [
        f"{player_label(doc['player'])}: {doc['played']} played, {doc['won']} won "
        f"({doc['win_rate']:.0%}), average score {doc['average_score']:g}, "
        f"average rank {doc['average_rank']:g}"
    ]
    for g, line in doc["by_game"].items():
        lines.append(
            f"  {title(g)}: {line['played']} played, {line['won']} won "
            f"({line['win_rate']:.0%}), average score {line['average_score']:g}, "
            f"rank {line['average_rank']:g}"
        )
        for row in doc["by_players"]:
            if row["game"] == g:
                lines.append(
                    f"    {row['players']} players: {row['played']} played, {row['won']} won, "
                    f"average score {row['average_score']:g}"
                )
    best = doc["best_game"]
    if best:
        lines.append(
            f"  Best game: {best['score']:g} points at {title(best['game'])} "
            f"(table {best['table']}, rank {best['rank']})"
        )
    for t in doc["team"]:
        lines.append(
            f"  {title(t['game'])} (team, {t['players']} players, {t['variant']}): "
            f"{t['won']} of {t['played']} won"
        )
    return "\n".join(lines)
