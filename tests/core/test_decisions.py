"""The shared pending-decision pattern: a kind table, and saves across a state layout change."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.core import (
    Decision,
    DecisionTable,
    Event,
    IllegalMove,
    Kind,
    Match,
    Move,
    Prompt,
    Seat,
    saves,
)
from engine.core.decisions import automatic, choice, head


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
    game, state, ev = Toy(), ["x"], []
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


def test_a_save_from_another_state_layout_replays_without_the_digest(tmp_path, monkeypatch) -> None:
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
