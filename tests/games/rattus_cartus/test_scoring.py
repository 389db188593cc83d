"""Rattus Cartus: the end — Nun-row against rats, track payouts, tokens, majorities, ties."""

from __future__ import annotations

from boardgames_tui.engine.rattus_cartus.scoring import compute, shared_places
from boardgames_tui.engine.rattus_cartus.state import RattusState
from tests.games.rattus_cartus.support import GAME, fresh, set_hand, set_nun_row


def ended(n: int, nuns: list[int] | None = None) -> RattusState:
    """A finished game with empty hands, no influence, 0 rats and the given Nun-row."""
    s = fresh(n)
    s.phase = "over"
    s.pending = []
    s.round = s.rounds
    for i in range(n):
        set_hand(s, i, [])
        s.players[i].rats = 0
    set_nun_row(s, nuns or [2, 2, 2, 2, 2])
    assert GAME.invariants(s) == []
    return s


def points(s: RattusState, seat: int, label: str) -> float:
    line = next(ln for ln in GAME.result(s).lines if ln.seat == seat)
    return sum(v for k, v in line.breakdown if label in k and isinstance(v, int))


def totals(s: RattusState) -> list[float]:
    res = GAME.result(s)
    return [next(ln.score for ln in res.lines if ln.seat == i) for i in range(len(s.players))]


def test_track_payout_10_5_2() -> None:
    """Spec: End — each track pays 10 / 5 / 2 to its 1st / 2nd / 3rd."""
    s = ended(4)
    for seat, v in enumerate([5, 3, 1, 0]):
        s.players[seat].track[0] = v
    assert totals(s) == [10, 5, 2, 0]
    assert points(s, 0, "Peasantry track (1st") == 10


def test_track_start_space_scores_nothing() -> None:
    """Spec [design]: players still on a track's start space score nothing there."""
    s = ended(3)
    s.players[1].track[2] = 1
    assert totals(s) == [0, 10, 0]


def test_track_ties_share_rounded_down() -> None:
    """Spec [design]: tied players share the points of the places they cover, rounded down."""
    s = ended(4)
    for seat, v in enumerate([5, 5, 2, 0]):
        s.players[seat].track[3] = v
    assert totals(s) == [7, 7, 2, 0]  # (10+5)//2 each, then 3rd place
    s = ended(4)
    for seat, v in enumerate([4, 4, 4, 1]):
        s.players[seat].track[3] = v
    assert totals(s) == [5, 5, 5, 0]  # (10+5+2)//3, the 4th place pays nothing
    s = ended(4)
    for seat, v in enumerate([6, 3, 3, 1]):
        s.players[seat].track[3] = v
    assert totals(s) == [10, 3, 3, 0]  # (5+2)//2
    s = ended(4)
    for seat, v in enumerate([6, 5, 3, 3]):
        s.players[seat].track[3] = v
    assert totals(s) == [10, 5, 1, 1]  # 2//2


def test_shared_places_helper() -> None:
    """Spec [design]: sharing rule as a table (points, place, tied)."""
    assert shared_places([3, 3, 0], (10, 5, 2), 1) == [(7, 1, True), (7, 1, True), (0, 0, False)]
    assert shared_places([0, 0], (10, 5, 2), 1) == [(0, 0, False), (0, 0, False)]


def test_vp_tokens_worth_two() -> None:
    """Spec [design]: a VP token is worth 2 VP."""
    s = ended(2)
    s.players[0].vp = 3
    assert totals(s) == [6, 0]


def test_hand_majority() -> None:
    """Spec: End — most population + Joker cards in hand: [design] 5 VP, tied: all 5;
    Swords, Flutes and Passes do not count."""
    s = ended(3)
    set_hand(s, 0, ["church", "joker"])
    set_hand(s, 1, ["magic", "sword", "pass", "flute"])
    set_hand(s, 2, [])
    assert totals(s) == [5, 0, 0]
    set_hand(s, 1, ["magic", "magic"])
    assert totals(s) == [5, 5, 0]
    s2 = ended(2)
    set_hand(s2, 0, ["sword"])
    assert totals(s2) == [0, 0]  # [design] at least 1 card needed


def test_gold_majority() -> None:
    """Spec [design]: Gold — most 5 VP, second 2 VP; ties share rounded down."""
    s = ended(3)
    s.supply["gold"] -= 6
    s.players[0].gold, s.players[1].gold, s.players[2].gold = 3, 2, 1
    assert totals(s) == [5, 2, 0]
    s.players[1].gold = 3
    s.players[2].gold = 0
    assert totals(s) == [3, 3, 0]  # (5+2)//2
    s.players[0].gold, s.players[1].gold, s.players[2].gold = 4, 1, 1
    assert totals(s) == [5, 1, 1]  # 2//2
    s.players[0].gold, s.players[1].gold, s.players[2].gold = 6, 0, 0
    assert totals(s) == [5, 0, 0]  # nobody second without Gold


def test_death_by_rats() -> None:
    """Spec: End — a player whose rat total exceeds the Nun-row's nuns dies and cannot win."""
    s = ended(3, [4, 4, 1, 0, 0])  # 9 nuns
    s.players[0].track[0] = 9  # the best score...
    s.players[0].rats = 10  # ...but 10 > 9: dead
    s.players[1].rats = 9  # 9 = 9 survives
    s.players[1].track[0] = 1
    s.players[2].rats = 3
    res = GAME.result(s)
    assert res.winners == [1]
    line0 = next(ln for ln in res.lines if ln.seat == 0)
    assert line0.note == "died of the plague" and line0.score == 10
    assert ("Rats", "10 > 9 nuns: dies of the plague") in line0.breakdown
    assert compute(s, True).dead == [True, False, False]


def test_tie_break_fewest_rats() -> None:
    """Spec: End — most VP among the survivors wins; tie: fewest rats."""
    s = ended(3, [4, 4, 4, 4, 4])
    s.players[0].vp = 2
    s.players[1].vp = 2
    s.supply["vp"] -= 4
    s.players[0].rats = 5
    s.players[1].rats = 4
    res = GAME.result(s)
    assert res.winners == [1]
    assert [ln.rank for ln in sorted(res.lines, key=lambda ln: ln.seat)] == [2, 1, 3]
    s.players[0].rats = 4
    assert GAME.result(s).winners == [0, 1]  # still tied: shared


def test_plague_wins_when_everyone_dies() -> None:
    """Spec [design]: if everyone dies, the plague wins and nobody does."""
    s = ended(2, [0, 0, 0, 0, 1])
    s.players[0].rats = 2
    s.players[1].rats = 5
    res = GAME.result(s)
    assert res.winners == []
    assert "plague wins" in res.summary


def test_provisional_result_counts_public_points_only() -> None:
    """Protocol: result() is provisional while playing (hand majority and deaths hidden)."""
    s = fresh(2)
    s.players[0].track[1] = 2
    set_hand(s, 1, ["church"] * 9)
    s.players[0].rats = 99
    res = GAME.result(s)
    assert totals(s) == [10, 0]
    assert res.winners == [0]
    assert "Provisional" in res.summary


def test_end_of_game_reveals_and_scores() -> None:
    """Spec: End — after the last round the Nun-row is revealed and deaths are announced."""
    from tests.games.rattus_cartus.support import enter, texts, to_enter

    s = to_enter(fresh(2), ["farm", "castle"])
    s.round = s.rounds
    set_nun_row(s, [1, 1, 1, 1, 1])
    s.players[1].rats = 6
    enter(s, 1)
    ev = enter(s, 2)
    lines = texts(ev)
    assert any("= 5 nuns" in t for t in lines)
    assert "Bob has 6 rats: dies of the plague" in lines
    assert "Ann has 10 rats: dies of the plague" in lines
    assert GAME.result(s).winners == []
    view = GAME.view(s, 0)
    assert view["final"] is not None
    assert view["final"]["nuns"] == 5 and view["final"]["rats"] == [10, 6]
    assert all(n["card"] is not None for n in view["nun_row"])
