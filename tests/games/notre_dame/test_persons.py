"""Notre Dame: the hire phase and a test per person card (15)."""

from __future__ import annotations

from boardgames_tui.engine.notre_dame import GAME
from boardgames_tui.engine.notre_dame import data as D
from boardgames_tui.engine.notre_dame.state import PLAGUE, NotreDameState
from tests.games.notre_dame.support import begin_with, ids, new, place, play, to_hire


def hire(persons: list[str], n: int = 3) -> NotreDameState:
    return to_hire(new(n), persons)


def hire_with(person: str, markers: dict[int, int], friend: int | None = None) -> NotreDameState:
    """Seat 0, with `markers` per location and the trusted friend at `friend`, hires `person`
    (face up with the Monk and the Fool)."""
    st = hire([person, "monk", "fool"])
    for loc, k in markers.items():
        place(st, 0, loc, k)
    if friend is not None:
        st.friend[0] = friend
    play(st, f"hire:{person}")
    return st


# ---------------------------------------------------------------- hire phase ---------------


def test_hire_costs_one_gold_to_the_bank_passing_allowed() -> None:
    """Spec: Hire — from the start player clockwise each may pay 1 gold to hire one of the 3
    face-up persons; passing is allowed. [design] the fee goes to the bank."""
    st = hire(["moneylender", "monk", "cityguard"])
    p = GAME.prompt(st)
    assert p.seat == 0 and p.phase == "Hire" and not p.private
    assert p.ids() == ["hire:moneylender", "hire:monk", "hire:cityguard", "pass"]
    play(st, "hire:moneylender")
    assert st.gold[0] == 3 - 1 + 2 and st.bank == 16 + 1 - 2
    play(st, "pass")
    assert st.gold[1] == 3


def test_several_players_may_hire_the_same_person() -> None:
    """Spec: Hire — several players may hire the same one."""
    st = hire(["moneylender", "monk", "cityguard"])
    play(st, "hire:monk", "hire:monk", "hire:monk")
    assert st.supply == [6, 6, 6] and st.phase != "hire"


def test_hire_needs_gold() -> None:
    """Spec: Hire — pay 1 gold: without gold only passing."""
    st = hire(["moneylender", "monk", "cityguard"])
    st.gold[0] = 0
    assert ids(st) == ["pass"]


def test_hire_order_from_start_player_then_plague() -> None:
    """Spec: Hire — from the start player clockwise, then phase 5."""
    st = hire(["moneylender", "monk", "cityguard"])
    begin_with(st, 1)
    seats = []
    for _ in range(3):
        seats.append(GAME.prompt(st).seat)
        play(st, "pass")
    assert seats == [1, 2, 0]
    assert st.round == 2  # the plague ran and the next round began


def test_rat_icons_per_period() -> None:
    """Spec: Persons — a period shows 12, 13 and 12 rats (all 6 brown plus 3 gray); the
    example rounds total 2+0+1 and 2+3+1."""
    brown = sum(D.PERSON_BY_KEY[k].rats for k in D.BROWN)
    totals = [brown + sum(D.PERSON_BY_KEY[k].rats for k in D.GRAY[x]) for x in "ABC"]
    assert totals == [12, 13, 12]
    assert all(0 <= p.rats <= 3 for p in D.PERSONS) and len(D.PERSONS) == 15
    assert len(D.BROWN) == 6 and all(len(D.GRAY[x]) == 3 for x in "ABC")


# ---------------------------------------------------------------- brown --------------------


def test_hostess() -> None:
    """Spec: Hostess — 3 prestige + one of 1 gold / 1 marker / rat back 1."""
    st = hire(["hostess", "monk", "cityguard"])
    st.rat[0] = 2
    play(st, "hire:hostess")
    p = GAME.prompt(st)
    assert p.seat == 0 and p.step == 1
    assert p.ids() == ["bonus:gold", "bonus:marker", "bonus:rat"]
    play(st, "bonus:rat")
    assert st.prestige[0] == 3 and st.rat[0] == 1 and st.gold[0] == 2


def test_minstrel_moves_one_to_three_pieces_friend_allowed_no_action() -> None:
    """Spec: Minstrel — move 1-3 own markers (friend allowed) from one sector to another; no
    action."""
    st = hire(["minstrel", "monk", "cityguard"])
    place(st, 0, D.BANK, 4)
    st.friend[0] = D.BANK
    play(st, "hire:minstrel")
    assert ids(st) == ["from:bank"]
    play(st, "from:bank")
    assert "to:bank" not in ids(st) and len(ids(st)) == 6
    play(st, "to:residence")
    p = GAME.prompt(st)
    assert p.step == 3
    assert p.ids() == ["move:1", "move:2", "move:3", "move:0f", "move:1f", "move:2f"]
    play(st, "move:2f")
    assert st.sectors[0][D.BANK] == 2 and st.sectors[0][D.RESIDENCE] == 2
    assert st.friend[0] == D.RESIDENCE
    assert st.prestige[0] == 0 and st.gold[0] == 2  # no action executed
    assert GAME.invariants(st) == []


def test_minstrel_single_piece_moves_at_once_and_unusable_not_hirable() -> None:
    """Spec: Minstrel — one piece only: no count question. [design] with nothing to move the
    Minstrel cannot be hired."""
    st = hire(["minstrel", "monk", "cityguard"])
    assert "hire:minstrel" not in ids(st)
    place(st, 0, D.PARK, 1)
    play(st, "hire:minstrel", "from:park", "to:hotel")
    assert st.sectors[0][D.HOTEL] == 1 and GAME.prompt(st).seat == 1


def test_monk() -> None:
    """Spec: Monk — 2 markers from the general supply + 1 prestige (fewer if fewer remain)."""
    st = hire(["monk", "fool", "cityguard"])
    play(st, "hire:monk")
    assert st.supply[0] == 6 and st.general[0] == 8 and st.prestige[0] == 1
    place(st, 1, D.BANK, 9)
    play(st, "hire:monk")
    assert st.supply[1] == 5 and st.general[1] == 0


def test_fool_moves_marker_from_notre_dame_and_executes() -> None:
    """Spec: Fool — move 1 marker or the friend from a sector or Notre Dame to another sector
    (not Notre Dame) and execute that sector's action."""
    st = hire(["fool", "monk", "cityguard"])
    place(st, 0, D.NOTRE_DAME, 1)
    place(st, 0, D.RESIDENCE, 2)
    play(st, "hire:fool")
    assert ids(st) == ["from:residence", "from:notredame"]
    play(st, "from:notredame")
    assert "to:notredame" not in ids(st) and len(ids(st)) == 7
    play(st, "to:residence")
    assert st.nd[0] == 0 and st.sectors[0][D.RESIDENCE] == 3 and st.prestige[0] == 3


def test_fool_moves_the_friend() -> None:
    """Spec: Fool — the friend may be the piece moved; the action counts it in n."""
    st = hire(["fool", "monk", "cityguard"])
    st.friend[0] = D.NOTRE_DAME
    place(st, 0, D.BANK, 1)
    play(st, "hire:fool", "from:friend", "to:bank")
    assert st.friend[0] == D.BANK and st.gold[0] == 2 + 2


def test_fool_can_trigger_multi_part_action() -> None:
    """Spec: Fool — executing the Hotel asks for the bonus (a later step)."""
    st = hire(["fool", "monk", "cityguard"])
    place(st, 0, D.BANK, 1)
    play(st, "hire:fool", "from:bank", "to:hotel")
    p = GAME.prompt(st)
    assert p.seat == 0 and p.step == 3 and p.ids()[0] == "bonus:gold"


def test_money_lender() -> None:
    """Spec: Money lender — 2 gold + 1 prestige."""
    st = hire(["moneylender", "monk", "cityguard"])
    play(st, "hire:moneylender")
    assert st.gold[0] == 4 and st.prestige[0] == 1


def test_doctor_plague_value_zero_hospital_moves_back() -> None:
    """Spec: Doctor — plague value 0 for this player this round (hospital markers then move
    the rat back). Example: persons 2+3+1 with the Doctor: Ann (Doctor, 1 hospital) 3 → 2,
    Bob 3 → 9."""
    st = hire(["doctor", "moneylender", "cityguard"])
    assert sum(D.PERSON_BY_KEY[k].rats for k in st.persons) == 6
    st.rat[:2] = [3, 3]
    place(st, 0, D.HOSPITAL, 1)
    play(st, "hire:doctor", "pass", "pass")
    assert st.rat[:2] == [2, 9]


# ---------------------------------------------------------------- gray A -------------------


def test_city_guard() -> None:
    """Spec: City guard — 1 prestige per own marker in the 7 sectors and Notre Dame
    ([design] the friend counts)."""
    st = hire_with("cityguard", {D.BANK: 2, D.PARK: 1, D.NOTRE_DAME: 2}, friend=D.HOTEL)
    assert st.prestige[0] == 6


def test_night_watchman() -> None:
    """Spec: Night watchman — 1 prestige per own empty sector ([design] the friend fills)."""
    st = hire_with("nightwatchman", {D.BANK: 2}, friend=D.HOTEL)
    assert st.prestige[0] == 5


def test_bishop() -> None:
    """Spec: Bishop — take 1 marker from the general supply into an empty sector and execute
    its action."""
    st = hire_with("bishop", {D.BANK: 1}, friend=D.HOTEL)
    assert ids(st) == [
        "sector:cloister",
        "sector:residence",
        "sector:carriage",
        "sector:park",
        "sector:hospital",
    ]
    play(st, "sector:residence")
    assert st.sectors[0][D.RESIDENCE] == 1 and st.prestige[0] == 1
    assert st.general[0] == 8 and st.supply[0] == 4


def test_bishop_not_hirable_without_empty_sector_or_general_supply() -> None:
    """[design] The Bishop cannot be hired when no sector is empty or the general supply of
    the player's colour is empty."""
    st = hire(["bishop", "monk", "fool"])
    st.general[0] += st.supply[0]
    st.supply[0] = 0
    for k in range(7):
        place(st, 0, k, 1)
    assert "hire:bishop" not in ids(st)
    st2 = hire(["bishop", "monk", "fool"])
    place(st2, 0, D.BANK, 10)
    assert "hire:bishop" not in ids(st2)


# ---------------------------------------------------------------- gray B -------------------


def test_advocate() -> None:
    """Spec: Advocate — 3 prestige per 2 messages held (5 messages → 6)."""
    st = hire(["advocate", "monk", "fool"])
    st.msgs[0] = [2, 2, 1, 0, 0]
    play(st, "hire:advocate")
    assert st.prestige[0] == 6


def test_beggar_king() -> None:
    """Spec: Beggar king — 1 prestige per space above the rat: rat on 4 gives 5."""
    st = hire(["beggarking", "monk", "fool"])
    st.rat[0] = 4
    play(st, "hire:beggarking")
    assert st.prestige[0] == 5


def test_guild_master() -> None:
    """Spec: Guild master — 2 prestige per sector with at least 2 markers (friend counts)."""
    st = hire_with("guildmaster", {D.BANK: 2, D.HOTEL: 1, D.PARK: 1}, friend=D.HOTEL)
    assert st.prestige[0] == 4


# ---------------------------------------------------------------- gray C -------------------


def test_lady_of_the_court() -> None:
    """Spec: Lady of the Court — 1 prestige per marker in the player's fullest sector."""
    st = hire_with("lady", {D.BANK: 3, D.HOTEL: 3}, friend=D.HOTEL)
    assert st.prestige[0] == 4


def test_mayor() -> None:
    """Spec: Mayor — 3 prestige per sector with at least 3 markers."""
    st = hire_with("mayor", {D.BANK: 3, D.HOTEL: 2, D.HOSPITAL: 4})
    assert st.prestige[0] == 6


def test_carpenter() -> None:
    """Spec: Carpenter — 1 prestige per sector with at least 1 marker."""
    st = hire_with("carpenter", {D.BANK: 3, D.HOTEL: 1}, friend=D.PARK)
    assert st.prestige[0] == 3


def test_person_previews_state_the_gain() -> None:
    """UX: hire options show their effect (e.g. Carpenter → +3 prestige)."""
    st = hire(["carpenter", "doctor", "fool"])
    place(st, 0, D.BANK, 1)
    place(st, 0, D.HOTEL, 1)
    place(st, 0, D.PARK, 1)
    st.rat[0] = 8
    previews = {m.id: m.preview for m in GAME.prompt(st).moves}
    assert previews["hire:carpenter"] == "+3 prestige"
    assert "overflow" in previews["hire:doctor"] and "→8" in previews["hire:doctor"]


def test_plague_phase_after_hire() -> None:
    """Spec: phase 5 follows the hire phase (an overflow tie waits in phase Plague)."""
    st = hire(["moneylender", "doctor", "cityguard"])
    st.rat[2] = 9
    place(st, 2, D.BANK, 1)
    place(st, 2, D.PARK, 1)
    play(st, "pass", "pass", "pass")
    assert st.phase == PLAGUE and GAME.prompt(st).seat == 2
