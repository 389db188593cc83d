"""Saves: TOML round trips, atomic writes, and one clear error for every broken file."""

from __future__ import annotations

import os
import random
import tomllib
from pathlib import Path

import pytest
import tomli_w

from boardgames_tui.engine.core import Match, saves
from boardgames_tui.engine.core.saves import SaveError


def finished(seed: int = 1) -> Match:
    m = Match.new("toy", ["Ann", "Bob"], seed=seed)
    rng = random.Random(seed)
    while m.prompt:
        m.play(rng.choice(m.prompt.moves).id)
    return m


def test_round_trip_at_random_points(tmp_path: Path) -> None:
    rng = random.Random(0)
    for seed in range(10):
        m = finished(seed)
        m.goto(rng.randrange(m.length + 1))
        p = saves.save(m, tmp_path / f"g{seed}.toml")
        back = saves.load(p)
        assert back.cursor == m.cursor
        assert back.game.digest(back.state) == m.game.digest(m.state)
        assert back.move_ids() == m.move_ids()
        assert back.length == m.length


def test_save_document_fields(tmp_path: Path) -> None:
    m = finished()
    doc = tomllib.loads(saves.dumps(m))
    for key in (
        "format",
        "app_version",
        "game",
        "seed",
        "created",
        "updated",
        "digest",
        "options",
        "seats",
        "moves",
    ):
        assert key in doc
    assert doc["game"] == "toy" and doc["finished"] is True


def _write(tmp_path: Path, name: str, content: bytes | str) -> Path:
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    return p


def test_broken_files_get_clear_errors(tmp_path: Path) -> None:
    good = tomllib.loads(saves.dumps(finished()))
    cases = {
        "not TOML": b"this is = = not toml",
        "not UTF-8": b"\xff\xfe\x00garbage",
        "missing": None,
    }
    for label, content in cases.items():
        path = tmp_path / f"{label}.toml"
        if content is not None:
            path.write_bytes(content)
        with pytest.raises(SaveError) as exc:
            saves.load(path)
        assert str(path) in str(exc.value)

    def variant(**changes: object) -> dict:
        d = dict(good)
        d.update(changes)
        return {k: v for k, v in d.items() if v is not None}

    bad_docs = {
        "unknown game": (variant(game="chess"), "unknown game"),
        "newer format": (variant(format=99), "newer version"),
        "wrong type": (variant(seed="seven"), "'seed' should be"),
        "illegal move": (variant(moves=["card:1", "bogus"]), "move 2"),
        "digest": (variant(digest="0" * 32), "digest"),
        "missing moves": (variant(moves=None), "missing 'moves'"),
        "bad seat": (
            variant(seats=[{"name": "A"}, {"name": "B", "kind": "wizard"}]),
            "unknown kind",
        ),
    }
    for label, (doc, words) in bad_docs.items():
        path = _write(tmp_path, f"{label}.toml", tomli_w.dumps(doc))
        before = path.read_bytes()
        with pytest.raises(SaveError) as exc:
            saves.load(path)
        assert words in str(exc.value), label
        assert path.read_bytes() == before  # a failed load changes nothing


def test_directory_and_huge_file(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="folder"):
        saves.load(tmp_path)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (saves.MAX_BYTES + 10))
    with pytest.raises(SaveError, match="too large"):
        saves.load(big)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file(tmp_path: Path) -> None:
    p = saves.save(finished(), tmp_path / "x.toml")
    p.chmod(0)
    with pytest.raises(SaveError, match="permission"):
        saves.load(p)


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "a.toml"
    saves.atomic_write(target, "x = 1\n")
    saves.atomic_write(target, "x = 2\n")
    assert target.read_text() == "x = 2\n"
    assert [p.name for p in target.parent.iterdir()] == ["a.toml"]


def test_saves_dir_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert saves.saves_dir() == tmp_path / "boardgames-tui" / "saves"
    assert saves.saves_dir("/x/y") == Path("/x/y")


def test_latest_save(tmp_path: Path) -> None:
    assert saves.latest(tmp_path) is None
    a = saves.save(finished(1), tmp_path / "a.toml")
    b = saves.save(finished(2), tmp_path / "b.toml")
    os.utime(a, (1, 1))
    assert saves.latest(tmp_path) == b


def test_a_save_from_before_an_option_loads_as_it_was_played(tmp_path: Path) -> None:
    """An option added later (the Cathedral's map) takes its `legacy` value in saves and
    tables that do not name it: they replay on the map they were played on, digest intact."""
    example = Path(__file__).parents[2] / "saves" / "cathedral-example.toml"
    doc = saves.read_document(example)
    assert "map" not in doc["options"] and len(doc["seats"]) == 2
    m = saves.from_document(doc, example)  # the digest is compared: it still matches
    assert m.options["map"] == "full" and sum(map(len, m.state.roads)) == 18
    again = saves.from_document(tomllib.loads(saves.dumps(m)), example)
    assert again.options["map"] == "full" and again.state == m.state
    # the same moves on today's default map are another game
    doc["options"]["map"] = "scaled"
    with pytest.raises(SaveError, match="is illegal"):
        saves.from_document(doc, example)
    # a new two-player game is on the scaled map and says so in its save
    new = Match.new("cathedral-of-orleans", ["Ann", "Bob"], seed=3)
    assert new.options["map"] == "scaled"
    back = saves.from_document(tomllib.loads(saves.dumps(new)))
    assert back.options["map"] == "scaled" and sum(map(len, back.state.roads)) == 15
