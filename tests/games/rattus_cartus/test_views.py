"""Rattus Cartus: views and the rendered board never show another seat's hidden things."""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console

from boardgames_tui.engine.rattus_cartus.data import CARD_NUNS
from boardgames_tui.engine.rattus_cartus.state import RattusState
from boardgames_tui.engine.rattus_cartus.view import RattusView
from boardgames_tui.tui.games.rattus_cartus import UI
from tests.games.rattus_cartus.support import (
    GAME,
    enter,
    fresh,
    play,
    scramble,
    set_hand,
    to_enter,
    to_supply,
)

HIDDEN_KEYS = ("rats", "hand_cards", "committed_cards")


def render(view: RattusView, viewer: int | None, compact: bool, width: int) -> str:
    console = Console(width=width, color_system=None, file=io.StringIO(), record=True)
    console.print(UI.status(view))
    for panel in UI.panels(view, viewer, compact):
        console.rule(panel.title)
        console.print(panel.body)
    return console.export_text()


def midgame_states(n: int, count: int, seed: int = 0) -> list[RattusState]:
    """States at random points of random games (not finished)."""
    rng = random.Random(seed)
    out = []
    for g in range(count):
        s = fresh(n, seed + g)
        for _ in range(rng.randrange(5, 40 * n)):
            p = GAME.prompt(s)
            if p is None:
                break
            GAME.play(s, p.moves[rng.randrange(len(p.moves))])
        if GAME.prompt(s) is not None:
            out.append(s)
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_view_hides_other_seats_private_info(n: int) -> None:
    """Spec: Hidden information — hands, committed cards until revealed, rat totals and
    unpeeked Nun-row cards of other seats never appear in a seat's view (dict and text)."""
    for i, s in enumerate(midgame_states(n, 6, seed=n * 100)):
        for seat in range(n):
            v = GAME.view(s, seat)
            for p in v["players"]:
                if p["seat"] != seat:
                    assert not any(k in p for k in HIDDEN_KEYS), p
            for pos, nun in enumerate(v["nun_row"]):
                assert (nun["card"] is not None) == (pos in s.players[seat].seen)
            # Changing every hidden part leaves the view and the rendered board unchanged.
            other = scramble(s, seat, i)
            assert any(
                other.players[o].pop != s.players[o].pop
                or other.players[o].rats != s.players[o].rats
                for o in range(n)
                if o != seat
            ) or not any(s.players[o].pop for o in range(n) if o != seat)
            assert GAME.view(other, seat) == v
            for compact, width in ((False, 120), (True, 78)):
                assert render(GAME.view(other, seat), seat, compact, width) == render(
                    v, seat, compact, width
                )


def test_view_shows_own_private_info() -> None:
    """UX: the seat to move sees its own hand, rats, commits and seen Nun-row cards."""
    s = to_enter(fresh(3), ["farm", "castle"])
    set_hand(s, 0, ["church", "church", "joker", "sword"])
    play(s, "enter:1", "commit:church")
    s.players[0].seen = [2]
    v = GAME.view(s, 0)
    assert v["you"]["hand"] == {"church": 1, "joker": 1, "sword": 1}
    assert v["you"]["committed"] == {"church": 1}
    assert v["you"]["rats"] == 10
    assert v["nun_row"][2]["card"] is not None
    assert v["nun_row"][2]["card"]["nuns"] == CARD_NUNS[s.nun_row[2]]
    assert v["players"][0]["cards_in_building"] == 1
    vb = GAME.view(s, 1)
    assert vb["players"][0]["cards_in_building"] == 1
    assert vb["nun_row"][2]["card"] is None and vb["nun_row"][2]["seen_by"] == [0]
    assert vb["players"][0]["rat_tokens"] == 2
    text = render(v, 0, False, 120)
    assert "Your hand (Ann)" in text and "1 Church" in text and "1 Joker" in text
    assert "Your hand" not in render(GAME.view(s, None), None, False, 120)


def test_revealed_cards_become_public() -> None:
    """Spec: committed cards are hidden until revealed in phase D, then public."""
    s = to_enter(fresh(2), ["hospital", "castle"])
    set_hand(s, 0, ["church", "magic"])
    set_hand(s, 1, ["chivalry", "royalty"])
    enter(s, 1, "church")
    v = GAME.view(s, 1)
    assert v["row"][0]["discs"][0] == {"seat": 0, "space": 1, "cards": 1, "revealed": None}
    enter(s, 2, "chivalry")  # D starts: the Hospital premium waits for Ann's discards
    assert GAME.prompt(s).seat == 0
    v = GAME.view(s, 1)
    assert v["row"][0]["discs"][0]["revealed"] == {"church": 1}
    assert v["row"][1]["discs"][0] == {"seat": 1, "space": 1, "cards": 1, "revealed": None}


def test_private_prompts() -> None:
    """Brief: phase B/C decisions that show private information are private prompts."""
    s = to_supply(fresh(2), ["farm", "castle"], [1, 1])
    assert GAME.prompt(s).private
    play(s, "supply:1")
    assert GAME.prompt(s).private  # the look
    s = to_enter(fresh(2), ["farm", "castle"])
    assert GAME.prompt(s).private
    play(s, "enter:1")
    p = GAME.prompt(s)
    assert p.private and p.step == 1


def test_view_is_plain_json() -> None:
    """Protocol: views are plain data (JSON-like)."""
    for s in midgame_states(4, 3):
        for seat in (None, 0, 3):
            json.dumps(GAME.view(s, seat))


def test_omniscient_view_and_final_view() -> None:
    """Protocol: seat=None sees everything; at the end Nun-row and rats are revealed."""
    s = midgame_states(3, 1)[0]
    v = GAME.view(s, None)
    assert all("rats" in p and "hand_cards" in p for p in v["players"])
    assert all(n["card"] is not None for n in v["nun_row"])
    from boardgames_tui.engine.core.playout import random_playout

    end = random_playout(GAME, 3, 2).state
    v = GAME.view(end, 1)
    assert v["final"] is not None and all("rats" in p for p in v["players"])
    assert not any("hand_cards" in p for p in v["players"] if p["seat"] != 1)
    text = render(v, 1, False, 120)
    assert "Plague · who survives" in text or "Nun-row" in text


@pytest.mark.parametrize("n", [2, 5])
def test_panels_fit_compact_and_wide(n: int) -> None:
    """Brief: at 80x24 (compact) every panel fits in ~78 columns and ~14 rows."""
    for s in midgame_states(n, 6, seed=7):
        seat = GAME.prompt(s).seat
        v = GAME.view(s, seat)
        for panel in UI.panels(v, seat, True):
            console = Console(width=76, color_system=None, file=io.StringIO(), record=True)
            console.print(panel.body)
            lines = console.export_text().rstrip("\n").split("\n")
            assert max(len(x) for x in lines) <= 76, panel.key
            assert len(lines) <= 14, (panel.key, len(lines))
        wide = render(v, seat, False, 120)
        assert "Influence" in wide and "Nun-row" in wide
        assert UI.status(v).startswith(f"Round {v['round']}/")
