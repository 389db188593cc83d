"""Every subject ability, resource card, development and event card (spec tables)."""

from __future__ import annotations

import pytest

from boardgames_tui.engine.pestis import GAME
from boardgames_tui.engine.pestis import data as D
from boardgames_tui.engine.pestis import logic as L
from boardgames_tui.engine.pestis.state import PestisState
from tests.games.pestis.support import (
    A,
    add_dev,
    give_res,
    give_subject,
    hold,
    ids,
    invest,
    lose_agrus_to_seat_0,
    new,
    place,
    play,
    seat_to_move,
    set_agrus,
    set_burgus,
    set_coins,
    set_docks,
    set_reserve,
    set_round,
    set_top,
    texts,
    tie_in_agrus,
    to_actions,
    to_upkeep,
    upkeep_with,
)


def upcoming(s: PestisState, key: str) -> None:
    """Make `key` the next event card revealed (top of the next round's period deck)."""
    deck = s.event_decks[L.period_of(s.round + 1) - 1]
    if key in deck:
        deck.remove(key)
        deck.append(key)
    else:
        deck[-1] = key


# =============================================================================================
# Subjects
# =============================================================================================
@pytest.mark.parametrize(
    ("key", "area"),
    [
        ("crier", "burgus"),
        ("hangman", "suburbium"),
        ("merchant", "mercatus"),
        ("friar", "schola"),
        ("boatman", "portus"),
    ],
)
def test_subject_area_bonus_with_a_token(key: str, area: str) -> None:
    """Spec: Town Crier / Hangman / Merchant / Friar / Boatman: +1 influence in their area
    while healed ([design] only where you invested a token)."""
    s = new(2)
    give_subject(s, 0, key, healed=True)
    a = A[area]
    assert L.total(s, a, 0) == 0
    place(s, 0, area, 1)
    assert L.total(s, a, 0) == 2
    s2 = new(2)
    give_subject(s2, 0, key, healed=False)
    place(s2, 0, area, 1)
    assert L.total(s2, a, 0) == 1  # infected: no ability


def test_town_crier_bonus_decides_burgus() -> None:
    """Spec: Town Crier — +1 influence in Burgus: 2 + 1 beats 2 on a tie the First Player
    would win."""
    s = new(2)
    s.first = 1
    give_subject(s, 0, "crier", healed=True)
    place(s, 0, "burgus", 2)
    place(s, 1, "burgus", 2)
    hold(s, 1)
    to_actions(s)
    res = s.results[A["burgus"]]
    assert res is not None and res["active"] == 0 and res["totals"] == [3, 2]


def test_master_builder_developments_cost_two_grave_diggers() -> None:
    """Spec: Master builder — developments cost 2 grave-diggers instead of 3."""
    s = new(2)
    give_subject(s, 0, "builder", healed=True)
    place(s, 0, "portus", 1)
    to_actions(s)
    assert "build:apotheca:gd" in ids(s)  # 1 onto it + 2 to the docks = the 3 she has
    play(s, "build:apotheca:gd")
    assert s.reserve[0] == 0 and s.docks[0] == 14


def test_minstrel_adds_a_coin_per_token_converted_to_coins() -> None:
    """Spec: Minstrel — +1 coin each time you convert a token to coins."""
    s = new(2)
    give_subject(s, 1, "minstrel", healed=True)
    lose_agrus_to_seat_0(s)
    assert GAME.prompt(s).moves[0].label.startswith("4 coins")
    play(s, "convert:coins")
    assert s.coins[1] == 6 + 4 - 1  # the round ran on: the Minstrel's upkeep is paid


def test_foreman_adds_a_grave_digger_per_token_converted() -> None:
    """Spec: Foreman — +1 grave-digger each time you convert a token to grave-diggers."""
    s = new(2)
    give_subject(s, 1, "foreman", healed=True)
    lose_agrus_to_seat_0(s)
    play(s, "convert:gd")
    assert s.reserve[1] == 5 and s.docks[1] == 10


def test_foreman_limited_by_the_docks() -> None:
    """Seed 3.2: grave-diggers come only from the docks of your colour."""
    s = new(2)
    give_subject(s, 1, "foreman", healed=True)
    set_docks(s, 1, 1)
    lose_agrus_to_seat_0(s)
    play(s, "convert:gd")
    assert s.docks[1] == 0


def test_farmer_adds_a_coin_from_agrus() -> None:
    """Spec: Farmer — +1 coin per upkeep from Agrus (with a grave-digger there)."""
    s = new(2)
    give_subject(s, 0, "farmer", healed=True)
    give_subject(s, 1, "farmer", healed=True)
    set_agrus(s, 0, 2)
    to_upkeep(s)
    assert s.coins == [6 + 2 * 2 + 1, 6]  # Bob has nobody in Agrus: no Farmer coin


def test_apothecary_heals_once_per_upkeep_for_three_coins() -> None:
    """Spec: Apothecary — once per upkeep heal a subject for 3 coins instead of a resource."""
    s = new(2)
    give_subject(s, 0, "apothecary", healed=True)
    give_subject(s, 0, "crier")
    give_subject(s, 0, "friar")
    set_coins(s, 0, 10)
    to_upkeep(s)
    assert "heal:crier:apothecary" in ids(s) and "heal:friar:apothecary" in ids(s)
    play(s, "heal:crier:apothecary")
    assert s.subjects[0] == {"apothecary": True, "crier": True, "friar": False}
    assert s.dec != "heal"  # no second cheap heal, no card: healing is over
    assert s.coins[0] == 10 - 3 - 2 - 1  # upkeep: Apothecary 2 + Town Crier 1 (just healed)


def test_notary_wins_ties() -> None:
    """Spec: Notary — you win ties in every area."""
    s = new(2)
    give_subject(s, 1, "notary", healed=True)
    ev = tie_in_agrus(s, 3, 0, 1)
    assert s.active == 1 and "Notary" in texts(ev)


def test_money_changer_one_coin_per_five_at_most_three() -> None:
    """Spec: Money changer — +1 coin per full 5 coins held, each upkeep (at most 3)."""
    s = new(3)
    for p, c in enumerate((4, 12, 30)):
        give_subject(s, p, "changer", healed=True)
        set_coins(s, p, c)
    to_upkeep(s)
    assert s.coins == [4 - 1, 12 + 2 - 1, 30 + 3 - 1]  # income, then the changer's upkeep 1


def test_washerwoman_healed_gives_a_zero_token() -> None:
    """Spec: Washerwoman — cost 1, token 0, upkeep 0, no ability."""
    s = upkeep_with("washerwoman", "cart")
    play(s, "heal:washerwoman:cart")
    assert sorted(s.hand[0]) == [0, 0, 1, 2, 3, 4]


def test_guard_cannot_be_the_suburbium_victim() -> None:
    """Spec: Guard — you cannot be the Suburbium victim."""
    s = new(3)
    give_subject(s, 1, "guard", healed=True)
    place(s, 0, "suburbium", 4)
    place(s, 2, "suburbium", 1)
    to_actions(s)
    assert s.victim == 2  # Bob invested nothing but is protected


def test_guards_everywhere_nobody_is_robbed() -> None:
    """[design] With no possible victim nobody is robbed."""
    s = new(2)
    give_subject(s, 1, "guard", healed=True)
    place(s, 0, "suburbium", 4)
    ev = to_actions(s)
    assert "nobody can be robbed" in texts(ev)


def test_physicians_pupil_gives_a_three_token() -> None:
    """Spec: Physician's pupil — token 3, upkeep 2."""
    s = upkeep_with("pupil", "cart")
    play(s, "heal:pupil:cart")
    assert 3 in s.hand[0] and sorted(s.hand[0]).count(3) == 2 and s.coins[0] == 4


def test_nobleman_two_wealth_points_while_healed() -> None:
    """Spec: Nobleman — +2 wealth points at the end while healed."""
    s = new(2)
    give_subject(s, 0, "nobleman", healed=True)
    give_subject(s, 1, "nobleman", healed=False)
    res = GAME.result(s)
    b0, b1 = (dict(line.breakdown) for line in res.lines)
    assert b0["Nobleman"] == 2 and "Nobleman" not in b1
    assert b0["influence tokens"] == 13 and b1["influence tokens"] == 10


def test_subject_table_matches_the_spec() -> None:
    """Spec: 43 subject cards in 16 types; Master builder + Hangman = 7; Hangman token 1."""
    assert len(D.SUBJECT_DECK) == 43 and len(D.SUBJECTS) == 16
    assert D.SUBJECTS["builder"].cost + D.SUBJECTS["hangman"].cost == 7
    assert D.SUBJECTS["hangman"].token == 1


# =============================================================================================
# Resources
# =============================================================================================
def test_plague_spreader_closes_an_area_to_a_player() -> None:
    """Spec/seed: Plague spreader for hire — that player may not invest there this round."""
    s = new(3)
    give_res(s, 0, "spreader")
    play(s, "play:spreader")
    assert ids(s) == ["target:1", "target:2"] and GAME.prompt(s).step == 1
    play(s, "target:2", "area:burgus")
    assert s.blocked[2] == [A["burgus"]]
    invest(s, 4, "burgus")  # Bob still may
    play(s, "token:4")
    assert "area:burgus" not in ids(s)


def test_leeches_add_two_with_a_token() -> None:
    """Spec: Leeches — one area: +2 to your total there this round (with a token)."""
    s = new(2)
    give_res(s, 0, "leeches")
    play(s, "play:leeches", "area:agrus")
    assert L.total(s, A["agrus"], 0) == 0
    invest(s, 4, "schola")
    invest(s, 1, "agrus")
    assert L.total(s, A["agrus"], 0) == 3


def test_theriac_heals_now_and_the_token_can_be_invested() -> None:
    """Spec: Theriac — heal one of your infected subjects now; its token can be invested
    this round."""
    s = new(2)
    give_subject(s, 0, "pupil")
    give_res(s, 0, "theriac")
    play(s, "play:theriac")
    assert ids(s) == ["heal:pupil"]
    play(s, "heal:pupil")
    assert s.subjects[0]["pupil"] and s.hand[0] == [4, 3, 3, 2, 1, 0]
    invest(s, 4, "schola")
    assert "token:3" in ids(s)


def test_theriac_not_playable_without_infected_subject() -> None:
    """[design] Theriac needs an infected subject."""
    s = new(2)
    give_res(s, 0, "theriac")
    assert "play:theriac" not in ids(s)


def test_letter_of_credit_takes_four_coins() -> None:
    """Spec: Letter of credit — take 4 coins."""
    s = new(2)
    give_res(s, 0, "credit")
    play(s, "play:credit")
    assert s.coins[0] == 10 and s.bank_net == 4


def test_cart_of_the_dead_two_grave_diggers_from_the_docks() -> None:
    """Spec: Cart of the dead — take 2 grave-diggers from the docks (as many as are left)."""
    s = new(2)
    give_res(s, 0, "cart")
    give_res(s, 1, "cart")
    set_docks(s, 1, 1)
    play(s, "play:cart", "play:cart")
    assert s.reserve[0] == 5 and s.docks[0] == 10 and s.docks[1] == 0


def test_holy_relic_yields_to_black_death() -> None:
    """Seed 3.4: the event takes precedence over a conflicting resource card. Under Black death
    a Holy relic's holder pays double upkeep like everybody: 6 coins for a healed Nobleman
    (upkeep 3), not 3."""
    s = new(2)
    set_round(s, 4, "black_death")
    give_subject(s, 0, "nobleman", healed=True)
    give_subject(s, 1, "nobleman", healed=True)
    give_res(s, 0, "relic")
    set_coins(s, 0, 10)
    set_coins(s, 1, 10)
    play(s, "play:relic")
    assert s.relic == [True, False]
    to_upkeep(s)
    assert s.coins == [4, 4]


def test_holy_relic_heals_one_subject_for_free_in_upkeep() -> None:
    """This edition's Holy relic: one infected subject heals in this round's Upkeep without a
    resource card (once); the event still applies (Tax collector)."""
    s = new(2, event="tax")
    give_subject(s, 0, "crier")
    give_subject(s, 0, "friar")
    give_res(s, 0, "relic", "credit")
    set_coins(s, 0, 10)
    play(s, "play:relic")
    to_upkeep(s)
    assert s.coins[0] == 8  # Tax collector: 1 coin per full 5 coins, relic or not
    assert {"heal:crier:relic", "heal:friar:relic"} <= set(ids(s))
    play(s, "heal:crier:relic")
    assert s.subjects[0] == {"crier": True, "friar": False} and s.res_hand[0] == ["credit"]
    assert "heal:friar:credit" in ids(s)
    assert "heal:friar:relic" not in ids(s)  # one free heal only
    play(s, "done")
    assert s.coins[0] == 8 - D.SUBJECTS["crier"].upkeep


def test_a_second_holy_relic_in_hand_heals_by_discarding_it() -> None:
    """A Holy relic played and another one still in hand: the free heal and the discard of the
    card are two different moves (once one id named both and the discard could not be taken)."""
    s = new(2)
    give_subject(s, 0, "crier")
    give_subject(s, 0, "friar")
    give_res(s, 0, "relic", "relic")
    set_coins(s, 0, 10)
    play(s, "play:relic")
    to_upkeep(s)
    heal = [m for m in ids(s) if m.startswith("heal:crier:")]
    assert heal == ["heal:crier:relic", "heal:crier:relic-card"]
    assert len(set(ids(s))) == len(ids(s))
    play(s, "heal:crier:relic-card")
    assert s.subjects[0]["crier"] and s.res_hand[0] == []
    assert "heal:friar:relic" in ids(s)  # the free heal is still there
    play(s, "heal:friar:relic")
    assert s.subjects[0] == {"crier": True, "friar": True}


def test_forged_seal_moves_a_face_down_token() -> None:
    """Spec: Forged seal — move one of your face-down tokens to another area."""
    s = new(2)
    give_res(s, 0, "seal")
    assert "play:seal" not in ids(s)  # nothing invested yet
    invest(s, 3, "burgus", reinf=1)
    invest(s, 4, "schola")
    play(s, "play:seal")
    assert ids(s) == ["seal:burgus:3"]
    play(s, "seal:burgus:3")
    assert "area:burgus" not in ids(s) and GAME.prompt(s).step == 2
    ev = play(s, "area:agrus")
    assert s.invest[A["agrus"]][0] == [3] and s.invest[A["burgus"]][0] == []
    assert s.reinf[A["burgus"]][0] == 1  # the reinforcement stays behind
    assert ev[0].public is not None and "3" not in ev[0].public


def test_quarantine_forbids_reinforcements() -> None:
    """Spec: Quarantine — name an area: no reinforcements there this round."""
    s = new(2)
    give_res(s, 0, "quarantine")
    play(s, "play:quarantine", "area:agrus")
    play(s, "token:4", "area:agrus")
    assert s.invest[A["agrus"]][1] == [4] and seat_to_move(s) == 0  # no reinforcement step


def test_herbal_remedy_no_upkeep() -> None:
    """Spec: Herbal remedy — your healed subjects pay no upkeep this round."""
    s = new(2)
    give_subject(s, 0, "nobleman", healed=True)
    give_res(s, 0, "remedy")
    play(s, "play:remedy")
    to_upkeep(s)
    assert s.coins[0] == 6 and s.subjects[0]["nobleman"]


def test_informer_looks_at_tokens_privately() -> None:
    """Spec: Informer — look at all tokens invested so far in one area (private to you)."""
    s = new(3)
    give_res(s, 0, "informer")
    invest(s, 4, "schola")
    invest(s, 3, "agrus")
    invest(s, 1, "agrus")
    ev = play(s, "play:informer", "area:agrus")
    e = ev[-1]
    assert e.seat == 0 and "Bob 3" in e.text and "Cy 1" in e.text
    assert e.public is not None and "3" not in e.public and e.reveal
    v0 = GAME.view(s, 0)["areas"][A["agrus"]]["informer"]
    assert v0 == [{"owner": 1, "values": [3]}, {"owner": 2, "values": [1]}]
    assert GAME.view(s, 1)["areas"][A["agrus"]]["informer"] == []


def test_resource_table_matches_the_spec() -> None:
    """Spec: 20 resource cards, 10 kinds x 2."""
    assert len(D.RESOURCE_DECK) == 20 and len(D.RESOURCES) == 10


# =============================================================================================
# Developments
# =============================================================================================
def test_apotheca_base_point_activates_burgus_and_discounts() -> None:
    """Seed: Apotheca — 1 base influence in Burgus every round (the area activates without
    tokens) and subjects cost 1 less per acquisition."""
    s = new(2)
    add_dev(s, 0, "apotheca")
    set_burgus(s, "crier", "friar", "nobleman")
    hold(s, 1)
    to_actions(s)
    assert s.active == 0 and s.budget == 1
    assert ids(s) == ["take:crier", "take:friar", "done"]
    play(s, "take:crier")
    assert s.subjects[0] == {"crier": False} and s.dec == "rob"  # 1 point spent: done


def test_development_base_points_never_convert() -> None:
    """Seed: points from developments do not become unused points."""
    s = new(2)
    add_dev(s, 1, "apotheca")
    place(s, 0, "burgus", 4)
    place(s, 1, "burgus", 1)
    set_burgus(s, "washerwoman", "friar", "crier")
    to_actions(s)
    play(s, "done")
    assert len(s.conv) == 1 and s.conv[0][:2] == [1, 1]


def test_taberna_base_point_activates_suburbium() -> None:
    """Seed: Taberna — 1 base influence in Suburbium; the area activates without tokens."""
    s = new(2)
    add_dev(s, 0, "taberna")
    to_actions(s)
    assert s.active == 0 and s.dec == "rob" and s.budget == 1 and s.victim == 1


def test_emporium_resources_cost_two_less() -> None:
    """Spec [design]: Emporium — resource cards cost the owner 2 coins less."""
    s = new(2)
    add_dev(s, 0, "emporium")
    assert L.resource_price(s, 0, A["mercatus"]) == 2
    assert L.resource_price(s, 0, A["schola"]) == 4
    place(s, 0, "mercatus", 1)
    to_actions(s)
    play(s, "buy")
    assert s.coins[0] == 4


def test_lazaretum_heals_one_subject_for_three_coins() -> None:
    """Spec [design]: Lazaretum — in upkeep heal one subject for 3 coins."""
    s = new(2)
    add_dev(s, 0, "lazaretum")
    give_subject(s, 0, "friar")
    give_subject(s, 0, "farmer")
    to_upkeep(s)
    assert set(ids(s)) == {"heal:friar:lazaretum", "heal:farmer:lazaretum", "done"}
    play(s, "heal:friar:lazaretum")
    assert s.coins[0] == 3 and s.subjects[0] == {"friar": True, "farmer": False}


# =============================================================================================
# Events
# =============================================================================================
@pytest.mark.parametrize("key", ["law1", "law2", "law3"])
def test_new_agrarian_law_grave_digger_token(key: str) -> None:
    """Spec/seed: New agrarian law I/II/III — a grave-digger may be invested as a 1-point
    token ([design] one per player per round; it comes back after its area)."""
    s = new(2)
    set_round(s, {"law1": 1, "law2": 4, "law3": 7}[key], key)
    play(s, "token:gd", "area:mercatus")
    assert s.gdtok[A["mercatus"]][0] == 1 and s.reserve[0] == 2
    invest(s, 4, "schola")
    assert "token:gd" not in ids(s)  # one per round


def test_agrarian_law_pass_when_only_the_grave_digger_is_left() -> None:
    """[design] The law token is optional: with no token left a player may stop."""
    s = new(2, event="law1")
    for _ in range(5):
        invest(s, s.hand[0][0], "schola")
        invest(s, s.hand[1][0], "burgus")
    assert seat_to_move(s) == 0 and ids(s) == ["token:gd", "pass"]
    play(s, "pass")
    assert seat_to_move(s) == 1
    play(s, "token:gd", "area:agrus")
    assert s.phase == "action"


def test_agrarian_law_grave_digger_token_converts_when_it_loses() -> None:
    """[design] A losing law grave-digger converts like a 1-point token, then goes back."""
    s = new(2, event="law1")
    place(s, 0, "agrus", 4)
    place(s, 1, "agrus", gd=1)
    to_actions(s)
    play(s, "agrus", "convert:coins")
    assert s.coins[1] == 7 and s.reserve[1] == 3


@pytest.mark.parametrize("key", ["calm", "peace"])
def test_quiet_events_have_no_effect(key: str) -> None:
    """Spec: Calm / Peace — no effect (prices, income and conversions as usual)."""
    s = new(2)
    set_round(s, 1 if key == "calm" else 7, key)
    assert L.resource_price(s, 0, A["mercatus"]) == 4 and L.resource_price(s, 0, 0) == 6
    set_agrus(s, 0, 1)
    to_upkeep(s)
    assert s.coins[0] == 8


@pytest.mark.parametrize(("key", "rate"), [("fair_weather", 3), ("famine", 1), ("calm", 2)])
def test_agrus_income_events(key: str, rate: int) -> None:
    """Spec: Fair weather (3 per grave-digger) / Famine (1) / normal (2)."""
    s = new(2)
    set_round(s, 4 if key == "famine" else 1, key)
    set_agrus(s, 0, 2)
    to_upkeep(s)
    assert s.coins[0] == 6 + 2 * rate


def test_good_harvest_two_coins_now() -> None:
    """Spec: Good harvest — every player takes 2 coins now."""
    s = new(3)
    upcoming(s, "harvest")
    to_upkeep(s)
    assert s.event == "harvest" and s.coins == [8, 8, 8]


def test_pilgrims_subjects_cost_one_less() -> None:
    """Spec: Pilgrims — subjects cost 1 less in Burgus."""
    s = new(2, event="pilgrims")
    assert L.subject_cost(s, 0, "nobleman") == 4
    add_dev(s, 0, "apotheca")
    assert L.subject_cost(s, 0, "washerwoman") == 0


@pytest.mark.parametrize(
    ("key", "rnd", "merc", "schola"),
    [("rumours", 1, 6, 8), ("fleet", 7, 3, 5), ("charter", 7, 4, 4)],
)
def test_price_events(key: str, rnd: int, merc: int, schola: int) -> None:
    """Spec: Rumours of plague (+2), Merchant fleet (-1), University charter (Schola 4)."""
    s = new(2)
    set_round(s, rnd, key)
    assert L.resource_price(s, 0, A["mercatus"]) == merc
    assert L.resource_price(s, 0, A["schola"]) == schola


def test_market_day_two_resources() -> None:
    """Spec: Market day — the Mercatus winner may buy 2 resources."""
    s = new(2, event="market_day")
    set_coins(s, 0, 20)
    place(s, 0, "mercatus", 1)
    hold(s, 1)
    to_actions(s)
    play(s, "buy")
    assert "buy" in ids(s)
    play(s, "buy")
    assert len(s.res_hand[0]) == 2 and s.coins[0] == 12 and s.dec == "rob"


def test_bishops_procession_two_different_actions() -> None:
    """Spec: Bishop's procession — the Schola Medica winner takes two different actions."""
    s = new(2, event="procession")
    set_coins(s, 0, 20)
    place(s, 0, "schola", 1)
    hold(s, 1)
    to_actions(s)
    play(s, "buy")
    assert "buy" not in ids(s) and "agrus" in ids(s) and GAME.prompt(s).step == 1
    play(s, "agrus")
    assert s.area > 0 and s.agrus[0] == 1


def test_guild_feast_one_more_coin_per_token() -> None:
    """Spec: Guild feast — unused tokens converted to coins give +1 coin each."""
    s = new(2, event="guild_feast")
    lose_agrus_to_seat_0(s)
    play(s, "convert:coins")
    assert s.coins[1] == 10


def test_tax_collector_one_coin_per_five() -> None:
    """Spec: Tax collector — in upkeep each player pays 1 coin per full 5 coins."""
    s = new(2, event="tax")
    set_coins(s, 0, 14)
    set_coins(s, 1, 4)
    to_upkeep(s)
    assert s.coins == [12, 4]


def test_trading_ships_coins_only_and_minstrel_gives_nothing() -> None:
    """Seed/spec: Trading ships from the East — unused tokens convert to coins only, +1 each;
    the Minstrel gives nothing (the event beats the card)."""
    s = new(2)
    set_round(s, 4, "ships")
    give_subject(s, 1, "minstrel", healed=True)
    place(s, 0, "agrus", 4)
    place(s, 1, "agrus", 3, 0)
    to_actions(s)
    ev = play(s, "agrus")
    # 3+1 and 0+1 coins, no choice asked; then the Minstrel's upkeep of 1.
    assert s.coins[1] == 6 + 4 + 1 - 1 and s.reserve[1] == 3
    assert texts(ev).count("converts") == 2


def test_black_death_double_upkeep() -> None:
    """Spec: Black death — healed subjects cost double upkeep."""
    s = new(2)
    set_round(s, 4, "black_death")
    give_subject(s, 0, "nobleman", healed=True)
    to_upkeep(s)
    assert s.coins[0] == 0


def test_harbour_quarantine_closes_portus() -> None:
    """Spec: Harbour quarantine — Portus is closed."""
    s = new(2)
    set_round(s, 4, "harbour")
    assert L.closed(s, A["portus"]) and not L.closed(s, A["suburbium"])


@pytest.mark.parametrize(("key", "rnd"), [("curfew", 4), ("amnesty", 7)])
def test_curfew_and_amnesty_close_suburbium(key: str, rnd: int) -> None:
    """Spec: Curfew / Amnesty — Suburbium is closed."""
    s = new(2)
    set_round(s, rnd, key)
    play(s, "token:4")
    assert "area:suburbium" not in ids(s)


def test_wave_of_deaths_discards_an_infected_subject() -> None:
    """Spec: Wave of deaths — each player discards one infected subject, if any ([design] the
    player chooses when several)."""
    s = new(3)
    set_round(s, 3)
    give_subject(s, 0, "crier")
    give_subject(s, 0, "friar")
    give_subject(s, 1, "hangman")
    give_subject(s, 2, "guard", healed=True)
    upcoming(s, "wave")
    to_upkeep(s)
    assert s.dec == "wave" and seat_to_move(s) == 0 and ids(s) == ["discard:crier", "discard:friar"]
    play(s, "discard:friar")
    assert s.subjects == [{"crier": False}, {}, {"guard": True}]
    assert s.round == 4 and s.phase == "invest"


def test_doctors_guild_heal_for_four_coins() -> None:
    """Spec: Doctors' guild — healing may be paid with 4 coins instead of a resource."""
    s = new(2)
    set_round(s, 4, "doctors_guild")
    give_subject(s, 0, "friar")
    give_subject(s, 0, "farmer")
    set_coins(s, 0, 9)
    to_upkeep(s)
    play(s, "heal:friar:guild")
    assert ids(s) == ["heal:farmer:guild", "done"]
    play(s, "heal:farmer:guild")
    assert s.coins[0] == 1


def test_mass_graves_one_grave_digger_each() -> None:
    """Spec: Mass graves — every player takes 1 grave-digger from the docks."""
    s = new(2)
    set_round(s, 3)
    set_docks(s, 1, 0)
    upcoming(s, "mass_graves")
    to_upkeep(s)
    assert s.reserve == [4, 15]


def test_refugees_five_subjects_in_burgus() -> None:
    """Spec: Refugees — Burgus shows 5 subjects this round."""
    s = new(2)
    set_round(s, 3)
    upcoming(s, "refugees")
    to_upkeep(s)
    assert s.event == "refugees" and len(s.burgus) == 5


def test_rebuilding_developments_cost_two_grave_diggers() -> None:
    """Spec: Rebuilding — developments cost 2 grave-diggers instead of 3."""
    s = new(2)
    set_round(s, 7, "rebuilding")
    assert L.dev_gd_cost(s, 0) == 2


def test_thanksgiving_a_coin_per_healed_subject() -> None:
    """Spec: Thanksgiving — each healed subject gives 1 coin in upkeep."""
    s = new(2)
    set_round(s, 7, "thanksgiving")
    give_subject(s, 0, "friar", healed=True)
    give_subject(s, 0, "farmer", healed=True)
    give_subject(s, 0, "crier")
    to_upkeep(s)
    assert s.coins[0] == 8


def test_royal_audit_fewest_coins_wins_ties() -> None:
    """Spec: Royal audit — ties are won by the tied player with the fewest coins (the event
    beats the Notary)."""
    s = new(3)
    set_round(s, 7, "audit")
    give_subject(s, 0, "notary", healed=True)
    set_coins(s, 2, 2)
    ev = tie_in_agrus(s, 3, 0, 2)
    assert s.active == 2 and "Royal audit" in texts(ev)


def test_procession_of_thanks_a_coin_per_healed_subject_now() -> None:
    """Spec: Procession of thanks — every player takes 1 coin per healed subject now."""
    s = new(2)
    set_round(s, 6)
    give_subject(s, 1, "friar", healed=True)
    give_subject(s, 1, "farmer", healed=True)
    upcoming(s, "thanks")
    to_upkeep(s)
    assert s.event == "thanks" and s.coins == [6, 8]


def test_last_market_sells_resources_for_three() -> None:
    """Spec: Last market — the Mercatus winner may also sell resources for 3 coins each."""
    s = new(2)
    set_round(s, 7, "last_market")
    give_res(s, 0, "leeches")
    set_top(s, "cart")
    place(s, 0, "mercatus", 1)
    hold(s, 1)
    to_actions(s)
    assert ids(s) == ["buy", "sell:leeches", "done"]
    play(s, "sell:leeches")
    assert s.coins[0] == 9 and "leeches" in s.res_discard
    play(s, "buy")
    assert s.res_hand[0] == ["cart"]


def test_event_table_matches_the_spec() -> None:
    """Spec: 30 event cards, 10 per period; 3 per period are used."""
    assert len(D.EVENTS) == 30 and [len(p) for p in D.PERIOD_EVENTS] == [10, 10, 10]


def test_events_beat_cards_ships_vs_minstrel_and_relic() -> None:
    """Seed 3.4: the event beats the card (Minstrel under Trading ships), with or without a
    Holy relic played."""
    s = new(2)
    set_round(s, 4, "ships")
    give_subject(s, 1, "minstrel", healed=True)
    s.relic[1] = True
    assert L.convert_coins(s, 1, 3) == 4  # ships: 3 + 1, Minstrel nothing
    s.relic[1] = False
    assert L.convert_coins(s, 1, 3) == 4
    assert L.convert_gd(s, 1) == 0


def test_reserve_helper() -> None:
    """Support check."""
    s = new(2)
    set_reserve(s, 0, 10)
    assert s.docks[0] == 5


def test_forged_seal_reinforcements_left_alone_return_to_the_docks() -> None:
    """Seed 3.1: "At the end of the Actions stage, all Grave-diggers invested in each area are
    discarded, meaning returned to the Portus docks". Ann reinforces her 3 in Portus with 2
    grave-diggers, then moves the token away with a Forged seal: nobody else is in Portus.
    Her 2 grave-diggers still go back to the docks, and a 0-point token there in the next
    round is worth 0 (not 2): nobody acts in Portus."""
    s = new(2)
    give_res(s, 0, "seal")
    docks = s.docks[0]
    invest(s, 3, "portus", reinf=2)
    invest(s, 4, "schola")
    play(s, "play:seal", "seal:portus:3", "area:agrus")
    to_actions(s)
    play(s, "pass", "pass")  # Bob passes in Schola Medica, Ann in Agrus
    assert s.round == 2 and s.phase == "invest"
    assert s.reinf[A["portus"]] == [0, 0] and s.docks[0] == docks + 2
    place(s, 0, "portus", 0)
    ev = to_actions(s)  # no decision anywhere: the round runs on
    assert "Portus revealed: Ann 0 = 0. Nobody reaches 1 point" in texts(ev)
