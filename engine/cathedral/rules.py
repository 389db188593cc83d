"""The Cathedral of Orléans: the Game class (setup, the flow of a turn through the pending
steps and the rewards, the result).

One master builder plays at a time; every decision is a prompt of the current builder's seat
(solo: one seat plays two builders). What each step asks and does is in `decisions.py`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..core import chance
from ..core.decisions import DecisionTable
from ..core.flow import FlowGame
from ..core.protocol import Event, Move, Option, Result
from . import data, hidden, invariants, scoring, view
from .decisions import (
    DECISIONS,
    TheGame,
    draw_good,
    items_text,
    queue_rewards,
)
from .state import Builder, CathedralState, Task, WorkshopSlot, empty_items, label, seat_of
from .title import TITLE
from .view import CathedralView


class Cathedral(FlowGame[CathedralState, Task, CathedralView]):
    """The co-operative game: build all 8 cathedral sections within 3 rounds."""

    meta = TITLE
    cooperative = True
    has_private_info = False
    summary = (
        "Co-operative: draw subjects from the red and blue bags, place them on the city's "
        "action spaces, carry goods across the map and build all 8 cathedral sections in 3 "
        "rounds. Solo: one person plays two master builders."
    )
    options = (
        Option(
            "variant",
            "Variant",
            (("normal", "Normal (2 monks per bag)"), ("harder", "Harder (1 monk per bag)")),
            "normal",
            "The harder variant puts only one monk into each of the red and blue bags.",
        ),
        Option(
            "bag_memory",
            "Bag memory",
            (("off", "Off (counts only)"), ("on", "On (show what each bag holds)")),
            "off",
            "The rulebook asks players to remember what went into the bags; 'on' shows it.",
        ),
        Option(
            "map",
            "Map",
            (
                ("scaled", "Scaled (1-2 players: 15 goods)"),
                ("full", "Full (18 goods at every count)"),
            ),
            "scaled",
            "With two master builders (solo and 2 players) the scaled map has one goods space "
            "on the roads from Orléans to Chartres, Montargis and Vierzon instead of two; the "
            "full map is easier for them.",
            legacy="full",
        ),
    )
    decisions: ClassVar[DecisionTable[TheGame, CathedralState, Task]] = DECISIONS

    # ---- names ------------------------------------------------------------------------
    @staticmethod
    def builders_for(players: int) -> int:
        """Master builders in play: one per player, two in the solo game."""
        return max(2, players)

    seat_of = staticmethod(seat_of)
    label = staticmethod(label)

    # ---- setup ------------------------------------------------------------------------
    def new_state(
        self, names: Sequence[str], options: Mapping[str, str], seed: int
    ) -> CathedralState:
        self.check_players(len(names))
        opts = self.check_options(options)
        s = CathedralState(names=list(names), seed=seed, options=opts)
        nb = self.builders_for(len(names))
        # 2. workshops: shuffle, 3 face up on the workshop spaces, the rest to the box
        tiles = [t.key for t in data.WORKSHOPS]
        chance.shuffle(s, tiles)
        s.workshops = [
            WorkshopSlot(key=tiles[i], city=c) for i, c in enumerate(data.WORKSHOP_CITIES)
        ]
        s.workshop_box = sorted(tiles[data.WORKSHOPS_IN_PLAY :])
        # 3. events: a face-down stack
        s.events = [e.key for e in data.EVENTS]
        chance.shuffle(s, s.events)
        # 4. goods: all into the black bag, then onto every goods space
        s.black = dict(data.GOODS_COUNT)
        spaces = data.goods_spaces(nb, opts["map"] == "scaled")
        s.roads = [[draw_good(s) for _ in range(n)] for n in spaces]
        # 5. stained glass: one on its space, the rest a supply
        s.glass_space = data.GLASS_ON_MAP
        s.glass_supply = data.GLASS_TOTAL - data.GLASS_ON_MAP
        # 6. blueprints: shuffled face down
        s.blueprints = list(data.BLUEPRINTS)
        chance.shuffle(s, s.blueprints)
        # 8. hourglass: 3 random tiles face down, reveal the top one
        hg = [t.key for t in data.HOURGLASSES]
        chance.shuffle(s, hg)
        s.hourglass_stack = hg[: data.HOURGLASSES_IN_PLAY]
        s.hourglass_box = sorted(hg[data.HOURGLASSES_IN_PLAY :])
        s.hourglass = s.hourglass_stack.pop()
        s.hourglass_filled = empty_items()
        # 9. subject bags and the monk supply
        setup = data.BAG_SETUP[opts["variant"]]
        s.bags = {
            bag: {subj: setup[bag].get(subj, 0) for subj in data.SUBJECTS} for bag in data.BAGS
        }
        s.monk_supply = data.SUBJECT_COUNT["monk"] - sum(setup[b]["monk"] for b in data.BAGS)
        s.spaces = {sp.id: "" for sp in data.SPACES}
        # 10. backpacks: each master builder draws one good; everybody starts in Orléans
        s.builders = [Builder(city=data.START_CITY) for _ in range(nb)]
        for b in s.builders:
            g = draw_good(s)
            if g:
                b.pack[g] += 1
        s.turn = 0
        s.pending = [Task("bag", seat_of(s, 0))]
        tile = data.HOURGLASS_BY_KEY[s.hourglass]
        s.opening = [
            "Workshops: "
            + ", ".join(
                f"{data.WORKSHOP_BY_KEY[w.key].name} in {data.CITIES[w.city]}" for w in s.workshops
            ),
            f"Hourglass: {tile.name} wants {items_text(data.HOURGLASS_NEED[tile.key])}",
            f"Round 1 begins with {label(s, 0)}",
        ]
        return s

    # ---- the flow: the core drives `pending`; an order met comes before the next step -----
    def play(self, s: CathedralState, move: Move) -> list[Event]:
        s.step += 1
        return super().play(s, move)

    def before(self, s: CathedralState, head: Task, ev: list[Event]) -> bool:
        """The active order event, once met, flips a blueprint: checked before every step of
        the turn (not while a reward or a stained glass waits)."""
        if head.kind in ("glass", "reward") or not s.order or not self._order_met(s):
            return False
        e = data.EVENT_BY_KEY[s.order]
        ev.append(Event(f"{e.name} is met ({e.text}): a blueprint"))
        s.event_discard.append(s.order)
        s.order = ""
        queue_rewards(s, ("blueprint",), e.name)
        return True

    @staticmethod
    def _order_met(s: CathedralState) -> bool:
        param = data.EVENT_BY_KEY[s.order].param
        if param == "meeting":
            cities = [b.city for b in s.builders]
            return len(set(cities)) < len(cities)
        if param == "glass":
            return any(b.pack["glass"] >= 2 for b in s.builders)
        return any(b.city == param for b in s.builders)

    # ---- digests: the state as layout 1 held it ---------------------------------------
    def digest_data(self, s: CathedralState) -> object:
        """Layout 1 named the turn's step `stage`, held the rewards to receive (now reward
        tasks in `pending`) as `pending`/`pending_source` and a glass offer's source in
        `glass_offer`, and had no map option (every game was on the full map): rendered so,
        digests are unchanged."""
        out = dataclasses.asdict(s)
        if out["options"].get("map") == "full":
            del out["options"]["map"]
        del out["pending"]
        out["stage"] = s.stage
        out["glass_offer"] = s.glass_offer
        del out["unreceived"]
        rewards = [t for t in s.pending + s.unreceived if t.kind == "reward"]
        out["pending"] = [t.reward for t in rewards]
        out["pending_source"] = [t.source for t in rewards]
        return out

    # ---- results, views, reference ----------------------------------------------------
    def result(self, s: CathedralState) -> Result:
        return scoring.result(s)

    def view(self, s: CathedralState, seat: int | None) -> CathedralView:
        return view.view(s, seat)

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        from .reference import rules_reference

        return rules_reference(options)

    # ---- for computer players and tests ------------------------------------------------
    def determinize(self, s: CathedralState, seat: int, rng: random.Random) -> CathedralState:
        """Resample the face-down tiles; bag contents are public (only their order is not)."""
        return hidden.determinize(self, s, seat, rng)

    def twin(self, s: CathedralState, seat: int, rng: random.Random) -> CathedralState | None:
        return hidden.twin(self, s, seat, rng)

    def evaluate(self, s: CathedralState, seat: int) -> float:
        """Team progress: sections, filled order spaces, useful carried tokens, time left.

        Time left counts the free action spaces of this round and the rounds to come, so
        ringing the bell tower early costs what it throws away; an action under way counts
        what the rule player expects it to bring.
        """
        if s.won:
            return 100.0 + 10.0 * (data.ROUNDS - s.round)
        from .policy import action_potential

        v = 10.0 * s.sections
        demand = empty_items()
        for w in s.workshops:
            if not w.done:
                need = data.WORKSHOP_NEED[w.key]
                v += 2.0 * sum(w.filled.values())
                for k, n in need.items():
                    demand[k] += n - w.filled[k]
        if s.hourglass:
            need = data.HOURGLASS_NEED[s.hourglass]
            v += 2.2 * sum(s.hourglass_filled.values())
            for k, n in need.items():
                demand[k] += n - s.hourglass_filled[k]
        carried = empty_items()
        for b in s.builders:
            for k, n in b.pack.items():
                carried[k] += n
        for k in data.GOODS:
            v += 1.0 * min(carried[k], demand[k]) + 0.15 * max(0, carried[k] - demand[k])
        v += 0.9 * carried["glass"]
        if s.over:
            return v - 50.0
        free = sum(1 for x in s.spaces.values() if not x)
        v += 0.5 * (free + len(data.SPACES) * (data.ROUNDS - s.round))
        v += action_potential(s)
        return v

    def invariants(self, s: CathedralState) -> list[str]:
        return invariants.invariants(s)


GAME = Cathedral()
