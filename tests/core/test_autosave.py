"""The autosave writer: a save's text is made off the thread that played the move, after the
move has been drawn, from a copy the next moves leave as it was."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from boardgames_tui.engine.core import Match, Seat, saves
from boardgames_tui.session.autosave import Autosaver
from boardgames_tui.session.play import Session


def _played(moves: int) -> Match:
    m = Match.new("notre-dame", [Seat("Ann"), Seat("Bo")], seed=4)
    m.settings["handover"] = False
    for _ in range(moves):
        assert m.prompt is not None
        m.play(m.prompt.moves[0].id)
    return m


def test_a_move_s_save_is_made_in_the_writer_thread_from_the_position_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session hands the writer what makes the text (not the text, which costs the move's
    thread milliseconds); moves played before it is written do not change it. Before: the
    text was made by `Session.autosave` on the playing thread."""
    saver = Autosaver(settle=3600.0)  # nothing is written until someone waits for it
    m = _played(3)
    session = Session(m, autosaver=saver, saves_dir=str(tmp_path))
    made_in: list[str] = []
    original = saves.dumps

    def dumps(match: Match) -> str:
        made_in.append(threading.current_thread().name)
        return original(match)

    monkeypatch.setattr(saves, "dumps", dumps)
    assert m.prompt is not None
    session.play(m.prompt.moves[0].id)
    expected = saves.to_dict(m)
    assert made_in == []  # not on this thread
    for _ in range(3):  # the game goes on meanwhile (here, not through the session)
        assert m.prompt is not None
        m.play(m.prompt.moves[0].id)
    assert saver.flush(10.0)
    assert made_in == ["autosave"]
    doc = saves.to_dict(saves.load(saves.autosave_path(m, str(tmp_path))))
    for key in ("updated",):
        doc.pop(key)
        expected.pop(key)
    assert doc == expected  # the position of the move it saved, not of the later ones
    saver.close()


def test_a_save_waits_for_the_move_s_drawing_unless_someone_waits_for_it(
    tmp_path: Path,
) -> None:
    """A pending save is not written while it settles; `flush` and `close` write it at once
    (the menu's "continue", quitting)."""
    saver = Autosaver(settle=3600.0)
    path = tmp_path / "a.toml"
    saver.submit(path, "a = 1\n")
    assert not path.exists()  # settling
    assert saver.flush(10.0) and path.read_text() == "a = 1\n"
    saver.submit(path, lambda: "a = 2\n")
    saver.close()
    assert path.read_text() == "a = 2\n"


def test_a_save_that_cannot_be_made_is_said_and_the_writer_goes_on(tmp_path: Path) -> None:
    """A bug in making a save's text (now in the writer thread) is one line to the player,
    and the next save is written."""
    errors: list[str] = []
    saver = Autosaver(on_error=errors.append, settle=0.0)
    path = tmp_path / "b.toml"

    def broken() -> str:
        raise ValueError("no")

    saver.submit(path, broken)
    assert saver.flush(10.0)
    assert len(errors) == 1 and errors[0].startswith("Autosave failed")
    assert "the last autosave is kept (the game goes on)" in errors[0]
    saver.submit(path, "b = 1\n")
    assert saver.flush(10.0) and path.read_text() == "b = 1\n"
    saver.close()
