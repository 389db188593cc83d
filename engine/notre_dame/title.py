"""The catalog entry of this title: read by the menu and the command line without importing
the rules, and by the Game class for its id, name and player counts."""

from ..core.titles import Title

TITLE = Title(
    id="notre-dame",
    title="Notre Dame",
    min_players=2,
    max_players=5,
    aliases=("notredame", "nd"),
    typical_players=4,
    picture_players=4,
    order=1,
    ai="boardgames_tui.engine.notre_dame.evaluation:AI",
)
