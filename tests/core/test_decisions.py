"""The shared pending-decision pattern: a kind table, and saves across a state layout change."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from boardgames_tui.engine.core import (
    Decision,
    DecisionTable,
    Event,
    IllegalMove,
    Kind,
    Match,
    Move,
    Prompt,
    Result,
    Seat,
    saves,
)
from boardgames_tui.engine.core.decisions import automatic, choice, decision, head, kind_of


@dataclass(slots=True)
class Pick(Decision):
    left: int = 0


class Toy:
    def ask(self, s: list[str], d: Pick) -> Prompt:
        return Prompt(d.seat, f"pick ({d.left} left)", (Move("a", "A"), Move("b", "B")))

    def answer(self, s: list[str], d: Pick, mid: str, ev: list[Event]) -> None:
        s.append(mid)
        ev.append(Event(f"picked {mid}"))

    def tidy(self, s: list[str], d: Pick, ev: list[Event]) -> None:
        s.clear()

    def nothing_left(self, s: list[str], d: Pick, ev: list[Event]) -> bool:
        if d.left:
            return False
        ev.append(Event("nothing left to pick"))
        return True


TABLE: DecisionTable[Toy, list[str], Pick] = DecisionTable(
    {"pick": choice(Toy.ask, Toy.answer, Toy.nothing_left), "tidy": automatic(Toy.tidy)}
)


def test_the_table_routes_each_kind_to_its_functions() -> None:
    game, state, ev = Toy(), ["x"], list[Event]()
    d = Pick("pick", seat=1, left=2)
    assert TABLE.is_choice(d) and not TABLE.is_choice(Pick("tidy"))
    assert TABLE.prompt(game, state, d).text == "pick (2 left)"
    TABLE.play(game, state, d, "b", ev)
    assert state == ["x", "b"] and [e.text for e in ev] == ["picked b"]
    TABLE.run(game, state, Pick("tidy"), ev)
    assert state == []
    assert "pick" in TABLE and "nope" not in TABLE and set(TABLE.kinds()) == {"pick", "tidy"}


def test_a_decision_with_nothing_to_choose_settles_without_asking() -> None:
    ev: list[Event] = []
    assert not TABLE.settle(Toy(), [], Pick("pick", left=2), ev) and ev == []
    assert TABLE.settle(Toy(), [], Pick("pick", left=0), ev)
    assert [e.text for e in ev] == ["nothing left to pick"]
    assert not TABLE.settle(Toy(), [], Pick("tidy"), ev)  # only decisions settle


def test_an_unknown_or_automatic_kind_is_no_decision() -> None:
    with pytest.raises(IllegalMove):
        TABLE.prompt(Toy(), [], Pick("nope"))
    with pytest.raises(IllegalMove):
        TABLE.play(Toy(), [], Pick("tidy"), "a", [])
    with pytest.raises(ValueError):
        TABLE.run(Toy(), [], Pick("pick"), [])


def test_a_kind_is_a_choice_or_automatic_never_both() -> None:
    with pytest.raises(ValueError):
        Kind(prompt=Toy.ask)
    with pytest.raises(ValueError):
        Kind(prompt=Toy.ask, play=Toy.answer, run=Toy.tidy)
    with pytest.raises(ValueError):
        Kind(run=Toy.tidy, settle=Toy.nothing_left)
    assert head([]) is None and head([Pick("a"), Pick("b")]) == Pick("a")


@dataclass(slots=True, kw_only=True)
class Give(Decision):
    """A kind of its own: its kind fixed, its parameter required."""

    kind: str = field(default="give", init=False)
    to: int


def _ask_give(game: Toy, s: list[str], d: Give) -> Prompt:
    return Prompt(d.seat, f"give to {d.to}", (Move("a", "A"),))


def _give(game: Toy, s: list[str], d: Give, mid: str, ev: list[Event]) -> None:
    s.append(f"{mid} to {d.to}")


def test_a_decision_class_is_its_own_kind_in_the_table() -> None:
    """`decision(Give, choice(...))` keys the entry by the class's fixed kind; a class that
    fixes none is refused (its kind would be whatever each constructor call says)."""
    table: DecisionTable[Toy, list[str], Decision] = DecisionTable(
        [decision(Give, choice(_ask_give, _give)), ("tidy", automatic(Toy.tidy))]
    )
    d = Give(2, to=0)
    assert d.kind == kind_of(Give) == "give" and set(table.kinds()) == {"give", "tidy"}
    assert table.prompt(Toy(), [], d).text == "give to 0"
    state: list[str] = []
    table.play(Toy(), state, d, "a", [])
    assert state == ["a to 0"]
    with pytest.raises(ValueError, match="Pick fixes no kind"):
        kind_of(Pick)


def test_a_save_from_another_state_layout_replays_without_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=4)
    for _ in range(5):
        m.play(m.prompt.moves[0].id)
    path = tmp_path / "g.toml"
    saves.save(m, path)
    text = path.read_text().replace(saves.to_dict(m)["digest"], "0" * 32)
    path.write_text(text)
    with pytest.raises(saves.SaveError, match="digest"):
        saves.load(path)
    # The game's state changed shape since (layout 2): the old digest can't be compared.
    monkeypatch.setattr(type(m.game), "state_layout", 2)
    assert saves.load(path).length == 5
    assert saves.to_dict(m)["layout"] == 2


# ---- the core's flow driver (engine/core/flow.py) ---------------------------------------------
@dataclass
class RaceState:
    names: list[str]
    seed: int
    options: dict[str, str]
    draws: int = 0
    pending: list[Pick] | None = None
    rounds: int = 0
    log: list[str] | None = None


def _take(s: RaceState, d: Pick, mid: str, ev: list[Event]) -> None:
    assert s.pending is not None and s.log is not None
    s.pending.pop(0)  # a handler owns the queue
    s.log.append(f"{d.seat}:{mid}")
    if mid == "b":
        s.pending.insert(0, Pick("bonus"))  # an automatic follow-up, run at once
        s.pending.insert(1, Pick("pick", d.seat, left=0))  # nothing to choose: settled


def _bonus(s: RaceState, d: Pick, ev: list[Event]) -> None:
    assert s.pending is not None and s.log is not None
    s.pending.pop(0)
    s.log.append("bonus")


def _empty(s: RaceState, d: Pick, ev: list[Event]) -> bool:
    assert s.pending is not None and s.log is not None
    if d.left:
        return False
    s.pending.pop(0)
    s.log.append(f"{d.seat}:settled")
    return True


def test_the_core_drives_turns_from_the_table_and_one_hook() -> None:
    """The driver runs automatic kinds, settles empty choices and, with the queue empty,
    asks `next_decisions` (a new round, or the end); `before` fires ahead of any step."""
    from boardgames_tui.engine.core.flow import FlowGame

    def ask(g: object, s: RaceState, d: Pick) -> Prompt:
        return Prompt(d.seat, "pick", (Move("a", "A"), Move("b", "B")))

    class Race(FlowGame[RaceState, Pick]):  # type: ignore[type-var]
        id, title, min_players, max_players = "race", "Race", 2, 2
        decisions = DecisionTable(
            {
                "pick": choice(
                    ask,
                    lambda g, s, d, m, ev: _take(s, d, m, ev),
                    lambda g, s, d, ev: _empty(s, d, ev),
                ),
                "bonus": automatic(lambda g, s, d, ev: _bonus(s, d, ev)),
            }
        )

        def new_state(
            self, names: Sequence[str], options: Mapping[str, str], seed: int
        ) -> RaceState:
            s = RaceState(list(names), seed, dict(options), pending=[], log=[])
            self.next_decisions(s, [])
            return s

        def next_decisions(self, s: RaceState, events: list[Event]) -> bool:
            assert s.pending is not None
            if s.rounds == 2:
                return False  # the game is over
            s.rounds += 1
            s.pending.extend(Pick("pick", seat, left=1) for seat in (0, 1))
            return True

        def before(self, s: RaceState, head: Pick, events: list[Event]) -> bool:
            assert s.log is not None and s.pending is not None
            if head.kind == "pick" and s.rounds == 2 and "round 2" not in s.log:
                s.log.append("round 2")
                s.pending.insert(0, Pick("bonus"))  # it changed the queue: the driver rereads it
                return True
            return False

        def result(self, s: RaceState) -> Result:
            raise NotImplementedError

        def view(self, s: RaceState, seat: int | None) -> dict[str, object]:
            return {}

        def rules_reference(self, options: Mapping[str, str] | None = None) -> str:
            return ""

    game = Race()
    s = game.new_state(["A", "B"], {}, 0)
    for mid in ("a", "b", "b", "a"):
        p = game.prompt(s)
        assert p is not None
        game.play(s, p.move(mid))
    assert game.prompt(s) is None and s.pending == []
    assert s.log == [
        "0:a",
        "1:b",
        "bonus",
        "1:settled",
        "round 2",
        "bonus",
        "0:b",
        "bonus",
        "0:settled",
        "1:a",
    ]
