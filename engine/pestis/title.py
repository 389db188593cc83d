"""The catalog entry of this title: read by the menu and the command line without importing
the rules, and by the Game class for its id, name and player counts."""

from ..core.titles import Title

TITLE = Title(
    id="1347",
    title="1347: De Nigrae Pestis Ludo",
    min_players=2,
    max_players=6,
    aliases=("pestis",),
    typical_players=4,
    picture_players=4,
    order=4,
    ai="boardgames_tui.engine.pestis.evaluation:AI",
)
