"""Rattus Cartus rules: setup, the flow of a round (phases A-E) and of the game, and the end.

The round is a queue of `Task`s (`RattusState.pending`) that the core's flow driver
(`engine/core/flow.py`) runs; what each kind of task does is in `decisions.py` (`DECISIONS`).
Automatic tasks (revealing a building, handing out the actions, the end of the round) run at
once; a decision task at the head of the queue is the current prompt; `next_decisions` opens
the next phase when the queue runs empty.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..core import chance
from ..core.decisions import DecisionTable
from ..core.flow import FlowGame
from ..core.protocol import (
    PICK_VALUE,
    Event,
    Option,
    Result,
    SetupError,
)
from . import evaluation, hidden, invariants, reference, scoring, view
from .data import (
    BUILDING_INDEX,
    BUILDING_METHODS,
    BUILDINGS,
    BUILDINGS_PER_ROUND,
    CARDS_PER_BUILDING,
    CLASS_NAMES,
    CLASSES,
    FIRST_START_PLAYER,
    HAND_AT_START,
    LEFT_OUT_WITH_TWO,
    NUN_ROW_SIZE,
    POPULATION_CARDS,
    RATS_AT_START,
    RECOMMENDED_SET,
    REPLACEMENT_DECK,
    ROUNDS,
    SUPPLY_TOTALS,
    Building,
    building_of,
    card_name,
    supply_of,
)
from .decisions import DECISIONS, plural, row_label
from .state import Player, RattusState, Task, copy_state
from .title import TITLE
from .view import RattusView


def _plain(text: str) -> str:
    """A building name or key as typed, compared without case, spaces or punctuation."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


_BUILDING_BY_NAME = {alias: b for b in BUILDINGS for alias in (_plain(b.key), _plain(b.name))}


_METHODS = frozenset(v for v, _ in BUILDING_METHODS if v != PICK_VALUE)


def building_pick(value: str) -> tuple[str, ...]:
    """The buildings of a set chosen by the players ("Farm,Office,…" or keys), as keys in
    class order: one building per class. SetupError says what is wrong."""
    chosen: dict[str, Building] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        b = _BUILDING_BY_NAME.get(_plain(part))
        if b is None:
            names = ", ".join(x.name for x in BUILDINGS)
            raise SetupError(f"unknown building {part.strip()!r} (one of: {names})")
        if b.cls in chosen and chosen[b.cls] is not b:
            raise SetupError(
                f"one building per class: {chosen[b.cls].name} and {b.name} are both "
                f"{CLASS_NAMES[b.cls]}"
            )
        chosen[b.cls] = b
    missing = [CLASS_NAMES[c] for c in CLASSES if c not in chosen]
    if missing:
        raise SetupError("choose one building for " + ", ".join(missing))
    return tuple(chosen[c].key for c in CLASSES)


def choose_buildings(s: RattusState, method: str, players: int) -> list[int]:
    """The 30 building cards of this game (setup step 7), by the chosen method."""
    left_out = LEFT_OUT_WITH_TWO if players == 2 else ()
    cards: list[int] = []
    if method == "recommended" or "," in method:
        for key in RECOMMENDED_SET if method == "recommended" else building_pick(method):
            b = BUILDING_INDEX[key]
            cards.extend(range(b * CARDS_PER_BUILDING, (b + 1) * CARDS_PER_BUILDING))
        return cards
    for cls in CLASSES:
        keys = [b.key for b in BUILDINGS if b.cls == cls and b.key not in left_out]
        if method == "random-building":
            key = keys[chance.draw_index(s, len(keys))] if len(keys) > 1 else keys[0]
            b = BUILDING_INDEX[key]
            cards.extend(range(b * CARDS_PER_BUILDING, (b + 1) * CARDS_PER_BUILDING))
        else:  # random-cards: 5 random of the class's 10 cards
            pool = [
                BUILDING_INDEX[k] * CARDS_PER_BUILDING + c
                for k in keys
                for c in range(CARDS_PER_BUILDING)
            ]
            chance.shuffle(s, pool)
            cards.extend(sorted(pool[:CARDS_PER_BUILDING]))
    return cards


class RattusCartus(FlowGame[RattusState, Task, RattusView]):
    """Rattus Cartus: enter buildings with population cards, gain influence, beware the rats."""

    meta = TITLE
    decisions: ClassVar[DecisionTable[RattusCartus, RattusState, Task]] = DECISIONS
    summary = (
        "Enter the town's buildings with population cards for influence and actions; "
        "at the end, whoever has more rats than the Nun-row has nuns dies."
    )
    options = (
        Option(
            "buildings",
            "Building cards",
            BUILDING_METHODS,
            "recommended",
            "Which 30 building cards are used: the recommended first set, one random building "
            "per class (5 copies), five random cards of each class's ten, or one building per "
            "class chosen by the players (5 copies).",
            picks=tuple(
                (
                    CLASS_NAMES[cls],
                    tuple((b.key, b.name) for b in BUILDINGS if b.cls == cls),
                    next(k for k in RECOMMENDED_SET if BUILDINGS[BUILDING_INDEX[k]].cls == cls),
                )
                for cls in CLASSES
            ),
        ),
    )

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """A building set chosen by the players ("Farm,Office,…") is stored as its buildings'
        keys in class order; "choose" alone takes the recommended building of every class."""
        value = options.get("buildings")
        if value is None or value in _METHODS:
            return super().check_options(options)
        rest = {k: v for k, v in options.items() if k != "buildings"}
        try:
            keys = RECOMMENDED_SET if value == PICK_VALUE else building_pick(value)
        except SetupError as exc:
            methods = ", ".join(v for v, _ in BUILDING_METHODS)
            raise SetupError(f"option buildings: {exc} — or one of {methods}") from None
        return {**super().check_options(rest), "buildings": ",".join(keys)}

    # ---- setup -----------------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> RattusState:
        """Setup steps 1-9 of the rulebook, then phase A of round 1."""
        n = len(names)
        self.check_players(n)
        opts = self.check_options(options)
        s = RattusState(names=list(names), seed=seed, options=opts)
        s.rounds = ROUNDS[n]
        s.start = FIRST_START_PLAYER
        s.supply = dict(SUPPLY_TOTALS)
        cards = choose_buildings(s, opts["buildings"], n)
        if len(cards) != 30:
            raise SetupError("the building selection must give 30 cards")
        s.buildings = sorted({building_of(c).key for c in cards}, key=BUILDING_INDEX.__getitem__)
        chance.shuffle(s, cards)
        r = REPLACEMENT_DECK[n]
        s.replacement, s.bdeck = cards[:r], cards[r:]
        s.deck = list(range(POPULATION_CARDS))
        chance.shuffle(s, s.deck)
        s.nun_row = [s.deck.pop() for _ in range(NUN_ROW_SIZE)]
        s.players = [Player(rats=RATS_AT_START, track=[0] * len(CLASSES)) for _ in range(n)]
        for _ in range(HAND_AT_START):
            for p in s.players:
                p.pop.append(s.deck.pop())
        header: list[Event] = []
        self._begin_round(s, header)
        s.opening = [e.text for e in header]  # public: the building row and its supplies
        return s

    # ---- the flow of the round: the core drives `pending`; between the phases -----------
    def next_decisions(self, s: RattusState, ev: list[Event]) -> bool:
        """The queue is empty: phase B gives way to C (enter), C to D (resolve every building
        of the row, then the end of the round); after the last round the game is over."""
        if s.phase == "supply":
            self._begin_enter(s)
        elif s.phase == "enter":
            s.phase = "resolve"
            s.pending.extend(Task("reveal", row=i) for i in range(len(s.row)))
            s.pending.append(Task("end_round"))
        else:
            return False
        return True

    # Phase A: draw new building cards.
    def _begin_round(self, s: RattusState, ev: list[Event]) -> None:
        k = BUILDINGS_PER_ROUND[len(s.players)]
        s.row = [s.bdeck.pop(0) for _ in range(min(k, len(s.bdeck)))]
        # All the same building: replace the last one from the replacement deck (the replaced
        # card goes under that deck) until one differs. With at most 5 copies of a building
        # the deck always holds a different one; the bound only guards against a loop.
        tries = 0
        while (
            len(s.row) > 1
            and s.replacement
            and tries <= len(s.replacement)
            and all(c // CARDS_PER_BUILDING == s.row[0] // CARDS_PER_BUILDING for c in s.row)
        ):
            old = s.row[-1]
            s.row[-1] = s.replacement.pop(0)
            s.replacement.append(old)
            tries += 1
            ev.append(
                Event(
                    f"All buildings are {building_of(old).name}: the last is replaced by "
                    f"{building_of(s.row[-1]).name}",
                    reveal=True,
                )
            )
        s.discs = [[] for _ in s.row]
        self._reset_round(s)
        s.phase = "supply"
        shown = ", ".join(f"{row_label(s, i)} ({supply_of(c).text()})" for i, c in enumerate(s.row))
        ev.append(
            Event(
                f"Round {s.round}/{s.rounds}, start player {s.names[s.start]}: {shown}",
                reveal=True,
            )
        )
        n = len(s.players)
        s.pending = [Task("supply", (s.start + i) % n) for i in range(n)]

    @staticmethod
    def _reset_round(s: RattusState) -> None:
        """Discs return: nobody has entered, passed or revealed anything this round."""
        for p in s.players:
            p.gained = 0
            p.entered = -1
            p.passed = False
            p.revealed = False
            p.shown = []

    # Phase C begins: enter in turn order from the start player.
    def _begin_enter(self, s: RattusState) -> None:
        n = len(s.players)
        s.phase = "enter"
        s.pending = [Task("enter", (s.start + i) % n) for i in range(n)]

    # Phase E: building cards out, discs back, start player card to the left.
    def end_round(self, s: RattusState, ev: list[Event]) -> None:
        """The automatic step `end_round`: the next round, or after the last one the end."""
        s.bout.extend(s.row)
        s.start = (s.start + 1) % len(s.players)
        if s.round >= s.rounds:
            s.row = []
            s.discs = []
            self._reset_round(s)
            self._end_game(s, ev)
            return
        s.round += 1
        self._begin_round(s, ev)

    def _end_game(self, s: RattusState, ev: list[Event]) -> None:
        """After the last round: reveal the Nun-row, death by rats, final scores."""
        s.phase = "over"
        s.pending = []
        nuns = scoring.nun_total(s)
        cards = ", ".join(card_name(c) for c in s.nun_row)
        ev.append(Event(f"The Nun-row is revealed: {cards} = {plural(nuns, 'nun')}", reveal=True))
        for seat, p in enumerate(s.players):
            fate = "dies of the plague" if p.rats > nuns else "survives"
            ev.append(Event(f"{s.names[seat]} has {plural(p.rats, 'rat')}: {fate}", reveal=True))
        ev.append(Event(scoring.result(s).summary))

    # ---- results, views, references ---------------------------------------------------
    def result(self, s: RattusState) -> Result:
        return scoring.result(s)

    def view(self, s: RattusState, seat: int | None) -> RattusView:
        return view.view(s, seat)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        return reference.rules_reference(options)

    def invariants(self, s: RattusState) -> list[str]:
        return invariants.invariants(s)

    def clone(self, s: RattusState) -> RattusState:
        return copy_state(s)

    def determinize(self, s: RattusState, seat: int, rng: Any) -> RattusState:
        return hidden.determinize(self, s, seat, rng)

    def twin(self, s: RattusState, seat: int, rng: Any) -> RattusState | None:
        return hidden.twin(self, s, seat, rng)

    def evaluate(self, s: RattusState, seat: int) -> float:
        return evaluation.game_evaluate(s, seat)

    def digest_data(self, s: RattusState) -> object:
        """The state as plain data, the pending tasks under their first name, `queue` (so
        that the digests of saves stay what they were)."""
        data = dataclasses.asdict(s)
        data["queue"] = data.pop("pending")
        return data


GAME = RattusCartus()
