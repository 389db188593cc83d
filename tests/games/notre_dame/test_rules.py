"""Notre Dame: a test per rule of the spec (setup, draft, actions, messages, plague, scoring)."""

from __future__ import annotations

import pytest

from boardgames_tui.engine.core.protocol import Event, IllegalMove, SetupError
from boardgames_tui.engine.notre_dame import GAME
from boardgames_tui.engine.notre_dame import data as D
from boardgames_tui.engine.notre_dame.queries import count, may_take_message, park_bonus
from boardgames_tui.engine.notre_dame.state import (
    ACTIONS,
    DRAFT,
    HIRE,
    OVER,
    PLAGUE,
    NotreDameState,
)
from tests.games.notre_dame.support import (
    begin_with,
    code,
    empty_supply,
    ids,
    new,
    place,
    play,
    texts,
    to_actions,
    to_hire,
)

# ---------------------------------------------------------------- setup --------------------


def test_setup_components_per_player() -> None:
    """Spec: Setup — 4 markers in the personal supply, 10 in the general supply, 3 gold, rat
    on 0, carriage on the centre market place, 4 messages on the edge market places; the bank
    and the 25 gold coins are all the gold: the bank keeps 25 − 3 × players ([design])."""
    st = new(4)
    assert st.supply == [4] * 4
    assert st.general == [10] * 4
    assert st.gold == [3] * 4
    assert st.bank == D.GOLD_COINS - 12 == 13
    assert st.rat == [0] * 4
    assert st.friend == [D.PLAY_AREA] * 4
    for s in range(4):
        b = st.home[s]
        assert st.carriage[s] == b * 5  # the centre market place of the own borough
        edge = st.board_msg[b * 5 + 1 : b * 5 + 5]
        assert sorted(m // 4 for m in edge) == [s] * 4  # own colour on the 4 edges
        assert st.board_msg[b * 5] == -1  # no message on the centre
    assert GAME.invariants(st) == []


def test_setup_persons_and_start_player() -> None:
    """Spec: Setup — brown persons shuffled, gray stacked A on top, then B, then C; the start
    player takes the bell-ringer; phase 1 reveals 2 brown and 1 gray."""
    st = new(3)
    assert st.start == 0
    assert [D.PERSON_BY_KEY[k].deck for k in st.persons] == ["brown", "brown", "A"]
    letters = [D.PERSON_BY_KEY[k].deck for k in st.gray_deck]
    assert letters == ["C"] * 3 + ["B"] * 3 + ["A"] * 2  # top of the stack is the end
    assert len(st.brown_deck) == 4


def test_setup_two_players_four_borough_layout() -> None:
    """Spec: Setup — 2 players use the 4-borough layout, players opposite; the two empty
    boroughs hold the messages of two unused colours and no carriage."""
    st = new(2)
    assert st.boroughs == [0, -1, 1, -1]
    assert st.home == [0, 2]
    assert [D.COLOURS[c] for c in st.borough_colour] == ["red", "green", "blue", "yellow"]
    assert st.carriage == [0, 10]
    for b in (1, 3):
        colours = {st.board_msg[b * 5 + k] // 4 for k in range(1, 5)}
        assert colours == {st.borough_colour[b]}
    assert len(D.road_graph(4)) == 20
    assert GAME.invariants(st) == []


@pytest.mark.parametrize("n", [1, 6])
def test_player_count_limits(n: int) -> None:
    """Spec: Notre Dame is for 2-5 players."""
    with pytest.raises(SetupError):
        GAME.new_state([f"P{i}" for i in range(n)], {}, 1)


def test_options_rules_and_scores() -> None:
    """Spec: Seed and published rulebook — seed is the default; scores hidden by default."""
    assert GAME.check_options({}) == {"rules": "standard", "scores": "hidden"}
    # saves written before the rename keep their value (and so their digest)
    assert GAME.check_options({"rules": "seed"}) == {"rules": "seed", "scores": "hidden"}
    st = GAME.new_state(["A", "B"], {"rules": "published", "scores": "open"}, 3)
    assert st.published and st.open_scores
    with pytest.raises(SetupError):
        GAME.check_options({"rules": "house"})


def test_published_messages_carry_one_of_each_reward() -> None:
    """Spec: Messages [design] — each colour's 4 messages carry one of each reward (shuffled)."""
    st = new(5, rules="published", seed=7)
    for b in range(5):
        rewards = sorted(st.board_msg[b * 5 + k] % 4 for k in range(1, 5))
        assert rewards == [0, 1, 2, 3]


# ---------------------------------------------------------------- draft --------------------


def test_draft_three_players_keep_one_pass_two_left_then_one() -> None:
    """Spec: Draft — draw 3, keep 1, pass 2 left; keep 1 of the 2 received, pass 1 left; take
    the last card received."""
    st = new(3)
    first = [list(d) for d in st.drawn]
    for s in range(3):
        play(st, f"keep:{D.CARDS[first[s][0] % 9]}")
    assert st.draft_step == 1
    for s in range(3):
        assert st.drawn[s] == first[(s - 1) % 3][1:]
        play(st, f"keep:{D.CARDS[st.drawn[s][0] % 9]}")
    assert st.phase == ACTIONS
    for s in range(3):
        expected = [first[s][0], first[(s - 1) % 3][1], first[(s - 2) % 3][2]]
        assert st.hands[s] == expected
    assert GAME.invariants(st) == []


def test_draft_two_players_pass_two_opponent_returns_one() -> None:
    """Spec: Draft, 2 players — draw 3, pass 2 to the opponent, who returns 1 of them; each
    ends with 2 own cards + 1 of the opponent's."""
    st = new(2)
    first = [list(d) for d in st.drawn]
    play(st, f"keep:{D.CARDS[first[0][0] % 9]}", f"keep:{D.CARDS[first[1][0] % 9]}")
    assert GAME.prompt(st).text.endswith("return the other")
    play(st, f"keep:{D.CARDS[first[1][1] % 9]}", f"keep:{D.CARDS[first[0][1] % 9]}")
    for s in range(2):
        o = 1 - s
        assert st.hands[s] == [first[s][0], first[o][1], first[s][2]]
        assert sum(1 for c in st.hands[s] if c // 9 == s) == 2


def test_draft_decisions_private_in_seat_order_from_start_player() -> None:
    """Spec: Draft — a simultaneous hidden decision: each decides in seat order from the
    start player behind a hand-over screen (private prompts)."""
    st = new(3)
    begin_with(st, 1)
    seen = []
    while st.phase == DRAFT:
        p = GAME.prompt(st)
        assert p.private and p.phase == "Draft" and p.step == 0
        seen.append(p.seat)
        play(st, p.moves[0].id)
    assert seen == [1, 2, 0, 1, 2, 0]


def test_received_cards_not_seen_before_passing_own() -> None:
    """Spec: Draft — a player may not look at received cards before passing their own."""
    st = new(3)
    own_bob = [D.CARDS[c % 9] for c in st.drawn[1]]
    play(st, GAME.prompt(st).moves[0].id)  # Ann passes two cards to Bob
    assert st.incoming[1]
    p = GAME.prompt(st)
    assert p.seat == 1
    assert [m.id.split(":")[1] for m in p.moves] == own_bob
    assert GAME.view(st, 1)["you"]["choose"] == own_bob
    assert "incoming" not in str(GAME.view(st, 1))


def test_third_card_discarded_unplayed_and_unseen() -> None:
    """Spec: Actions — the third card is discarded unplayed and unseen."""
    st = to_actions(new(3), {0: ["residence", "bank", "park"]})
    play(st, "play:residence")
    _void_first(st)
    _void_first(st)
    play(st, "play:bank")  # Ann's second card: park is the unseen third
    assert st.hands[0] == []
    assert st.thirds[0] == [code(0, "park")]
    assert "park" not in GAME.view(st, 1)["players"][0]["played"]
    assert GAME.view(st, 0)["you"]["thirds"] == ["park"]
    assert "thirds" not in str(GAME.view(st, 1)["players"])


def _void_first(st: NotreDameState) -> list[Event]:  # the seat to move plays a card without effect
    p = GAME.prompt(st)
    return play(st, next(m.id for m in p.moves if m.id.startswith("void:")))


# ---------------------------------------------------------------- actions ------------------


def test_action_prompt_is_private_with_every_card_and_play_without_effect() -> None:
    """Spec: Actions — each plays one card; "play without effect" is always available."""
    st = to_actions(new(3), {0: ["bank", "notredame", "friend"]})
    st.gold[0] = 0
    empty_supply(st, 0)
    p = GAME.prompt(st)
    assert p.private and p.seat == 0 and p.phase == "Actions"
    assert set(p.ids()) == {"play:friend", "void:bank", "void:notredame", "void:friend"}


def test_cloister_school_takes_n_markers() -> None:
    """Spec: Actions — Cloister school: take n own markers from the general supply."""
    st = to_actions(new(3), {0: ["cloister", "bank", "park"]})
    place(st, 0, D.CLOISTER, 1)
    play(st, "play:cloister")
    assert st.sectors[0][D.CLOISTER] == 2
    assert st.supply[0] == 4 - 1 + 2
    assert st.general[0] == 10 - 1 - 2


def test_cloister_school_fewer_if_fewer_remain() -> None:
    """Spec: Actions — Cloister school takes fewer markers if fewer remain."""
    st = to_actions(new(3), {0: ["cloister", "bank", "park"]})
    place(st, 0, D.CLOISTER, 1)
    place(st, 0, D.BANK, 8)
    assert st.general[0] == 1
    play(st, "play:cloister")
    assert st.supply[0] == 4
    assert st.general[0] == 0


def test_bank_takes_n_gold() -> None:
    """Spec: Actions — Bank: take n gold."""
    st = to_actions(new(3), {0: ["bank", "park", "hotel"]})
    place(st, 0, D.BANK, 2)
    play(st, "play:bank")
    assert st.gold[0] == 3 + 3
    assert st.bank == 16 - 3


def test_bank_shortfall_richest_player_pays_first_clockwise_on_tie() -> None:
    """Spec: Bank — if the bank runs short, the missing coins come from the richest player.
    [design] ties: the first such player clockwise from the taker."""
    st = to_actions(new(3), {0: ["bank", "park", "hotel"]})
    place(st, 0, D.BANK, 2)
    st.bank, st.gold = 1, [0, 5, 5]
    events = play(st, "play:bank")
    assert st.gold == [3, 3, 5] and st.bank == 0
    assert "2 from Bob" in texts(events)


def test_bank_shortfall_richest_then_next_richest() -> None:
    """Spec: Bank — missing coins from the richest player; [design] if that player has too
    few, the next richest pays the rest; with no coins anywhere the gain is smaller."""
    st = to_actions(new(4), {0: ["bank", "park", "hotel"]})
    place(st, 0, D.BANK, 3)
    st.bank, st.gold = 0, [0, 1, 2, 0]
    play(st, "play:bank")
    assert st.gold == [3, 0, 0, 0]
    st2 = to_actions(new(3), {0: ["bank", "park", "hotel"]})
    st2.bank, st2.gold = 0, [7, 0, 0]
    play(st2, "play:bank")
    assert st2.gold == [7, 0, 0]


def test_residence_gains_n_prestige() -> None:
    """Spec: Actions — Residence: gain n prestige."""
    st = to_actions(new(3), {0: ["residence", "park", "hotel"]})
    place(st, 0, D.RESIDENCE, 2)
    play(st, "play:residence")
    assert st.prestige[0] == 3
    assert st.sources[0] == {"residence": 3}


def test_carriage_house_moves_up_to_n_steps() -> None:
    """Spec: Carriage house — up to n market-place steps along roads, across boroughs; it may
    stop early ([design] also stay) and share a market place."""
    st = to_actions(new(3), {0: ["carriage", "park", "hotel"]})
    place(st, 0, D.CARRIAGE, 1)  # n = 2
    play(st, "play:carriage")
    p = GAME.prompt(st)
    assert p.step == 1
    reach = p.ids()
    assert "to:b0c" in reach  # stay
    assert "to:b1o1" in reach and "to:b2o4" in reach  # neighbours' nearest edges: 1 step
    assert "to:b1c" in reach  # 2 steps
    assert "to:b1o3" not in reach  # 3 steps
    play(st, "to:b1c")
    assert st.carriage[0] == 5 == st.carriage[1]  # shares Bob's centre
    assert GAME.prompt(st).seat == 1


def test_road_graph_design() -> None:
    """Spec: Messages and carriage [design] — C joins O1-O4, edges ring, O4(i)-O1(i+1),
    C(i)-O1(i+1), C(i)-O4(i-1); the rulebook's example reaches a neighbour's message in one
    step from the centre."""
    adj = D.road_graph(4)
    assert set(adj[0]) == {1, 2, 3, 4, 6, 19}
    assert set(adj[4]) == {0, 1, 3, 5, 6}  # O4 also meets the next borough's C
    dist = D.road_distances(4)
    assert dist[0][6] == 1 and dist[0][19] == 1
    assert dist[0][10] == 3  # the opposite centre: C0-O1(1)-O4(1)-C2


def test_carriage_message_seed_rules_player_chooses_reward() -> None:
    """Spec: Seed — the player taking a message chooses one of the four rewards; (c) 3
    prestige + rat back 1."""
    st = to_actions(new(3), {0: ["carriage", "park", "hotel"]})
    st.rat[0] = 2
    play(st, "play:carriage", "to:b1o1")
    p = GAME.prompt(st)
    assert p.ids() == ["take:a", "take:b", "take:c", "take:d"]  # no "leave": the seed's "takes"
    assert p.step == 2
    play(st, "take:c")
    assert st.prestige[0] == 3 and st.rat[0] == 1
    assert st.msgs[0][1] == 1 and st.board_msg[6] == -1


@pytest.mark.parametrize(
    ("reward", "prestige", "gold", "supply", "rat"),
    [("a", 1, 4, 4, 2), ("b", 2, 3, 5, 2), ("c", 3, 3, 4, 1), ("d", 4, 3, 4, 2)],
)
def test_message_rewards(reward: str, prestige: int, gold: int, supply: int, rat: int) -> None:
    """Spec: Messages — (a) 1 prestige + 1 gold, (b) 2 prestige + 1 marker from the general
    supply, (c) 3 prestige + rat back 1, (d) 4 prestige."""
    st = to_actions(new(3), {0: ["carriage", "park", "hotel"]})
    st.rat[0] = 2
    play(st, "play:carriage", "to:b0o2", f"take:{reward}")
    assert (st.prestige[0], st.gold[0], st.supply[0] + 1, st.rat[0]) == (
        prestige,
        gold,
        supply,
        rat,
    )


def test_carriage_message_published_rules_fixed_reward() -> None:
    """Spec: Published — each message shows a fixed reward."""
    st = to_actions(new(3, rules="published"), {0: ["carriage", "park", "hotel"]})
    reward = D.REWARDS[st.board_msg[6] % 4]
    play(st, "play:carriage", "to:b1o1")
    assert ids(st) == ["take", "leave"]
    play(st, "take")
    assert st.prestige[0] == reward.prestige


def test_message_seed_rules_the_player_takes_it() -> None:
    """Seed: "If the carriage stops on a message, the player takes the token and chooses one of
    four prestige/benefit options": there is no leaving it (the carriage may stop elsewhere)."""
    st = to_actions(new(3), {0: ["carriage", "park", "hotel"]})
    play(st, "play:carriage")
    assert "may take" not in " ".join(m.preview for m in GAME.prompt(st).moves)
    play(st, "to:b1o1")
    assert "leave" not in ids(st) and GAME.prompt(st).text.endswith("choose your reward")
    play(st, "take:d")
    assert st.board_msg[6] == -1 and st.msgs[0][1] == 1 and st.prestige[0] == 4


def test_message_may_be_left_with_the_published_rules() -> None:
    """Spec: Carriage house (published rulebook) — taking the message is optional."""
    st = to_actions(new(3, rules="published"), {0: ["carriage", "park", "hotel"]})
    play(st, "play:carriage", "to:b1o1", "leave")
    assert st.board_msg[6] >= 0 and sum(st.msgs[0]) == 0


def test_message_set_rule() -> None:
    """Spec: Set rule — no second message of any colour until the player holds one of every
    colour in play; a colour with no message left on the board no longer counts."""
    st = to_actions(new(3), {0: ["carriage", "park", "hotel"]})
    st.board_msg[6] = -1  # Ann holds a blue message (from b1o1)
    st.msgs[0][1] = 1
    assert not may_take_message(st, 0, 1)
    assert may_take_message(st, 0, 0) and may_take_message(st, 0, 2)
    place(st, 0, D.CARRIAGE, 2)
    events = play(st, "play:carriage", "to:b1o2")
    assert "set rule" in texts(events)
    assert GAME.prompt(st).seat == 1  # no message prompt
    # one of every colour: a second blue is allowed
    st.msgs[0] = [1, 1, 1, 0, 0]
    for node in (1, 11):
        st.board_msg[node] = -1
    assert may_take_message(st, 0, 1)
    # green gone from the board: it no longer counts
    st.msgs[0] = [1, 1, 0, 0, 0]
    for k in range(11, 15):
        st.board_msg[k] = -1
    st.msgs[1][2] = 3
    assert may_take_message(st, 0, 1)


def test_carriage_preview_says_set_rule() -> None:
    """UX: the carriage options say whether the message there may be taken."""
    st = to_actions(new(3), {0: ["carriage", "park", "hotel"]})
    st.board_msg[6] = -1
    st.msgs[0][1] = 1
    place(st, 0, D.CARRIAGE, 1)
    play(st, "play:carriage")
    previews = {m.id: m.preview for m in GAME.prompt(st).moves}
    assert "set rule" in previews["to:b1o2"]
    assert previews["to:b0o1"].endswith("; take the message")


@pytest.mark.parametrize(
    ("rules", "before", "bonuses"),
    [("seed", 2, 1), ("seed", 3, 2), ("published", 1, 1), ("published", 2, 2)],
)
def test_hotel_thresholds(rules: str, before: int, bonuses: int) -> None:
    """Spec: Hotel — seed: 1-3 markers one bonus, 4+ two; published: 1-2 one, 3+ two."""
    st = to_actions(new(3, rules=rules), {0: ["hotel", "park", "bank"]})
    place(st, 0, D.HOTEL, before)
    play(st, "play:hotel")
    for i in range(bonuses):
        p = GAME.prompt(st)
        assert p.seat == 0 and p.step == i + 1
        assert p.ids() == ["bonus:gold", "bonus:marker", "bonus:rat"]
        play(st, "bonus:gold")
    assert st.gold[0] == 3 + bonuses
    assert GAME.prompt(st).seat == 1


def test_hotel_same_bonus_twice_and_each_kind() -> None:
    """Spec: Hotel — two bonuses, the same twice allowed: 1 gold, 1 own marker from the
    general supply, rat back 1."""
    st = to_actions(new(3), {0: ["hotel", "park", "bank"]})
    place(st, 0, D.HOTEL, 3)
    st.rat[0] = 3
    play(st, "play:hotel", "bonus:rat", "bonus:rat")
    assert st.rat[0] == 1
    st2 = to_actions(new(3), {0: ["hotel", "park", "bank"]})
    place(st2, 0, D.HOTEL, 3)
    play(st2, "play:hotel", "bonus:marker", "bonus:gold")
    assert st2.supply[0] == 4 - 1 + 1 and st2.gold[0] == 4


def test_park_rat_back_and_passive_bonus() -> None:
    """Spec: Park — rat back 1; passive +1 prestige per two park markers (friend included)."""
    st = to_actions(new(3), {0: ["park", "residence", "hotel"]})
    st.rat[0] = 3
    place(st, 0, D.PARK, 1)
    play(st, "play:park")
    assert st.rat[0] == 2 and park_bonus(st, 0) == 1
    st.friend[0] = D.PARK
    assert park_bonus(st, 0) == 1
    place(st, 0, D.PARK, 1)
    assert park_bonus(st, 0) == 2


def test_rat_never_below_zero() -> None:
    """Spec: Hospital / Park — rat back 1, never below 0."""
    st = to_actions(new(3), {0: ["hospital", "residence", "hotel"]})
    play(st, "play:hospital")
    assert st.rat[0] == 0


def test_hospital_rat_back_and_counts_for_plague() -> None:
    """Spec: Hospital — rat back 1; passive: reduces plague movement."""
    st = to_actions(new(3), {0: ["hospital", "residence", "hotel"]})
    st.rat[0] = 2
    play(st, "play:hospital")
    assert st.rat[0] == 1 and count(st, 0, D.HOSPITAL) == 1


@pytest.mark.parametrize(("gold", "prestige"), [(1, 1), (2, 3), (3, 6)])
def test_notre_dame_donation(gold: int, prestige: int) -> None:
    """Spec: Notre Dame — place 1 marker and donate 1-3 gold: 1 → 1, 2 → 3, 3 → 6 prestige.
    [design] donations go back to the bank."""
    st = to_actions(new(3), {0: ["notredame", "park", "hotel"]})
    play(st, "play:notredame")
    p = GAME.prompt(st)
    assert p.ids() == ["donate:1", "donate:2", "donate:3"] and p.step == 1
    play(st, f"donate:{gold}")
    assert st.prestige[0] == prestige and st.gold[0] == 3 - gold
    assert st.bank == 16 + gold and st.nd[0] == 1 and st.supply[0] == 3


def test_notre_dame_no_donation_no_marker() -> None:
    """Spec: Notre Dame — no donation, no marker: without gold only "without effect"."""
    st = to_actions(new(3), {0: ["notredame", "park", "hotel"]})
    st.gold[0] = 0
    assert "play:notredame" not in ids(st) and "void:notredame" in ids(st)
    st.gold[0] = 2
    play(st, "play:notredame")
    assert ids(st) == ["donate:1", "donate:2"]


def test_trusted_friend_first_placement_executes_sector_with_friend_counting() -> None:
    """Spec: Trusted friend — no new marker; put the friend into a sector and execute that
    sector's action as if a marker had been placed (the friend counts in n)."""
    st = to_actions(new(3), {0: ["friend", "park", "hotel"]})
    place(st, 0, D.RESIDENCE, 2)
    play(st, "play:friend")
    p = GAME.prompt(st)
    assert len(p.ids()) == 8 and "friend:notredame" in p.ids()
    play(st, "friend:residence")
    assert st.friend[0] == D.RESIDENCE and st.prestige[0] == 3 and st.supply[0] == 4


def test_trusted_friend_must_move_to_a_different_sector() -> None:
    """Spec: Trusted friend — afterwards move it to a different sector."""
    st = to_actions(new(3), {0: ["friend", "park", "hotel"]})
    st.friend[0] = D.BANK
    play(st, "play:friend")
    assert "friend:bank" not in ids(st)
    play(st, "friend:cloister")
    assert st.friend[0] == D.CLOISTER and st.supply[0] == 5 and st.general[0] == 9


def test_trusted_friend_into_notre_dame_seed_rules() -> None:
    """Spec: Seed — the friend may go to Notre Dame (with a donation) and counts as a marker."""
    st = to_actions(new(3), {0: ["friend", "park", "hotel"]})
    play(st, "play:friend", "friend:notredame", "donate:2")
    assert st.friend[0] == D.NOTRE_DAME and st.nd[0] == 0
    assert count(st, 0, D.NOTRE_DAME) == 1 and st.prestige[0] == 3 and st.gold[0] == 1


def test_trusted_friend_published_rules_borough_sectors_only() -> None:
    """Spec: Published — the friend goes to one of the 7 borough sectors only."""
    st = to_actions(new(3, rules="published"), {0: ["friend", "park", "hotel"]})
    play(st, "play:friend")
    assert ids(st) == [f"friend:{k}" for k in D.SECTORS]


def test_trusted_friend_to_notre_dame_needs_gold() -> None:
    """[design] The friend may enter Notre Dame only with a donation: no gold, no option."""
    st = to_actions(new(3), {0: ["friend", "park", "hotel"]})
    st.gold[0] = 0
    play(st, "play:friend")
    assert "friend:notredame" not in ids(st)


def test_empty_supply_moves_marker_from_any_sector_or_notre_dame_never_friend() -> None:
    """Spec: Empty personal supply — move one of the player's markers (never the friend) from
    any sector or Notre Dame into the target sector."""
    st = to_actions(new(3), {0: ["residence", "park", "hotel"]})
    empty_supply(st, 0)
    place(st, 0, D.BANK, 1)
    place(st, 0, D.NOTRE_DAME, 1)
    place(st, 0, D.RESIDENCE, 1)
    st.friend[0] = D.PARK
    play(st, "play:residence")
    p = GAME.prompt(st)
    assert p.ids() == ["from:bank", "from:notredame"] and p.step == 1
    play(st, "from:notredame")
    assert st.nd[0] == 0 and st.sectors[0][D.RESIDENCE] == 2 and st.prestige[0] == 2
    assert GAME.invariants(st) == []


def test_empty_supply_without_markers_only_play_without_effect() -> None:
    """Spec: Empty personal supply — otherwise the card is played without effect."""
    st = to_actions(new(3), {0: ["residence", "bank", "friend"]})
    empty_supply(st, 0)
    place(st, 0, D.RESIDENCE, 1)
    assert "play:residence" not in ids(st)  # the only marker is in the target itself
    assert "play:bank" in ids(st)
    play(st, "void:residence")
    assert st.sectors[0][D.RESIDENCE] == 1 and st.prestige[0] == 0


def test_empty_supply_notre_dame_moves_marker_then_donation() -> None:
    """Spec: Empty supply + Notre Dame — a marker moves in from a sector, with a donation."""
    st = to_actions(new(3), {0: ["notredame", "park", "hotel"]})
    empty_supply(st, 0)
    place(st, 0, D.BANK, 2)
    play(st, "play:notredame")
    assert ids(st) == ["from:bank"]
    play(st, "from:bank")
    assert GAME.prompt(st).step == 2
    play(st, "donate:1")
    assert st.sectors[0][D.BANK] == 1 and st.nd[0] == 1 and st.prestige[0] == 1


def test_play_without_effect_changes_nothing_but_the_card() -> None:
    """Spec: Actions — a player may always play a card without effect."""
    st = to_actions(new(3), {0: ["residence", "park", "hotel"]})
    before = (list(st.supply), list(st.prestige), [list(x) for x in st.sectors])
    play(st, "void:residence")
    assert (st.supply, st.prestige, st.sectors) == before
    assert st.played[0] == [code(0, "residence")]


def test_two_laps_then_hire() -> None:
    """Spec: Actions — from the start player clockwise one card each, then a second lap."""
    st = to_actions(new(3))
    begin_with(st, 2)
    order = []
    while st.phase == ACTIONS:
        p = GAME.prompt(st)
        order.append(p.seat)
        play(st, next(m.id for m in p.moves if m.id.startswith("void:")))
    assert order == [2, 0, 1, 2, 0, 1]
    assert st.phase == HIRE and GAME.prompt(st).seat == 2


def test_illegal_move_rejected_state_unchanged() -> None:
    """Protocol: a move not in the legal list raises IllegalMove, the state is untouched."""
    st = to_actions(new(3), {0: ["residence", "park", "hotel"]})
    digest = GAME.digest(st)
    for bad in ("play:bank", "keep:park", "donate:3", "pass", "play:residence:x"):
        with pytest.raises(IllegalMove):
            GAME.apply(st, bad)
    assert GAME.digest(st) == digest


# ---------------------------------------------------------------- park bonus ---------------


def test_park_bonus_on_every_other_prestige_gain() -> None:
    """Spec: Park — each time the player gains prestige from any other source, +1 per two
    park markers (rounded down, friend included). Example: 3 park markers + the friend = +2:
    Residence with 3 markers gives 3 + 2 = 5; a donation of 2 gives 3 + 2 = 5."""
    st = to_actions(new(3), {0: ["residence", "notredame", "hotel"]})
    place(st, 0, D.PARK, 3)
    st.friend[0] = D.PARK
    place(st, 0, D.RESIDENCE, 2)
    play(st, "play:residence")
    assert st.prestige[0] == 5
    for _ in range(2):
        _void_first(st)
    play(st, "play:notredame", "donate:2")
    assert st.prestige[0] == 10
    assert st.sources[0] == {"residence": 3, "donation": 3, "park": 4}


def test_park_bonus_not_on_zero_gain() -> None:
    """Spec: Park — a gain of 0 earns no bonus (Advocate with fewer than 2 messages)."""
    st = to_hire(new(3), ["monk", "fool", "advocate"])
    place(st, 0, D.PARK, 4)
    play(st, "hire:advocate")
    assert st.prestige[0] == 0


def test_park_bonus_on_person_and_message_gains() -> None:
    """Spec: Park — the bonus applies to persons and messages too (2 park markers: +1)."""
    st = to_hire(new(3), ["monk", "fool", "cityguard"])
    place(st, 0, D.PARK, 2)
    play(st, "hire:monk")
    assert st.prestige[0] == 1 + 1
    st2 = to_actions(new(3), {0: ["carriage", "park", "hotel"]})
    place(st2, 0, D.PARK, 2)
    play(st2, "play:carriage", "to:b0o1", "take:d")
    assert st2.prestige[0] == 4 + 1


# ---------------------------------------------------------------- Notre Dame scoring -------


def _finish_round(st: NotreDameState) -> list[Event]:
    """Play the rest of the round passing/without effect (cheapest moves)."""
    events = []
    start_round = st.round
    while st.round == start_round and st.phase != OVER:
        p = GAME.prompt(st)
        choice = next(
            (m.id for m in p.moves if m.id == "pass" or m.id.startswith("void:")), p.moves[0].id
        )
        events += play(st, choice)
    return events


def test_notre_dame_scoring_worked_example_four_players() -> None:
    """Spec: Notre Dame scoring — 4 players, pool 10; Ann 2 markers, Bob 1 + his friend (seed
    rules), Cy 1: 5 markers → 10 ÷ 5 = 2 per marker: Ann +4, Bob +4, Cy +2; markers back to the
    general supply, the friend back to Bob's play area."""
    st = new(4)
    st.round = 3
    to_hire(st, ["minstrel", "monk", "cityguard"])
    place(st, 0, D.NOTRE_DAME, 2)
    place(st, 1, D.NOTRE_DAME, 1)
    st.friend[1] = D.NOTRE_DAME
    place(st, 2, D.NOTRE_DAME, 1)
    events = _finish_round(st)
    assert "10 prestige ÷ 5 markers = 2 per marker" in texts(events)
    assert st.prestige[:4] == [4, 4, 2, 0]
    assert st.nd == [0, 0, 0, 0] and st.friend[1] == D.PLAY_AREA
    assert st.general[:3] == [10, 10, 10]
    assert st.sources[1] == {"notredame": 4}


@pytest.mark.parametrize(
    ("n", "markers", "share"),
    [(2, [2, 1], 2), (2, [4, 3], 0), (3, [3, 2], 1), (3, [2, 2], 2), (5, [2, 2, 1], 2)],
)
def test_notre_dame_pool_by_player_count(n: int, markers: list[int], share: int) -> None:
    """Spec: Notre Dame scoring — pool 2:6, 3:8, 4:10, 5:12 ÷ total markers, rounded down."""
    st = new(n)
    for s, k in enumerate(markers):
        place(st, s, D.NOTRE_DAME, k)
    GAME._score_notre_dame(st, [])
    assert st.prestige[: len(markers)] == [share * k for k in markers]
    assert D.ND_POOL == {2: 6, 3: 8, 4: 10, 5: 12}


def test_notre_dame_scoring_park_bonus_once_and_not_on_zero() -> None:
    """Spec: Notre Dame scoring — paid per marker with the park bonus ([design] once per
    payout); a payout of 0 earns no bonus."""
    st = new(2)
    place(st, 0, D.NOTRE_DAME, 2)
    place(st, 0, D.PARK, 2)
    GAME._score_notre_dame(st, [])
    assert st.prestige[0] == 6 + 1  # 6 ÷ 2 = 3 per marker × 2, +1 park
    st2 = new(2)
    place(st2, 0, D.NOTRE_DAME, 4)
    place(st2, 1, D.NOTRE_DAME, 3)
    place(st2, 0, D.PARK, 2)
    GAME._score_notre_dame(st2, [])
    assert st2.prestige == [0, 0]


def test_notre_dame_scored_only_after_rounds_3_6_9() -> None:
    """Spec: End of rounds 3, 6, 9: score Notre Dame (not after other rounds)."""
    st = new(3)
    place(st, 0, D.NOTRE_DAME, 1)
    _finish_round(st)
    assert st.round == 2 and st.nd[0] == 1 and st.prestige[0] == 0
    st.round = 3
    _finish_round(st)
    assert st.round == 4 and st.nd[0] == 0 and st.prestige[0] == 8


# ---------------------------------------------------------------- plague -------------------


def _plague_state(
    n: int = 3, persons: tuple[str, ...] = ("hostess", "moneylender", "bishop")
) -> NotreDameState:
    st = to_hire(new(n), list(persons))  # 2 + 3 + 1 = plague value 6
    return st


def _rat_at(rat: int, prestige: int) -> NotreDameState:
    """A plague state where seat 0's rat stands on `rat`, with `prestige` (from the residence)."""
    st = _plague_state()
    st.rat[0] = rat
    st.prestige[0] = prestige
    st.sources[0] = {"residence": prestige}
    return st


def test_plague_value_is_sum_of_rats_minus_hospital() -> None:
    """Spec: Plague — each rat moves forward by plague value − hospital markers (friend
    included)."""
    st = _plague_state()
    place(st, 1, D.HOSPITAL, 2)
    st.friend[1] = D.HOSPITAL
    _finish_round(st)
    assert st.rat == [6, 3, 6]


def test_plague_negative_moves_back_not_below_zero() -> None:
    """Spec: Plague — a negative result moves the rat back, never below 0."""
    st = _plague_state(persons=("minstrel", "monk", "bishop"))  # value 2
    place(st, 0, D.HOSPITAL, 3)
    place(st, 1, D.HOSPITAL, 5)
    st.rat[:2] = [4, 1]
    _finish_round(st)
    assert st.rat[:2] == [3, 0]


def test_overflow_stops_on_nine_returns_two_prestige_removes_marker() -> None:
    """Spec: Overflow — rat stops on 9, the player returns 2 prestige and removes 1 marker
    from the sector with the most markers to the general supply. Example: rat 7 + plague 6 →
    9; prestige 5 → 3; Bank 3 markers → 2."""
    st = _rat_at(7, prestige=5)
    place(st, 0, D.BANK, 3)
    place(st, 0, D.HOTEL, 1)
    general = st.general[0]
    events = _finish_round(st)
    assert st.rat[0] == 9 and st.prestige[0] == 3
    assert st.sectors[0][D.BANK] == 2 and st.general[0] == general + 1
    assert "overflow" in texts(events)
    assert st.sources[0]["plague"] == -2


def test_overflow_prestige_not_below_zero() -> None:
    """Spec: Overflow — return 2 prestige, not below 0."""
    st = _rat_at(9, prestige=1)
    _finish_round(st)
    assert st.prestige[0] == 0 and st.rat[0] == 9


def test_overflow_friend_counts_for_most_but_is_never_removed() -> None:
    """Spec: Overflow — the friend counts for "most" but is never removed."""
    st = _plague_state()
    st.rat[0] = 8
    place(st, 0, D.HOTEL, 2)
    st.friend[0] = D.HOTEL  # hotel 3 pieces
    place(st, 0, D.BANK, 2)
    _finish_round(st)
    assert st.sectors[0][D.HOTEL] == 1 and st.friend[0] == D.HOTEL
    assert st.sectors[0][D.BANK] == 2


def test_overflow_friend_alone_nothing_removed() -> None:
    """[design] Overflow — when the fullest sector holds only the friend, nothing is removed."""
    st = _plague_state()
    st.rat[0] = 8
    st.friend[0] = D.HOTEL
    events = _finish_round(st)
    assert st.friend[0] == D.HOTEL and "no marker to remove" in texts(events)


def test_overflow_tie_player_picks() -> None:
    """Spec: Overflow — the player picks on a tie (a prompt in the plague phase)."""
    st = _plague_state()
    st.rat[1] = 8
    place(st, 1, D.BANK, 2)
    place(st, 1, D.PARK, 2)
    place(st, 1, D.HOTEL, 1)
    for _ in range(3):
        play(st, "pass")
    assert st.phase == PLAGUE
    p = GAME.prompt(st)
    assert p.seat == 1 and p.phase == "Plague"
    assert p.ids() == ["remove:bank", "remove:park"]
    play(st, "remove:park")
    assert st.sectors[1][D.PARK] == 1 and st.sectors[1][D.BANK] == 2
    assert st.phase == DRAFT and st.round == 2


def test_overflow_every_round_it_occurs() -> None:
    """Spec: Overflow — this happens every round it occurs (rat already on 9)."""
    st = _rat_at(9, prestige=6)
    _finish_round(st)
    assert st.prestige[0] == 4
    st.persons = ["moneylender", "doctor", "nightwatchman"]
    _finish_round(st)
    assert st.prestige[0] == 2


def test_rat_reaching_exactly_nine_is_no_overflow() -> None:
    """Spec: Overflow — only a rat that would pass 9 overflows."""
    st = _rat_at(3, prestige=5)
    _finish_round(st)
    assert st.rat[0] == 9 and st.prestige[0] == 5


# ---------------------------------------------------------------- rounds and the end -------


def test_bell_ringer_passes_left_and_persons_return() -> None:
    """Spec: End of round — persons go back, the bell-ringer passes left."""
    st = new(3)
    _finish_round(st)
    assert st.start == 1 and st.round == 2
    assert len(st.persons) == 3 and GAME.prompt(st).seat == 1


def test_period_end_cards_back_and_brown_reshuffled() -> None:
    """Spec: End of rounds 3, 6, 9 — brown persons reshuffled; every player takes back their
    9 action cards and reshuffles them."""
    st = new(3)
    for _ in range(3):
        _finish_round(st)
    assert st.round == 4
    assert all(len(d) == 6 and len(x) == 3 for d, x in zip(st.decks, st.drawn, strict=True))
    assert st.thirds == [[], [], []] and st.discard == []
    assert len(st.brown_deck) == 4
    assert D.PERSON_BY_KEY[st.persons[2]].deck == "B"
    assert GAME.invariants(st) == []


def test_game_ends_after_round_nine() -> None:
    """Spec: End — after round 9 and the last Notre Dame scoring the game is over."""
    st = new(2)
    rounds = 0
    while st.phase != OVER:
        _finish_round(st)
        rounds += 1
    assert rounds == 9 and GAME.prompt(st) is None and st.round == 9


def test_winner_most_prestige_then_gold_plus_supply_then_shared() -> None:
    """Spec: End — most prestige wins; tie: most gold + personal supply markers; still tied:
    shared win [design]."""
    st = new(3)
    st.phase = OVER
    st.prestige = [10, 12, 12]
    for s in range(3):
        st.sources[s] = {"residence": st.prestige[s]}
    st.gold, st.supply = [9, 2, 1], [0, 1, 3]
    res = GAME.result(st)
    assert res.winners == [2]
    assert [line.rank for line in res.lines] == [3, 2, 1]
    assert "tie-break" in res.summary
    st.supply = [0, 2, 3]
    st.gold = [9, 2, 1]
    res = GAME.result(st)
    assert res.winners == [1, 2] and "share" in res.summary


def test_result_breakdown_sums_to_prestige() -> None:
    """Result: the breakdown says where every point came from."""
    st = new(3)
    st.prestige[0] = 9
    st.sources[0] = {"residence": 6, "park": 2, "persons": 3, "plague": -2}
    line = GAME.result(st).lines[0]
    assert sum(v for _, v in line.breakdown if isinstance(v, float)) == 9


# ---------------------------------------------------------------- reference ----------------


def test_rules_reference_lists_every_table_rule_and_rule_set() -> None:
    """Brief: the rules reference has a section listing every [design] value."""
    text = GAME.rules_reference({})
    assert "## Table rules of this edition" in text
    for source, title, rule in D.TABLE_RULES:
        assert f"- *({source})* **{title}**: {rule}" in text
    assert {source for source, _, _ in D.TABLE_RULES} == {D.SEED, D.PUBLISHED, D.EDITION}
    for p in D.PERSONS:
        assert p.name in text
    assert "standard rules of this edition" in text and "4 or more: two" in text
    # one name for the default rule set everywhere (the option's value, the setup's label)
    assert "| rule | standard (default) | published 2007 rulebook |" in text
    assert "seed (default)" not in text and "seed rules" not in text
    assert dict(GAME.options[0].choices)["standard"].startswith("standard")
    pub = GAME.rules_reference({"rules": "published"})
    assert "published 2007 rulebook" in pub and "the 7 borough sectors" in pub
