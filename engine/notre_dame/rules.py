"""The rules of Notre Dame: setup, the flow of a round, prompts and plays through the table of
decisions (`decisions.DECISIONS`), and the game's own evaluation.

A round is Persons (automatic) → Draft → Actions → Hire → Plague; rounds 3, 6 and 9 end with
the Notre Dame scoring. Simultaneous choices (the draft) are consecutive hidden decisions in
seat order from the bell-ringer. The core's flow driver (engine/core/flow.py) takes the head of
`state.pending`: the parts of a multi-part action (a stack), before them the turn of the
phase's seat, which `next_decisions` queues when the queue runs empty.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..core import chance
from ..core.flow import FlowGame
from ..core.protocol import Event, Option, Result
from . import data, hidden, invariants, scoring, view
from .decisions import DECISIONS, Decisions, gain, push, say
from .queries import SECTOR_RANGE, count, park_bonus, plague_value, rat_after_plague, sector_counts
from .state import (
    ACTIONS,
    DRAFT,
    HIRE,
    OVER,
    PLAGUE,
    TURN_KINDS,
    TURNS,
    NotreDameDecision,
    NotreDameState,
    Overflow,
    layout_1_pending,
)
from .title import TITLE
from .view import NotreDameView

_PERSONS = data.PERSON_BY_KEY


def queue_turn(s: NotreDameState) -> None:
    """With nothing pending, the turn of the phase's seat comes next (the plague asks only on
    an overflow tie, which its flow queues itself)."""
    turn = TURNS.get(s.phase)
    if turn is not None and not s.pending:
        s.pending.append(turn((s.start + s.pos) % s.n))


class NotreDame(FlowGame[NotreDameState, NotreDameDecision, NotreDameView]):
    """Notre Dame (Stefan Feld, 2007) for 2-5 players."""

    meta = TITLE
    summary = (
        "Paris, 14th century: draft action cards, place influence in your borough, keep the "
        "rats away and gain the most prestige in 9 rounds."
    )
    options = (
        Option(
            "rules",
            "Rules",
            (("standard", "standard (this edition)"), ("published", "published 2007 rulebook")),
            "standard",
            "Hotel thresholds, message rewards and where the trusted friend may go.",
        ),
        Option(
            "scores",
            "Prestige",
            (("hidden", "hidden until the end"), ("open", "open scores")),
            "hidden",
            "Hidden: each player sees only their own prestige until the game ends.",
        ),
    )

    decisions: ClassVar[Decisions] = DECISIONS

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """As the protocol's; `rules=seed`, the standard rules' name in saves written before
        they were called "standard", is kept as written (the saves' digests include it)."""
        legacy = options.get("rules") == "seed"
        out = super().check_options({**options, "rules": "standard"} if legacy else options)
        if legacy:
            out["rules"] = "seed"
        return out

    # ================================================================== setup ============
    def new_state(
        self, names: Sequence[str], options: Mapping[str, str], seed: int
    ) -> NotreDameState:
        """Setup as the rules say; seat 0 is the first bell-ringer."""
        n = len(names)
        self.check_players(n)
        opts = self.check_options(options)
        s = NotreDameState(names=list(names), seed=seed, options=opts)
        s.n = n
        s.published = opts["rules"] == "published"
        s.open_scores = opts["scores"] == "open"
        layout = data.borough_seats(n)
        s.boroughs = [-1 if x is None else x for x in layout]
        empty = iter(data.TWO_PLAYER_EMPTY_COLOURS)
        s.borough_colour = [next(empty) if x is None else x for x in layout]
        s.home = [layout.index(seat) for seat in range(n)]
        s.gold = [data.START_GOLD] * n
        s.prestige = [0] * n
        s.supply = [data.START_SUPPLY] * n
        s.general = [data.MARKERS_PER_COLOUR - data.START_SUPPLY] * n
        s.sectors = [[0] * len(data.SECTORS) for _ in range(n)]
        s.nd = [0] * n
        s.friend = [data.PLAY_AREA] * n
        s.rat = [0] * n
        s.carriage = [b * data.NODES_PER_BOROUGH for b in s.home]
        s.msgs = [[0] * len(data.COLOURS) for _ in range(n)]
        s.sources = [{} for _ in range(n)]
        s.bank = data.GOLD_COINS - data.START_GOLD * n
        s.board_msg = [-1] * (len(layout) * data.NODES_PER_BOROUGH)
        for b, colour in enumerate(s.borough_colour):
            rewards = list(data.MESSAGE_REWARDS_PER_COLOUR)
            if s.published:  # only then do the messages differ; seed: the taker chooses
                chance.shuffle(s, rewards)
            for k in range(1, 5):
                s.board_msg[b * data.NODES_PER_BOROUGH + k] = colour * 4 + rewards[k - 1]
        s.decks = [self._fresh_deck(s, seat) for seat in range(n)]
        s.thirds = [[] for _ in range(n)]
        s.brown_deck = list(data.BROWN)
        chance.shuffle(s, s.brown_deck)
        s.gray_deck = []
        for letter in reversed(data.PERIOD_LETTERS):  # C at the bottom, A on top (list end)
            stack = list(data.GRAY[letter])
            chance.shuffle(s, stack)
            s.gray_deck.extend(stack)
        header: list[Event] = []
        self._begin_round(s, header)
        queue_turn(s)
        s.opening = [e.text for e in header]  # public: persons and plague value
        return s

    def _fresh_deck(self, s: NotreDameState, seat: int) -> list[int]:
        deck = [seat * data.CARDS_PER_COLOUR + t for t in range(data.CARDS_PER_COLOUR)]
        chance.shuffle(s, deck)
        return deck

    def _begin_round(self, s: NotreDameState, ev: list[Event]) -> None:
        """Phase 1 (persons) and the draw of the draft."""
        n = s.n
        s.persons = [s.brown_deck.pop(), s.brown_deck.pop(), s.gray_deck.pop()]
        s.hired = [""] * n
        s.doctor = [False] * n
        s.drawn = [[s.decks[seat].pop() for _ in range(3)] for seat in range(n)]
        s.hands = [[] for _ in range(n)]
        s.incoming = [[] for _ in range(n)]
        s.passed1 = [[] for _ in range(n)]
        s.passed2 = [[] for _ in range(n)]
        s.played = [[] for _ in range(n)]
        s.phase = DRAFT
        s.draft_step = 0
        s.pos = s.lap = s.step = 0
        people = ", ".join(
            f"{_PERSONS[k].name} ({_PERSONS[k].rats} rat{'' if _PERSONS[k].rats == 1 else 's'})"
            for k in s.persons
        )
        period = data.PERIOD_LETTERS[(s.round - 1) // data.ROUNDS_PER_PERIOD]
        ev.append(
            Event(
                f"Round {s.round} (period {period}), bell-ringer {s.names[s.start]}: "
                f"persons {people}; plague value {plague_value(s)}",
                reveal=True,
            )
        )

    # ================================================================== the round ========
    def next_decisions(self, s: NotreDameState, ev: list[Event]) -> bool:
        """The queue is empty: a seat's decision (and every part it led to) is over; the next
        seat, phase or round follows, and the turn it brings is queued (False: game over)."""
        s.step = 0
        self._turn_done(s, ev)
        queue_turn(s)
        return s.phase != OVER

    def _turn_done(self, s: NotreDameState, ev: list[Event]) -> None:
        """A seat finished its decision: move on to the next seat, phase or round."""
        n = s.n
        if s.phase == DRAFT:
            s.pos += 1
            if s.pos < n:
                return
            s.pos = 0
            if s.draft_step == 0:
                s.draft_step = 1
                s.drawn = s.incoming
                s.incoming = [[] for _ in range(n)]
                return
            for seat in range(n):
                s.hands[seat].extend(s.incoming[seat])
            s.incoming = [[] for _ in range(n)]
            s.drawn = [[] for _ in range(n)]
            s.phase = ACTIONS
            s.lap = 0
            ev.append(Event("Draft done: every player holds 3 cards. Actions begin."))
        elif s.phase == ACTIONS:
            s.pos += 1
            if s.pos < n:
                return
            s.pos = 0
            s.lap += 1
            if s.lap == 2:
                s.phase = HIRE
        elif s.phase == HIRE:
            s.pos += 1
            if s.pos < n:
                return
            s.pos = 0
            s.phase = PLAGUE
            ev.append(Event(f"Plague: the plague value is {plague_value(s)}."))
            self._plague(s, 0, ev)
        elif s.phase == PLAGUE:
            self._plague(s, s.pos + 1, ev)

    def _plague(self, s: NotreDameState, first: int, ev: list[Event]) -> None:
        """Phase 5 from position `first`; stops for an overflow tie (a prompt)."""
        value = plague_value(s)
        for pos in range(first, s.n):
            seat = (s.start + pos) % s.n
            who = s.names[seat]
            old = s.rat[seat]
            own = 0 if s.doctor[seat] else value
            hosp = count(s, seat, data.HOSPITAL)
            new, over = rat_after_plague(s, seat)
            s.rat[seat] = new
            why = (
                f"{own}"
                + (" (Doctor)" if s.doctor[seat] else "")
                + (f" − {hosp} hospital" if hosp else "")
            )
            # no possessive on a name (a player called "Me"), no arrow where nothing moved
            moved = f"rat {old}→{new}" if new != old else f"rat stays on {old}"
            line = f"{who}: {moved} ({why})"
            if not over:
                ev.append(Event(line))
                continue
            loss = min(data.OVERFLOW_PRESTIGE, s.prestige[seat])
            s.prestige[seat] -= loss
            if loss:
                s.sources[seat]["plague"] = s.sources[seat].get("plague", 0) - loss
            say(
                s,
                seat,
                ev,
                f"{line}: overflow! {who} returns {loss} prestige",
                f"{line}: overflow! {who} returns prestige",
            )
            counts = sector_counts(s, seat)
            most = max(counts)
            ties = [k for k in SECTOR_RANGE if counts[k] == most and s.sectors[seat][k] > 0]
            if not ties:
                ev.append(Event(f"{who} has no marker to remove"))
            elif len(ties) == 1:
                s.sectors[seat][ties[0]] -= 1
                s.general[seat] += 1
                ev.append(
                    Event(f"{who} removes a marker from {data.LOCATION_NAMES[ties[0]]} (plague)")
                )
            else:
                s.pos = pos
                push(s, Overflow(seat, ties=ties))
                return
        self._end_round(s, ev)

    def _end_round(self, s: NotreDameState, ev: list[Event]) -> None:
        """Persons back, Notre Dame scoring after rounds 3/6/9, the bell-ringer passes left."""
        s.used_persons.extend(s.persons)
        s.persons = []
        if s.round in data.SCORING_ROUNDS:
            self._score_notre_dame(s, ev)
            # End of a period: brown persons reshuffled, action cards back to their owners.
            s.brown_deck = list(data.BROWN)
            chance.shuffle(s, s.brown_deck)
            s.used_persons = [k for k in s.used_persons if k not in data.BROWN]
            s.decks = [self._fresh_deck(s, seat) for seat in range(s.n)]
            s.thirds = [[] for _ in range(s.n)]
            s.discard = []
        s.round += 1
        if s.round > data.ROUNDS:
            s.round = data.ROUNDS
            s.phase = OVER
            s.pending = []
            res = self.result(s)
            ev.append(Event(f"Game over. {res.summary}", reveal=True))
            return
        s.start = (s.start + 1) % s.n
        self._begin_round(s, ev)

    def _score_notre_dame(self, s: NotreDameState, ev: list[Event]) -> None:
        """Pool ÷ markers in Notre Dame (rounded down) per marker; markers back to the supply."""
        pool = data.ND_POOL[s.n]
        counts = [count(s, seat, data.NOTRE_DAME) for seat in range(s.n)]
        total = sum(counts)
        if not total:
            ev.append(Event("Notre Dame scoring: no markers in Notre Dame"))
            return
        share = pool // total
        ev.append(
            Event(
                f"Notre Dame scoring: {pool} prestige ÷ {total} marker{'' if total == 1 else 's'} = {share} per marker"
            )
        )
        for seat in range(s.n):
            c = counts[seat]
            if not c:
                continue
            full, pub = gain(s, seat, share * c, "notredame")
            who = s.names[seat]
            back = f"{who}'s {c} marker{'s' if c > 1 else ''}"
            say(s, seat, ev, f"{back}: {full}", f"{back}: {pub}")
            s.general[seat] += s.nd[seat]
            s.nd[seat] = 0
            if s.friend[seat] == data.NOTRE_DAME:
                s.friend[seat] = data.PLAY_AREA

    # ================================================================== views etc. =======
    def result(self, state: NotreDameState) -> Result:
        return scoring.result(state)

    def view(self, state: NotreDameState, seat: int | None) -> NotreDameView:
        return view.view(self, state, seat)

    def invariants(self, state: NotreDameState) -> list[str]:
        return invariants.invariants(state)

    def determinize(self, state: NotreDameState, seat: int, rng: random.Random) -> NotreDameState:
        return hidden.determinize(self, state, seat, rng)

    def twin(self, state: NotreDameState, seat: int, rng: random.Random) -> NotreDameState | None:
        return hidden.twin(self, state, seat, rng)

    def evaluate(self, state: NotreDameState, seat: int, depth: int = 0) -> float:
        """Prestige plus a rough value of resources, position and threats (for the greedy bot).

        When `seat` is in the middle of a multi-part action (a donation, a carriage
        destination, a hotel bonus...), the value is that of its best way to finish it (up
        to 4 parts deep from `depth`), so that starting the action is not worth the same as
        playing the card without effect.
        """
        s = state
        if (
            s.pending
            and s.pending[0].kind not in TURN_KINDS
            and s.pending[0].seat == seat
            and depth < 4
        ):
            prompt = self.prompt(s)
            if prompt is not None:
                best = float("-inf")
                for move in prompt.moves:
                    after = self.clone(s)
                    self.play(after, move)
                    best = max(best, self.evaluate(after, seat, depth + 1))
                return best
        return position_value(s, seat)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        from .reference import rules_reference

        return rules_reference(self.check_options(options or {}))

    def digest_data(self, state: NotreDameState) -> object:
        """The state as data, its pending decisions as the first layout held them (dicts
        with one-letter keys, the head last): the digests of every save stay the same."""
        out = dataclasses.asdict(state)
        out["pending"] = layout_1_pending(state.pending)
        return out


def position_value(s: NotreDameState, seat: int) -> float:
    """`evaluate` outside a multi-part action: prestige, resources, position and threats."""
    left = 0 if s.phase == OVER else data.ROUNDS - s.round + 1
    value = float(s.prestige[seat])
    value += 0.5 * s.gold[seat] + 0.6 * s.supply[seat] + 0.1 * s.general[seat]
    # markers keep paying: the park on every gain, the hospital against every plague
    value += 0.15 * left * (count(s, seat, data.PARK) // data.PARK_MARKERS_PER_BONUS)
    value += 0.3 * left * min(count(s, seat, data.HOSPITAL), 4)
    value += 0.1 * left * sum(s.sectors[seat])
    value += 0.3 * sum(s.msgs[seat])
    # cards in hand: two of three get played, so each counts for two thirds of its worth
    cpc = data.CARDS_PER_COLOUR
    value += sum(_card_value(s, seat, c % cpc, left) for c in s.hands[seat]) * 2 / 3
    total = sum(count(s, o, data.NOTRE_DAME) for o in range(s.n))
    if total:
        value += data.ND_POOL[s.n] // total * count(s, seat, data.NOTRE_DAME)
    if s.phase != OVER:
        after, over = rat_after_plague(s, seat)
        value -= 0.5 * after * min(left, 3) / 3 + (3.0 if over else 0.0)
    return value


def _card_value(s: NotreDameState, seat: int, t: int, left: int) -> float:
    """A rough worth of playing action card `t` now (for `evaluate`)."""
    if t == data.FRIEND:
        return 1.5
    if t != data.NOTRE_DAME and not s.supply[seat]:
        return 0.3
    n = count(s, seat, t) + 1 if t != data.NOTRE_DAME else 0
    if t == data.CLOISTER:
        return 0.6 * min(n, s.general[seat])
    if t == data.BANK:
        return 0.5 * n
    if t == data.RESIDENCE:
        return n + park_bonus(s, seat)
    if t == data.HOTEL:
        return 0.7 * (
            2 if n >= data.HOTEL_TWO_BONUSES["published" if s.published else "seed"] else 1
        )
    if t == data.PARK:
        return 0.5 + 0.15 * left * (n % 2 == 0)
    if t == data.HOSPITAL:
        return 0.5 + 0.3 * left
    if t == data.NOTRE_DAME:
        return 1.5 if s.gold[seat] else 0.0
    return 1.5  # carriage: a message is worth a few prestige


GAME = NotreDame()
