"""Notre Dame: view privacy, hidden prestige, determinize, evaluate and the UI panels."""

from __future__ import annotations

import random

from rich.console import Console

from boardgames_tui.engine.core.playout import random_playout
from boardgames_tui.engine.notre_dame import GAME
from boardgames_tui.engine.notre_dame import data as D
from boardgames_tui.engine.notre_dame.state import NotreDameState
from boardgames_tui.engine.notre_dame.view import NotreDameView
from boardgames_tui.tui.games.notre_dame import UI
from tests.games.notre_dame.support import new, place, play, to_actions


def _states(
    players: int, seed: int, options: dict[str, str], every: int = 7
) -> list[NotreDameState]:
    """States along a random game (every `every` moves)."""
    res = random_playout(GAME, players, seed, options)
    st = GAME.new_state([f"P{i + 1}" for i in range(players)], GAME.check_options(options), seed)
    out = [GAME.clone(st)]
    for i, mid in enumerate(res.moves):
        st, _ = GAME.apply(st, mid)
        if i % every == 0:
            out.append(GAME.clone(st))
    return out


def _scramble(st: NotreDameState, seat: int, rng: random.Random) -> NotreDameState:
    """Change everything `seat` may not see: others' cards, every deck's order, the incoming
    cards, person deck order, and (hidden scores) the others' prestige."""
    new_st = GAME.clone(st)
    conts = [new_st.incoming[seat]] + [new_st.decks[o] for o in range(st.n)]
    for o in range(st.n):
        if o != seat:
            conts += [new_st.drawn[o], new_st.hands[o], new_st.incoming[o], new_st.thirds[o]]
    pools: dict[int, list[int]] = {}  # card backs show their owner: shuffled per owner
    for c in sorted(c for cont in conts for c in cont):
        pools.setdefault(c // 9, []).append(c)
    for pool in pools.values():
        rng.shuffle(pool)
    for cont in conts:
        for i in range(len(cont)):
            cont[i] = pools[cont[i] // 9].pop()
    rng.shuffle(new_st.brown_deck)
    new_st.seed = rng.randrange(2**31)
    if not st.open_scores:
        for o in range(st.n):
            if o != seat:
                new_st.prestige[o] += 17
                new_st.sources[o] = {"persons": new_st.prestige[o]}
    return new_st


def _render(view: NotreDameView, viewer: int | None, compact: bool) -> str:
    out = []
    for p in UI.panels(view, viewer, compact):
        width = 78 if compact else (42 if p.area == "side" else 74)
        console = Console(width=width, color_system=None, record=True)
        with console.capture() as cap:
            console.print(p.body)
        out.append(p.title + "\n" + cap.get())
    return "\n".join(out)


def test_view_never_depends_on_hidden_information() -> None:
    """Views: draft hands, received cards, the third card, decks and (hidden scores) the
    others' prestige never reach a seat's view — changing them leaves the view (and the
    rendered board) identical."""
    rng = random.Random(11)
    for players, options in ((2, {}), (3, {"rules": "published"}), (4, {}), (5, {})):
        for i, st in enumerate(_states(players, 40 + players, options, every=5)):
            if GAME.prompt(st) is None:
                continue
            for seat in range(players):
                before = GAME.view(st, seat)
                other = _scramble(st, seat, rng)
                assert GAME.view(other, seat) == before
                if i % 6 == 0:  # rendering is slower: check the board text on a sample
                    assert _render(GAME.view(other, seat), seat, False) == _render(
                        before, seat, False
                    )


def test_view_contains_own_private_cards_only() -> None:
    """Views: the seat sees its own hand; an observer (None) sees every hand."""
    st = new(3)
    v = GAME.view(st, 1)
    assert v["you"]["seat"] == 1 and "hands" not in v
    assert v["you"]["choose"] == [D.CARDS[c % 9] for c in st.drawn[1]]
    assert [p["cards_held"] for p in v["players"]] == [3, 3, 3]
    omni = GAME.view(st, None)
    assert len(omni["hands"]) == 3 and "you" not in omni


def test_hidden_scores_each_seat_sees_only_its_own_prestige() -> None:
    """Spec: Hidden information — each player's prestige is hidden until the end unless the
    option "open scores" is chosen."""
    st = to_actions(new(3, scores="hidden"), {0: ["residence", "park", "hotel"]})
    place(st, 0, D.RESIDENCE, 1)
    events = play(st, "play:residence")
    v0, v1 = GAME.view(st, 0), GAME.view(st, 1)
    assert v0["players"][0]["prestige"] == 2
    assert v1["players"][0]["prestige"] is None and v1["players"][1]["prestige"] == 0
    assert GAME.view(st, None)["players"][0]["prestige"] == 2
    line = events[-1]
    assert line.seat == 0 and "+2 prestige" in line.text
    seen = line.for_seat(1)
    assert seen is not None and "+2" not in seen and "Residence" in seen
    assert "hidden until the end" in _render(v1, 1, False)
    st.open_scores = True
    assert GAME.view(st, 1)["players"][0]["prestige"] == 2


def test_prestige_revealed_at_the_end() -> None:
    """Spec: End — the others' prestige is shown at the end."""
    st = random_playout(GAME, 3, 5, {"scores": "hidden"}).state
    v = GAME.view(st, 0)
    assert all(p["prestige"] is not None for p in v["players"])


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    """Bots: determinize resamples hidden cards from what the seat can see only: two states
    that differ only in hidden cards give the same world for the same rng."""
    for players in (2, 3, 4, 5):
        for st in _states(players, 70 + players, {}, every=11):
            if GAME.prompt(st) is None:
                continue
            for seat in range(players):
                a = GAME.determinize(st, seat, random.Random(42))
                world = GAME.determinize(st, seat, random.Random(7))
                b = GAME.determinize(world, seat, random.Random(42))
                assert GAME.digest(a) == GAME.digest(b)
                assert GAME.invariants(a) == []
                assert a.hands[seat] == st.hands[seat] and a.drawn[seat] == st.drawn[seat]
                assert a.thirds[seat] == st.thirds[seat]
                assert sorted(a.decks[seat]) == sorted(st.decks[seat])
                assert a.sectors == st.sectors and a.prestige == st.prestige


def test_determinize_keeps_what_the_seat_passed() -> None:
    """Bots: the card passed on in the second draft step stays with the left neighbour."""
    st = new(4)
    while st.phase == "draft":
        play(st, GAME.prompt(st).moves[0].id)
    passed = st.passed2[0][0]
    for k in range(5):
        w = GAME.determinize(st, 0, random.Random(k))
        assert passed in w.hands[1]
        assert set(st.passed1[0]) <= set(w.hands[1] + w.hands[2])


def test_determinize_hides_own_card_of_another_player() -> None:
    """Bots: another player's own kept card is resampled (it may come out differently)."""
    st = new(3)
    while st.phase == "draft":
        play(st, GAME.prompt(st).moves[0].id)
    own = [c for c in st.hands[1] if c // 9 == 1]
    assert len(own) == 1
    outcomes = {
        c
        for k in range(30)
        for c in GAME.determinize(st, 0, random.Random(k)).hands[1]
        if c // 9 == 1
    }
    assert len(outcomes) > 1


def test_evaluate_prefers_more_prestige() -> None:
    """Bots: evaluate is score-like."""
    st = new(3)
    base = GAME.evaluate(st, 0)
    st.prestige[0] += 5
    assert GAME.evaluate(st, 0) > base


def test_ui_panels_fit_compact_and_wide() -> None:
    """UI: at 80x24 each panel fits ~78 columns and ~14 rows; at 120x40 it renders."""
    for players in (2, 3, 4, 5):
        for st in _states(players, 90 + players, {"rules": "published"}, every=61):
            for viewer in [None, *range(players)]:
                view = GAME.view(st, viewer)
                assert UI.status(view).startswith("Period ")
                for p in UI.panels(view, viewer, True):
                    console = Console(width=78, color_system=None)
                    with console.capture() as cap:
                        console.print(p.body)
                    lines = cap.get().splitlines()
                    assert len(lines) <= 14, (p.title, len(lines))
                    assert max(len(x.rstrip()) for x in lines) <= 78
                wide = _render(view, viewer, False)
                assert "Notre Dame" in wide


def test_ui_shows_hand_only_to_its_seat() -> None:
    """UI: the "Your cards" panel shows the viewer's cards; others' prestige shows as ?."""
    st = to_actions(new(3, scores="hidden"), {0: ["residence", "park", "hotel"]})
    st.prestige = [4, 9, 13]
    st.sources = [{"residence": 4}, {"residence": 9}, {"residence": 13}]
    text0 = _render(GAME.view(st, 0), 0, False)
    assert "Your cards (Ann)" in text0 and "Residence, Park, Hotel" in text0
    assert " 9" not in text0.split("Players")[1].split("Rat track")[0]
    assert "13" not in text0
    text1 = _render(GAME.view(st, 1), 1, True)
    assert "Your cards (Bob)" in text1 and "Residence, Park, Hotel" not in text1
