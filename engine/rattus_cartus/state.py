"""Rattus Cartus game state: plain dataclasses that pickle, and a fast copy for the bots."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.decisions import Decision
from ..core.protocol import BaseState
from .data import CARD_CLASS

# The Player field holding each special card kind in hand.
SPECIAL_FIELDS = {"joker": "jokers", "sword": "swords", "flute": "flutes", "pass": "passes"}


@dataclass
class Player:
    """One seat's holdings, influence and what it did this round.

    `pop` are the population cards in hand (card ids 0..83); the special cards in hand are
    counts. `c_*` are the cards committed face down to the building entered this round.
    """

    pop: list[int] = field(default_factory=list)
    jokers: int = 0
    swords: int = 0
    flutes: int = 0
    passes: int = 0
    gold: int = 0
    vp: int = 0
    rats: int = 0
    track: list[int] = field(default_factory=list)  # influence per class (0 = start space)
    seen: list[int] = field(default_factory=list)  # Nun-row positions (0-based) looked at
    # this round
    gained: int = 0  # influence gained this round (Brewery)
    entered: int = -1  # row position of the building entered, -1 = none yet
    passed: bool = False  # played a Pass this round
    revealed: bool = False  # committed cards are face up (phase D reached its building)
    c_pop: list[int] = field(default_factory=list)
    c_jokers: int = 0
    c_swords: int = 0
    c_flutes: int = 0
    shown: list[str] = field(default_factory=list)  # kinds revealed this round (display)

    def hand_size(self) -> int:
        return len(self.pop) + self.jokers + self.swords + self.flutes + self.passes

    def committed(self) -> int:
        return len(self.c_pop) + self.c_jokers + self.c_swords + self.c_flutes

    def commit(self, item: int | str) -> None:
        """Put `item` face down in the building: a population card, or a Joker, Sword or
        Flute (by kind)."""
        if isinstance(item, int):
            self.c_pop.append(item)
        elif item == "joker":
            self.c_jokers += 1
        elif item == "sword":
            self.c_swords += 1
        else:
            self.c_flutes += 1


@dataclass(slots=True)
class Task(Decision):
    """A pending step of the round: a decision of `seat` or an automatic resolution.

    The round is a queue of tasks (`RattusState.pending`); automatic ones run until a decision
    is at the head. `row` is the row position of the building concerned, `n` counts what is
    left to do (cards to give, looks), `k` what was done (the prompt step), `target` the seat
    receiving (Guard Tower).
    """

    row: int = -1
    n: int = 0
    k: int = 0
    target: int = -1


@dataclass
class RattusState(BaseState):
    """The whole game: decks, the building row, players and the queue of pending steps."""

    players: list[Player] = field(default_factory=list)
    round: int = 1
    rounds: int = 8
    start: int = 0  # holder of the start player card
    phase: str = "supply"  # supply / enter / resolve / over
    buildings: list[str] = field(default_factory=list)  # building keys in this game
    bdeck: list[int] = field(default_factory=list)  # building card deck (top = index 0)
    replacement: list[int] = field(default_factory=list)  # top = index 0
    row: list[int] = field(default_factory=list)  # revealed building cards, in row order
    discs: list[list[int]] = field(default_factory=list)  # per row position: seats in disc order
    bout: list[int] = field(default_factory=list)  # building cards already used
    deck: list[int] = field(default_factory=list)  # population deck (top = end of list)
    discard: list[int] = field(default_factory=list)
    nun_row: list[int] = field(default_factory=list)
    supply: dict[str, int] = field(default_factory=dict)
    pending: list[Task] = field(default_factory=list)  # head first; see Task
    # The round-1 header, written out with the first move (setup has no log of its own).
    opening: list[str] = field(default_factory=list)


def hand_counts(p: Player) -> list[int]:
    """Hand cards per kind, in HAND_KINDS order (6 classes, then Joker/Sword/Flute/Pass)."""
    c = [0] * 10
    for card in p.pop:
        c[CARD_CLASS[card]] += 1
    c[6] = p.jokers
    c[7] = p.swords
    c[8] = p.flutes
    c[9] = p.passes
    return c


_new = object.__new__
_LISTS = ("bdeck", "replacement", "row", "bout", "deck", "discard", "nun_row", "opening")


def copy_state(s: RattusState) -> RattusState:
    """A deep copy of `s`, five times faster than a pickle round trip (the computer
    players copy the state for every option they weigh; fields hold ints, strs and lists)."""
    d = s.__dict__.copy()
    d["names"] = s.names[:]
    d["options"] = dict(s.options)
    d["supply"] = dict(s.supply)
    d["buildings"] = s.buildings[:]
    for key in _LISTS:
        d[key] = d[key][:]
    d["discs"] = [x[:] for x in s.discs]
    players = []
    for p in s.players:
        q = _new(Player)
        pd = p.__dict__.copy()
        pd["pop"] = p.pop[:]
        pd["track"] = p.track[:]
        pd["seen"] = p.seen[:]
        pd["c_pop"] = p.c_pop[:]
        pd["shown"] = p.shown[:]
        q.__dict__ = pd
        players.append(q)
    d["players"] = players
    pending = []
    for t in s.pending:
        # field by field: faster than calling the constructor (Task has slots, no __dict__)
        u = _new(Task)
        u.kind, u.seat, u.row, u.n, u.k, u.target = t.kind, t.seat, t.row, t.n, t.k, t.target
        pending.append(u)
    d["pending"] = pending
    c = _new(RattusState)
    c.__dict__ = d
    return c
