"""Twins: two states the seat to move cannot tell apart, made for any title by its own means.

A twin of a position differs from it in something hidden from the seat to move, and is made
in one of two ways, neither of which trusts `determinize` (the thing under test):

- **another history**: a recent private move of another seat chosen differently and the
  moves since replayed, kept when the seat's view is the same after every move (the engine's
  own rules made it, so it is what the game really hides);
- **the title's hook** `Game.twin` (another seat's card swapped with one of the deck, say),
  kept when the seat's view is unchanged.

Either way its future chance is reseeded too. Each position also yields the world that
`determinize` samples for the seat. A title that has private information must yield twins
that differ in what *another* seat sees (its hand, its face-down choice): else the checks
would pass a game whose computer players read the other hands.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from boardgames_tui.engine.core import PUBLIC, IllegalMove
from boardgames_tui.engine.core.protocol import Game, Prompt

POSITIONS = 6  # positions with a twin checked per title
HISTORY = 24  # how far back another seat's private move is looked for
GAMES = 40  # games tried, one after another, to find them: a short game needs several


@dataclass
class Pair:
    """A position, a state its seat to move cannot tell from it, and how it was made."""

    real: Any
    other: Any
    prompt: Prompt
    how: str  # "history", "hook" or "sampled"


def _names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def _history_twin(game: Game, past: deque[tuple[Any, Prompt, str]], now: Any, seat: int) -> Any:
    """`now` with one recent private move of another seat played otherwise (None if none)."""
    moves = [m for _, _, m in past]
    views = [game.view(s, seat) for s, _, _ in past] + [game.view(now, seat)]
    for j in range(len(past) - 1, -1, -1):
        before, p, played = past[j]
        if not p.private or p.seat == seat:
            continue
        for alt in p.moves:
            if alt.id == played:
                continue
            t = game.clone(before)
            try:
                for k, move_id in enumerate([alt.id, *moves[j + 1 :]], start=j + 1):
                    tp = game.prompt(t)
                    if tp is None:
                        break
                    game.play(t, tp.move(move_id))
                    if game.view(t, seat) != views[k]:
                        break
                else:
                    return t
            except IllegalMove:
                continue
    return None


def twins(game: Game, players: int, seed: int, positions: int = POSITIONS) -> Iterator[Pair]:
    """Pairs along random games from `seed` on: at up to `positions` decisions with a choice,
    a twin (history, else the hook) and the world `determinize` samples."""
    found = 0
    length = 0  # moves of the first game: the stride spreads the positions over a game
    for g in range(GAMES):
        s = game.new_state(_names(players), game.check_options({}), seed + g)
        rng = random.Random(seed + g)
        past: deque[tuple[Any, Prompt, str]] = deque(maxlen=HISTORY)
        stride = max(1, length // (2 * positions)) if length else 3
        k = 0
        while (p := game.prompt(s)) is not None and found < positions:
            k += 1
            if len(p.moves) > 1 and k % stride == 0:
                made = [(t, "history") for t in [_history_twin(game, past, s, p.seat)] if t]
                if not made and (t := game.twin(s, p.seat, rng)) is not None:
                    made.append((t, "hook"))
                view = game.view(s, p.seat)
                for twin, how in made:
                    twin.seed = s.seed + 7777  # future chance is hidden as well
                    if game.view(twin, p.seat) == view and game.digest(twin) != game.digest(s):
                        sampled = game.determinize(s, p.seat, random.Random(k))
                        seen = game.view(sampled, p.seat)
                        assert seen == view, sampled_view_differs(game.id, p.seat, view, seen)
                        found += 1
                        real = game.clone(s)  # `s` plays on
                        yield Pair(real, twin, p, how)
                        yield Pair(real, sampled, p, "sampled")
                        break
            move = p.moves[rng.randrange(len(p.moves))]
            past.append((game.clone(s), p, move.id))
            game.play(s, move)
        length = length or k
        if found >= positions:
            return


def others_differ(game: Game, pair: Pair) -> bool:
    """Whether the twin differs in what some other seat than the one to move sees."""
    seats = range(len(pair.real.names))
    return any(
        game.view(pair.real, o) != game.view(pair.other, o) for o in seats if o != pair.prompt.seat
    )


def checked_twins(game: Game, players: int, seed: int) -> list[Pair]:
    """The pairs of `twins`, checked to be real twins: the seat's options and the public view
    are the same, and, for a title with private information, some twin hides another seat's
    private part (a hand, a face-down choice)."""
    pairs = list(twins(game, players, seed))
    assert len(pairs) >= 2 * POSITIONS, f"{game.id}: only {len(pairs) // 2} positions with a twin"
    for pair in pairs:
        tp = game.prompt(pair.other)
        assert tp is not None and tp.ids() == pair.prompt.ids(), "the seat's options changed"
        assert tp.seat == pair.prompt.seat
        assert game.view(pair.other, PUBLIC) == game.view(pair.real, PUBLIC), (
            f"{game.id}: the public view shows what seat {pair.prompt.seat} may not see"
        )
    if game.has_private_info:
        made = [p for p in pairs if p.how != "sampled"]
        assert any(others_differ(game, p) for p in made), (
            f"{game.id}: no twin differs in another seat's private part; give the title a "
            "`twin` hook (another seat's hidden card swapped) or private moves"
        )
    return pairs


def differs(where: str, surface: str, real: str, twin: str) -> str:
    """A failure that names its cause: `surface` reads otherwise in a twin whose views are
    the reader's views of the real game. Either the text tells what the view does not (a
    public fact missing from the view: the tests judge what a reader knows by its views) or
    it tells the reader what it may not know (a leak)."""
    pairs = zip([*real.splitlines(), ""], [*twin.splitlines(), ""], strict=False)
    a, b = next(((x, y) for x, y in pairs if x != y), (real, twin))
    return (
        f"{where}: the {surface} reads {a!r} where a twin the reader cannot tell apart (the "
        f"same view after every move) reads {b!r}. If the reader may know this, put it in "
        "the view: the tests judge what a reader knows by its views. If not, it is a leak: "
        "write the line for its readers (Event(..., seat=/seats=, public=...))."
    )


def sampled_view_differs(game_id: str, seat: int, real: Any, sampled: Any) -> str:
    """A failure that names its cause: the view of `seat` changed in the world `determinize`
    sampled for it, at these keys. Either the view shows what the seat may not see (a leak),
    or `determinize` redrew what the seat knows (a card it was shown, a public fact)."""
    keys = sorted(k for k in set(real) | set(sampled) if real.get(k) != sampled.get(k))
    shown = ", ".join(f"{k}: {real.get(k)!r} became {sampled.get(k)!r}" for k in keys[:4])
    return (
        f"{game_id}: the view of seat {seat} changed in the world determinize sampled for it "
        f"({shown}). If the seat may know this (it was shown it, or it is public), determinize "
        "must keep it; if not, the view shows what the seat may not see."
    )
