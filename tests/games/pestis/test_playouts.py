"""1347: seeded random playouts with invariants, views that hide what a seat may not see
(dict and rendered board), determinize, reference (determinism, saves and illegal moves:
tests/conformance/test_conformance.py, for every title)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from boardgames_tui.engine.core.playout import random_playout
from boardgames_tui.engine.pestis import GAME
from boardgames_tui.engine.pestis import data as D
from boardgames_tui.engine.pestis.state import PestisState
from boardgames_tui.engine.pestis.view import PestisView
from boardgames_tui.tui.games.pestis import UI
from tests.games.pestis.support import (
    A,
    give_res,
    invest,
    new,
    play,
    set_top,
)


def check(state: PestisState) -> None:
    bad = GAME.invariants(state)
    assert not bad, bad


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_playouts(n: int) -> None:
    """Spec: 200 seeded random games per player count, invariants after every move (coins
    against the bank, 15 grave-diggers per colour, tokens, all cards; nothing negative) and
    the game ends after exactly 9 rounds."""
    for seed in range(200):
        res = random_playout(GAME, n, seed, check=check)
        s = res.state
        assert s.phase == "over" and GAME.prompt(s) is None
        assert s.round == D.ROUNDS and len(s.events_seen) == D.ROUNDS
        assert all(w in range(n) for w in res.winners) and res.winners


def random_state(n: int, seed: int, steps: int) -> PestisState:
    s = GAME.new_state([f"P{i}" for i in range(n)], {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        p = GAME.prompt(s)
        if p is None:
            break
        GAME.play(s, p.moves[rng.randrange(len(p.moves))])
    return s


# ---- hidden information ------------------------------------------------------------------------
def render(view: PestisView, viewer: int | None, compact: bool, width: int = 120) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    with console.capture() as cap:
        console.print(UI.status(view))
        for panel in UI.panels(view, viewer, compact):
            console.print(panel.title)
            console.print(panel.body)
    return cap.get()


def test_views_hide_face_down_values_and_hands() -> None:
    """Hidden information: the view for a seat never holds another seat's face-down token
    values, tokens in hand or resource cards (only counts); the omniscient view does."""
    for seed in range(12):
        n = 2 + seed % 5
        s = random_state(n, seed, random.Random(seed).randrange(5, 400))
        for seat in range(n):
            v = GAME.view(s, seat)
            for q, pl in enumerate(v["players"]):
                if q == seat:
                    assert pl["hand"] == s.hand[q]
                    assert len(pl["resources"]) == len(s.res_hand[q])
                else:
                    assert pl["hand"] is None and pl["resources"] is None
                    assert pl["resource_count"] == len(s.res_hand[q])
            for a, area in enumerate(v["areas"]):
                for q, st in enumerate(area["stacks"]):
                    assert st["tokens"] == len(s.invest[a][q])
                    if q != seat and not s.revealed[a]:
                        assert "values" not in st and "total" not in st
        omni = GAME.view(s, None)
        assert all(pl["resources"] is not None for pl in omni["players"])


def test_view_and_rendering_depend_only_on_what_the_seat_sees() -> None:
    """Hidden information: resampling everything a seat cannot see (determinize) leaves its
    view and its rendered board (wide and compact) unchanged."""
    checked = 0
    for seed in range(10):
        n = 2 + seed % 5
        rng = random.Random(seed)
        s = GAME.new_state([f"P{i}" for i in range(n)], {}, seed)
        steps = 0
        while (p := GAME.prompt(s)) is not None and steps < 900:
            if steps % 97 == 0:
                seat = p.seat
                other = GAME.determinize(s, seat, random.Random(checked))
                v1, v2 = GAME.view(s, seat), GAME.view(other, seat)
                assert v1 == v2
                assert render(v1, seat, checked % 2 == 0) == render(v2, seat, checked % 2 == 0)
                checked += 1
            GAME.play(s, p.moves[rng.randrange(len(p.moves))])
            steps += 1
    assert checked > 40


def test_rendered_text_never_shows_anothers_cards_or_tokens() -> None:
    """Hidden information (UI): Bob's screen shows Ann's face-down token as ■ and never names
    Ann's resource card; Ann's own screen shows both."""
    s = new(2)
    set_top(s, "cart")
    give_res(s, 0, "leeches")
    invest(s, 3, "burgus")
    v_bob, v_ann = GAME.view(s, 1), GAME.view(s, 0)
    bob = render(v_bob, 1, False)
    assert "Leeches" not in bob and "■" in bob
    assert "Leeches" not in render(v_bob, 1, True, width=78)
    ann = render(v_ann, 0, False)
    assert "Leeches" in ann
    assert v_ann["areas"][A["burgus"]]["stacks"][0]["values"] == [3]
    assert "values" not in v_bob["areas"][A["burgus"]]["stacks"][0]


def test_private_events_have_public_versions() -> None:
    """Hidden information (log): investments and Informer sightings are private lines with a
    public version that names no value."""
    s = new(2)
    give_res(s, 1, "informer")
    ev = invest(s, 4, "agrus")
    assert ev[0].seat == 0 and ev[0].public is not None and "4" not in ev[0].public
    ev = play(s, "play:informer", "area:agrus")
    assert ev[-1].seat == 1 and "4" in ev[-1].text and ev[-1].public is not None
    assert "4" not in ev[-1].public


def test_determinize_keeps_own_knowledge_and_invariants() -> None:
    """Protocol: determinize keeps the seat's tokens, cards and public facts, and is valid."""
    for seed in range(25):
        n = 2 + seed % 5
        s = random_state(n, seed, random.Random(seed).randrange(5, 500))
        seat = seed % n
        d = GAME.determinize(s, seat, random.Random(seed))
        assert GAME.invariants(d) == []
        assert d.hand[seat] == s.hand[seat] and d.res_hand[seat] == s.res_hand[seat]
        for a in range(6):
            assert d.invest[a][seat] == s.invest[a][seat]
        assert GAME.view(d, seat) == GAME.view(s, seat)


def test_determinize_depends_only_on_the_view() -> None:
    """Protocol: two states that differ only in what `seat` cannot see determinize alike."""
    for seed in range(20):
        n = 2 + seed % 5
        s = random_state(n, seed, random.Random(seed).randrange(5, 500))
        seat = seed % n
        other = GAME.determinize(s, seat, random.Random(1234))
        other.seed, other.draws = s.seed, s.draws
        assert GAME.view(other, seat) == GAME.view(s, seat)
        a = GAME.determinize(s, seat, random.Random(99))
        b = GAME.determinize(other, seat, random.Random(99))
        assert GAME.digest(a) == GAME.digest(b)


def test_rules_reference_lists_every_table_and_table_rule() -> None:
    """Brief: the rules reference has the rules, every card table and every [design] value
    under 'Table rules of this edition'."""
    text = GAME.rules_reference()
    assert "## Table rules of this edition" in text
    for source, note in D.TABLE_RULES:
        assert f"- *({source})* {note}" in text
    assert {source for source, _ in D.TABLE_RULES} == {D.SEED, D.EDITION}
    for table in (D.SUBJECTS, D.RESOURCES, D.EVENTS):
        for card in table.values():
            assert card.name in text
    for dev in D.DEV_NAMES.values():
        assert dev in text


def test_the_round_summary_has_the_active_player_act_before_the_losers_convert() -> None:
    """As the engine, its table rule and the rulebook's appendix: the active player takes the
    area's action, then the losers convert, then tokens and grave-diggers go back."""
    text = GAME.rules_reference()
    summary = text[text.index("2. **Actions.**") : text.index("1. **Schola Medica**")]
    acts = summary.index("active player takes the area's action")
    assert acts < summary.index("losers convert") < summary.index("tokens go back")


# ---- UI -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4, 6])
def test_ui_panels_fit(n: int) -> None:
    """Brief: at 80x24 each panel stays within ~78 columns and ~14 rows; every panel renders
    at 120 columns too; the status names round, phase and event (at the end only round and
    phase: the line must not run out of the screen at 120 columns)."""
    for seed in range(3):
        s = random_state(n, seed, [40, 250, 2000][seed])
        for viewer in (0, None):
            v = GAME.view(s, viewer)
            status = UI.status(v)
            assert f"Round {s.round}/9" in status
            if s.phase == "over":
                assert status.endswith("Game over") and len(status) < 60
            else:
                assert v["event"]["name"] in status
            for panel in UI.panels(v, viewer, True):
                console = Console(width=78, file=io.StringIO(), color_system=None)
                with console.capture() as cap:
                    console.print(panel.body)
                lines = cap.get().rstrip("\n").split("\n")
                assert max(len(x) for x in lines) <= 78
                assert len(lines) <= 15, (panel.key, len(lines))
            assert render(v, viewer, False)


def test_ui_shows_revealed_totals_during_actions() -> None:
    """UI: during the Action stage a revealed area shows each stack and its total (★ active)."""
    s = new(2)
    invest(s, 4, "agrus")
    invest(s, 3, "agrus", reinf=1)
    while s.phase == "invest":
        p = GAME.prompt(s)
        invest(s, s.hand[p.seat][0], "schola")
    while s.area < A["agrus"] or s.results[A["agrus"]] is None:
        play(s, GAME.prompt(s).ids()[-1])
    text = render(GAME.view(s, 1), 1, False)
    assert "4=4★" in text and "3+1g=4" in text
