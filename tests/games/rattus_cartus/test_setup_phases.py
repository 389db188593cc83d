"""Rattus Cartus: setup and the phase rules A-E (scenario tests with exact numbers)."""

from __future__ import annotations

import pytest

from boardgames_tui.engine.core.protocol import IllegalMove, SetupError
from boardgames_tui.engine.rattus_cartus.data import (
    BUILDING_INDEX,
    BUILDINGS,
    CARD_NUNS,
    NUNS_IN_CLASS,
    POPULATION_CARDS,
    RECOMMENDED_SET,
    SUPPLY_TOTALS,
    building_of,
    rat_tokens,
)
from boardgames_tui.engine.rattus_cartus.state import RattusState, Task
from tests.games.rattus_cartus.support import (
    GAME,
    NAMES,
    card_of,
    enter,
    fresh,
    hand_kinds,
    play,
    set_hand,
    set_row,
    texts,
    to_enter,
    to_supply,
)

# ---- setup -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds", "per_round", "replacement"),
    [(2, 10, 2, 10), (3, 9, 2, 12), (4, 8, 3, 6), (5, 8, 3, 6)],
)
def test_setup_counts(n: int, rounds: int, per_round: int, replacement: int) -> None:
    """Seed: Set up 3-9 and the round count (8 with 4-5, 9 with 3, 10 with 2 players)."""
    s = fresh(n)
    assert s.rounds == rounds
    assert len(s.replacement) == replacement
    assert len(s.row) == per_round
    # The building deck holds exactly the cards of the remaining rounds.
    assert len(s.bdeck) == (rounds - 1) * per_round
    assert len(s.bdeck) + len(s.row) + len(s.replacement) == 30
    assert len(s.nun_row) == 5
    assert all(len(p.pop) == 5 for p in s.players)
    assert all(p.rats == 10 for p in s.players)
    assert all(p.track == [0] * 6 for p in s.players)
    assert len(s.deck) == POPULATION_CARDS - 5 - 5 * n
    assert s.supply == SUPPLY_TOTALS
    assert s.start == 0 and s.round == 1 and s.phase == "supply"
    assert GAME.prompt(s).seat == 0


def test_population_cards_and_nuns() -> None:
    """Spec: Components — 84 cards, 14 per class; nuns 24x4, 12x3, 12x2, 12x1, 24x0."""
    assert len(CARD_NUNS) == 84
    counts = {v: CARD_NUNS.count(v) for v in range(5)}
    assert counts == {4: 24, 3: 12, 2: 12, 1: 12, 0: 24}
    assert len(NUNS_IN_CLASS) == 14


def test_player_count_checked() -> None:
    """Spec: 2-5 players."""
    with pytest.raises(SetupError):
        GAME.new_state(["A"], {}, 1)
    with pytest.raises(SetupError):
        GAME.new_state([*NAMES, "Fay"], {}, 1)
    with pytest.raises(SetupError):
        GAME.new_state(NAMES[:3], {"buildings": "nonsense"}, 1)


def _all_buildings(s: RattusState) -> list[int]:
    return s.bdeck + s.replacement + s.row


def test_recommended_set() -> None:
    """Seed: the recommended first set — 5x Farm, Marketplace, Monastery, Castle, Palace, Tent."""
    s = fresh(4)
    cards = _all_buildings(s)
    assert sorted(cards) == sorted(
        BUILDING_INDEX[k] * 5 + c for k in RECOMMENDED_SET for c in range(5)
    )
    assert s.buildings == list(RECOMMENDED_SET)


@pytest.mark.parametrize("seed", range(12))
def test_one_random_building_per_class(seed: int) -> None:
    """Seed: Choosing building cards — one random building per class, 5 copies of it."""
    s = fresh(4, seed, {"buildings": "random-building"})
    cards = _all_buildings(s)
    assert len(cards) == 30
    keys = [building_of(c).key for c in cards]
    assert len(set(keys)) == 6
    assert all(keys.count(k) == 5 for k in set(keys))
    assert sorted(BUILDINGS[BUILDING_INDEX[k]].cls for k in set(keys)) == sorted(
        {b.cls for b in BUILDINGS}
    )


@pytest.mark.parametrize("seed", range(12))
def test_five_random_cards_per_class(seed: int) -> None:
    """Seed: Choosing building cards — five random cards of each class's ten."""
    s = fresh(3, seed, {"buildings": "random-cards"})
    cards = _all_buildings(s)
    assert len(set(cards)) == 30
    by_class: dict[str, int] = {}
    for c in cards:
        by_class[building_of(c).cls] = by_class.get(building_of(c).cls, 0) + 1
    assert all(v == 5 for v in by_class.values()) and len(by_class) == 6


def test_random_sets_vary() -> None:
    """Seed: random methods really draw (different seeds give different sets)."""
    sets = {
        tuple(sorted(fresh(4, seed, {"buildings": "random-cards"}).buildings)) for seed in range(20)
    }
    assert len(sets) > 1


def test_building_set_chosen_by_the_players() -> None:
    """Seed: Choosing building cards — "This can either be decided upon collectively by the
    players": one building per class, 5 copies each (30 cards), given by name or key."""
    opts = GAME.check_options({"buildings": "Brewery,Office,hospital,Guard Tower,TREASURY,piper"})
    assert opts["buildings"] == "brewery,office,hospital,guard_tower,treasury,piper"
    s = GAME.new_state(NAMES[:2], opts, 5)
    assert s.buildings == ["brewery", "office", "hospital", "guard_tower", "treasury", "piper"]
    cards = _all_buildings(s)
    assert sorted(cards) == sorted(
        BUILDING_INDEX[k] * 5 + c for k in s.buildings for c in range(5)
    )  # the Guard Tower too: only random sets leave it out with 2 players
    assert "chosen by the players: Brewery, Office, Hospital" in GAME.rules_reference(opts)
    # Listed in another order, the set is stored in class order.
    again = GAME.check_options({"buildings": "piper,treasury,guard_tower,hospital,office,brewery"})
    assert again == opts


def test_building_set_choose_alone_takes_the_recommended_buildings() -> None:
    """CLI: --option buildings=choose without names picks the recommended building per class."""
    assert GAME.check_options({"buildings": "choose"})["buildings"] == ",".join(RECOMMENDED_SET)
    option = GAME.options[0]
    assert [default for _, _, default in option.picks] == list(RECOMMENDED_SET)
    assert [len(choices) for _, choices, _ in option.picks] == [2] * 6


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("Farm,Brewery,Office,Hospital,Castle,Palace,Piper", "Farm and Brewery are both"),
        ("Farm,Office,Hospital", "choose one building for Chivalry, Royalty, Magic"),
        ("Farm,Office,Hospital,Castle,Palace,Bakery", "unknown building 'Bakery'"),
    ],
)
def test_building_set_chosen_badly_says_what_is_wrong(value: str, problem: str) -> None:
    with pytest.raises(SetupError, match=problem):
        GAME.check_options({"buildings": value})


@pytest.mark.parametrize("method", ["random-building", "random-cards"])
def test_two_players_leave_out_guard_tower(method: str) -> None:
    """Spec [design]: with 2 players the Guard Tower is left out of random sets."""
    for seed in range(40):
        s = fresh(2, seed, {"buildings": method})
        assert "guard_tower" not in s.buildings
        assert all(building_of(c).key != "guard_tower" for c in _all_buildings(s))
    seen = set()
    for seed in range(40):
        seen.update(fresh(3, seed, {"buildings": method}).buildings)
    assert "guard_tower" in seen  # with 3+ players it can appear


def test_rat_tokens_decomposition() -> None:
    """Spec [design]: rats are a total; others see the fewest tokens of 5/3/1."""
    assert rat_tokens(10) == [5, 5]
    assert rat_tokens(7) == [5, 1, 1]
    assert rat_tokens(9) == [5, 3, 1]
    assert rat_tokens(0) == []
    assert len(rat_tokens(14)) == 4


# ---- phase A -----------------------------------------------------------------------------


def stack(s: RattusState, top: list[int], replacement: list[int]) -> None:
    """Put these cards on top of the building deck and make this the replacement deck."""
    others = [c for c in range(60) if c not in top + replacement]
    s.row = []
    s.bdeck = top + others[:4]
    s.replacement = list(replacement)
    s.bout = others[4 : 4 + 30 - len(s.bdeck) - len(s.replacement)]


def test_phase_a_reveals_in_row_order() -> None:
    """Seed: A — draw 3 (4-5 players) or 2 (2-3 players) building cards into a row."""
    s = fresh(4)
    stack(s, [card_of("farm"), card_of("castle"), card_of("palace")], [card_of("office")])
    GAME._begin_round(s, [])
    assert [building_of(c).key for c in s.row] == ["farm", "castle", "palace"]
    assert s.discs == [[], [], []]
    assert GAME.invariants(s) == []


def test_phase_a_all_the_same_replaced() -> None:
    """Seed: A — all the same: replace the last from the replacement deck, the replaced card
    going under that deck, repeating while the new card is the same too."""
    s = fresh(2)
    farm1, farm2, farm3 = card_of("farm", 0), card_of("farm", 1), card_of("farm", 2)
    castle, office = card_of("castle", 0), card_of("office", 0)
    stack(s, [farm1, farm2], [farm3, castle, office])
    ev: list = []
    GAME._begin_round(s, ev)
    assert s.row == [farm1, castle]
    # farm2 went under the replacement deck, then farm3 (drawn next) went under it too.
    assert s.replacement == [office, farm2, farm3]
    assert sum("replaced" in e.text for e in ev) == 2
    assert GAME.invariants(s) == []


def test_phase_a_three_buildings_two_same_kept() -> None:
    """Seed: A — only when ALL drawn cards show the same building is one replaced."""
    s = fresh(4)
    stack(s, [card_of("farm", 0), card_of("farm", 1), card_of("castle")], [card_of("office")])
    GAME._begin_round(s, [])
    assert [building_of(c).key for c in s.row] == ["farm", "farm", "castle"]
    stack(s, [card_of("farm", 0), card_of("farm", 1), card_of("farm", 2)], [card_of("office")])
    GAME._begin_round(s, [])
    assert [building_of(c).key for c in s.row] == ["farm", "farm", "office"]


# ---- phase B -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("copy", "hand", "rats", "looks"),
    [(0, 9, 10, 0), (1, 7, 10, 1), (2, 5, 8, 0), (3, 7, 9, 0), (4, 6, 9, 1)],
)
def test_phase_b_supplies(copy: int, hand: int, rats: int, looks: int) -> None:
    """Spec [design]: the 5 copies carry draw 4 · draw 2 + look · discard 2 rats ·
    draw 2 + discard 1 · draw 1 + discard 1 + look."""
    s = to_supply(fresh(2), ["farm", "castle"], [copy, 0])
    p = GAME.prompt(s)
    assert p.private and p.phase == "Supplies" and p.seat == 0
    play(s, "supply:1")
    assert len(s.players[0].pop) == hand
    assert s.players[0].rats == rats
    prompt = GAME.prompt(s)
    if looks:
        assert prompt.seat == 0 and prompt.ids() == [
            "look:1",
            "look:2",
            "look:3",
            "look:4",
            "look:5",
        ]
        ev = play(s, "look:3")
        assert s.players[0].seen == [2]
        assert ev[0].seat == 0 and ev[0].reveal
        assert "Nun-row card 3:" in ev[0].text and ev[0].public.endswith("Nun-row card 3")
    assert GAME.prompt(s).seat == 1


def test_phase_b_turn_order_from_start_player() -> None:
    """Seed: B — in turn order, starting with the current starting player."""
    s = to_supply(fresh(3), ["farm", "castle"], [2, 2], start=2)
    order = []
    while s.phase == "supply":
        p = GAME.prompt(s)
        order.append(p.seat)
        play(s, "supply:1")
    assert order == [2, 0, 1]


def test_phase_b_rats_never_negative() -> None:
    """Spec [design]: rats cannot go below 0."""
    s = to_supply(fresh(2), ["farm", "castle"], [2, 2])
    s.players[0].rats = 1
    play(s, "supply:2")
    assert s.players[0].rats == 0


def test_look_only_unseen_and_lost_when_all_seen() -> None:
    """Spec [design]: a look shows a card not seen yet; with all five seen it is lost."""
    s = to_supply(fresh(2), ["farm", "castle"], [1, 1])
    s.players[0].seen = [0, 2]
    play(s, "supply:1")
    assert GAME.prompt(s).ids() == ["look:2", "look:4", "look:5"]
    with pytest.raises(IllegalMove):
        GAME.apply(s, "look:1")
    play(s, "look:5")
    s2 = to_supply(fresh(2), ["farm", "castle"], [1, 1])
    s2.players[0].seen = [0, 1, 2, 3, 4]
    ev = play(s2, "supply:1")
    assert any("whole Nun-row" in t for t in texts(ev))
    assert GAME.prompt(s2).seat == 1


def test_phase_b_same_card_for_several_players() -> None:
    """Seed: B — each player chooses one of the building cards drawn (several may pick one)."""
    s = to_supply(fresh(2), ["farm", "castle"], [0, 0])
    play(s, "supply:1", "supply:1")
    assert len(s.players[0].pop) == 9 and len(s.players[1].pop) == 9
    assert s.phase == "enter"


# ---- phase C -----------------------------------------------------------------------------


def test_phase_c_turn_order_discs_and_face_down_count() -> None:
    """Seed: C — from the start player clockwise, a disc on the first free space, then
    any number of cards face down; the number is public."""
    s = to_enter(fresh(3), ["farm", "castle"], start=1)
    set_hand(s, 1, ["peasantry", "church"])
    set_hand(s, 2, ["chivalry"])
    set_hand(s, 0, ["magic"])
    p = GAME.prompt(s)
    assert p.seat == 1 and p.private and p.step == 0 and p.phase == "Enter buildings"
    ev = play(s, "enter:1")
    p = GAME.prompt(s)
    assert p.seat == 1 and p.step == 1 and p.private
    assert p.ids() == ["commit:peasantry", "commit:church", "done"]
    ev += play(s, "commit:church")
    assert GAME.prompt(s).step == 2
    ev += play(s, "done")
    assert s.players[1].committed() == 1 and s.players[1].entered == 0
    done = next(e for e in ev if "face down" in e.text)
    assert done.seat == 1 and "Church" in done.text and done.public is not None
    assert "Church" not in done.public
    assert "1 card face down" in done.public
    assert GAME.prompt(s).seat == 2
    enter(s, 1, "chivalry")
    assert s.discs[0] == [1, 2]  # Cy's disc on space 2
    assert GAME.prompt(s).seat == 0
    enter(s, 2)  # zero cards is allowed
    assert s.phase != "enter"


def test_phase_c_pass_enters_after_everyone() -> None:
    """Spec: Pass — instead of entering, enter after every other player (in pass order);
    the Pass goes back to its supply."""
    s = to_enter(fresh(3), ["farm", "castle"], start=0)
    set_hand(s, 0, ["pass", "pass"])
    set_hand(s, 1, ["pass"])
    set_hand(s, 2, [])
    supply = s.supply["pass"]
    assert "pass" in GAME.prompt(s).ids()
    play(s, "pass")
    assert s.players[0].passes == 1 and s.supply["pass"] == supply + 1
    assert GAME.prompt(s).seat == 1
    play(s, "pass")
    assert GAME.prompt(s).seat == 2
    ev = enter(s, 1)
    p = GAME.prompt(s)
    assert p.seat == 0  # passers in pass order
    assert "pass" not in p.ids()  # [design] one Pass per round
    ev += enter(s, 1)
    assert GAME.prompt(s).seat == 1
    ev += enter(s, 1)
    entries = [t for t in texts(ev) if " enters " in t]
    assert entries == [
        "Cy enters Farm [1] on space 1",
        "Ann enters Farm [1] on space 2",
        "Bob enters Farm [1] on space 3",
    ]


def test_pass_cannot_be_committed() -> None:
    """Spec: population cards, Jokers, Swords and Flutes may be committed (not Passes)."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, ["pass", "joker", "sword", "flute", "royalty"])
    play(s, "enter:1")
    assert GAME.prompt(s).ids() == [
        "commit:royalty",
        "commit:joker",
        "commit:sword",
        "commit:flute",
        "done",
    ]


def test_commit_asks_when_only_passes_held() -> None:
    """Hidden information: holding only Passes still asks (the table cannot tell)."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, ["pass"])
    play(s, "enter:1")
    p = GAME.prompt(s)
    assert p.seat == 0 and p.ids() == ["done"]


def test_commit_nothing_when_hand_empty() -> None:
    """Seed: C — the number of cards can be zero (no choice with an empty hand)."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, [])
    play(s, "enter:1")
    assert GAME.prompt(s).seat == 1


# ---- phase D -----------------------------------------------------------------------------


def test_phase_d_influence_rats_and_jokers() -> None:
    """Spec: D.a — +1 influence on the building's track per population card or Joker;
    +1 rat per population card of another class; Jokers never bring rats."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, ["peasantry", "peasantry", "church", "joker"])
    set_hand(s, 1, ["chivalry", "royalty"])
    enter(s, 1, "peasantry", "peasantry", "church", "joker")
    enter(s, 2, "chivalry", "royalty")
    a, b = s.players
    assert a.track == [4, 0, 0, 0, 0, 0]
    assert a.rats == 11
    assert b.track == [0, 0, 0, 2, 0, 0]
    assert b.rats == 11


def test_phase_d_row_order_and_disc_order() -> None:
    """Spec: D — buildings in row order; inside a building, players in disc order."""
    s = to_enter(fresh(3), ["castle", "farm"])
    for i in range(3):
        set_hand(s, i, ["peasantry"])
    enter(s, 2, "peasantry")
    enter(s, 1)
    ev = enter(s, 2, "peasantry")
    lines = texts(ev)
    reveal = [t for t in lines if "reveals" in t]
    assert reveal[0].startswith("Bob reveals in Castle [1]")
    assert reveal[1].startswith("Ann reveals in Farm [2]")
    assert reveal[2].startswith("Cy reveals in Farm [2]")


def test_premium_to_most_cards_tie_lowest_disc() -> None:
    """Spec: D.b — premium to the most population + Jokers; [design] tie: lowest disc."""
    s = to_enter(fresh(3), ["farm", "castle"])
    set_hand(s, 0, ["peasantry", "church"])
    set_hand(s, 1, ["peasantry", "joker"])
    set_hand(s, 2, ["sword", "flute", "pass"])
    enter(s, 1, "peasantry", "church")
    enter(s, 1, "peasantry", "joker")
    ev = enter(s, 2)
    assert any("Ann gets the premium action of Farm" in t for t in texts(ev))
    assert len(s.players[0].pop) == 4  # premium: draw 4
    assert len(s.players[1].pop) == 2  # standard: draw 2


def test_premium_to_strictly_most() -> None:
    """Spec: D.b — the player with the most population cards + Jokers gets the premium."""
    s = to_enter(fresh(3), ["farm", "castle"])
    set_hand(s, 0, ["peasantry"])
    set_hand(s, 1, ["peasantry", "joker"])
    set_hand(s, 2, [])
    enter(s, 1, "peasantry")
    enter(s, 1, "peasantry", "joker")
    enter(s, 2)
    assert len(s.players[0].pop) == 2 and len(s.players[1].pop) == 4


def test_no_premium_without_cards() -> None:
    """Spec [design]: the premium needs at least one population card or Joker."""
    s = to_enter(fresh(2), ["farm", "castle"])
    set_hand(s, 0, ["sword"])
    set_hand(s, 1, [])
    enter(s, 1, "sword")
    enter(s, 2)
    assert len(s.players[0].pop) == 2  # standard Farm
    assert s.players[1].swords == 1  # standard Castle (no premium either)


def test_played_cards_go_to_discard_and_supply() -> None:
    """Spec [design]: D.c — population cards to the discard pile, Jokers to their supply."""
    s = to_enter(fresh(2), ["monastery", "castle"])
    set_hand(s, 0, ["church", "church", "joker"])
    set_hand(s, 1, [])
    discard = len(s.discard)
    jokers = s.supply["joker"]
    enter(s, 1, "church", "church", "joker")
    enter(s, 2)
    assert len(s.discard) == discard + 2
    assert s.supply["joker"] == jokers + 1
    assert s.players[0].committed() == 0


# ---- phase E and the population deck -----------------------------------------------------


def test_phase_e_start_player_and_buildings() -> None:
    """Spec [design]: E — building cards discarded, discs return, start player card left."""
    s = to_enter(fresh(3), ["farm", "castle"], start=2)
    row = list(s.row)
    for _ in range(3):
        enter(s, 1)
    assert s.start == 0 and s.round == 2 and s.phase == "supply"
    assert s.bout[-2:] == row
    assert s.discs == [[], []]
    assert all(p.entered == -1 for p in s.players)
    assert GAME.prompt(s).seat == 0


def test_reshuffle_when_deck_empty() -> None:
    """Seed: whenever the population deck is depleted, the discard pile is shuffled into
    a new deck; [design] with both empty nothing more is drawn."""
    s = to_supply(fresh(2), ["farm", "castle"], [0, 0])
    s.discard.extend(s.deck[2:])
    del s.deck[2:]
    ev = play(s, "supply:1")
    assert len(s.players[0].pop) == 9
    assert any("shuffled" in t for t in texts(ev))
    s2 = to_supply(fresh(2), ["farm", "castle"], [0, 0])
    s2.players[1].pop.extend(s2.deck[1:])
    del s2.deck[1:]
    ev = play(s2, "supply:1")
    assert len(s2.players[0].pop) == 6
    assert any("no card" in t or "1 card" in t for t in texts(ev, 0))


def test_round_flow_to_end() -> None:
    """Spec: End — after the last round the game ends (Nun-row revealed)."""
    s = to_enter(fresh(2), ["farm", "castle"])
    s.round = s.rounds
    enter(s, 1)
    ev = enter(s, 2)
    assert GAME.prompt(s) is None and s.phase == "over"
    assert any("Nun-row is revealed" in t for t in texts(ev))
    assert GAME.invariants(s) == []


def test_hand_kinds_helper_roundtrip() -> None:
    """Helper sanity: set_hand deals exactly the kinds asked for."""
    s = fresh(2)
    set_hand(s, 0, ["church", "joker", "pass"])
    assert hand_kinds(s, 0) == ["church", "joker", "pass"]
    assert GAME.invariants(s) == []


def test_queue_task_dataclass_pickles() -> None:
    """Protocol: the state is plain data (clone = pickle round trip)."""
    s = fresh(2)
    s.pending.append(Task("look", 0, n=1))
    c = GAME.clone(s)
    assert c.pending[-1] == Task("look", 0, n=1)
    assert GAME.digest(c) == GAME.digest(s)


def test_set_row_helper() -> None:
    s = fresh(2)
    set_row(s, ["farm", "farm"])
    assert GAME.invariants(s) == []
