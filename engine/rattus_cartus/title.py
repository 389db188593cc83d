"""The catalog entry of this title: read by the menu and the command line without importing
the rules, and by the Game class for its id, name and player counts."""

from ..core.titles import Title

TITLE = Title(
    id="rattus-cartus",
    title="Rattus Cartus",
    min_players=2,
    max_players=5,
    aliases=("rattus",),
    typical_players=4,
    picture_players=3,
    order=2,
    ai="boardgames_tui.engine.rattus_cartus.evaluation:AI",
)
