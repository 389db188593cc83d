"""The state of a game of Notre Dame: plain data (lists, dicts, ints, strs) and the decisions
still to be taken.

Cards are ints: `owner * 9 + type` (type indexes `data.CARDS`), so every physical card is
unique and its owner (the colour of its back, which everybody sees) is `code // 9`.
Locations are ints: 0-6 the borough sectors, 7 Notre Dame, -1 the play area (friend only).
Market places are ints: `borough * 5 + k` (k 0 = centre, 1-4 = edges).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.decisions import Decision
from ..core.protocol import BaseState

# Phases of a round (and the end of the game).
DRAFT = "draft"
ACTIONS = "actions"
HIRE = "hire"
PLAGUE = "plague"
OVER = "over"


@dataclass(slots=True)
class NotreDameDecision(Decision):
    """A decision of Notre Dame: one of the small dataclasses below, one per kind.

    The turn of a phase (`DraftTurn`, `ActionTurn`, `HireTurn`) is queued when the seat's turn
    comes and goes last; the parts of an action or a person under way wait before it in
    `NotreDameState.pending`, the head first, and the plague's `Overflow` tie on its own."""


# ---- the turns of the phases -------------------------------------------------------------
@dataclass(slots=True)
class DraftTurn(NotreDameDecision):
    """Draft: keep one of the cards drawn or received."""

    kind: str = field(default="draft", init=False)


@dataclass(slots=True)
class ActionTurn(NotreDameDecision):
    """Actions: play one of the cards in hand."""

    kind: str = field(default="action", init=False)


@dataclass(slots=True)
class HireTurn(NotreDameDecision):
    """Hire: one of the face-up persons, or nobody."""

    kind: str = field(default="hire", init=False)


# the turn of each phase (the plague asks only on an overflow tie)
TURNS: dict[str, Callable[[int], NotreDameDecision]] = {
    DRAFT: DraftTurn,
    ACTIONS: ActionTurn,
    HIRE: HireTurn,
}
TURN_KINDS = frozenset({"draft", "action", "hire"})


# ---- the parts of an action ---------------------------------------------------------------
@dataclass(slots=True, kw_only=True)
class Source(NotreDameDecision):
    """An empty supply: where the marker that the card places comes from."""

    kind: str = field(default="source", init=False)
    target: int  # the location the marker moves into


@dataclass(slots=True, kw_only=True)
class Donate(NotreDameDecision):
    """Notre Dame: how much gold goes with the marker or the trusted friend."""

    kind: str = field(default="donate", init=False)
    origin: int  # where the marker comes from (-1: the personal supply)
    via: str  # "marker" (the Notre Dame card) or "friend" (the trusted friend)


@dataclass(slots=True)
class Friend(NotreDameDecision):
    """The trusted friend: the sector (or Notre Dame) it goes to."""

    kind: str = field(default="friend", init=False)


@dataclass(slots=True, kw_only=True)
class Carriage(NotreDameDecision):
    """Carriage house: where the carriage moves."""

    kind: str = field(default="carriage", init=False)
    steps: int  # how far it may move


@dataclass(slots=True, kw_only=True)
class Message(NotreDameDecision):
    """The message where the carriage stopped: its reward (or leave it)."""

    kind: str = field(default="message", init=False)
    node: int  # the market place of the message


@dataclass(slots=True, kw_only=True)
class Bonus(NotreDameDecision):
    """A Hotel or Hostess bonus: gold, a marker or the rat back."""

    kind: str = field(default="bonus", init=False)
    left: int  # bonuses still to choose
    total: int  # bonuses in all
    giver: str  # what grants them ("Hotel", "Hostess")


# ---- the persons --------------------------------------------------------------------------
@dataclass(slots=True)
class MinstrelFrom(NotreDameDecision):
    """Minstrel: the sector pieces leave."""

    kind: str = field(default="minstrel_from", init=False)


@dataclass(slots=True, kw_only=True)
class MinstrelTo(NotreDameDecision):
    """Minstrel: the sector the pieces go to."""

    kind: str = field(default="minstrel_to", init=False)
    origin: int  # the sector the pieces leave


@dataclass(slots=True, kw_only=True)
class MinstrelCount(NotreDameDecision):
    """Minstrel: how many pieces move."""

    kind: str = field(default="minstrel_n", init=False)
    origin: int  # the sector the pieces leave
    destination: int  # the sector they go to


@dataclass(slots=True)
class FoolFrom(NotreDameDecision):
    """Fool: the piece that moves."""

    kind: str = field(default="fool_from", init=False)


@dataclass(slots=True, kw_only=True)
class FoolTo(NotreDameDecision):
    """Fool: the sector the piece goes to."""

    kind: str = field(default="fool_to", init=False)
    origin: int  # the location the piece leaves
    friend: bool  # the trusted friend moves (not a marker)


@dataclass(slots=True)
class Bishop(NotreDameDecision):
    """Bishop: the empty sector that receives a marker."""

    kind: str = field(default="bishop", init=False)


# ---- the plague ---------------------------------------------------------------------------
@dataclass(slots=True, kw_only=True)
class Overflow(NotreDameDecision):
    """A plague overflow: which of the tied largest sectors loses a marker."""

    kind: str = field(default="overflow", init=False)
    ties: list[int]  # the sectors to choose from


# The first state layout held a pending decision as a dict: "k" the kind, "s" the seat and
# these keys (layout key, field) per kind. `Game.digest_data` renders it so, and digests stay.
LAYOUT_1_KEYS: dict[str, tuple[tuple[str, str], ...]] = {
    "source": (("t", "target"),),
    "donate": (("src", "origin"), ("via", "via")),
    "friend": (),
    "carriage": (("n", "steps"),),
    "message": (("node", "node"),),
    "bonus": (("left", "left"), ("of", "total"), ("src", "giver")),
    "minstrel_from": (),
    "minstrel_to": (("from", "origin"),),
    "minstrel_n": (("from", "origin"), ("to", "destination")),
    "fool_from": (),
    "fool_to": (("from", "origin"), ("friend", "friend")),
    "bishop": (),
    "overflow": (("ties", "ties"),),
}


def layout_1_pending(pending: list[NotreDameDecision]) -> list[dict[str, object]]:
    """`pending` as the first state layout held it: dicts, the head of the stack last, and
    no turn (the first layout made it from the phase)."""
    return [
        {"k": d.kind, "s": d.seat, **{key: getattr(d, name) for key, name in LAYOUT_1_KEYS[d.kind]}}
        for d in reversed(pending)
        if d.kind not in TURN_KINDS
    ]


@dataclass
class NotreDameState(BaseState):
    """Everything needed to continue a game of Notre Dame."""

    n: int = 0
    published: bool = False  # rules: the 2007 rulebook instead of the seed text
    open_scores: bool = False
    boroughs: list[int] = field(default_factory=list)  # borough -> seat (-1: empty borough)
    borough_colour: list[int] = field(default_factory=list)  # borough -> message colour
    home: list[int] = field(default_factory=list)  # seat -> borough

    # ---- flow ----
    round: int = 1
    start: int = 0  # the bell-ringer (start player of the round)
    phase: str = DRAFT
    draft_step: int = 0  # 0: keep 1 of 3 own cards; 1: keep 1 of the 2 received
    pos: int = 0  # position in seat order from the start player
    lap: int = 0  # action lap (0: first card, 1: second card)
    step: int = 0  # sub-decisions taken in the current turn (Prompt.step)
    # the parts of an action under way, the head first (a stack: a part pushes the next)
    pending: list[NotreDameDecision] = field(default_factory=list)

    # ---- players ----
    gold: list[int] = field(default_factory=list)
    prestige: list[int] = field(default_factory=list)
    supply: list[int] = field(default_factory=list)  # personal supply markers
    general: list[int] = field(default_factory=list)  # general supply, per colour
    sectors: list[list[int]] = field(default_factory=list)  # seat -> 7 marker counts
    nd: list[int] = field(default_factory=list)  # markers in Notre Dame (friend not included)
    friend: list[int] = field(default_factory=list)  # location of the trusted friend
    rat: list[int] = field(default_factory=list)
    carriage: list[int] = field(default_factory=list)  # market place of each carriage
    msgs: list[list[int]] = field(default_factory=list)  # seat -> messages held per colour
    sources: list[dict[str, int]] = field(default_factory=list)  # prestige by source
    bank: int = 0
    board_msg: list[int] = field(default_factory=list)  # node -> -1 or colour * 4 + reward

    # ---- action cards ----
    decks: list[list[int]] = field(default_factory=list)  # own face-down stack (top = end)
    drawn: list[list[int]] = field(default_factory=list)  # draft: the cards to choose from
    hands: list[list[int]] = field(default_factory=list)  # kept cards
    incoming: list[list[int]] = field(default_factory=list)  # passed to this seat, unseen
    passed1: list[list[int]] = field(default_factory=list)  # the 2 cards passed this round
    passed2: list[list[int]] = field(default_factory=list)  # the 1 card passed on
    thirds: list[list[int]] = field(default_factory=list)  # unplayed third cards (period)
    discard: list[int] = field(default_factory=list)  # cards played this period (public)
    played: list[list[int]] = field(default_factory=list)  # seat -> cards played this round

    # ---- persons ----
    brown_deck: list[str] = field(default_factory=list)  # face down, top = end
    gray_deck: list[str] = field(default_factory=list)  # A on top (end), then B, then C
    persons: list[str] = field(default_factory=list)  # the 3 face-up persons of the round
    used_persons: list[str] = field(default_factory=list)  # brown used this period + gray
    hired: list[str] = field(default_factory=list)  # seat -> person hired this round ("")
    doctor: list[bool] = field(default_factory=list)

    # The round-1 header, written out with the first move (setup has no log of its own).
    opening: list[str] = field(default_factory=list)
