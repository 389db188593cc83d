"""Computer players, hints and analysis decide from their seat's view only (issues 6, 19).

Two states that differ only in what the deciding seat cannot see (other hands, face-down
tokens, deck and bag order, future chance) must give the same decision for the same bot seed,
at every level. The second state is made two ways: by swapping hidden items by hand (which
catches a determinize that forgets to resample something) and by `game.determinize` itself.
Either way the test first checks that the seat's view is really unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.bots.analysis import rate_position
from engine.bots.coach import option_values
from engine.bots.players import LEVELS, make_bot
from engine.core.protocol import Game, Prompt
from engine.core.registry import catalog, get_game

# every installed title; the table and the stride between checked positions where a game
# needs its own (else its typical table, every 7th decision)
PLAYERS = {"notre-dame": 3, "rattus-cartus": 3}
GAMES = [(t.id, PLAYERS.get(t.id, t.players)) for t in catalog()]
POSITIONS = 6  # decision points checked per game
STRIDE = {"notre-dame": 23, "rattus-cartus": 19, "1347": 37, "cathedral-of-orleans": 3}


def _swap_nd(game: Game, s: Any, seat: int, rng: random.Random) -> Any:
    """Notre Dame: swap a card of another seat's hand with one of its face-down deck.

    Card backs show their owner: only a card of the seat's own colour is swapped.
    """
    t = game.clone(s)
    known = set(s.passed1[seat]) | set(s.passed2[seat])
    for o in rng.sample(range(t.n), t.n):
        if o == seat:
            continue
        hand = [i for i, c in enumerate(t.hands[o]) if c not in known and c // 9 == o]
        if hand and t.decks[o]:
            i, j = rng.choice(hand), rng.randrange(len(t.decks[o]))
            t.hands[o][i], t.decks[o][j] = t.decks[o][j], t.hands[o][i]
            break
    t.brown_deck.reverse()
    return t


def _swap_rattus(game: Game, s: Any, seat: int, rng: random.Random) -> Any:
    """Rattus Cartus: swap another player's hand card with a deck card; reverse the deck."""
    t = game.clone(s)
    for o in rng.sample(range(len(t.players)), len(t.players)):
        p = t.players[o]
        if o != seat and p.pop and t.deck:
            i, j = rng.randrange(len(p.pop)), rng.randrange(len(t.deck))
            p.pop[i], t.deck[j] = t.deck[j], p.pop[i]
            break
    t.deck.reverse()
    return t


def _swap_pestis(game: Game, s: Any, seat: int, rng: random.Random) -> Any:
    """1347: swap another seat's token in hand with one of its face-down investments."""
    t = game.clone(s)
    for q in rng.sample(range(t.n), t.n):
        if q == seat or not t.hand[q]:
            continue
        spots = [(a, i) for a in range(6) if not t.revealed[a] for i in range(len(t.invest[a][q]))]
        spots = [(a, i) for a, i in spots if t.invest[a][q][i] not in t.hand[q]]
        # tokens back from a revealed area were seen: they stay in the hand
        hand = [h for h, v in enumerate(t.hand[q]) if v not in t.returned[q]]
        if spots and hand:
            a, i = rng.choice(spots)
            h = rng.choice(hand)
            t.hand[q][h], t.invest[a][q][i] = t.invest[a][q][i], t.hand[q][h]
            t.hand[q].sort(reverse=True)
            break
    if len(t.res_deck) > 2:
        t.res_deck[:-1] = t.res_deck[-2::-1]
    return t


def _swap_cathedral(game: Game, s: Any, seat: int, rng: random.Random) -> Any:
    """The Cathedral of Orléans: another order of the face-down events and blueprints."""
    t = game.clone(s)
    t.events.reverse()
    t.blueprints.reverse()
    return t


SWAPS: dict[str, Callable[[Game, Any, int, random.Random], Any]] = {
    "notre-dame": _swap_nd,
    "rattus-cartus": _swap_rattus,
    "1347": _swap_pestis,
    "cathedral-of-orleans": _swap_cathedral,
}


def _twins(game: Game, players: int, seed: int) -> Iterator[tuple[Any, Any, Prompt]]:
    """Pairs of states the deciding seat cannot tell apart, along a random game."""
    s = game.new_state([f"P{i}" for i in range(players)], game.check_options({}), seed)
    rng = random.Random(seed)
    found = 0
    k = 0
    while (p := game.prompt(s)) is not None and found < POSITIONS:
        k += 1
        if len(p.moves) > 1 and k % STRIDE.get(game.id, 7) == 0:
            # a hand-made swap where the test knows the game's hidden parts, else a second
            # sampled world
            swap = SWAPS.get(game.id) or (lambda g, st, seat, r: g.determinize(st, seat, r))
            swapped = swap(game, s, p.seat, rng)
            swapped.seed = s.seed + 7777  # future chance is hidden as well
            sampled = game.determinize(s, p.seat, random.Random(k))
            view = game.view(s, p.seat)
            assert game.view(sampled, p.seat) == view, "determinize changed the seat's view"
            # a hand-made swap the seat could notice (it saw that card) is not a twin
            if game.view(swapped, p.seat) == view and game.digest(swapped) != game.digest(s):
                for twin in (swapped, sampled):
                    tp = game.prompt(twin)
                    assert tp is not None and tp.ids() == p.ids(), "the seat's options changed"
                found += 1
                yield s, swapped, p
                yield s, sampled, p
        game.play(s, p.moves[rng.randrange(len(p.moves))])


@pytest.mark.parametrize("gid, players", GAMES)
def test_determinize_depends_only_on_the_view(gid: str, players: int) -> None:
    """The sampled world is a function of the seat's view and the rng alone."""
    game = get_game(gid)
    checked = 0
    for a, b, p in _twins(game, players, seed=11):
        da = game.determinize(a, p.seat, random.Random(5))
        db = game.determinize(b, p.seat, random.Random(5))
        assert game.digest(da) == game.digest(db), f"{gid}: {p.text}"
        checked += 1
    assert checked >= POSITIONS


def test_the_check_catches_a_world_that_is_not_resampled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A determinize that copies the real state would fail the check above."""
    game = get_game("notre-dame")
    monkeypatch.setattr(type(game), "determinize", lambda self, s, seat, rng: self.clone(s))
    differ = [
        game.digest(game.determinize(a, p.seat, None))
        != game.digest(game.determinize(b, p.seat, None))
        for a, b, p in _twins(game, 3, seed=11)
    ]
    assert any(differ)


@pytest.mark.parametrize("gid, players", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_same_decision_whatever_the_seat_cannot_see(gid: str, players: int, level: str) -> None:
    game = get_game(gid)
    checked = 0
    for a, b, p in _twins(game, players, seed=23):
        seed = 1000 + checked
        bot_a = make_bot(level, game, seed=seed, iterations=12)
        bot_b = make_bot(level, game, seed=seed, iterations=12)
        assert bot_a.choose(game.clone(a), p) == bot_b.choose(game.clone(b), p), p.text
        checked += 1
    assert checked >= POSITIONS


@pytest.mark.parametrize("gid, players", GAMES)
def test_hint_and_analysis_see_only_the_seat_s_view(gid: str, players: int) -> None:
    """The coach's values (the hint) and a move's rating (analysis) are the same for two
    states the seat to move cannot tell apart."""
    game = get_game(gid)
    checked = 0
    for a, b, p in _twins(game, players, seed=29):
        seed = 2000 + checked
        if checked % 2 == 0:  # the hint: every option's value
            hint_a = option_values(game, game.clone(a), p, seed=seed, iterations=8)
            hint_b = option_values(game, game.clone(b), p, seed=seed, iterations=8)
            assert hint_a == hint_b, p.text
        else:  # analysis: the rating (with every option's value) of a move that was played
            played = p.moves[-1].id  # pinned, and not the first option
            rate_a = rate_position(game, game.clone(a), 1, played, seed, iterations=8)
            rate_b = rate_position(game, game.clone(b), 1, played, seed, iterations=8)
            assert rate_a == rate_b, p.text
        checked += 1
    assert checked >= POSITIONS


def test_the_hint_check_catches_a_coach_that_reads_the_real_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If the coach saw the real state (a determinize that copies it), twins would differ."""
    game = get_game("rattus-cartus")
    monkeypatch.setattr(type(game), "determinize", lambda self, s, seat, rng: self.clone(s))
    differ = (
        option_values(game, game.clone(a), p, seed=3, iterations=8)
        != option_values(game, game.clone(b), p, seed=3, iterations=8)
        for a, b, p in _twins(game, 3, seed=29)
    )
    assert any(differ)


def test_two_player_rattus_strong_and_hint_see_only_the_seat_s_view() -> None:
    """At 2 players strong and the coach judge Rattus Cartus by their own evaluation
    (`lead`, which also reads the face-down cards of the sampled world): the same check."""
    from engine.bots.search import settings_for

    game = get_game("rattus-cartus")
    assert settings_for(game, 2).evaluator == "lead"
    checked = 0
    for a, b, p in _twins(game, 2, seed=31):
        seed = 3000 + checked
        bot_a = make_bot("strong", game, seed=seed, iterations=12)
        bot_b = make_bot("strong", game, seed=seed, iterations=12)
        assert bot_a.choose(game.clone(a), p) == bot_b.choose(game.clone(b), p), p.text
        hint_a = option_values(game, game.clone(a), p, seed=seed, iterations=8)
        hint_b = option_values(game, game.clone(b), p, seed=seed, iterations=8)
        assert hint_a == hint_b, p.text
        checked += 1
    assert checked >= POSITIONS
