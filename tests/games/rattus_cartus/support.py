"""Rattus Cartus test helpers: build scenario states and play moves from the prompt.

(No tests in this module; it is named test_* only to stay within this game's test files.)
"""

from __future__ import annotations

import random

from boardgames_tui.engine.core.protocol import Event
from boardgames_tui.engine.core.registry import get_game
from boardgames_tui.engine.rattus_cartus.data import (
    BUILDING_INDEX,
    CARD_CLASS,
    CARD_NUNS,
    CLASSES,
    SPECIALS,
    rat_tokens,
)
from boardgames_tui.engine.rattus_cartus.rules import RattusCartus
from boardgames_tui.engine.rattus_cartus.state import RattusState, Task

GAME: RattusCartus = get_game("rattus-cartus")  # type: ignore[assignment]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
FIELDS = {"joker": "jokers", "sword": "swords", "flute": "flutes", "pass": "passes"}


def fresh(n: int = 2, seed: int = 1, options: dict[str, str] | None = None) -> RattusState:
    return GAME.new_state(NAMES[:n], GAME.check_options(options or {}), seed)


def card_of(key: str, copy: int = 0) -> int:
    """A building card id: building `key`, copy 0..4 (the copy sets the supply action)."""
    return BUILDING_INDEX[key] * 5 + copy


def take_card(s: RattusState, cls: str, nuns: int | None = None) -> int:
    """Remove a population card of class `cls` (and nun count) from the deck and return it."""
    ci = CLASSES.index(cls)
    for i, c in enumerate(s.deck):
        if CARD_CLASS[c] == ci and (nuns is None or CARD_NUNS[c] == nuns):
            return s.deck.pop(i)
    raise AssertionError(f"no {cls} card with {nuns} nuns left in the deck")


def set_hand(s: RattusState, seat: int, kinds: list[str]) -> None:
    """Replace a seat's hand: population cards by class name, special cards by kind."""
    p = s.players[seat]
    s.deck.extend(p.pop)
    p.pop = []
    for kind in SPECIALS:
        s.supply[kind] += getattr(p, FIELDS[kind])
        setattr(p, FIELDS[kind], 0)
    for kind in kinds:
        if kind in FIELDS:
            s.supply[kind] -= 1
            setattr(p, FIELDS[kind], getattr(p, FIELDS[kind]) + 1)
        else:
            p.pop.append(take_card(s, kind))


def set_nun_row(s: RattusState, nuns: list[int]) -> None:
    """Make the Nun-row show these nun counts (cards swapped with the deck)."""
    for pos, want in enumerate(nuns):
        s.deck.append(s.nun_row[pos])
        for i, c in enumerate(s.deck):
            if CARD_NUNS[c] == want:
                s.nun_row[pos] = s.deck.pop(i)
                break


def set_row(s: RattusState, keys: list[str], copies: list[int] | None = None) -> None:
    """Make the building row show these buildings (the other cards fill the building deck)."""
    copies = copies or list(range(len(keys)))
    s.row = [card_of(k, c) for k, c in zip(keys, copies, strict=True)]
    rest = [c for c in range(60) if c not in s.row]
    s.bdeck = rest[: 30 - len(s.row)]
    s.replacement = []
    s.bout = []
    s.discs = [[] for _ in s.row]


def reset_round(s: RattusState) -> None:
    for p in s.players:
        p.gained = 0
        p.entered = -1
        p.passed = False
        p.revealed = False
        p.shown = []


def _to_phase(
    s: RattusState, phase: str, keys: list[str], copies: list[int] | None, start: int
) -> RattusState:
    """Phase `phase` (B or C: a decision per seat) with this row, from start player `start`."""
    set_row(s, keys, copies)
    reset_round(s)
    s.start = start
    s.phase = phase
    n = len(s.players)
    s.pending = [Task(phase, (start + i) % n) for i in range(n)]
    return s


def to_supply(
    s: RattusState, keys: list[str], copies: list[int] | None = None, start: int = 0
) -> RattusState:
    """Phase B with this row, from start player `start`."""
    return _to_phase(s, "supply", keys, copies, start)


def to_enter(s: RattusState, keys: list[str], start: int = 0) -> RattusState:
    """Phase C with this row, from start player `start`."""
    return _to_phase(s, "enter", keys, None, start)


def play(s: RattusState, *ids: str) -> list[Event]:
    """Play moves taken from the prompt (each must be legal there)."""
    events: list[Event] = []
    for mid in ids:
        p = GAME.prompt(s)
        assert p is not None, f"game over before {mid}"
        assert mid in p.ids(), f"{mid} not in {p.ids()} ({p.text})"
        events += GAME.play(s, p.move(mid))
        bad = GAME.invariants(s)
        assert not bad, bad
    return events


def enter(s: RattusState, row: int, *kinds: str) -> list[Event]:
    """Enter building `row` (1-based) and commit cards of these kinds, then confirm."""
    seat = GAME.prompt(s).seat
    events = play(s, f"enter:{row}", *[f"commit:{k}" for k in kinds])
    p = GAME.prompt(s)
    # With no committable card left the commit ends by itself (no choice).
    if p is not None and p.seat == seat and p.step > 0 and "done" in p.ids():
        events += play(s, "done")
    return events


def texts(events: list[Event], viewer: int | None = None) -> list[str]:
    return [t for e in events if (t := e.for_seat(viewer))]


def hand_kinds(s: RattusState, seat: int) -> list[str]:
    p = s.players[seat]
    out = sorted(CLASSES[CARD_CLASS[c]] for c in p.pop)
    for kind in SPECIALS:
        out += [kind] * getattr(p, FIELDS[kind])
    return out


def scramble(s: RattusState, seat: int, seed: int = 0) -> RattusState:
    """A copy whose hidden parts (for `seat`) differ: others' hands, commits, rats, Nun-row."""
    rng = random.Random(seed)
    new = GAME.clone(s)
    me = new.players[seat]
    for o, p in enumerate(new.players):
        if o == seat:
            continue
        for i in range(len(p.pop)):
            if new.deck:
                j = rng.randrange(len(new.deck))
                p.pop[i], new.deck[j] = new.deck[j], p.pop[i]
        if not p.revealed:
            for i in range(len(p.c_pop)):
                if new.deck:
                    j = rng.randrange(len(new.deck))
                    p.c_pop[i], new.deck[j] = new.deck[j], p.c_pop[i]
        tokens = len(rat_tokens(p.rats))
        same = [r for r in range(5 * tokens + 5) if len(rat_tokens(r)) == tokens and r != p.rats]
        if same:
            p.rats = rng.choice(same)
    for pos in range(5):
        if pos not in me.seen and new.deck:
            j = rng.randrange(len(new.deck))
            new.nun_row[pos], new.deck[j] = new.deck[j], new.nun_row[pos]
    rng.shuffle(new.deck)
    return new
