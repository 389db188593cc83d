"""The coach (issue 19): per-option values, game analysis, hints in saves, `analyse`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomli_w

from boardgames_tui.cli.main import main
from boardgames_tui.engine.bots import analysis
from boardgames_tui.engine.bots.coach import OptionValue, option_values
from boardgames_tui.engine.core import Match, Seat, saves
from boardgames_tui.engine.core.registry import get_game
from tests.root import ROOT

EXAMPLES = [
    "rattus-cartus-example.toml",
    "notre-dame-4p-example.toml",
    "pestis-4p-example.toml",
    "cathedral-example.toml",
]


def test_every_option_gets_a_value_best_first() -> None:
    m = saves.load(ROOT / "saves" / "notre-dame-4p-example.toml")
    state = m.state_at(5)
    prompt = m.game.prompt(state)
    assert prompt is not None and len(prompt.moves) > 1
    values = option_values(m.game, state, prompt, seed=1, iterations=16)
    assert sorted(v.move_id for v in values) == sorted(prompt.ids())
    assert all(0.0 <= v.value <= 1.0 and v.samples >= 1 for v in values)
    assert [v.value for v in values] == sorted((v.value for v in values), reverse=True)


def test_tags_follow_the_documented_thresholds() -> None:
    assert [analysis.tag_for(d) for d in (0.0, 0.03, 0.05, 0.1, 0.2, 0.3)] == [
        "best",
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    doc = (ROOT / "docs" / "computer-players.md").read_text()
    for tag, limit in analysis.THRESHOLDS:  # the documentation states the same numbers
        assert f"`{tag}`" in doc and f"{limit * 100:.0f} points" in doc


def test_the_best_value_is_never_below_the_played_one() -> None:
    values = [OptionValue("a", "A", 0.4, 9), OptionValue("b", "B", 0.55, 3)]
    # the search ranks "a" first (better sampled), yet "b" was played and valued higher
    r = analysis.rate(7, 1, "b", values)
    assert (r.best, r.tag, r.best_value) == ("b", "best", 0.55)
    r = analysis.rate(7, 1, "a", list(reversed(values)))
    assert (r.best, r.played, r.tag) == ("b", "a", "mistake")
    assert r.to_json() == {
        "n": 7,
        "seat": 2,
        "played": "a",
        "best": "b",
        "played_value": 0.4,
        "best_value": 0.55,
        "tag": "mistake",
    }


@pytest.mark.parametrize("name", EXAMPLES)
def test_analysis_of_an_example_save_is_deterministic(name: str) -> None:
    m = saves.load(ROOT / "saves" / name)
    first = analysis.decisions(m)[:2]

    def run() -> list[analysis.Rating]:
        return analysis.analyse(m, iterations=8, numbers=first)

    ratings = run()
    assert [r.n for r in ratings] == first
    assert ratings == run()
    for r in ratings:
        assert r.best_value >= r.played_value and r.tag in analysis.TAGS
        assert r.played == m.steps[r.n - 1].move_id and r.seat == m.steps[r.n - 1].seat
    doc = analysis.to_json(m, ratings)
    assert set(doc) == {"moves", "players"}
    assert all(
        set(x) == {"n", "seat", "played", "best", "played_value", "best_value", "tag"}
        for x in doc["moves"]
    )
    assert sum(p["decisions"] for p in doc["players"]) == len(ratings)


def test_analysis_rates_the_people_only() -> None:
    game = get_game("toy")
    m = Match.new(game, [Seat("Ann"), Seat("Bob", "greedy")], {}, seed=4)
    while m.prompt is not None:
        m.play(m.prompt.moves[-1].id)
    todo = analysis.decisions(m)
    assert todo and all(m.steps[n - 1].seat == 0 for n in todo)
    players = analysis.summary(m, analysis.analyse(m, iterations=8))
    assert [p["name"] for p in players] == ["Ann"]
    assert players[0]["decisions"] == len(todo)


# ---- hints in saves ------------------------------------------------------------------------
def _toy_match() -> Match:
    m = Match.new(get_game("toy"), ["Ann", "Bob"], {}, seed=3)
    for _ in range(4):
        assert m.prompt is not None
        m.play(m.prompt.moves[0].id)
    return m


def test_hints_used_are_saved_and_loaded(tmp_path: Path) -> None:
    m = _toy_match()
    m.hints.update({2, 4})
    path = saves.save(m, tmp_path / "g.toml")
    assert "hints = [" in path.read_text()
    assert saves.load(path).hints == {2, 4}


def test_a_save_without_hints_is_unchanged_and_old_saves_load(tmp_path: Path) -> None:
    m = _toy_match()
    text = saves.dumps(m)
    assert "hints" not in text  # saves of games without hints look as before
    for name in EXAMPLES:
        assert saves.load(ROOT / "saves" / name).hints == set()


def test_a_new_branch_drops_the_hints_of_the_old_one() -> None:
    m = _toy_match()
    m.hints.update({2, 3, 4})
    m.goto(2)
    m.play(m.prompt.moves[-1].id)
    assert m.hints == {2, 3}  # move 3 was decided again (after the hint); move 4 is gone


@pytest.mark.parametrize("hints", ["2", [True], ["1"]])
def test_bad_hints_are_one_clear_error(tmp_path: Path, hints: object) -> None:
    doc = saves.to_dict(_toy_match())
    doc["hints"] = hints
    path = tmp_path / "g.toml"
    path.write_text(tomli_w.dumps(doc))
    with pytest.raises(saves.SaveError, match="'hints' should be a list of move numbers"):
        saves.load(path)


def test_a_hint_for_the_open_decision_is_not_written(tmp_path: Path) -> None:
    """Issue 34: `h` then `q` wrote a hint for move 5 of 4; the save could not be opened."""
    m = _toy_match()
    m.hints.update({2, m.cursor + 1})  # the hint panel marks the decision it is asked about
    path = saves.save(m, tmp_path / "g.toml")
    loaded = saves.load(path)
    assert loaded.hints == {2} and loaded.repairs == []
    assert loaded.cursor == m.cursor and m.game.digest(loaded.state) == m.game.digest(m.state)


def test_a_save_with_a_stray_hint_is_mended_on_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = saves.to_dict(_toy_match())
    doc["hints"] = [0, 2, 5]  # what earlier versions wrote after `h`, `q`
    path = tmp_path / "g.toml"
    path.write_text(tomli_w.dumps(doc))
    m = saves.load(path)
    assert m.hints == {2} and m.cursor == 4
    assert m.repairs == ["dropped the hint marks for moves 0, 5, which were never played"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok ") and "mended on load: dropped the hint marks" in out


# ---- the analyse command -------------------------------------------------------------------
def _short_save(tmp_path: Path) -> Path:
    """A finished toy game: two people and a computer player."""
    m = Match.new(get_game("toy"), [Seat("Ann"), Seat("Bob"), Seat("Cy", "greedy")], {}, seed=5)
    while m.prompt is not None:
        m.play(m.prompt.moves[0].id)
    return saves.save(m, tmp_path / "short.toml")


def test_analyse_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _short_save(tmp_path)
    assert main(["analyse", str(path), "--json", "--iterations", "12"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["moves"] and {x["seat"] for x in doc["moves"]} <= {1, 2}
    assert all(x["best_value"] >= x["played_value"] for x in doc["moves"])
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bob"]
    # the same budget gives the same ratings, and the text report says them in words
    assert main(["analyze", str(path), "--iterations", "12"]) == 0
    text = capsys.readouterr().out
    assert "accuracy" in text and "blunders" in text
    for x in doc["moves"]:
        assert f"{x['n']:>5}  " in text


@pytest.mark.parametrize("content", [None, "not toml [", "format = 1\ngame = 'chess'\n"])
def test_analyse_a_bad_file_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    path = tmp_path / "bad.toml"
    if content is not None:
        path.write_text(content)
    assert main(["analyse", str(path)]) == 1
    err = capsys.readouterr()
    assert err.out == "" and len(err.err.strip().splitlines()) == 1 and str(path) in err.err


def test_analyse_bad_budget_is_a_usage_error(tmp_path: Path) -> None:
    path = _short_save(tmp_path)
    assert main(["analyse", str(path), "--iterations", "0"]) == 2
    assert main(["analyse", str(path), "--think", "-1"]) == 2
