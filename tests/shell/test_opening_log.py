"""Every game's log opens with its setup and round-1 lines (issue 14, item 4 and 6): they are
written out with the first move, so a replay or a review shows them."""

from __future__ import annotations

from boardgames_tui.engine.cathedral import data as CD
from boardgames_tui.engine.core.match import Match
from boardgames_tui.engine.notre_dame.queries import plague_value
from boardgames_tui.engine.pestis import data as PD
from boardgames_tui.engine.rattus_cartus import data as RD


def first_lines(game_id: str, names: list[str], options: dict | None = None) -> list[str]:
    """The log lines of a new game's first move, as an observer reads them."""
    m = Match.new(game_id, names, options or {}, seed=7)
    m.play(m.prompt.moves[0].id)
    return [line for _, line in m.events()]


def test_1347_opening_lines_name_the_first_event_and_the_burgus() -> None:
    m = Match.new("1347", ["Ann", "Bob"], {}, seed=7)
    s = m.state
    event, burgus = s.event, list(s.burgus)
    m.play(m.prompt.moves[0].id)
    lines = [line for _, line in m.events()]
    assert lines[0].startswith("Setup: First Player Ann")
    assert lines[1] == "Burgus: " + ", ".join(PD.SUBJECTS[k].name for k in burgus)
    assert lines[2].startswith(f"Event: {PD.EVENTS[event].name} — ")
    assert lines[3] == "Round 1 (Period I): Ann is First Player."
    # written once: the second move brings only its own lines
    m.play(m.prompt.moves[0].id)
    assert not any(line.startswith(("Setup:", "Burgus:")) for i, line in m.events() if i == 2)


def test_notre_dame_opening_line_is_the_round_one_header() -> None:
    m = Match.new("notre-dame", ["Ann", "Bob", "Cy"], {}, seed=7)
    plague = plague_value(m.state)
    m.play(m.prompt.moves[0].id)
    lines = [line for _, line in m.events()]
    assert lines[0].startswith("Round 1 (period A), bell-ringer Ann: persons ")
    assert lines[0].endswith(f"; plague value {plague}")
    assert sum(line.startswith("Round 1 ") for line in lines) == 1


def test_rattus_cartus_opening_line_is_the_round_one_row_with_its_supplies() -> None:
    m = Match.new("rattus-cartus", ["Ann", "Bob", "Cy"], {}, seed=7)
    row = [RD.building_of(c).name for c in m.state.row]
    m.play(m.prompt.moves[0].id)
    lines = [line for _, line in m.events()]
    assert lines[0].startswith("Round 1/9, start player Ann: ")
    assert all(name in lines[0] for name in row) and "draw" in lines[0]
    assert sum(line.startswith("Round 1/") for line in lines) == 1


def test_cathedral_opening_lines_name_the_orders_and_round_one() -> None:
    m = Match.new("cathedral-of-orleans", ["Ann", "Bob"], {}, seed=7)
    hourglass = CD.HOURGLASS_BY_KEY[m.state.hourglass].name
    m.play(m.prompt.moves[0].id)
    lines = [line for _, line in m.events()]
    assert lines[0].startswith("Workshops: ") and lines[0].count(" in ") == 3
    assert lines[1].startswith(f"Hourglass: {hourglass} wants ")
    assert lines[2] == "Round 1 begins with Ann"
