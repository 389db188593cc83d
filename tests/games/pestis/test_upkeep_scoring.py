"""Upkeep (Burgus refresh, income, healing, upkeep or relapse), the Event stage, the end of
the game and end scoring with shared wins."""

from __future__ import annotations

import random
from pathlib import Path

from boardgames_tui.engine.core import Match, saves
from boardgames_tui.engine.pestis import GAME
from boardgames_tui.engine.pestis import data as D
from boardgames_tui.engine.pestis.state import PestisState
from tests.games.pestis.support import (
    add_dev,
    give_res,
    give_subject,
    ids,
    new,
    play,
    seat_to_move,
    set_agrus,
    set_burgus,
    set_coins,
    set_reserve,
    set_round,
    texts,
    to_upkeep,
    upkeep_with,
)


def test_burgus_is_refreshed_in_upkeep() -> None:
    """Seed 3.3: the subjects left in the Burgus are discarded and 3 new ones laid out."""
    s = new(2)
    set_burgus(s, "nobleman", "pupil")
    to_upkeep(s)
    assert len(s.burgus) == 3
    assert s.subj_discard == ["nobleman", "pupil"]


def test_discarded_subjects_lie_face_up() -> None:
    """Seed (setup): "All discarded cards are placed face-up alongside their respective
    decks": every seat and a spectator see which subjects were discarded, on the board and
    in the line mode (they saw only how many)."""
    from boardgames_tui.engine.core import PUBLIC
    from boardgames_tui.plain.boards import board_for

    s = new(2)
    set_burgus(s, "nobleman", "pupil")
    to_upkeep(s)
    names = [D.SUBJECTS[k].name for k in ("nobleman", "pupil")]
    for seat in (0, 1, PUBLIC):
        assert GAME.view(s, seat)["subject_discard"] == names
    said = " ".join(" ".join(lines) for _, lines in board_for("1347").sections(GAME.view(s, 0), 0))
    assert f"discard 2 ({', '.join(names)})" in said


def test_agrus_income_two_coins_per_grave_digger() -> None:
    """Seed 3.3: 2 coins for every grave-digger in Agrus, from the bank."""
    s = new(2)
    set_agrus(s, 0, 3)
    set_agrus(s, 1, 1)
    to_upkeep(s)
    assert s.coins == [12, 8] and s.bank_net == 8


def healed_apothecary_and_crier(at_once: bool) -> PestisState:
    """Upkeep: seat 0 heals an infected Apothecary with a Cart, a Town crier still infected."""
    s = new(2)
    if at_once:
        s.options["apothecary"] = D.APOTHECARY_AT_ONCE
    give_subject(s, 0, "apothecary")
    give_subject(s, 0, "crier")
    give_res(s, 0, "cart")
    set_coins(s, 0, 10)
    to_upkeep(s)
    assert GAME.prompt(s).private
    assert set(ids(s)) == {"heal:apothecary:cart", "heal:crier:cart", "done"}
    ev = play(s, "heal:apothecary:cart")
    assert "+2-point token" in texts(ev) and 2 in s.hand[0] and s.hand[0].count(2) == 2
    assert "cart" in s.res_discard  # discarded, not played: no wealth point
    assert s.res_played[0] == []
    return s


def test_healing_flips_subject_gives_token_and_ability_for_the_following_rounds() -> None:
    """Seed 3.3: discard a resource card per infected subject: it turns healed, its token is
    taken, and its abilities are "for use in the following rounds": a just-healed Apothecary
    heals nobody in this Upkeep (the Apothecary option's default)."""
    s = healed_apothecary_and_crier(at_once=False)
    assert "heal:crier:apothecary" not in ids(s) and s.subjects[0]["crier"] is False
    assert s.options["apothecary"] == D.APOTHECARY_RULEBOOK


def test_before_the_option_a_just_healed_apothecary_heals_at_once() -> None:
    """Games from before the Apothecary option (it is missing from their options) replay as
    they were played: the Apothecary healed in an Upkeep heals another in the same one."""
    assert GAME.recorded_options({})["apothecary"] == D.APOTHECARY_AT_ONCE
    s = healed_apothecary_and_crier(at_once=True)
    assert ids(s) == ["heal:crier:apothecary", "done"]
    play(s, "heal:crier:apothecary")
    assert s.subjects[0] == {"apothecary": True, "crier": True}
    assert s.coins[0] == 10 - 3 - 2 - 1


def test_healing_is_optional() -> None:
    """Seed 3.3: players *can* heal; they may keep their cards."""
    s = upkeep_with("crier", "cart")
    play(s, "done")
    assert s.subjects[0] == {"crier": False} and s.res_hand[0] == ["cart"]


def test_upkeep_paid_or_subject_falls_ill_again() -> None:
    """Seed 3.3: healed subjects must pay their upkeep, otherwise they return infected and
    their token and ability are lost."""
    s = new(2)
    give_subject(s, 0, "pupil", healed=True)
    set_coins(s, 0, 1)
    ev = to_upkeep(s)
    assert s.subjects[0] == {"pupil": False} and s.hand[0] == [4, 3, 2, 1, 0]
    assert "falls ill again" in texts(ev) and s.coins[0] == 1


def test_short_of_coins_choose_which_subjects_to_keep() -> None:
    """[design] Paying is compulsory while you can; when you cannot pay for all, you choose
    which subjects you keep."""
    s = new(2)
    give_subject(s, 0, "nobleman", healed=True)  # upkeep 3
    give_subject(s, 0, "crier", healed=True)  # upkeep 1
    give_subject(s, 0, "friar", healed=True)  # upkeep 0: always kept
    set_coins(s, 0, 3)
    to_upkeep(s)
    assert s.dec == "keep" and ids(s) == ["keep:nobleman", "keep:crier"]
    play(s, "keep:crier")
    # 2 coins left: the Nobleman (3) cannot be paid: it falls ill.
    assert s.subjects[0] == {"nobleman": False, "crier": True, "friar": True}
    assert s.coins[0] == 2 and sorted(s.hand[0]) == [0, 1, 1, 1, 2, 3, 4]


def test_relapsed_subject_can_be_healed_again() -> None:
    """Seed 3.3: ...until they have once again cured the subject."""
    s = new(2)
    give_subject(s, 0, "crier", healed=True)
    set_coins(s, 0, 0)
    to_upkeep(s)
    assert s.subjects[0] == {"crier": False}
    give_res(s, 0, "cart")
    set_coins(s, 0, 5)
    to_upkeep(s)
    play(s, "heal:crier:cart")
    assert s.subjects[0] == {"crier": True} and s.coins[0] == 4


def test_upkeep_in_turn_order_from_the_first_player() -> None:
    """Seed 3.3: upkeep in clockwise turns starting with the First Player."""
    s = new(3)
    s.first = 2
    for p in range(3):
        give_subject(s, p, ["crier", "friar", "farmer"][p])
        give_res(s, p, "cart" if p != 1 else "leeches")
    to_upkeep(s)
    order = []
    while s.phase == "upkeep":
        order.append(seat_to_move(s))
        play(s, "done")
    assert order == [2, 0, 1]


def test_first_player_token_passes_left_each_round() -> None:
    """Seed 3.4: at the end of the Event stage the First Player token passes clockwise."""
    s = new(3)
    firsts = []
    for _ in range(4):
        firsts.append(s.first)
        to_upkeep(s)
    assert firsts == [0, 1, 2, 0] and s.round == 5


def test_each_event_stage_reveals_the_next_period_card() -> None:
    """[design] 3 event cards per period; rounds 1-3 Period I, 4-6 II, 7-9 III."""
    s = new(2)
    periods = []
    for _ in range(8):
        periods.append(D.EVENTS[s.event].period)
        to_upkeep(s)
    periods.append(D.EVENTS[s.event].period)
    assert periods == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert [len(d) for d in s.event_decks] == [0, 0, 0]


def test_game_ends_after_the_ninth_round() -> None:
    """[design] 9 rounds; the game ends after the Upkeep of round 9 (no card is left)."""
    s = new(2)
    set_round(s, 9)
    ev = to_upkeep(s)
    assert s.phase == "over" and s.round == 9 and GAME.prompt(s) is None
    assert "end of the game" in texts(ev)
    assert GAME.result(s).summary.endswith("wealth points.")


def test_end_scoring_every_source() -> None:
    """Seed: End of game — 1 wealth point per influence point of tokens held, per 10 coins,
    per subject card, per resource played, per development, per 3 grave-diggers (reserve and
    Agrus); [design] a subject's token only while healed; Nobleman +2."""
    s = new(2)
    give_subject(s, 0, "pupil", healed=True)  # token 3
    give_subject(s, 0, "nobleman", healed=True)  # token 3, +2
    give_subject(s, 0, "crier", healed=False)  # no token
    set_coins(s, 0, 29)
    s.res_played[0] = [s.res_deck.pop(), s.res_deck.pop()]
    add_dev(s, 0, "apotheca")
    add_dev(s, 0, "taberna")
    set_reserve(s, 0, 4)
    set_agrus(s, 0, 4)
    line = GAME.result(s).lines[0]
    b = dict(line.breakdown)
    assert b["influence tokens"] == 10 + 3 + 3
    assert b["coins (29 / 10)"] == 2
    assert b["subject cards"] == 3
    assert b["resources played"] == 2
    assert b["developments"] == 2
    assert b["grave-diggers (8 / 3)"] == 2
    assert b["Nobleman"] == 2
    assert line.score == 16 + 2 + 3 + 2 + 2 + 2 + 2


def test_shared_victory_on_a_tie() -> None:
    """Seed: the top wealth holders are all winners. The next seat is third, as in every
    title (ranks 1, 1, 3)."""
    s = new(3)
    set_coins(s, 0, 20)
    set_coins(s, 1, 20)
    set_round(s, 9)
    to_upkeep(s)
    res = GAME.result(s)
    assert res.winners == [0, 1] and "share the victory" in res.summary
    assert [line.rank for line in res.lines] == [1, 1, 3]


def test_provisional_result_during_play() -> None:
    """Protocol: result() is provisional while playing."""
    s = new(2)
    assert GAME.result(s).summary.startswith("Provisional")


def test_events_beat_cards_black_death_and_herbal_remedy() -> None:
    """Seed 3.4 / spec: conflicting effects — Black death doubles upkeep; a Herbal remedy
    still frees its player from paying."""
    s = new(2)
    set_round(s, 4, "black_death")
    give_subject(s, 0, "nobleman", healed=True)
    give_subject(s, 1, "nobleman", healed=True)
    set_coins(s, 1, 6)
    s.remedy[0] = True
    to_upkeep(s)
    assert s.coins == [6, 0]


def test_tax_then_heal_order() -> None:
    """[design] Upkeep order per player: income, Money changer, Thanksgiving, Tax
    collector, then healing, then upkeep."""
    s = new(2, event="tax")
    set_agrus(s, 0, 2)
    set_coins(s, 0, 6)
    ev = to_upkeep(s)
    assert s.coins[0] == 10 - 2
    lines = texts(ev).splitlines()
    assert lines.index("Ann earns 4 coins (Agrus 2×2).") < lines.index(
        "Tax collector: Ann pays 2 coins."
    )


def test_wave_decision_then_new_round_begins() -> None:
    """Flow: decisions in the Event stage, then the next round's Investments."""
    s = new(2)
    set_round(s, 3)
    give_subject(s, 1, "crier")
    give_subject(s, 1, "friar")
    deck = s.event_decks[1]
    deck[-1] = "wave"
    to_upkeep(s)
    assert s.phase == "event" and seat_to_move(s) == 1
    play(s, "discard:crier")
    assert s.phase == "invest" and s.round == 4 and s.first == 1


def test_a_save_from_before_the_apothecary_option_loads_as_it_was_played(tmp_path: Path) -> None:
    """A save that names no Apothecary option (written before it existed) replays with the
    legacy reading and its digest, which leaves the legacy value out, still matches."""
    m = Match.new("1347", ["Ann", "Bob", "Cy"], {"apothecary": D.APOTHECARY_AT_ONCE}, seed=4)
    rng = random.Random(4)
    while m.prompt is not None and m.cursor < 400:
        m.play(rng.choice(m.prompt.moves).id)
    old = saves.dumps(m).replace(f'apothecary = "{D.APOTHECARY_AT_ONCE}"\n', "")
    assert "apothecary" not in old
    path = tmp_path / "old.toml"
    path.write_text(old)
    back = saves.load(path)
    assert back.cursor == m.cursor and back.options["apothecary"] == D.APOTHECARY_AT_ONCE
    assert GAME.digest(back.state) == GAME.digest(m.state)
    assert "**This game** keeps the earlier reading" in GAME.rules_reference(back.options)
    assert "**This game**" not in GAME.rules_reference(GAME.check_options({}))


def test_the_round_summary_says_when_a_healed_ability_works_per_option() -> None:
    """Seed (Upkeep): a cured subject's abilities are 'for use in the following rounds'. The
    reference's round summary said 'works from now on' under either Apothecary option."""
    rulebook = GAME.rules_reference(GAME.check_options({}))
    earlier = GAME.rules_reference({"apothecary": D.APOTHECARY_AT_ONCE})
    for text in (rulebook, earlier):
        assert "works from now on" not in text
        assert "for use in the following rounds" in " ".join(text.split())
    assert "an Apothecary healed now heals from the next Upkeep on" in " ".join(rulebook.split())
    assert "an Apothecary heals already in this Upkeep" in " ".join(earlier.split())
