"""Core protocol: moves, prompts, chance, match history (undo/redo/goto), registry."""

from __future__ import annotations

import random

import pytest

from boardgames_tui.engine.core import IllegalMove, Match, Seat, SetupError, UnknownGame, get_game
from boardgames_tui.engine.core.protocol import Event, Prompt


def play_random(m: Match, n: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        p = m.prompt
        if p is None:
            return
        m.play(p.moves[rng.randrange(len(p.moves))].id)


def test_same_seed_same_moves_same_game() -> None:
    a = Match.new("toy", ["Ann", "Bob"], seed=11)
    b = Match.new("toy", ["Ann", "Bob"], seed=11)
    assert a.game.digest(a.state) == b.game.digest(b.state)
    play_random(a, 10, seed=4)
    for mid in a.move_ids():
        b.play(mid)
    assert a.game.digest(a.state) == b.game.digest(b.state)


def test_different_seed_deals_differently() -> None:
    digests = {
        Match.new("toy", ["A", "B"], seed=s).game.digest(Match.new("toy", ["A", "B"], seed=s).state)
        for s in range(8)
    }
    assert len(digests) > 1


def test_illegal_move_rejected_state_unchanged() -> None:
    m = Match.new("toy", ["Ann", "Bob"], seed=1)
    before = m.game.digest(m.state)
    with pytest.raises(IllegalMove):
        m.play("card:99")
    with pytest.raises(IllegalMove):
        m.game.apply(m.state, "nonsense")
    assert m.game.digest(m.state) == before
    assert m.cursor == 0


def test_undo_redo_and_branching() -> None:
    m = Match.new("toy", ["Ann", "Bob"], seed=2)
    play_random(m, 6, seed=1)
    digests = [m.game.digest(m.state_at(i)) for i in range(m.length + 1)]
    m.undo()
    m.undo()
    assert m.cursor == 4 and m.game.digest(m.state) == digests[4]
    m.redo()
    assert m.game.digest(m.state) == digests[5]
    m.redo()
    assert m.game.digest(m.state) == digests[6]
    with pytest.raises(IllegalMove):
        m.redo()
    # a new move after an undo drops the redo branch
    m.goto(2)
    m.play(m.prompt.moves[-1].id)
    assert m.length == 3 and not m.can_redo()


def test_undo_then_redo_gives_equal_states() -> None:
    m = Match.new("toy", ["Ann", "Bob", "Cy"], seed=5)
    play_random(m, 12, seed=9)
    end = m.game.digest(m.state)
    while m.can_undo():
        m.undo()
    while m.can_redo():
        m.redo()
    assert m.game.digest(m.state) == end


def test_snapshots_are_independent() -> None:
    """Playing on never changes an earlier snapshot (O(1) review is safe)."""
    m = Match.new("toy", ["Ann", "Bob"], seed=3)
    first = m.game.digest(m.state_at(0))
    play_random(m, 8)
    assert m.game.digest(m.state_at(0)) == first


def test_undo_warning_for_other_seat_and_reveal() -> None:
    m = Match.new("toy", [Seat("Ann"), Seat("Bob")], seed=3)
    m.play(m.prompt.moves[0].id)  # Ann picks (private, no reveal)
    assert m.undo_warning(0) is None
    assert "Ann" in (m.undo_warning(1) or "")
    m.play("take")  # reveals
    assert "reveal" in (m.undo_warning(0) or "")


def test_event_visibility() -> None:
    ev = Event("Ann keeps Bank", seat=0, public="Ann keeps a card")
    assert ev.for_seat(0) == "Ann keeps Bank"
    assert ev.for_seat(1) == "Ann keeps a card"
    assert ev.for_seat(None) == "Ann keeps Bank"
    assert Event("secret", seat=0).for_seat(1) is None


def test_setup_errors() -> None:
    with pytest.raises(SetupError):
        Match.new("toy", ["Solo"])
    with pytest.raises(SetupError):
        Match.new("toy", ["A", "A"])
    with pytest.raises(SetupError):
        Match.new("toy", ["A", "B"], {"speed": "warp"})
    with pytest.raises(SetupError):
        Match.new("toy", ["A", "B"], {"colour": "red"})
    with pytest.raises(UnknownGame):
        get_game("chess")


def test_last_human_cursor_skips_bots() -> None:
    m = Match.new("toy", [Seat("Ann"), Seat("Bot", "random")], seed=4)
    play_random(m, 4)  # Ann, Ann, Bot, Bot
    assert m.last_human_cursor() == 1


def test_catalog_agrees_with_the_games() -> None:
    """The menu's title list (read without importing the rules) matches each game."""
    from boardgames_tui.engine.core import catalog
    from tests.conftest import BUILTIN

    titles = catalog()
    assert len(BUILTIN) == 4 and {t.id for t in titles} >= set(BUILTIN)
    for t in titles:
        g = get_game(t.id)
        assert (t.title, t.min_players, t.max_players) == (g.title, g.min_players, g.max_players)


def test_one_prompt_and_view_per_position_shared_by_every_reader() -> None:
    """Item 3 of issue 33: the prompt and each seat's view are computed once per cursor
    position; a move, undo, redo, jump or a new branch gives the new position's own."""
    from boardgames_tui.engine.rattus_cartus.rules import RattusCartus
    from boardgames_tui.engine.rattus_cartus.state import RattusState
    from boardgames_tui.engine.rattus_cartus.view import RattusView

    calls = {"prompt": 0, "view": 0}

    class Counting(RattusCartus):  # the real game, counting what it is asked
        def prompt(self, s: RattusState) -> Prompt | None:
            calls["prompt"] += 1
            return super().prompt(s)

        def view(self, s: RattusState, seat: int | None) -> RattusView:
            calls["view"] += 1
            return super().view(s, seat)

    game = Counting()
    m = Match.new(game, ["A", "B", "C"], seed=4)
    first = [m.prompt for _ in range(5)]
    views = [m.view(0) for _ in range(3)]
    assert calls == {"prompt": 1, "view": 1} and first[0] is first[4] and views[0] is views[2]
    m.play(first[0].moves[0].id)
    after = m.prompt
    assert calls["prompt"] == 2 and after == game.prompt(m.state)
    m.undo()
    assert m.prompt == first[0] and m.view(0) == views[0]
    m.play(first[0].moves[-1].id)  # another branch at the same cursor: not the old position's
    assert m.prompt == game.prompt(m.state) and m.view(0) == game.view(m.state, 0)
    m.goto(0)
    assert m.prompt == first[0]
