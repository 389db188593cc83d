"""The state of a game of Notre Dame: plain data (lists, dicts, ints, strs) and the decisions
still to be taken.

Cards are ints: `owner * 9 + type` (type indexes `data.CARDS`), so every physical card is
unique and its owner (the colour of its back, which everybody sees) is `code // 9`.
Locations are ints: 0-6 the borough sectors, 7 Notre Dame, -1 the play area (friend only).
Market places are ints: `borough * 5 + k` (k 0 = centre, 1-4 = edges).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.decisions import Decision
from ..core.protocol import BaseState

# Phases of a round (and the end of the game).
DRAFT = "draft"
ACTIONS = "actions"
HIRE = "hire"
PLAGUE = "plague"
OVER = "over"
# the decision kind of each phase's turns (the plague asks only on an overflow tie)
TURNS = {DRAFT: "draft", ACTIONS: "action", HIRE: "hire"}
TURN_KINDS = frozenset(TURNS.values())


@dataclass(slots=True)
class NotreDameDecision(Decision):
    """A decision of Notre Dame. The turn of a phase (`draft`, `action`, `hire`) is queued
    when the seat's turn comes and goes last (the first layout made it from the phase: the
    digest leaves it out); the parts of a multi-part action or person
    (`source`, `donate`, `friend`, `carriage`, `message`, `bonus`, `minstrel_from`,
    `minstrel_to`, `minstrel_n`, `fool_from`, `fool_to`, `bishop`) and the plague's
    `overflow` wait in `NotreDameState.pending`. Each kind uses the fields named for it."""

    target: int = -1  # source: the location the marker moves into
    origin: int = -1  # donate: where the marker comes from (-1: the personal supply);
    # minstrel_to, minstrel_n, fool_to: the location the pieces leave
    via: str = ""  # donate: "marker" (the Notre Dame card) or "friend" (the trusted friend)
    steps: int = 0  # carriage: how far it may move
    node: int = -1  # message: the market place of the message
    left: int = 0  # bonus: bonuses still to choose
    total: int = 0  # bonus: bonuses in all
    giver: str = ""  # bonus: what grants them ("Hotel", "Hostess")
    destination: int = -1  # minstrel_n: the sector the pieces move to
    friend: bool = False  # fool_to: the trusted friend moves (not a marker)
    ties: list[int] = field(default_factory=list)  # overflow: the sectors to choose from


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
