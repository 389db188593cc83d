"""The rules of Toy: a tiny game with hidden hands and a two-step move (the core and the TUI
shell are tested on it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import chance
from engine.core.protocol import BaseState, Event, Game, Move, Option, Prompt, Result, ScoreLine

from . import TITLE


@dataclass
class ToyState(BaseState):
    pile: int = 15
    hands: list[list[int]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    turn: int = 0
    chosen: int | None = None


class ToyGame(Game[ToyState]):
    """Players in turn play a hidden card (1-3) and take that many stones; most stones wins."""

    meta = TITLE  # id, title and player counts come from the catalog entry
    summary = "A test game."
    options = (Option("speed", "Speed", (("slow", "Slow"), ("fast", "Fast")), "slow"),)

    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> ToyState:
        self.check_players(len(names))
        s = ToyState(names=list(names), seed=seed, options=dict(options))
        s.deck = [1, 2, 3] * 10
        chance.shuffle(s, s.deck)
        s.hands = [[s.deck.pop() for _ in range(2)] for _ in names]
        s.scores = [0] * len(names)
        if options.get("speed") == "fast":
            s.pile = 6
        return s

    def prompt(self, s: ToyState) -> Prompt | None:
        if s.pile <= 0:
            return None
        seat = s.turn % len(s.names)
        if s.chosen is None:
            moves = tuple(
                Move(f"card:{v}", f"Card {v}", f"→ take {min(v, s.pile)}")
                for v in sorted(set(s.hands[seat]))
            )
            return Prompt(seat, "Choose a card", moves, private=True, phase="Play")
        return Prompt(
            seat,
            f"Confirm card {s.chosen}",
            (Move("take", f"Take {min(s.chosen, s.pile)}"), Move("pass", "Take nothing")),
            private=True,
            step=1,
            phase="Play",
        )

    def play(self, s: ToyState, move: Move) -> list[Event]:
        seat = s.turn % len(s.names)
        name = s.names[seat]
        if move.id.startswith("card:"):
            s.chosen = int(move.id.split(":")[1])
            return [Event(f"{name} picks card {s.chosen}", seat=seat, public=None)]
        v = s.chosen or 0
        s.hands[seat].remove(v)
        s.chosen = None
        n = min(v, s.pile) if move.id == "take" else 0
        s.pile -= n
        s.scores[seat] += n
        if s.deck:
            s.hands[seat].append(s.deck.pop())
        if not s.hands[seat]:
            s.pile = 0
        s.turn += 1
        return [Event(f"{name} takes {n}", reveal=True)]

    def view(self, s: ToyState, seat: int | None) -> dict[str, Any]:
        return {
            "pile": s.pile,
            "scores": list(s.scores),
            "names": list(s.names),
            "hand": list(s.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in s.hands],
        }

    def result(self, s: ToyState) -> Result:
        best = max(s.scores)
        winners = [i for i, v in enumerate(s.scores) if v == best]
        lines = [ScoreLine(i, v, [("stones", v)]) for i, v in enumerate(s.scores)]
        return Result(winners, lines, "most stones wins")

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        return "# Toy\n\nPlay a card, take stones.\n\n## Table rules of this edition\n\n- none\n"


GAME = ToyGame()
