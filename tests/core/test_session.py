"""The front-end-neutral `Session`: what a seat's terminal is owed after each change."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgames_tui.engine.core import PUBLIC, Match, Seat
from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from boardgames_tui.session.play import Session
from boardgames_tui.session.source import Refused
from boardgames_tui.session.table_source import TableSource


def test_hotseat_owes_a_hand_over_and_shows_nothing_private_meanwhile() -> None:
    session = Session(Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=2))
    pos = session.position
    assert pos.handover is not None and pos.handover.seat == 0 and not pos.decides
    assert pos.view == session.match.view(PUBLIC)  # the public view until Ann has the keys
    pos = session.hand_over(0)
    assert pos.handover is None and pos.decides and pos.viewer == 0
    assert pos.prompt is not None
    pos = session.play(pos.prompt.moves[0].id)
    assert pos.handover is not None and pos.handover.seat == 1 and pos.lines == ()
    pos = session.hand_over(1)
    # Ann's move, as Bob reads it, kept for him (not as Ann read it: her kept card)
    assert pos.viewer == 1 and pos.lines == tuple(session.match.steps[0].lines_for(1))
    assert pos.lines != tuple(session.match.steps[0].lines_for(0))


def test_undo_asks_before_taking_back_another_person_s_move() -> None:
    session = Session(Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=2), False)
    assert session.undo_reasons() is None  # nothing to undo yet
    prompt = session.position.prompt
    assert prompt is not None
    session.play(prompt.moves[0].id)
    assert session.position.viewer == 1  # no hand-over asked for: the seat to move reads
    assert session.undo_reasons() == ["it takes back Ann's move"]
    pos = session.undo()
    assert pos.cursor == 0 and session.can_redo()


def test_a_move_chosen_at_another_position_is_refused() -> None:
    session = Session(Match.new("notre-dame", [Seat("Ann"), Seat("Bob", "random")], seed=2))
    prompt = session.position.prompt
    assert prompt is not None
    with pytest.raises(Refused):
        session.play(prompt.moves[0].id, expected=3)
    assert session.position.cursor == 0


def test_a_table_s_bell_rings_once_when_the_others_move(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "tables.sqlite")
    info = store.create("notre-dame", parse_seats("ann,bob", "ann"), {}, 3, "ann", {})
    ann = Session(TableSource(store, info.id, "ann"))
    other = SQLiteStore(tmp_path / "tables.sqlite")
    bob = Session(TableSource(other, info.id, "bob"))
    assert ann.position.decides and not bob.position.decides
    prompt = ann.position.prompt
    assert prompt is not None
    pos = ann.play(prompt.moves[0].id)
    assert not pos.decides and not pos.bell  # her own move rings nothing
    assert bob.poll() is True
    assert bob.position.decides and bob.position.bell
    assert bob.poll() is None and not bob.refresh().bell  # once
    with pytest.raises(Refused, match="Not your turn"):
        ann.play(prompt.moves[0].id)
    ann.close()
    bob.close()
    other.close()
    store.close()


def test_redo_plays_again_the_computers_moves_after_the_person_s() -> None:
    session = Session(Match.new("notre-dame", [Seat("Ann"), Seat("Bob", "random")], seed=2))
    while session.position.to_move != 0 or session.match.cursor == 0:
        pos = session.position
        if pos.computer:
            turn = session.computer()
            assert turn is not None
            session.computer_done(turn, session.think(turn)[0])
        else:
            assert pos.prompt is not None
            session.play(pos.prompt.moves[0].id)
    played = session.match.cursor  # Ann's move, then the computer's: Ann to move again
    assert session.match.steps[played - 1].seat == 1
    session.undo()  # back to before Ann's move, over the computer's
    assert session.match.cursor < played - 1
    assert session.redo().cursor == played
