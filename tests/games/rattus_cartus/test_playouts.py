"""Rattus Cartus: seeded random playouts with invariants, determinization and the rules
reference (determinism, saves and illegal moves: tests/conformance/test_conformance.py, for every title)."""

from __future__ import annotations

import random

import pytest

from boardgames_tui.engine.core.playout import random_playout
from boardgames_tui.engine.rattus_cartus.data import BUILDINGS_PER_ROUND, DESIGN_NOTES, ROUNDS
from boardgames_tui.engine.rattus_cartus.state import RattusState
from tests.games.rattus_cartus.support import GAME, fresh, scramble

OPTIONS = ("recommended", "random-building", "random-cards")


def random_moves(s: RattusState, rng: random.Random, k: int) -> None:
    """Play `k` random moves (fewer when the game ends first)."""
    for _ in range(k):
        p = GAME.prompt(s)
        if p is None:
            break
        GAME.play(s, p.moves[rng.randrange(len(p.moves))])


def check(state: RattusState) -> None:
    bad = GAME.invariants(state)
    assert not bad, bad


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_playouts(n: int) -> None:
    """Spec: Round/End — 200 seeded random games per player count: invariants after every
    move (84 cards conserved, supplies, buildings, no negatives) and the right round count."""
    rounds = ROUNDS[n]
    for seed in range(200):
        opts = {"buildings": OPTIONS[seed % 3]}
        res = random_playout(GAME, n, seed, opts, check=check)
        s = res.state
        assert s.phase == "over" and GAME.prompt(s) is None
        assert s.round == rounds
        assert len(s.bout) == rounds * BUILDINGS_PER_ROUND[n]
        assert len(res.scores) == n
        assert all(w in range(n) for w in res.winners)


def test_determinize_keeps_what_the_seat_knows() -> None:
    """Protocol: determinize keeps the seat's own hand, commits, rats and seen Nun-row
    cards, and all public counts; the rest is resampled and the state stays valid."""
    rng = random.Random(7)
    for seed in range(30):
        s = fresh(4, seed)
        random_moves(s, rng, rng.randrange(10, 150))
        seat = seed % 4
        d = GAME.determinize(s, seat, random.Random(seed))
        assert GAME.invariants(d) == []
        me, dm = s.players[seat], d.players[seat]
        assert (me.pop, me.c_pop, me.rats, me.jokers, me.seen) == (
            dm.pop,
            dm.c_pop,
            dm.rats,
            dm.jokers,
            dm.seen,
        )
        for pos in me.seen:
            assert d.nun_row[pos] == s.nun_row[pos]
        assert GAME.view(d, seat)["players"] == GAME.view(s, seat)["players"]
        if GAME.prompt(s) is not None:
            assert GAME.prompt(d).seat == GAME.prompt(s).seat
            assert GAME.prompt(d).ids() == GAME.prompt(s).ids() or GAME.prompt(s).seat != seat


def test_determinize_depends_only_on_the_view() -> None:
    """Protocol: the resampled world depends only on what the seat sees (+ rng): two states
    that differ only in hidden parts give the same result."""
    rng = random.Random(1)
    for seed in range(20):
        s = fresh(3, seed)
        random_moves(s, rng, rng.randrange(10, 120))
        seat = seed % 3
        other = scramble(s, seat, seed)
        assert GAME.view(other, seat) == GAME.view(s, seat)
        a = GAME.determinize(s, seat, random.Random(99))
        b = GAME.determinize(other, seat, random.Random(99))
        assert GAME.digest(a) == GAME.digest(b)


def test_rules_reference_lists_table_rules() -> None:
    """Brief: the rules reference has every table and every [design] value."""
    text = GAME.rules_reference({"buildings": "random-cards"})
    assert "## Table rules of this edition" in text
    for source, note in DESIGN_NOTES:
        assert f"- *({source})* {note}" in text
    assert {source for source, _ in DESIGN_NOTES} == {"seed", "published rulebook", "this edition"}
    for name in ("Farm", "Brewery", "Guard Tower", "Piper's Lodge", "Hospital"):
        assert name in text
    assert "Five random cards per class" in text


def test_each_table_rule_is_labelled_by_its_own_source() -> None:
    """The seed lets the players decide the set and has each enter one building; that the set
    is one building per class and that the second disc stays unused are this edition's."""
    rules = {note: source for source, note in DESIGN_NOTES}
    for words in ("one building per class (5 copies each)", "second disc"):
        found = [note for note in rules if words in note]
        assert len(found) == 1 and rules[found[0]] == "this edition", words
    seed = [note for note, source in rules.items() if source == "seed"]
    assert "The building set may be decided upon collectively by the players." in seed
    assert not [note for note in seed if "setup" in note or "second disc" in note]
