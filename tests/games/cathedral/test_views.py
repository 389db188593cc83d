"""The Cathedral of Orléans: views hide face-down tiles and bag order; the board renders."""

from __future__ import annotations

import json
import random

from rich.console import Console
from rich.panel import Panel as RichPanel

from boardgames_tui.engine.cathedral import GAME
from boardgames_tui.engine.cathedral import data as D
from boardgames_tui.engine.cathedral.policy import choose
from boardgames_tui.engine.cathedral.state import CathedralState
from boardgames_tui.engine.cathedral.view import CathedralView
from boardgames_tui.tui.games.cathedral import UI


def _midgame(players: int = 3, seed: int = 2, moves: int = 60, **opts: str) -> CathedralState:
    s = GAME.new_state(["Ann", "Bob", "Cy", "Dee"][:players], GAME.check_options(opts), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        p = GAME.prompt(s)
        if p is None:
            break
        GAME.play(s, p.move(choose(s, p, rng)))
    return s


def _render(view: CathedralView, viewer: int | None, width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    for panel in UI.panels(view, viewer, width < 100):
        console.print(RichPanel(panel.body, title=panel.title))
    return console.export_text()


def test_no_private_prompts() -> None:
    """Spec: no private information — every prompt is public."""
    s = _midgame()
    p = GAME.prompt(s)
    assert p is not None and not p.private


def test_view_hides_face_down_tiles() -> None:
    """Spec: all players see everything except bag order and face-down tiles."""
    s = _midgame()
    v = GAME.view(s, 0)
    assert "hidden" not in v
    assert v["events_left"] == len(s.events)
    assert v["blueprints_left"] == len(s.blueprints)
    assert v["hourglass_left"] == len(s.hourglass_stack)
    # resampling the face-down parts changes nothing a seat sees (dict and rendering)
    for k in range(4):
        w = GAME.determinize(s, 0, random.Random(k))
        assert w.events != s.events or w.blueprints != s.blueprints or k
        for seat in range(3):
            assert GAME.view(w, seat) == GAME.view(s, seat)
            assert _render(GAME.view(w, seat), seat, 120) == _render(v, seat, 120)


def test_view_never_names_unseen_tiles() -> None:
    """No event key still face down, no unused workshop appears in a seat's view."""
    s = _midgame(moves=5)
    text = json.dumps(GAME.view(s, 1))
    for key in s.workshop_box:
        assert D.WORKSHOP_BY_KEY[key].name not in text
    seen = {D.EVENT_BY_KEY[k].name for k in [*s.event_discard, s.order] if k}
    for key in s.events:
        name = D.EVENT_BY_KEY[key].name
        if name not in seen and (name.endswith(" order") or name.startswith("Monk (")):
            assert name not in text
    omni = GAME.view(s, None)
    assert omni["hidden"]["events"] == s.events


def test_bag_memory_option() -> None:
    """Spec: bags show counts; the bag memory option shows what they hold."""
    s = _midgame()
    v = GAME.view(s, 0)
    assert "contents" not in v["bags"]["red"] and v["bags"]["red"]["count"] == sum(
        s.bags["red"].values()
    )
    s2 = _midgame(bag_memory="on")
    v2 = GAME.view(s2, 0)
    assert v2["bags"]["red"]["contents"] == {k: n for k, n in s2.bags["red"].items() if n}
    assert v2["bags"]["black"]["contents"] == {k: n for k, n in s2.black.items() if n}
    assert "(contents unknown)" in _render(v, 0, 120)


def test_view_is_plain_data() -> None:
    """The view is JSON-like."""
    s = _midgame()
    json.dumps(GAME.view(s, 0))
    json.dumps(GAME.view(s, None))


def test_panels_render_wide_and_compact() -> None:
    """Brief: a board at 120x40, and each panel within ~78 columns and ~16 rows at 80x24."""
    for players in (1, 2, 3, 4):
        s = _midgame(players=players, moves=40, bag_memory="on")
        v = GAME.view(s, 0)
        wide = _render(v, 0, 120)
        assert "Orléans" in wide and "red zone" in wide and "Cathedral" in wide
        for b in v["builders"]:
            assert b["name"] in wide
        assert UI.status(v).startswith(f"Round {v['round']}/3")
        for panel in UI.panels(v, 0, True):
            console = Console(width=78, record=True, color_system=None)
            console.print(RichPanel(panel.body, title=panel.title))
            lines = console.export_text().rstrip("\n").split("\n")
            assert len(lines) <= 16, (panel.key, len(lines))
            assert max(len(line) for line in lines) <= 78


def test_finished_game_renders() -> None:
    """The end of a game renders (won or lost) with the omniscient view."""
    s = _midgame(players=2, moves=10_000)
    assert s.over
    v = GAME.view(s, None)
    text = _render(v, None, 120)
    assert f"{s.sections}/8" in text
    res = GAME.result(s)
    assert res.cooperative and res.details


def test_rules_reference_lists_design_values() -> None:
    """Brief: the rules reference has every table and the table rules of this edition."""
    ref = GAME.rules_reference({"variant": "harder"})
    assert "## Table rules of this edition" in ref
    for t in D.WORKSHOPS:
        assert t.name in ref
    for c in D.CONNECTIONS:
        assert f"{D.CITIES[c.a]} - {D.CITIES[c.b]}" in ref
    for source, rule in D.TABLE_RULES:
        assert f"- *({source})* {rule}" in ref
    assert {source for source, _ in D.TABLE_RULES} == {D.SEED, D.EDITION}
    assert "harder (this game)" in ref and "1 monk;" in ref
    assert "Balance" in ref


def test_each_table_rule_is_labelled_by_its_own_source() -> None:
    """The rest stop is the seed's; when it is offered and "at most once per turn" are this
    edition's: a rule labelled seed carries no choice of ours."""
    rules = dict((rule, source) for source, rule in D.TABLE_RULES)
    once = [rule for rule in rules if "at most once per turn" in rule]
    assert len(once) == 1 and rules[once[0]] == D.EDITION
    assert any(r.startswith("Rest stop:") and s == D.SEED for r, s in rules.items())
    for rule, source in rules.items():
        assert source != D.SEED or "this edition" not in rule.lower(), rule


def test_rules_reference_names_the_map_of_this_game() -> None:
    """In a game, the reference says which map it is played on (an old save: the full one);
    the reference read without a game (the menu, `rules cathedral-of-orleans`) names the one
    a new game is played on, and how to choose the other (it named none)."""
    assert "played on the scaled map" in GAME.rules_reference(GAME.check_options({}))
    legacy = GAME.recorded_options({"variant": "normal"})
    assert "played on the full map" in GAME.rules_reference(legacy)
    general = GAME.rules_reference()
    assert "This game is played on" not in general
    default = next(o.default for o in GAME.options if o.key == "map")
    assert f"A new game is played on the {default} map" in general
    assert "--option map=full" in general
