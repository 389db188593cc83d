"""The plain-data state of a game of The Cathedral of Orléans (pickles; no callables)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.decisions import Decision
from ..core.protocol import BaseState


def empty_items() -> dict[str, int]:
    """A count per item (wood, stone, bread, glass), all zero."""
    return {"wood": 0, "stone": 0, "bread": 0, "glass": 0}


@dataclass
class Builder:
    """A master builder and its backpack (counts per item; 5 places in all)."""

    city: str
    pack: dict[str, int] = field(default_factory=empty_items)


@dataclass
class WorkshopSlot:
    """A workshop tile on its city's workshop space, with the order spaces filled so far."""

    key: str
    city: str
    filled: dict[str, int] = field(default_factory=empty_items)
    done: bool = False  # fulfilled and flipped face down


def pack_size(b: Builder) -> int:
    """Tokens in a backpack."""
    p = b.pack
    return p["wood"] + p["stone"] + p["bread"] + p["glass"]


@dataclass(slots=True)
class Task(Decision):
    """A pending step of the current master builder's turn (see `CathedralState.pending`).

        The steps of a turn: "bag" (choose a bag), "place" (place the drawn token), then the
        action of the space: "move" (choose the destination), "pickup" (take or leave each token
        on the path), "market", "glassworks", "glassshop"; then "done" (resolved automatically) or
        "end_turn" (a full backpack may rest). "round_end" is resolved automatically. "glass"
        (who receives a stained glass reward, from `source`) goes before the step it interrupts, and so
    does "reward" (automatic: a `reward` to receive, from `source`), in the order won.
    """

    source: str = ""  # glass, reward: where the stained glass or the reward comes from
    reward: str = ""  # reward: what is received (data.REWARD_NAMES)


@dataclass
class CathedralState(BaseState):
    """Everything needed to continue a game.

    `pending` holds the step of the turn under way (the last task), with the rewards to
    receive and a stained glass waiting for its recipient before it; it is empty once the game
    is over.
    """

    builders: list[Builder] = field(default_factory=list)
    round: int = 1
    turn: int = 0  # the builder whose turn it is
    pending: list[Task] = field(default_factory=list)
    step: int = 0  # decisions taken so far this turn (Prompt.step)
    # bags hold counts: a draw is uniformly random among the tokens inside (no order)
    bags: dict[str, dict[str, int]] = field(default_factory=dict)  # red/blue subjects
    black: dict[str, int] = field(default_factory=dict)  # the black bag: goods
    roads: list[list[str]] = field(default_factory=list)  # per connection: goods ("" empty)
    glass_space: int = 0  # stained glass on its space between Tours and Bourges (0/1)
    spaces: dict[str, str] = field(default_factory=dict)  # action space -> subject ("" free)
    bell: str = ""  # subject on the bell tower
    removed: list[str] = field(default_factory=list)  # subjects that left via the bell tower
    monk_supply: int = 0
    glass_supply: int = 0
    workshops: list[WorkshopSlot] = field(default_factory=list)
    workshop_box: list[str] = field(default_factory=list)  # unused tiles (face down, hidden)
    hourglass_stack: list[str] = field(default_factory=list)  # face down, hidden order
    hourglass: str = ""  # the current (revealed) hourglass tile
    hourglass_filled: dict[str, int] = field(default_factory=dict)
    hourglass_box: list[str] = field(default_factory=list)  # unused tiles (hidden)
    hourglass_done: list[str] = field(default_factory=list)  # fulfilled
    hourglass_lost: list[str] = field(default_factory=list)  # discarded unfulfilled
    events: list[str] = field(default_factory=list)  # face-down stack, top = last
    event_discard: list[str] = field(default_factory=list)
    order: str = ""  # the single active order event
    blueprints: list[str] = field(default_factory=list)  # face-down pile, top = last
    blueprints_flipped: list[str] = field(default_factory=list)
    sections: int = 0
    section_log: list[str] = field(default_factory=list)  # where each section came from
    # the rewards still waiting when the last section won the game (kept for the digest)
    unreceived: list[Task] = field(default_factory=list)
    drawn: str = ""  # the drawn subject not yet placed
    drawn_bag: str = ""
    space: str = ""  # the space whose action is being carried out
    market_left: int = 0
    path: int = -1  # connection travelled
    path_dest: str = ""
    path_slot: int = 0  # next token of the path to decide about
    rested: bool = False  # rest stop used this turn
    ender: int = 0  # the builder who ended the round
    won: bool = False
    over: bool = False
    # The round-1 header, written out with the first move (setup has no log of its own).
    opening: list[str] = field(default_factory=list)

    @property
    def stage(self) -> str:
        """The step of the turn under way (its kind; "over" once the game is over)."""
        return self.pending[-1].kind if self.pending else "over"

    @stage.setter
    def stage(self, kind: str) -> None:
        # for arranging scenarios: the turn goes on with `kind` (a pending glass offer is gone)
        self.pending = [Task(kind, seat_of(self, self.turn))]

    @property
    def glass_offer(self) -> str:
        """Where the stained glass waiting for its recipient comes from ("" when none waits)."""
        head = self.pending[0] if self.pending else None
        return head.source if head is not None and head.kind == "glass" else ""


def seat_of(s: CathedralState, b: int) -> int:
    """The seat that plays master builder `b` (solo: one seat plays both)."""
    return b % len(s.names)


def label(s: CathedralState, b: int) -> str:
    """A master builder as people read it: the player's name (solo: name (1) / (2))."""
    if len(s.names) == 1:
        return f"{s.names[0]} ({b + 1})"
    return s.names[b]
