"""The rulebook's appendix of examples and its FAQ, as tests (seed: Appendix I-IV, FAQ)."""

from __future__ import annotations

from boardgames_tui.engine.pestis import GAME
from boardgames_tui.engine.pestis import data as D
from boardgames_tui.engine.pestis.state import PestisState
from tests.games.pestis.support import (
    APPENDIX,
    A,
    give_res,
    ids,
    invest,
    new,
    place,
    play,
    seat_to_move,
    set_burgus,
    set_event,
    set_reserve,
    texts,
    to_actions,
)

GEOFFREY, LOTHAR, ROLPH, HUGO = range(4)


def appendix_game() -> PestisState:
    """Round 1 of the appendix, at the start of the Action stage (Appendix II)."""
    s = new(4, names=APPENDIX)
    place(s, GEOFFREY, "schola", 2, 0)
    place(s, HUGO, "schola", 0)
    place(s, GEOFFREY, "burgus", 1, 3, reinf=1)
    place(s, HUGO, "burgus", 2)
    place(s, ROLPH, "burgus", 4, 3)
    place(s, LOTHAR, "mercatus", 1, 2)
    place(s, ROLPH, "mercatus", 1)
    place(s, HUGO, "mercatus", 1)
    place(s, ROLPH, "agrus", 0)
    place(s, LOTHAR, "portus", 0, 3)
    place(s, GEOFFREY, "suburbium", 4)
    place(s, LOTHAR, "suburbium", 4)
    place(s, ROLPH, "suburbium", 2)
    place(s, HUGO, "suburbium", 4, 3)
    set_burgus(s, "builder", "hangman", "crier")
    give_res(s, LOTHAR, "credit")
    give_res(s, ROLPH, "leeches", "cart")
    return s


def test_appendix_round_one_action_and_upkeep_stages() -> None:
    """Seed: Appendix II (Action stage) and III (Upkeep stage), followed area by area."""
    s = appendix_game()
    to_actions(s)
    # Schola Medica: Geoffrey 2+0 beats Hugo's 0; he buys a resource for 6 coins.
    assert seat_to_move(s) == GEOFFREY and s.dec == "schola"
    ev = play(s, "buy")
    assert s.coins[GEOFFREY] == 0 and len(s.res_hand[GEOFFREY]) == 1
    # Hugo's 0-point token can only become a grave-digger: done without asking.
    assert s.reserve[HUGO] == 4 and "0-point token into 1 grave-digger" in texts(ev)
    # Burgus: Rolph (7) beats Geoffrey (1+3+1 reinforcement) and Hugo (2).
    assert seat_to_move(s) == ROLPH and s.dec == "burgus" and s.budget == 7
    play(s, "take:builder", "take:hangman")  # 4 + 3 = 7 points: the maximum
    assert s.subjects[ROLPH] == {"builder": False, "hangman": False}  # taken infected
    # Unused points: Geoffrey's reinforcement point becomes 1 coin, each token coins too.
    assert seat_to_move(s) == GEOFFREY and s.dec == "convert"
    play(s, "convert:coins", "convert:coins")
    assert s.coins[GEOFFREY] == 5  # "converts his 5 unused points into 5 Coins"
    assert s.docks[GEOFFREY] == 12  # the reinforcement grave-digger went back to the docks
    play(s, "convert:gd")  # Hugo's 2-point token -> 1 grave-digger
    assert s.reserve[HUGO] == 5
    # Mercatus: Lothar 1+2 buys a resource for 4 coins; Rolph and Hugo take grave-diggers.
    assert seat_to_move(s) == LOTHAR and s.dec == "mercatus"
    play(s, "buy")
    assert s.coins[LOTHAR] == 2 and len(s.res_hand[LOTHAR]) == 2
    play(s, "convert:gd", "convert:gd")
    assert s.reserve[ROLPH] == 4 and s.reserve[HUGO] == 6
    # Agrus: only Rolph with a 0 token: nobody acts (and nobody converts).
    # Portus: Lothar alone with 0+3 builds an Apotheca and a Taberna with his two cards.
    assert seat_to_move(s) == LOTHAR and s.dec == "portus"
    r1, r2 = sorted(s.res_hand[LOTHAR])
    play(s, f"build:apotheca:{r1}", f"build:taberna:{r2}")
    assert s.devs[LOTHAR] == ["apotheca", "taberna"] and s.res_hand[LOTHAR] == []
    assert s.reserve[LOTHAR] == 1
    # Suburbium: Hugo 7 robs Rolph (2: the least invested) of a grave-digger and a card.
    assert seat_to_move(s) == HUGO and s.dec == "rob" and s.victim == ROLPH
    play(s, "steal:gd", "steal:res")
    assert s.reserve[ROLPH] == 3 and len(s.res_hand[ROLPH]) == 1
    assert len(s.res_hand[HUGO]) == 1 and s.reserve[HUGO] == 7
    # Everybody else converts their unused Suburbium tokens.
    while s.dec == "convert":
        play(s, "convert:coins")
    # Upkeep: Rolph keeps his last card to heal the Hangman: a 1-point token.
    assert s.phase == "upkeep" and seat_to_move(s) == ROLPH and s.dec == "heal"
    card = s.res_hand[ROLPH][0]
    play(s, f"heal:hangman:{card}")  # no more cards: the healing ends by itself
    assert s.subjects[ROLPH]["hangman"] is True
    assert sorted(s.hand[ROLPH]) == [0, 1, 1, 2, 3, 4]
    # Event stage: the First Player token passes to the next player.
    assert s.round == 2 and s.first == LOTHAR
    assert len(s.burgus) == 3 and "builder" not in s.burgus[:0]


def test_appendix_burgus_round_geoffrey_converts_five_points_into_five_coins() -> None:
    """Seed: Appendix II, Burgus, as a whole. Geoffrey 1 + 3 + a reinforcing grave-digger (5),
    Hugo 2, Rolph 4 + 3 (7): Rolph takes the Master builder and the Hangman; "Geoffrey converts
    his 5 unused points into 5 Coins and Hugo converts his token into 1 Grave-digger ... while
    the Reinforcement Grave-digger invested by Geoffrey is discarded"."""
    s = appendix_game()
    to_actions(s)
    play(s, "buy")  # Schola Medica
    res = s.results[A["burgus"]]
    assert res is not None
    assert res["totals"][GEOFFREY] == 5 and res["totals"][HUGO] == 2
    assert res["totals"][ROLPH] == 7 and res["active"] == ROLPH
    coins, docks, reserve = s.coins[GEOFFREY], s.docks[GEOFFREY], s.reserve[GEOFFREY]
    hugo_reserve = s.reserve[HUGO]
    ev = play(s, "take:builder", "take:hangman")
    assert "1 unused reinforcement point into 1 coin" in texts(ev)
    play(s, "convert:coins", "convert:coins", "convert:gd")
    assert s.coins[GEOFFREY] - coins == 5
    assert s.docks[GEOFFREY] - docks == 1  # the reinforcement grave-digger is discarded
    assert s.reserve[GEOFFREY] == reserve  # ... and not hired back as a conversion
    assert s.reserve[HUGO] - hugo_reserve == 1
    assert s.reinf[A["burgus"]] == [0, 0, 0, 0]


def test_reinforcement_points_convert_to_coins_only() -> None:
    """Seed 3.2: grave-diggers are hired one per unused token; a reinforcement is a point, not a
    token: choosing grave-diggers for the tokens still gives a coin per reinforcement."""
    s = new(2)
    place(s, 0, "agrus", 4, 2)
    place(s, 1, "agrus", 3, reinf=2)
    to_actions(s)
    assert s.active == 0  # 6 against 3 + 2
    c0, r0, d0 = s.coins[1], s.reserve[1], s.docks[1]
    play(s, "agrus")
    play(s, "convert:gd")
    assert s.coins[1] - c0 == 2 and s.reserve[1] - r0 == 1
    assert s.docks[1] - d0 == 2 - 1  # both reinforcements back, one grave-digger hired


def test_appendix_burgus_purchase_master_builder_and_hangman_for_seven() -> None:
    """Seed: Appendix II — Rolph's 7 points buy the Master builder (4) and the Hangman (3)."""
    s = appendix_game()
    to_actions(s)
    play(s, "buy")
    assert s.budget == 7
    assert {"take:builder", "take:hangman", "take:crier"} <= set(ids(s))
    play(s, "take:builder")
    assert s.budget == 3
    assert "take:hangman" in ids(s) and "take:crier" in ids(s)
    play(s, "take:hangman")
    assert s.budget == 0 and s.dec == "convert"  # nothing more affordable: the action ends
    assert D.SUBJECTS["builder"].cost + D.SUBJECTS["hangman"].cost == 7


def test_appendix_suburbium_robbery_grave_digger_and_resource_for_seven() -> None:
    """Seed: Appendix II — Hugo's 7 points rob the least invested player (Rolph, 2) of one
    grave-digger and one resource card (3 + 4 points)."""
    s = new(4, names=APPENDIX)
    place(s, GEOFFREY, "suburbium", 4)
    place(s, LOTHAR, "suburbium", 4)
    place(s, ROLPH, "suburbium", 2)
    place(s, HUGO, "suburbium", 4, 3)
    give_res(s, ROLPH, "leeches", "cart")
    set_reserve(s, ROLPH, 3)
    to_actions(s)
    assert s.active == HUGO and s.victim == ROLPH and s.budget == 7
    assert {"steal:gd", "steal:res"} <= set(ids(s))
    play(s, "steal:gd")
    assert s.budget == 4 and "steal:gd" in ids(s) and "steal:res" in ids(s)
    play(s, "steal:res")
    assert s.budget == 0
    assert s.reserve[ROLPH] == 2 and s.docks[ROLPH] == 13  # back to the docks of his colour
    assert s.reserve[HUGO] == 4 and s.docks[HUGO] == 11  # Hugo hires one of his own colour
    assert len(s.res_hand[ROLPH]) == 1 and len(s.res_hand[HUGO]) == 1


def test_lothar_unused_points_conversions() -> None:
    """Seed: 3.2 example — Lothar's unused 3 + 1 tokens convert to 4 coins, 2 grave-diggers,
    3 coins + 1 grave-digger, or 1 coin + 1 grave-digger."""
    expected = {
        ("coins", "coins"): (4, 0),
        ("gd", "gd"): (0, 2),
        ("coins", "gd"): (3, 1),
        ("gd", "coins"): (1, 1),
    }
    for (first, second), (coins, gds) in expected.items():
        s = new(2)
        place(s, 0, "agrus", 4)
        place(s, 1, "agrus", 3, 1)
        to_actions(s)
        play(s, "agrus")  # Ann wins Agrus
        assert s.dec == "convert" and s.conv[0][1] == 3  # the 3 first, then the 1
        c0, r0 = s.coins[1], s.reserve[1]
        play(s, f"convert:{first}", f"convert:{second}")
        assert (s.coins[1] - c0, s.reserve[1] - r0) == (coins, gds)


def test_faq_zero_token_converts_only_to_a_grave_digger() -> None:
    """Seed: FAQ 1 — a 0-point token of a loser converts, but only into a grave-digger."""
    s = new(2)
    place(s, 0, "agrus", 2)
    place(s, 1, "agrus", 0)
    to_actions(s)
    ev = play(s, "agrus")
    assert s.reserve[1] == 4 and s.coins[1] == 6
    assert "0-point token into 1 grave-digger" in texts(ev)


def test_faq_zero_token_with_empty_docks_brings_nothing() -> None:
    """Seed: 3.2 — no grave-digger can be hired when the docks of your colour are empty."""
    s = new(2)
    place(s, 0, "agrus", 4)
    place(s, 1, "agrus", 0, 3)
    s.reserve[1] += s.docks[1]
    s.docks[1] = 0
    to_actions(s)
    ev = play(s, "agrus")
    assert s.reserve[1] == 15 and s.coins[1] == 9  # the 3 can only become coins
    assert "brings nothing" in texts(ev)


def test_faq_lone_zero_token_does_not_win() -> None:
    """Seed: FAQ 3 and Appendix II (Agrus) — a lone 0-point investment does not make you
    active; nobody acts there."""
    s = new(2)
    place(s, 0, "agrus", 0)
    ev = to_actions(s)  # no decision anywhere: the round runs on to round 2
    assert s.agrus == [0, 0] and s.round == 2
    assert "nobody acts" in texts(ev)
    assert s.reserve[0] == 3  # nobody converts either ([design], the seed's Agrus example)


def test_faq_zero_token_wins_with_a_development() -> None:
    """Seed: FAQ 3 — a development's base point lifts a 0-token investment to 1: active."""
    s = new(2)
    s.docks[0] -= 1
    s.devs[0].append("apotheca")
    place(s, 0, "burgus", 0)
    set_burgus(s, "washerwoman", "crier", "friar")
    to_actions(s)
    assert s.active == 0 and s.dec == "burgus" and s.budget == 1
    assert "take:washerwoman" in ids(s) and "take:crier" in ids(s)  # cost 2 - 1 (Apotheca)


def test_faq_winner_points_are_used_not_converted() -> None:
    """Seed: FAQ 2 — the winner's points are used even without the means to act; only the
    opponents' points are converted."""
    s = new(2)
    place(s, 0, "agrus", 4)
    place(s, 1, "agrus", 1)
    set_reserve(s, 0, 0)  # Ann cannot send a grave-digger: she still wins
    ev = to_actions(s)
    assert "cannot do anything" in texts(ev)
    assert s.dec == "convert" and seat_to_move(s) == 1
    play(s, "convert:coins")
    assert s.coins == [6, 7] and s.reserve[0] == 0


def test_new_agrarian_law_gives_an_extra_investment_turn() -> None:
    """Seed: Appendix IV — under New agrarian law I grave-diggers can be invested as 1-point
    tokens: one extra turn in the Investments stage."""
    s = new(2, event="law1")
    assert "token:gd" in ids(s)
    turns = 0
    while s.phase == "invest":
        p = seat_to_move(s)
        if p == 0 and "token:gd" in ids(s):
            play(s, "token:gd", "area:agrus")
        elif p == 0:
            invest(s, s.hand[0][0], "schola")
        else:
            if "token:gd" in ids(s):
                play(s, "token:gd", "area:portus")
            else:
                invest(s, s.hand[1][0], "mercatus")
        turns += 1
    assert turns == 2 * (5 + 1)  # five tokens and one grave-digger each
    assert s.gdtok[A["agrus"]][0] == 1 and s.reserve[0] == 2
    # The grave-digger token counts 1 point and comes back after its area.
    play(s, "pass")  # Ann wins Schola Medica (10 points) and passes
    while s.area < A["agrus"]:
        play(s, ids(s)[-1])
    res = s.results[A["agrus"]]
    assert res is not None and res["totals"][0] == 1 and s.active == 0
    play(s, "pass")
    assert s.reserve[0] == 3


def test_appendix_investments_plague_spreader_and_saved_token() -> None:
    """Seed: Appendix I — Geoffrey plays Plague spreader for hire against Hugo (no Suburbium
    for Hugo) and invests his saved token later, reinforced by a grave-digger."""
    s = new(4, names=APPENDIX)
    give_res(s, GEOFFREY, "spreader")
    invest(s, 4, "schola")
    invest(s, 4, "mercatus")
    invest(s, 4, "agrus")
    invest(s, 4, "suburbium")
    assert seat_to_move(s) == GEOFFREY
    play(s, "play:spreader", f"target:{HUGO}", "area:suburbium")
    assert s.res_played[GEOFFREY] == ["spreader"]
    for _ in range(3):
        invest(s, s.hand[seat_to_move(s)][0], "burgus")
    assert seat_to_move(s) == GEOFFREY
    for _ in range(3):  # three more rounds of turns
        for _p in range(4):
            p = seat_to_move(s)
            if p == HUGO:
                assert "area:suburbium" not in _area_ids(s, s.hand[p][0])
            invest(s, s.hand[p][0], "portus" if p != GEOFFREY else "burgus")
    # Everyone but Geoffrey is done; he invests his saved token alone, with a reinforcement.
    assert seat_to_move(s) == GEOFFREY and len(s.hand[GEOFFREY]) == 1
    invest(s, s.hand[GEOFFREY][0], "burgus", reinf=1)
    assert s.phase == "action"


def _area_ids(s: PestisState, value: int) -> list[str]:
    """The areas offered for `value` (then step back, as Esc would)."""
    clone = GAME.clone(s)
    play(clone, f"token:{value}")
    return ids(clone)


def test_event_set_helper_keeps_decks() -> None:
    """Support check: forcing an event keeps the event cards conserved."""
    s = new(3)
    set_event(s, "law1")
    assert s.event == "law1" and not GAME.invariants(s)
