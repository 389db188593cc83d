"""Setup, the Investments stage and the Action stage: area actions, ties, conversions."""

from __future__ import annotations

import pytest

from boardgames_tui.engine.core.protocol import IllegalMove
from boardgames_tui.engine.pestis import GAME
from boardgames_tui.engine.pestis import data as D
from tests.games.pestis.support import (
    A,
    add_dev,
    check,
    give_res,
    give_subject,
    hold,
    ids,
    invest,
    new,
    place,
    play,
    seat_to_move,
    set_burgus,
    set_coins,
    set_docks,
    set_event,
    set_reserve,
    set_round,
    set_top,
    texts,
    tie_in_agrus,
    to_actions,
)


# ---- setup -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup(n: int) -> None:
    """Seed: Setting up — tokens 4-3-2-1-0, 3 grave-diggers (15 per colour, the rest at the
    docks), 6 coins, 3 Burgus subjects, 3 events per period with the first revealed."""
    s = GAME.new_state([f"P{i}" for i in range(n)], {}, 7)
    assert s.hand == [[4, 3, 2, 1, 0]] * n
    assert s.reserve == [3] * n and s.docks == [12] * n and s.agrus == [0] * n
    assert s.coins == [6 + (2 if s.event == "harvest" else 0)] * n
    assert len(s.burgus) == 3
    assert [len(d) for d in s.event_decks] == [2, 3, 3] and len(s.events_seen) == 1
    assert D.EVENTS[s.event].period == 1
    assert len(s.res_deck) == 20 and len(s.subj_deck) == 40
    assert s.round == 1 and s.first == 0 and seat_to_move(s) == 0
    assert not GAME.invariants(s)


def test_setup_rejects_bad_player_counts() -> None:
    """Spec: 2-6 players."""
    from boardgames_tui.engine.core.protocol import SetupError

    with pytest.raises(SetupError):
        GAME.new_state(["A"], {}, 1)
    with pytest.raises(SetupError):
        GAME.new_state(list("ABCDEFG"), {}, 1)


# ---- investments -----------------------------------------------------------------------------
def test_investment_is_a_three_step_private_move() -> None:
    """Seed 3.1: one token per turn face down, optionally reinforced by unused grave-diggers.
    Token, area, reinforcements are three steps of one private decision."""
    s = new(3)
    p = GAME.prompt(s)
    assert p.private and p.step == 0 and p.ids()[:5] == [f"token:{v}" for v in (4, 3, 2, 1, 0)]
    play(s, "token:3")
    p = GAME.prompt(s)
    assert p.step == 1 and p.ids() == [f"area:{k}" for k in D.AREAS]
    play(s, "area:burgus")
    p = GAME.prompt(s)
    assert p.step == 2 and p.ids() == ["reinf:0", "reinf:1", "reinf:2", "reinf:3"]
    ev = play(s, "reinf:2")
    assert s.invest[A["burgus"]][0] == [3] and s.reinf[A["burgus"]][0] == 2
    assert s.reserve[0] == 1 and s.hand[0] == [4, 2, 1, 0]
    assert ev[0].seat == 0 and "3-point" in ev[0].text and "3" not in ev[0].public.split("token")[0]
    assert ev[0].public == "Ann invests a token in Burgus reinforced by 2 grave-diggers."
    assert seat_to_move(s) == 1


def test_no_reinforcement_step_without_grave_diggers() -> None:
    """Seed 3.1: reinforcements come from unused grave-diggers of the reserve only."""
    s = new(2)
    set_reserve(s, 0, 0)
    play(s, "token:4", "area:agrus")
    assert s.invest[A["agrus"]][0] == [4] and seat_to_move(s) == 1


def test_investment_turns_go_clockwise_from_the_first_player() -> None:
    """Seed 3.1: beginning from the First Player and proceeding clockwise."""
    s = new(3)
    s.first = 1
    from boardgames_tui.engine.pestis import rules as F

    F.begin_investments(s, [])
    order = []
    for _ in range(6):
        order.append(seat_to_move(s))
        invest(s, s.hand[seat_to_move(s)][0], "schola")
    assert order == [1, 2, 0, 1, 2, 0]


def test_players_with_more_tokens_continue_alone() -> None:
    """Seed 3.1: turns continue until every token is invested; a player with more tokens
    (a healed subject's token) invests the rest alone."""
    s = new(2)
    give_subject(s, 1, "pupil", healed=True)
    for _ in range(5):
        invest(s, s.hand[0][0], "schola")
        invest(s, s.hand[1][0], "burgus")
    assert s.phase == "invest" and seat_to_move(s) == 1 and s.hand[1] == [0]
    invest(s, 0, "burgus")
    assert s.phase != "invest"


def test_resource_card_instead_of_a_token_saves_the_token() -> None:
    """Seed 3.1: a player may play a resource card instead of investing, saving the token
    for a later turn; the played card scores 1 wealth point at the end."""
    s = new(2)
    give_res(s, 0, "credit")
    play(s, "play:credit")
    assert s.coins[0] == 10 and s.res_played[0] == ["credit"] and len(s.hand[0]) == 5
    assert seat_to_move(s) == 1
    for _ in range(5):
        invest(s, s.hand[1][0], "burgus")
        invest(s, s.hand[0][0], "schola")
    assert s.phase != "invest"
    assert dict(GAME.result(s).lines[0].breakdown)["resources played"] == 1


def test_resource_cannot_be_played_without_a_token_left() -> None:
    """[design] A resource card can be played only on a turn in which you could invest."""
    s = new(2)
    give_res(s, 1, "credit")
    for _ in range(4):
        invest(s, s.hand[0][0], "schola")
        invest(s, s.hand[1][0], "burgus")
    invest(s, 0, "schola")
    assert seat_to_move(s) == 1 and "play:credit" in ids(s)
    invest(s, 0, "burgus")
    assert s.phase == "action" and s.res_hand[1] == ["credit"]


def test_closed_area_takes_no_investment() -> None:
    """Spec: closed areas take no investments (Harbour quarantine closes Portus)."""
    s = new(2, event="harbour")
    play(s, "token:4")
    assert "area:portus" not in ids(s) and len(ids(s)) == 5
    with pytest.raises(IllegalMove):
        GAME.apply(s, "area:portus")


def test_illegal_move_leaves_state_unchanged() -> None:
    """Protocol: an illegal move raises IllegalMove and changes nothing."""
    s = new(2)
    before = GAME.digest(s)
    for bad in ("token:9", "area:burgus", "buy", "pass", ""):
        with pytest.raises(IllegalMove):
            GAME.apply(s, bad)
    assert GAME.digest(s) == before


# ---- action stage: order, at-least-1, ties ------------------------------------------------
def test_areas_activate_in_order_one_to_six() -> None:
    """Seed 3.2: areas are activated one by one from Schola Medica (1) to Suburbium (6)."""
    s = new(2)
    for key in D.AREAS[:5]:
        place(s, 0, key, s.hand[0][0])
    hold(s, 1)
    ev = to_actions(s)
    revealed = [e.text.split(" revealed")[0] for e in ev if " revealed:" in e.text]
    assert revealed[0] == "Schola Medica"
    while s.phase == "action":
        before = s.area
        play(s, ids(s)[-1])
        assert s.area >= before


def test_highest_total_is_active_and_active_tokens_are_used() -> None:
    """Seed 3.2: the highest total is active; its tokens are not converted."""
    s = new(3)
    place(s, 0, "agrus", 3)
    place(s, 1, "agrus", 2, 1, reinf=1)
    place(s, 2, "agrus", 1)
    hold(s, 0)
    to_actions(s)
    res = s.results[A["agrus"]]
    assert s.active == 1 and res is not None and res["totals"] == [3, 4, 1]
    coins_b = s.coins[1]
    play(s, "agrus")
    while s.dec == "convert":
        play(s, "convert:coins")
    assert s.coins[1] == coins_b and s.coins[0] == 6 + 3 and s.coins[2] == 6 + 1


def test_tie_goes_to_the_first_player() -> None:
    """Seed 3.2: on a tie the First Player becomes the active player."""
    s = new(3)
    s.first = 2
    ev = tie_in_agrus(s, 3, 0, 2)
    assert s.active == 2 and "First Player order" in texts(ev)


def test_tie_goes_to_the_nearest_left_of_the_first_player() -> None:
    """Seed 3.2: ...or the next one to the First Player's left (clockwise)."""
    s = new(4)
    s.first = 1
    place(s, 0, "agrus", 3)
    place(s, 3, "agrus", 2, 1)
    to_actions(s)
    assert s.active == 3  # from B: C, D, A — D comes before A


def test_tie_six_players_period_three_most_subjects_and_developments() -> None:
    """Seed 3.2: 6 players, Period III: the highest total value of subject cards and
    developments wins a tie ([design] each is worth 1 wealth point)."""
    s = new(6)
    set_round(s, 7)
    give_subject(s, 3, "crier")
    add_dev(s, 3, "emporium")
    give_subject(s, 0, "friar")
    ev = tie_in_agrus(s, 4, 0, 3)
    assert s.active == 3 and "6 players" in texts(ev)


@pytest.mark.parametrize(
    ("players", "round_"),
    [
        pytest.param(6, 6, id="six-players-period-two"),
        pytest.param(5, 8, id="five-players-period-three"),
    ],
)
def test_tie_uses_first_player_order_unless_six_players_in_period_three(
    players: int, round_: int
) -> None:
    """Seed 3.2: the subject/development tie rule is for 6 players only, and only in
    Period III; else the First Player order decides."""
    s = new(players)
    set_round(s, round_)
    give_subject(s, 3, "crier")
    tie_in_agrus(s, 4, 0, 3)
    assert s.active == 0


def test_reinforcements_of_everyone_go_back_to_the_docks() -> None:
    """Seed 3.1/3.2: all reinforcements (the active player's too) return to the docks."""
    s = new(2)
    place(s, 0, "agrus", 4, reinf=2)
    place(s, 1, "agrus", 1, reinf=1)
    to_actions(s)
    assert s.docks == [12, 12] and s.reserve == [1, 2]  # still on the board while acting
    play(s, "agrus", "convert:coins")
    assert s.docks == [14, 13] and s.reserve == [0, 2] and s.agrus == [1, 0]
    assert s.reinf[A["agrus"]] == [0, 0]


def test_closed_area_is_not_activated() -> None:
    """Spec: a closed area (Curfew: Suburbium) does not activate — Taberna base points too."""
    s = new(2, event="curfew")
    add_dev(s, 0, "taberna")
    ev = to_actions(s)
    assert "Suburbium is closed" in texts(ev) and s.results[A["suburbium"]] is None


def test_conversions_in_turn_order_highest_token_first() -> None:
    """[design] Losers convert in turn order from the First Player, highest token first."""
    s = new(3)
    s.first = 1
    place(s, 0, "agrus", 2, 1)
    place(s, 1, "agrus", 4)
    place(s, 2, "agrus", 3)
    to_actions(s)
    play(s, "agrus")
    assert [c[:2] for c in s.conv] == [[2, 3], [0, 2], [0, 1]]


def test_docks_running_out_limits_grave_diggers() -> None:
    """Seed 3.2: no grave-digger can be hired once the docks of your colour are empty; the
    choice then is coins only (made automatically)."""
    s = new(2)
    place(s, 0, "agrus", 4)
    place(s, 1, "agrus", 2, 1)
    set_docks(s, 1, 1)
    to_actions(s)
    play(s, "agrus")
    assert s.dec == "convert" and ids(s) == ["convert:coins", "convert:gd"]
    play(s, "convert:gd")  # the last grave-digger of Bob's colour
    assert s.docks[1] == 0
    assert s.coins[1] == 7 and s.dec != "convert"  # the 1 became a coin automatically


# ---- the six area actions ----------------------------------------------------------------------
def test_schola_medica_buy_a_resource_for_six() -> None:
    """Seed 3.2 (1): Schola Medica — acquire a resource card for 6 coins."""
    s = new(2)
    set_top(s, "relic")
    place(s, 0, "schola", 2)
    to_actions(s)
    assert {"buy", "agrus", "pass"} <= set(ids(s))
    play(s, "buy")
    assert s.coins[0] == 0 and s.res_hand[0] == ["relic"]


def test_schola_medica_send_a_grave_digger_to_agrus() -> None:
    """Seed 3.2 (1): Schola Medica — assign a grave-digger from the reserve to Agrus."""
    s = new(2)
    place(s, 0, "schola", 2)
    to_actions(s)
    play(s, "agrus")
    assert s.agrus[0] == 1 and s.reserve[0] == 2


def test_schola_medica_build_one_development() -> None:
    """Seed 3.2 (1): Schola Medica — build one development following the Portus rules."""
    s = new(2)
    set_reserve(s, 0, 8)
    give_res(s, 0, "leeches")
    place(s, 0, "schola", 2)
    to_actions(s)
    assert "build:lazaretum:gd" in ids(s) and "build:emporium:leeches" in ids(s)
    play(s, "build:lazaretum:gd")
    assert s.devs[0] == ["lazaretum"] and s.reserve[0] == 4  # 1 onto it + 3 to the docks
    assert s.dec != "schola"  # only one action


def test_schola_medica_cannot_afford_a_resource() -> None:
    """Seed 3.2 (1): buying needs 6 coins."""
    s = new(2)
    set_coins(s, 0, 5)
    place(s, 0, "schola", 2)
    to_actions(s)
    assert "buy" not in ids(s)


def test_burgus_takes_subjects_up_to_the_points_one_per_type() -> None:
    """Seed 3.2 (2): subjects whose total cost is at most the invested points, taken
    infected; at most one card of each type."""
    s = new(2)
    set_burgus(s, "crier", "crier", "nobleman")
    give_subject(s, 0, "friar")
    place(s, 0, "burgus", 4)
    hold(s, 1)
    to_actions(s)
    assert ids(s) == ["take:crier", "done"]  # Nobleman costs 5
    play(s, "take:crier")
    assert s.subjects[0]["crier"] is False and s.burgus.count("crier") == 1
    assert s.dec != "burgus"  # a second Town Crier is not allowed: nothing left to take


def test_mercatus_buys_the_top_resource_for_four() -> None:
    """Seed 3.2 (3): Mercatus — the top resource card for 4 coins."""
    s = new(2)
    set_top(s, "theriac")
    place(s, 0, "mercatus", 1)
    to_actions(s)
    ev = play(s, "buy")
    assert s.coins[0] == 2 and s.res_hand[0] == ["theriac"]
    assert any(e.reveal and "New top resource card" in e.text for e in ev)


def test_mercatus_without_coins_does_nothing() -> None:
    """FAQ 2: winning without the means to act."""
    s = new(2)
    set_coins(s, 0, 3)
    place(s, 0, "mercatus", 1)
    ev = to_actions(s)
    assert "cannot do anything" in texts(ev)


def test_resource_deck_reshuffles_its_discards() -> None:
    """[design] When the resource deck is empty its face-up discards form a new deck."""
    s = new(2)
    set_coins(s, 0, 100)
    while len(s.res_deck) > 1:
        s.res_discard.append(s.res_deck.pop(0))
    place(s, 0, "mercatus", 1)
    to_actions(s)
    play(s, "buy")
    assert len(s.res_deck) == 19 and s.res_discard == []
    check(s)


def test_agrus_sends_one_more_grave_digger() -> None:
    """Seed 3.2 (4): Agrus — add a grave-digger from the reserve to Agrus."""
    s = new(2)
    place(s, 0, "agrus", 1)
    to_actions(s)
    assert ids(s) == ["agrus", "pass"]
    play(s, "agrus")
    assert s.agrus[0] == 1 and s.reserve[0] == 2


def test_portus_builds_several_developments_one_of_each_kind() -> None:
    """Seed 3.2 (5): Portus — one or more developments, each a grave-digger onto it plus a
    resource card or 3 grave-diggers to the docks; [design] one of each kind."""
    s = new(2)
    set_reserve(s, 0, 6)
    give_res(s, 0, "leeches", "leeches")
    place(s, 0, "portus", 1)
    to_actions(s)
    play(s, "build:apotheca:leeches")
    assert "build:apotheca:gd" not in ids(s) and "build:taberna:gd" in ids(s)
    play(s, "build:taberna:gd")
    assert s.devs[0] == ["apotheca", "taberna"]
    assert s.reserve[0] == 1 and s.docks[0] == 9 + 3
    play(s, "build:emporium:leeches")
    assert s.dec != "portus"  # reserve empty: nothing more can be built
    assert s.res_discard.count("leeches") == 2


def test_suburbium_victim_is_the_least_invested_non_investor_counts_zero() -> None:
    """Seed 3.2 (6) / spec: the victim is the player with the least influence invested in
    Suburbium; non-investors count 0."""
    s = new(3)
    place(s, 0, "suburbium", 4)
    place(s, 1, "suburbium", 1)
    set_coins(s, 2, 3)
    to_actions(s)
    assert s.victim == 2 and s.dec == "rob"
    assert set(ids(s)) == {"steal:gd", "steal:coins:1", "steal:coins:2", "steal:coins:3", "done"}
    play(s, "steal:coins:3")
    assert s.coins[2] == 0 and s.coins[0] == 9 and s.budget == 1


def test_suburbium_tie_for_victim_active_player_chooses() -> None:
    """Spec: on a tie for the least invested, the active player chooses the victim."""
    s = new(3)
    place(s, 0, "suburbium", 4)
    to_actions(s)
    assert s.dec == "victim" and ids(s) == ["victim:1", "victim:2"]
    play(s, "victim:2")
    assert s.victim == 2 and s.dec == "rob"


def test_suburbium_grave_digger_needs_thief_docks() -> None:
    """[design] A robbed grave-digger returns to the victim's docks; the thief hires one of
    his colour — only possible while his docks have one."""
    s = new(2)
    place(s, 0, "suburbium", 4)
    set_docks(s, 0, 0)
    to_actions(s)
    assert "steal:gd" not in ids(s)


def test_suburbium_nothing_to_take() -> None:
    """Seed 3.2 (6): a victim without coins, grave-diggers or cards loses nothing."""
    s = new(2)
    set_coins(s, 1, 0)
    set_reserve(s, 1, 0)
    place(s, 0, "suburbium", 4)
    ev = to_actions(s)
    assert "nothing" in texts(ev)


def test_set_event_helper_valid() -> None:
    """Support check: scenario helpers keep the invariants."""
    s = new(2)
    set_event(s, "harvest")
    set_round(s, 7, "audit")
    check(s)
    set_event(s, "thanks")
    check(s)
