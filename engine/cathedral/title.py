"""The catalog entry of this title: read by the menu and the command line without importing
the rules, and by the Game class for its id, name and player counts."""

from ..core.titles import Title

TITLE = Title(
    id="cathedral-of-orleans",
    title="The Cathedral of Orléans",
    min_players=1,
    max_players=4,
    aliases=("cathedral", "orleans"),
    typical_players=2,
    picture_players=2,
    order=3,
    ai="boardgames_tui.engine.cathedral.evaluation:AI",
)
