"""Rattus Cartus: every building's premium and standard action, and every special card."""

from __future__ import annotations

import pytest

from boardgames_tui.engine.core.protocol import IllegalMove
from boardgames_tui.engine.rattus_cartus.state import RattusState
from tests.games.rattus_cartus.support import (
    GAME,
    enter,
    fresh,
    hand_kinds,
    play,
    set_hand,
    texts,
    to_enter,
)


def premium_and_standard(key: str, cls: str, other: str = "castle", n: int = 2) -> RattusState:
    """Ann enters `key` with 2 cards of its class (premium), Bob with 1 (standard)."""
    s = to_enter(fresh(n), [key, other])
    set_hand(s, 0, [cls, cls])
    set_hand(s, 1, [cls])
    for i in range(2, n):
        set_hand(s, i, [])
    return s


# ---- Peasantry ---------------------------------------------------------------------------


def test_farm() -> None:
    """Spec: Buildings — Farm: premium draw 4 population cards, standard draw 2."""
    s = premium_and_standard("farm", "peasantry")
    enter(s, 1, "peasantry", "peasantry")
    enter(s, 1, "peasantry")
    assert len(s.players[0].pop) == 4
    assert len(s.players[1].pop) == 2


def test_brewery() -> None:
    """Spec: Buildings — Brewery: premium draw 1 per influence gained this round, standard
    1 per 2 influence (rounded down)."""
    s = to_enter(fresh(3), ["brewery", "castle"])
    set_hand(s, 0, ["peasantry"] * 3)
    set_hand(s, 1, ["peasantry", "joker"])
    set_hand(s, 2, ["peasantry", "church"])
    enter(s, 1, "peasantry", "peasantry", "peasantry")
    enter(s, 1, "peasantry", "joker")
    ev = enter(s, 1, "church")
    assert s.players[0].gained == 0  # reset with the new round; the draws tell:
    assert len(s.players[0].pop) == 3  # 3 influence -> 3 cards
    assert len(s.players[1].pop) == 1  # 2 influence -> 1 card
    assert hand_kinds(s, 2) == ["peasantry"]  # 1 influence -> 0 cards
    assert any("3 influence gained this round → draw 3" in t for t in texts(ev))


# ---- Bourgeoisie -------------------------------------------------------------------------


def test_office() -> None:
    """Spec: Buildings — Office: premium 2 Passes, standard 1 Pass."""
    s = premium_and_standard("office", "bourgeoisie")
    enter(s, 1, "bourgeoisie", "bourgeoisie")
    enter(s, 1, "bourgeoisie")
    assert s.players[0].passes == 2 and s.players[1].passes == 1
    assert s.supply["pass"] == 12 - 3


def test_marketplace() -> None:
    """Spec: Buildings — Marketplace: premium 2 Jokers, standard 1 Joker."""
    s = premium_and_standard("marketplace", "bourgeoisie")
    enter(s, 1, "bourgeoisie", "bourgeoisie")
    enter(s, 1, "bourgeoisie")
    assert s.players[0].jokers == 2 and s.players[1].jokers == 1


def test_supply_runs_out() -> None:
    """Spec [design]: when a supply runs out, a player takes what is left."""
    s = premium_and_standard("marketplace", "bourgeoisie")
    set_hand(s, 1, ["bourgeoisie"] + ["joker"] * 14)
    assert s.supply["joker"] == 1
    enter(s, 1, "bourgeoisie", "bourgeoisie")
    enter(s, 1, "bourgeoisie")
    assert s.players[0].jokers == 1
    assert s.players[1].jokers == 14  # nothing left for the standard action
    assert s.supply["joker"] == 0


# ---- Church ------------------------------------------------------------------------------


def test_monastery() -> None:
    """Spec: Buildings — Monastery: premium discard 2 rats, standard 1."""
    s = premium_and_standard("monastery", "church")
    enter(s, 1, "church", "church")
    enter(s, 1, "church")
    assert s.players[0].rats == 8 and s.players[1].rats == 9


def test_hospital_premium() -> None:
    """Spec: Buildings — Hospital premium: discard 1 rat, then up to 3 hand cards to
    discard as many rats."""
    s = to_enter(fresh(2), ["hospital", "castle"])
    set_hand(s, 0, ["church", "church", "magic", "royalty", "joker", "sword"])
    set_hand(s, 1, [])
    enter(s, 1, "church", "church")
    enter(s, 2)
    p = GAME.prompt(s)
    assert p.seat == 0 and p.private and p.step == 0
    assert p.ids() == [
        "discard:royalty",
        "discard:magic",
        "discard:joker",
        "discard:sword",
        "done",
    ]
    assert s.players[0].rats == 9
    discard = len(s.discard)
    play(s, "discard:magic")
    assert GAME.prompt(s).step == 1
    play(s, "discard:joker", "discard:sword")
    assert s.players[0].rats == 6
    assert hand_kinds(s, 0) == ["royalty"]
    # The 2 committed Church cards and the discarded Magic card (Joker/Sword: to supply).
    assert len(s.discard) == discard + 3
    assert s.supply["joker"] == 15 and s.supply["sword"] == 11  # Bob's standard Castle
    assert s.phase == "supply"


def test_hospital_standard_and_stop() -> None:
    """Spec: Buildings — Hospital standard: discard up to 2 hand cards for as many rats
    (stopping early is allowed)."""
    s = to_enter(fresh(2), ["hospital", "castle"])
    set_hand(s, 0, ["church", "church", "magic"])
    set_hand(s, 1, ["church", "magic", "royalty"])
    enter(s, 1, "church", "church")
    enter(s, 1, "church")
    assert GAME.prompt(s).seat == 0
    play(s, "done")  # Ann (premium) discards no card: 1 rat for the premium only
    assert s.players[0].rats == 9
    p = GAME.prompt(s)
    assert p.seat == 1 and "up to 2" in p.text
    play(s, "discard:magic", "discard:royalty")
    assert s.players[1].rats == 8
    assert s.phase == "supply"


def test_hospital_limited_by_rats() -> None:
    """Spec [design]: Hospital discards only while the player still has rats."""
    s = to_enter(fresh(2), ["hospital", "castle"])
    set_hand(s, 0, ["church", "magic", "royalty"])
    set_hand(s, 1, [])
    s.players[0].rats = 2
    enter(s, 1, "church")
    enter(s, 2)
    assert s.players[0].rats == 1
    play(s, "discard:magic")
    assert s.players[0].rats == 0
    # No more discards with no rats left; it still asks (rats are secret): only "stop".
    assert GAME.prompt(s).ids() == ["done"]
    with pytest.raises(IllegalMove):
        GAME.apply(s, "discard:royalty")
    play(s, "done")
    assert s.phase == "supply"
    assert hand_kinds(s, 0) == ["royalty"]


# ---- Chivalry ----------------------------------------------------------------------------


def test_castle() -> None:
    """Spec: Buildings — Castle: premium 2 Swords, standard 1 Sword."""
    s = premium_and_standard("castle", "chivalry", other="farm")
    enter(s, 1, "chivalry", "chivalry")
    enter(s, 1, "chivalry")
    assert s.players[0].swords == 2 and s.players[1].swords == 1


def test_guard_tower_premium_and_immunity() -> None:
    """Spec: Buildings — Guard Tower premium: every player who entered no Guard Tower and
    holds at least as many cards gives 3 of their choice; standard: immune."""
    s = to_enter(fresh(4), ["guard_tower", "farm", "castle"])
    set_hand(s, 0, ["chivalry", "magic", "magic"])  # after committing: 2 cards
    set_hand(s, 1, ["church"] * 6)  # enters the Guard Tower: immune
    set_hand(s, 2, ["royalty", "royalty", "royalty", "joker", "pass"])  # 5 >= 2: gives 3
    set_hand(s, 3, ["peasantry"])  # 1 < 2: keeps
    enter(s, 1, "chivalry")
    enter(s, 1)
    enter(s, 2)
    enter(s, 3)
    p = GAME.prompt(s)
    assert p.seat == 2 and p.private and "give Ann 3 more cards" in p.text
    assert p.ids() == ["give:royalty", "give:joker", "give:pass"]
    ev = play(s, "give:joker")
    assert GAME.prompt(s).step == 1
    ev += play(s, "give:pass", "give:royalty")
    assert hand_kinds(s, 0) == ["magic", "magic", "royalty", "joker", "pass"]
    assert hand_kinds(s, 1) == ["church"] * 6
    assert hand_kinds(s, 3) == ["peasantry", "sword"]  # kept, + standard Castle
    assert any("immune" in t for t in texts(ev))
    gift = next(e for e in ev if "gives Ann" in e.text)
    assert gift.seat == 2 and gift.public is not None and "Joker" not in gift.public


def test_guard_tower_gives_all_if_fewer() -> None:
    """Spec: Buildings — Guard Tower: ... 3 cards of their choice (all if fewer)."""
    s = to_enter(fresh(3), ["guard_tower", "farm"])
    set_hand(s, 0, ["chivalry", "magic"])  # after committing: 1 card
    set_hand(s, 1, ["royalty", "church"])  # 2 >= 1: gives both
    set_hand(s, 2, [])  # 0 < 1
    enter(s, 1, "chivalry")
    enter(s, 2)
    enter(s, 2)
    p = GAME.prompt(s)
    assert p.seat == 1 and "2 more cards" in p.text
    play(s, "give:church", "give:royalty")
    assert hand_kinds(s, 0) == ["church", "magic", "royalty"]
    assert len(s.players[1].pop) == 2  # gave both, then drew 2 (standard Farm)


def test_guard_tower_standard_no_action() -> None:
    """Spec: Buildings — Guard Tower standard: no action (only immunity)."""
    s = to_enter(fresh(2), ["guard_tower", "farm"])
    set_hand(s, 0, ["chivalry"])
    set_hand(s, 1, ["magic"])
    enter(s, 1, "chivalry")
    ev = enter(s, 1)
    assert hand_kinds(s, 1) == ["magic"]
    assert any("Bob: Guard Tower standard" in t for t in texts(ev))


# ---- Royalty -----------------------------------------------------------------------------


def test_palace() -> None:
    """Spec: Buildings — Palace: premium 2 VP tokens, standard 1."""
    s = premium_and_standard("palace", "royalty")
    enter(s, 1, "royalty", "royalty")
    enter(s, 1, "royalty")
    assert s.players[0].vp == 2 and s.players[1].vp == 1


def test_treasury() -> None:
    """Spec: Buildings — Treasury: premium 2 Gold, standard 1."""
    s = premium_and_standard("treasury", "royalty")
    enter(s, 1, "royalty", "royalty")
    enter(s, 1, "royalty")
    assert s.players[0].gold == 2 and s.players[1].gold == 1
    assert s.supply["gold"] == 12


# ---- Magic -------------------------------------------------------------------------------


def test_fortune_teller() -> None:
    """Spec: Buildings — Fortune-teller's Tent: premium look at 2 Nun-row cards, standard 1."""
    s = premium_and_standard("fortune_teller", "magic")
    enter(s, 1, "magic", "magic")
    enter(s, 1, "magic")
    p = GAME.prompt(s)
    assert p.seat == 0 and p.private and "2 looks" in p.text
    play(s, "look:1")
    p = GAME.prompt(s)
    assert p.seat == 0 and p.step == 1 and "look:1" not in p.ids()
    play(s, "look:4")
    assert GAME.prompt(s).seat == 1
    ev = play(s, "look:1")
    assert s.players[0].seen == [0, 3] and s.players[1].seen == [0]
    assert ev[0].seat == 1 and ev[0].reveal and "nun" in ev[0].text
    assert ev[0].public is not None and "nun" not in ev[0].public


def test_piper() -> None:
    """Spec [design]: Buildings — Piper's Lodge: premium 2 Flutes, standard 1."""
    s = premium_and_standard("piper", "magic")
    enter(s, 1, "magic", "magic")
    enter(s, 1, "magic")
    assert s.players[0].flutes == 2 and s.players[1].flutes == 1


# ---- special cards -----------------------------------------------------------------------


def test_joker() -> None:
    """Spec: Joker — +1 influence on the building's track, no rat, back to its supply."""
    s = to_enter(fresh(2), ["palace", "castle"])
    set_hand(s, 0, ["joker", "joker"])
    set_hand(s, 1, [])
    enter(s, 1, "joker", "joker")
    enter(s, 2)
    assert s.players[0].track[4] == 2 and s.players[0].rats == 10
    assert s.players[0].vp == 2  # Jokers count for the premium
    assert s.supply["joker"] == 15


def test_sword_single_target_at_random() -> None:
    """Spec [design]: Sword — take half (rounded down) of the hand of one other player in
    the same building, at random."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, ["sword"])
    set_hand(s, 1, ["church", "church", "magic", "joker", "pass"])
    enter(s, 1, "sword")
    ev = enter(s, 1)
    # Bob's hand: 5 cards -> Ann takes 2 (before the Farm actions: Ann standard, Bob none).
    assert len(hand_kinds(s, 1)) == 3 + 2  # Bob: 3 left + 2 drawn (Farm standard)
    assert len(hand_kinds(s, 0)) == 2 + 2  # Ann: 2 taken + 2 drawn (standard)
    assert s.supply["sword"] == 12
    steal = next(e for e in ev if "Sword takes" in e.text and e.seat == 0)
    assert steal.reveal and steal.public and "at random" in steal.public
    assert any(e.seat == 1 and "takes from you" in e.text for e in ev)


def test_sword_choose_target_and_disc_order() -> None:
    """Spec: Swords and Flutes resolve now, in disc order; [design] the owner picks whom."""
    s = to_enter(fresh(3), ["farm", "castle"])
    set_hand(s, 0, ["sword"])
    set_hand(s, 1, ["sword", "church", "church", "church"])
    set_hand(s, 2, ["magic"] * 4)
    enter(s, 1, "sword")
    enter(s, 1, "sword")
    enter(s, 1)
    p = GAME.prompt(s)
    assert p.seat == 0 and not p.private
    assert p.ids() == ["sword:2", "sword:3"]
    assert p.moves[1].preview == "2 of 4 cards at random"
    play(s, "sword:3")
    assert len(s.players[0].pop) == 2 and len(s.players[2].pop) == 2
    p = GAME.prompt(s)
    assert p.seat == 1 and p.ids() == ["sword:1", "sword:3"]
    play(s, "sword:1")  # Ann holds 2 -> Bob takes 1
    assert len(s.players[1].pop) == 3 + 1 + 2  # + the standard Farm draw
    assert len(s.players[0].pop) == 1 + 2
    with pytest.raises(IllegalMove):
        GAME.apply(fresh(2), "sword:1")


def test_sword_alone_has_no_effect() -> None:
    """Spec [design]: a Sword with nobody else in the building has no effect."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, ["sword"])
    set_hand(s, 1, ["magic"] * 4)
    enter(s, 1, "sword")
    ev = enter(s, 2)
    assert any("nobody else" in t for t in texts(ev))
    assert hand_kinds(s, 1) == ["magic"] * 4 + ["sword"]
    assert s.supply["sword"] == 12 - 1  # Bob's standard Castle Sword only


def test_flute() -> None:
    """Spec [design]: Flute — give up to 2 of your rats to one other player in the building."""
    s = to_enter(fresh(3), ["farm", "castle"])
    set_hand(s, 0, ["flute", "flute"])
    set_hand(s, 1, [])
    set_hand(s, 2, [])
    enter(s, 1, "flute", "flute")
    enter(s, 1)
    enter(s, 1)
    p = GAME.prompt(s)
    assert p.seat == 0 and p.private
    assert p.ids() == ["flute:2:2", "flute:2:1", "flute:3:2", "flute:3:1", "flute:none"]
    play(s, "flute:3:2")
    assert s.players[0].rats == 8 and s.players[2].rats == 12
    play(s, "flute:none")
    assert s.players[0].rats == 8
    assert s.supply["flute"] == 12


def test_flute_limited_by_rats_and_alone() -> None:
    """Spec [design]: a Flute gives only rats you have; alone it has no effect."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, ["flute"])
    set_hand(s, 1, [])
    s.players[0].rats = 1
    enter(s, 1, "flute")
    enter(s, 1)
    assert GAME.prompt(s).ids() == ["flute:2:1", "flute:none"]
    play(s, "flute:2:1")
    # With 0 rats the Flute still asks (only "none"): the table must not learn the total.
    s3 = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s3, 0, ["flute"])
    s3.players[0].rats = 0
    enter(s3, 1, "flute")
    enter(s3, 1)
    assert GAME.prompt(s3).ids() == ["flute:none"]
    s2 = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s2, 0, ["flute"])
    enter(s2, 1, "flute")
    ev = enter(s2, 2)
    assert s2.players[0].rats == 10
    assert any("Flute: nobody else" in t for t in texts(ev))


def test_pass_card_kept_until_played() -> None:
    """Spec: Pass (held) — kept in hand; counts as a hand card."""
    s = fresh(2)
    set_hand(s, 0, ["pass", "church"])
    assert s.players[0].hand_size() == 2
