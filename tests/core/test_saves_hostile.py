"""Save files made to break the loader (issue 29): nesting, sizes, types, unknown keys and
bit flips. Every one gets a SaveError (one sentence) or loads; none raises anything else,
hangs or changes the file."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import OptionList

from boardgames_tui.engine.core import Match, Seat, saves

DEEP = "a = " + "[" * 500 + "]" * 500 + "\n"


def base_doc() -> dict[str, Any]:
    m = Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=3)
    for _ in range(6):
        m.play(m.prompt.moves[0].id)
    return saves.to_dict(m)


BASE = base_doc()
BASE_TEXT = tomli_w.dumps(BASE).encode()
COUNT = {"cases": 0}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=30),
)
values = st.recursive(
    scalars.filter(lambda v: v is not None),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=12,
)


def load_once(path: Path) -> None:
    """Load `path`: a Match or a SaveError, quickly, the file untouched."""
    before = hashlib.sha256(path.read_bytes()).digest()
    start = time.monotonic()
    try:
        saves.load(path)
    except saves.SaveError as exc:
        assert str(exc).startswith(str(path)) and "\n" not in str(exc)
    assert saves.info(path) is None or True  # the list's header reader never raises
    assert time.monotonic() - start < 10
    assert hashlib.sha256(path.read_bytes()).digest() == before
    COUNT["cases"] += 1


FUZZ = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(
    key=st.sampled_from(sorted(BASE)),
    value=values,
    extra=st.dictionaries(st.text(max_size=6), values, max_size=2),
)
def test_fuzz_types_and_unknown_keys(tmp_path: Path, key: str, value: Any, extra: dict) -> None:
    doc = {**BASE, **extra, key: value}
    path = tmp_path / "fuzz.toml"
    try:
        path.write_text(tomli_w.dumps(doc))
    except (TypeError, ValueError):  # None inside a list: not TOML
        return
    load_once(path)


@FUZZ
@given(
    flips=st.lists(
        st.tuples(st.integers(0, len(BASE_TEXT) - 1), st.integers(0, 7)), min_size=1, max_size=6
    )
)
def test_fuzz_bit_flips(tmp_path: Path, flips: list[tuple[int, int]]) -> None:
    data = bytearray(BASE_TEXT)
    for at, bit in flips:
        data[at] ^= 1 << bit
    path = tmp_path / "flip.toml"
    path.write_bytes(bytes(data))
    load_once(path)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    depth=st.integers(1, 1200),
    opener=st.sampled_from(["[", "{x="]),
    key=st.sampled_from(["moves", "seats", "options", "junk"]),
    moves=st.integers(0, 3) | st.just(5000),
)
def test_fuzz_nesting_and_sizes(
    tmp_path: Path, depth: int, opener: str, key: str, moves: int
) -> None:
    closer = "]" if opener == "[" else "}"
    inner = "1" if opener != "[" else ""
    doc = dict(BASE)
    doc.pop(key, None)
    if moves:
        doc["moves"] = ["x"] * moves
    text = tomli_w.dumps(doc) + f"{key} = {opener * depth}{inner}{closer * depth}\n"
    path = tmp_path / "deep.toml"
    path.write_text(text)
    load_once(path)


def test_deep_nesting_and_bounds_get_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """`check`, `load` and `continue` on a 500-deep file: one clear line, no traceback."""
    from boardgames_tui.cli.main import main

    saves_dir = tmp_path / "saves"
    saves_dir.mkdir()
    deep = saves_dir / "deep.toml"
    deep.write_text(DEEP)
    huge = tmp_path / "huge.toml"
    huge.write_text(tomli_w.dumps({**BASE, "moves": ["x"] * (saves.MAX_MOVES + 1)}))
    for args, line in (
        (["check", str(deep)], "nests more than 8 levels deep"),
        (["load", str(deep)], "nests more than 8 levels deep"),
        (["check", str(huge)], f"more than a save may ({saves.MAX_MOVES})"),
        (["--saves", str(saves_dir), "continue"], "no unfinished game to continue"),
    ):
        assert main(args) == 1
        out, err = capsys.readouterr()
        assert line in out + err and len((out + err).strip().splitlines()) == 1, out + err


async def test_the_menu_and_load_screen_survive_a_deep_file(tmp_path: Path) -> None:
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.load import LoadScreen

    (tmp_path / "deep.toml").write_text(DEEP)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        assert "deep.toml  not a readable save" in str(
            app.screen.query_one("#load-files", OptionList).get_option_at_index(0).prompt
        )


def test_stale_temporary_files_of_autosave_are_cleaned(tmp_path: Path) -> None:
    """A write killed mid-way leaves `.NAME.toml.XXXXXXXX.tmp`: old ones of that pattern go,
    a fresh one (a write under way) and every other file stay."""
    import os

    stale = tmp_path / ".game.toml.ab12_xyz.tmp"
    fresh = tmp_path / ".game.toml.cd34_xyz.tmp"
    mine = tmp_path / "notes.tmp"
    other = tmp_path / ".game.toml.tmp"
    for f in (stale, fresh, mine, other):
        f.write_text("x")
    old = time.time() - 3600
    for f in (stale, mine, other):
        os.utime(f, (old, old))
    assert saves.clean_temporary(tmp_path) == 1
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted(
        f.name for f in (fresh, mine, other)
    )
