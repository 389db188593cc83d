"""The rules of Toy: hidden hands, a face-down discard and a two-step move, on the core's flow
driver (`FlowGame`: a `DecisionTable` of one class per kind, and the hook `next_decisions`),
with a typed view that shows nobody another seat's cards, and hints for the computer players.

Players in turn choose a card of their hand (1-3), then take that many stones from the pile
(the card is shown) or discard it face down and take nothing, showing it to the next player
alone (a line of the log for two seats: `Event(..., seats={...})`); a new card is drawn. The
game ends when the pile is empty or a hand runs out; most stones wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from boardgames_tui.engine.core import chance
from boardgames_tui.engine.core.decisions import Decision, DecisionTable, choice, decision
from boardgames_tui.engine.core.flow import FlowGame
from boardgames_tui.engine.core.protocol import (
    BaseState,
    Event,
    Move,
    Option,
    Prompt,
    Result,
    ScoreLine,
)
from boardgames_tui.engine.core.titles import AIHints, SearchSettings

from . import TITLE

CARDS = [1, 2, 3] * 10  # the deck
HAND = 2  # cards in a hand


@dataclass(slots=True)
class Pick(Decision):
    """A seat's turn begins: choose a card of the hand."""

    kind: str = field(default="card", init=False)


@dataclass(slots=True, kw_only=True)
class Confirm(Decision):
    """Then take `card` stones, or discard the card face down."""

    kind: str = field(default="confirm", init=False)
    card: int


@dataclass
class ToyState(BaseState):
    pile: int = 15
    hands: list[list[int]] = field(default_factory=list)  # private to their seat
    deck: list[int] = field(default_factory=list)  # face down
    discards: list[list[int]] = field(default_factory=list)  # face down, known to their seat
    played: list[int] = field(default_factory=list)  # face up
    scores: list[int] = field(default_factory=list)
    turn: int = 0  # turns played
    pending: list[Decision] = field(default_factory=list)  # the head decides now


class ToyView(TypedDict):
    """What a seat sees: everything public, and its own hand and face-down cards."""

    names: list[str]
    pile: int
    scores: list[int]
    played: list[int]
    deck: int  # cards left, not which
    hand_sizes: list[int]
    discards: list[int]  # how many each seat has discarded, not which
    to_move: int | None
    hand: list[int] | None  # the viewer's own hand (None: the public, who holds none)
    my_discards: list[int] | None
    shown: list[int] | None  # the cards the previous seat discarded and showed the viewer
    chosen: int | None  # the card the viewer chose and has still to confirm


def prompt_card(game: ToyGame, s: ToyState, d: Pick) -> Prompt:
    moves = tuple(
        Move(f"card:{v}", f"Card {v}", f"→ take {min(v, s.pile)}")
        for v in sorted(set(s.hands[d.seat]))
    )
    return Prompt(d.seat, "Choose a card", moves, private=True, phase="Play")


def play_card(game: ToyGame, s: ToyState, d: Pick, move_id: str, events: list[Event]) -> None:
    v = int(move_id.split(":")[1])
    s.pending[0] = Confirm(d.seat, card=v)  # the turn goes on: its next step in place
    events.append(Event(f"{s.names[d.seat]} picks card {v}", seat=d.seat, public=None))


def prompt_confirm(game: ToyGame, s: ToyState, d: Confirm) -> Prompt:
    take = Move("take", f"Take {min(d.card, s.pile)}")
    return Prompt(
        d.seat,
        f"Confirm card {d.card}",
        (take, Move("pass", "Take nothing")),
        private=True,
        step=1,
        phase="Play",
    )


def play_confirm(game: ToyGame, s: ToyState, d: Confirm, move_id: str, events: list[Event]) -> None:
    seat, v, name = d.seat, d.card, s.names[d.seat]
    s.hands[seat].remove(v)
    if move_id == "take":
        n = min(v, s.pile)
        s.pile -= n
        s.scores[seat] += n
        s.played.append(v)
        events.append(Event(f"{name} plays card {v} and takes {n}", reveal=True))
    else:
        s.discards[seat].append(v)
        nxt = s.names[shown_to(s, seat)]
        events.append(  # two seats read the card: the one who discards, the one shown it
            Event(
                f"{name} discards card {v} face down and shows it to {nxt}",
                seats={seat, shown_to(s, seat)},
                public=f"{name} discards a card face down and shows it to {nxt}",
            )
        )
    if s.deck:
        s.hands[seat].append(s.deck.pop())
    s.turn += 1
    s.pending.pop(0)  # the turn is over: the flow asks `next_decisions` what comes next


def shown_to(s: ToyState, seat: int) -> int:
    """The seat that is shown `seat`'s face-down discards: the next one."""
    return (seat + 1) % len(s.names)


DECISIONS: DecisionTable[ToyGame, ToyState, Decision] = DecisionTable(
    [
        decision(Pick, choice(prompt_card, play_card)),
        decision(Confirm, choice(prompt_confirm, play_confirm)),
    ]
)


class ToyGame(FlowGame[ToyState, Decision, ToyView]):
    """Toy for 2-4 players."""

    meta = TITLE  # id, title and player counts come from the catalog entry
    summary = "A test game."
    options = (Option("speed", "Speed", (("slow", "Slow"), ("fast", "Fast")), "slow"),)
    decisions = DECISIONS

    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> ToyState:
        self.check_players(len(names))
        s = ToyState(names=list(names), seed=seed, options=dict(options))
        s.deck = list(CARDS)
        chance.shuffle(s, s.deck)
        s.hands = [[s.deck.pop() for _ in range(HAND)] for _ in names]
        s.discards = [[] for _ in names]
        s.scores = [0] * len(names)
        s.pile = 6 if options.get("speed") == "fast" else 15
        s.pending = [Pick(0)]
        return s

    def next_decisions(self, s: ToyState, events: list[Event]) -> bool:
        """A turn is over: the next seat's turn, unless the pile or the last hand is empty."""
        if s.pile == 0 or not s.hands[(s.turn - 1) % len(s.names)]:
            return False  # the game is over
        s.pending.append(Pick(s.turn % len(s.names)))
        return True

    def view(self, s: ToyState, seat: int | None) -> ToyView:
        mine = seat is not None and 0 <= seat < len(s.names)  # PUBLIC (-1) holds nothing
        head = s.pending[0] if s.pending else None
        return {
            "names": list(s.names),
            "pile": s.pile,
            "scores": list(s.scores),
            "played": list(s.played),
            "deck": len(s.deck),
            "hand_sizes": [len(h) for h in s.hands],
            "discards": [len(d) for d in s.discards],
            "to_move": head.seat if head else None,
            "hand": sorted(s.hands[seat]) if mine and seat is not None else None,
            "my_discards": list(s.discards[seat]) if mine and seat is not None else None,
            # every fact a log line tells a seat is in its view too (the log is not a view)
            "shown": list(s.discards[seat - 1]) if mine and seat is not None else None,
            "chosen": head.card if isinstance(head, Confirm) and head.seat == seat else None,
        }

    def result(self, s: ToyState) -> Result:
        best = max(s.scores)
        winners = [i for i, v in enumerate(s.scores) if v == best]
        rank = {v: 1 + sum(o > v for o in s.scores) for v in s.scores}  # ties share a place
        lines = [ScoreLine(i, v, [("stones", v)], rank[v]) for i, v in enumerate(s.scores)]
        return Result(winners, lines, "most stones wins")

    def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
        return (
            "# Toy\n\n## Setup\n\n- A deck of 30 cards, ten each of 1, 2 and 3, shuffled.\n"
            f"- Each player is dealt {HAND} cards.\n"
            "- The pile holds 15 stones (6 at the fast speed).\n\n"
            "## Play\n\nIn turn, choose a card of your hand, then take that many stones from "
            "the pile (the card is shown) or discard it face down, showing it to the next player "
            "alone; draw a card. The game ends "
            "when the pile is empty or a hand runs out: most stones wins.\n\n"
            "## Table rules of this edition\n\n- none\n"
        )

    def invariants(self, s: ToyState) -> list[str]:
        cards = s.deck + s.played + [c for h in s.hands + s.discards for c in h]
        return [] if sorted(cards) == sorted(CARDS) else ["the cards are not the deck's"]

    def determinize(self, s: ToyState, seat: int, rng: random.Random) -> ToyState:
        """Every card `seat` cannot see (the deck, the others' hands and discards) dealt anew;
        the discards the previous seat showed it stay as they are."""
        new = self.clone(s)
        others = [o for o in range(len(s.names)) if o != seat]
        unseen = [o for o in others if shown_to(s, o) != seat]  # their discards are unknown
        pool = sorted(
            new.deck
            + [c for o in others for c in new.hands[o]]
            + [c for o in unseen for c in new.discards[o]]
        )
        rng.shuffle(pool)  # from a sorted pool: where each card really is tells nothing
        for o in others:
            new.hands[o] = [pool.pop() for _ in s.hands[o]]
        for o in unseen:  # and with them what each was shown (a fact that is not a card)
            new.discards[o] = [pool.pop() for _ in s.discards[o]]
        new.deck = pool
        head = new.pending[0] if new.pending else None
        if isinstance(head, Confirm) and head.seat != seat:  # another seat's chosen card
            head.card = rng.choice(new.hands[head.seat])
        new.seed = rng.randrange(2**31)  # future chance is hidden too
        return new

    def twin(self, s: ToyState, seat: int, rng: random.Random) -> ToyState | None:
        """Another seat's hand card swapped with a deck card of another value."""
        for o in rng.sample(range(len(s.names)), len(s.names)):
            head = s.pending[0] if s.pending else None
            chosen = head.card if isinstance(head, Confirm) and head.seat == o else None
            spots = [
                (i, j)
                for i, c in enumerate(s.hands[o])
                for j, x in enumerate(s.deck)
                if o != seat and c != x and c != chosen
            ]
            if spots:
                t = self.clone(s)
                i, j = rng.choice(spots)
                t.hands[o][i], t.deck[j] = t.deck[j], t.hands[o][i]
                return t
        return None


GAME = ToyGame()


# ---- what the computer players know (the title's `ai`; loaded with the rules) --------------
def turns(state: ToyState) -> int:
    """A playout checkpoint: a new round once every seat has played."""
    return state.turn // len(state.names)


def stones(state: ToyState, seat: int) -> float:
    """Stones taken so far, and half a stone for each card in hand."""
    return state.scores[seat] + 0.5 * sum(state.hands[seat])


AI = AIHints(
    scale=2.0,  # two stones make a clear lead
    # rollout mode, its playout players deciding on worlds sampled from their own view
    # (`playout_worlds`): with 0 they would see the sampled world's hands, which in a game of
    # hidden hands misjudges every option (see docs/computer-players.md)
    search={0: SearchSettings(mode="rollout", horizon="2", playout_worlds=2)},
    evaluators={"": stones},
    checkpoint=turns,
)
