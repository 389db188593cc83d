"""TOML save files: written atomically, loaded by replaying every move through the rules."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from .. import __version__
from .match import BOT_LEVELS, HUMAN, Match, Seat, now_iso
from .names import BadName, check_name
from .protocol import IllegalMove, SetupError
from .registry import UnknownGame, get_game

FORMAT = 1
# a finished game is 2-30 kB; parsing TOML takes about a second per MB on a busy host, so
# anything this large is refused unread
MAX_BYTES = 1024 * 1024
MAX_DEPTH = 8  # a save nests 3 deep (the seats: a list of tables)
MAX_MOVES = 100_000  # the longest games run to about a thousand moves


class SaveError(Exception):
    """A save that cannot be loaded: one clear sentence naming the file and the problem."""

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


APP_DIR = "boardgames-tui"


def saves_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where user saves live: --saves DIR; else $XDG_DATA_HOME/boardgames-tui/saves when that
    variable is set (on every platform, so an existing folder keeps working); else the folder
    earlier versions used everywhere, ~/.local/share/boardgames-tui/saves, if it exists; else
    the platform's own data folder (platformdirs: ~/.local/share on Linux, ~/Library/Application
    Support on macOS, %LOCALAPPDATA% on Windows)."""
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / APP_DIR / "saves"
    legacy = Path.home() / ".local" / "share" / APP_DIR / "saves"
    if legacy.is_dir():
        return legacy
    import platformdirs  # on first use: start-up does not need it

    return Path(platformdirs.user_data_dir(APP_DIR, appauthor=False)) / "saves"


def to_dict(match: Match) -> dict[str, Any]:
    """The save document of a match (the whole history, including a redo branch)."""
    final = match.state_at(len(match.steps))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "app_version": __version__,
        "game": match.game.id,
        "seed": match.seed,
        "created": match.created,
        "updated": now_iso(),
        "cursor": match.cursor,
        "finished": _final_prompt(match, final) is None,
        "digest": match.game.digest(final),
        **({"layout": match.game.state_layout} if match.game.state_layout != 1 else {}),
        "options": dict(match.options),
        "settings": dict(match.settings),
        "seats": [{"name": s.name, "kind": s.kind} for s in match.seats],
        "moves": [s.move_id for s in match.steps],
    }
    # a hint for the decision still open has no move yet: it is recorded once the move is played
    hints = sorted(n for n in match.hints if 1 <= n <= len(match.steps))
    if hints:  # only then: saves of games without hints stay as they were
        doc["hints"] = hints
    auto = sorted(n for n in match.autopilot if 1 <= n <= len(match.steps))
    if auto:  # moves a shared table's computer played for an absent person
        doc["autopilot"] = auto
    return doc


def _final_prompt(match: Match, final: Any) -> Any:
    """The decision after the last move: the match's cached one when the cursor is there."""
    return match.prompt if match.cursor == len(match.steps) else match.game.prompt(final)


def dumps(match: Match) -> str:
    return tomli_w.dumps(to_dict(match))


def atomic_write(path: str | os.PathLike[str], text: str) -> None:
    """Write via a temporary file in the same folder, fsync, then rename over the target."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    try:
        dfd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


# what `atomic_write` names its temporary file: `.NAME.` + mkstemp's 8 characters + `.tmp`
_TEMP = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")
STALE_SECONDS = 600.0  # a write takes milliseconds: a temporary file this old was orphaned


def clean_temporary(
    folder: str | os.PathLike[str] | None = None, age: float = STALE_SECONDS
) -> int:
    """Remove the temporary files a killed write left in the saves folder (only files of
    `atomic_write`'s own pattern, only ones older than `age` seconds); how many went."""
    d = saves_dir(folder)
    removed = 0
    try:
        candidates = [f for f in d.iterdir() if _TEMP.match(f.name)]
    except OSError:
        return 0
    now = time.time()
    for f in candidates:
        with contextlib.suppress(OSError):
            st = f.lstat()
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > age:
                f.unlink()
                removed += 1
    return removed


def save(match: Match, path: str | os.PathLike[str] | None = None) -> Path:
    """Save `match` to `path` (or its own save path) atomically; returns the path."""
    target = Path(path or match.save_path or "")
    if not str(target):
        raise ValueError("no path to save to")
    atomic_write(target, dumps(match))
    match.save_path = str(target)
    return target


def autosave_path(match: Match, folder: str | os.PathLike[str] | None = None) -> Path:
    stamp = match.created.replace(":", "").replace("-", "").replace("+0000", "")
    stamp = stamp.split("+")[0]
    return saves_dir(folder) / f"{match.game.id}-{stamp}-{match.seed}.toml"


def _need(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    if key not in doc:
        raise SaveError(path, f"missing {key!r}")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise SaveError(path, f"{key!r} should be a {names}, not {type(value).__name__}")
    return value


def read_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Parse a save file's TOML, with a SaveError for every way the file itself is broken."""
    p = Path(path)
    try:
        if p.is_dir():
            raise SaveError(p, "is a folder, not a save file")
        if p.exists() and not p.is_file():
            raise SaveError(p, "is not a regular file")
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise SaveError(p, f"is {size // 1024} kB: too large to be a save file")
        data = p.read_bytes()
    except FileNotFoundError:
        raise SaveError(p, "no such file") from None
    except PermissionError:
        raise SaveError(p, "cannot be read (permission denied)") from None
    except OSError as exc:
        raise SaveError(p, f"cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(p, f"is not UTF-8 text (byte {exc.start})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SaveError(p, f"is not valid TOML ({exc})") from None
    except RecursionError:  # the parser recurses once per level of nesting
        raise SaveError(p, f"nests more than {MAX_DEPTH} levels deep: not a save file") from None
    if _depth(doc) > MAX_DEPTH:
        raise SaveError(p, f"nests more than {MAX_DEPTH} levels deep: not a save file")
    return doc


def _depth(value: Any, limit: int = MAX_DEPTH + 1) -> int:
    """How deep lists and tables nest in `value` (counting stops past `limit`), without
    recursion."""
    deepest, level = 0, [(value, 0)]
    while level:
        v, d = level.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d + 1)
            if d + 1 <= limit:
                items = v.values() if isinstance(v, dict) else v
                level.extend((x, d + 1) for x in items if isinstance(x, dict | list))
    return deepest


def from_document(doc: dict[str, Any], path: str | os.PathLike[str] = "<save>") -> Match:
    """Rebuild a match by replaying the document's moves; SaveError for anything wrong."""
    p = Path(path)
    if "format" not in doc and "moves" not in doc:
        raise SaveError(
            p, "is a TOML file but not a saved game (it has no 'format' and no 'moves')"
        )
    fmt = _need(doc, "format", int, p)
    if fmt > FORMAT:
        raise SaveError(
            p, f"was written in save format {fmt} by a newer version; this one reads {FORMAT}"
        )
    if fmt < 1:
        raise SaveError(p, f"has an unknown save format {fmt}")
    game_id = _need(doc, "game", str, p)
    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        raise SaveError(p, str(exc)) from None
    seed = _need(doc, "seed", int, p)
    options = doc.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise SaveError(p, "'options' should be a table of strings")
    options = game.recorded_options(options)
    seats_raw = _need(doc, "seats", list, p)
    seats = []
    for i, s in enumerate(seats_raw):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            raise SaveError(p, f"seat {i + 1} needs a name")
        try:
            check_name(s["name"])
        except BadName as exc:
            raise SaveError(p, f"seat {i + 1}: {exc}") from None
        kind = s.get("kind", HUMAN)
        if kind != HUMAN and kind not in BOT_LEVELS:
            raise SaveError(p, f"seat {i + 1} has an unknown kind {kind!r}")
        seats.append(Seat(s["name"], kind))
    moves = _need(doc, "moves", list, p)
    if len(moves) > MAX_MOVES:
        raise SaveError(p, f"holds {len(moves)} moves, more than a save may ({MAX_MOVES})")
    if not all(isinstance(m, str) for m in moves):
        raise SaveError(p, "'moves' should be a list of move ids")
    try:
        match = Match.new(game, seats, options, seed)
    except SetupError as exc:
        raise SaveError(p, str(exc)) from None
    settings = doc.get("settings", {})
    if not isinstance(settings, dict) or not all(isinstance(v, bool) for v in settings.values()):
        raise SaveError(p, "'settings' should be a table of true/false values")
    match.settings.update({k: v for k, v in settings.items() if k in match.settings})
    if isinstance(doc.get("created"), str):
        match.created = doc["created"]
    for n, move_id in enumerate(moves, start=1):
        try:
            match.play(move_id)
        except IllegalMove as exc:
            raise SaveError(p, f"move {n} ({move_id}) is illegal: {exc}") from None
    digest = doc.get("digest")
    layout = doc.get("layout", 1)
    if digest is not None and layout == game.state_layout:
        if not isinstance(digest, str):
            raise SaveError(p, "'digest' should be a string")
        actual = game.digest(match.state)
        if actual != digest:
            raise SaveError(
                p,
                "the moves do not lead to the recorded final state (digest mismatch: edited or damaged)",
            )
    hints = doc.get("hints", [])
    if not isinstance(hints, list) or not all(
        isinstance(h, int) and not isinstance(h, bool) for h in hints
    ):
        raise SaveError(p, f"'hints' should be a list of move numbers from 1 to {len(moves)}")
    stray = sorted({h for h in hints if not 1 <= h <= len(moves)})
    if stray:  # earlier versions saved a hint for a decision not yet taken: drop it, say so
        marks = ", ".join(map(str, stray))
        match.repairs.append(
            f"dropped the hint mark for move {marks}, which was never played"
            if len(stray) == 1
            else f"dropped the hint marks for moves {marks}, which were never played"
        )
    match.hints = {h for h in hints if 1 <= h <= len(moves)}
    auto = doc.get("autopilot", [])
    if not isinstance(auto, list) or not all(
        isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= len(moves) for h in auto
    ):
        raise SaveError(p, f"'autopilot' should be a list of move numbers from 1 to {len(moves)}")
    match.autopilot = set(auto)
    cursor = doc.get("cursor", len(moves))
    if not isinstance(cursor, int) or isinstance(cursor, bool) or not 0 <= cursor <= len(moves):
        raise SaveError(p, f"'cursor' should be a move number from 0 to {len(moves)}")
    match.goto(cursor)
    match.save_path = str(p)
    return match


def load(path: str | os.PathLike[str]) -> Match:
    """Load and verify a save. Never changes the file; SaveError on any problem."""
    doc = read_document(path)
    try:
        return from_document(doc, path)
    except SaveError:
        raise
    except Exception as exc:  # a rules bug must still not become a traceback for the user
        raise SaveError(path, f"could not be replayed ({type(exc).__name__}: {exc})") from None


def latest(folder: str | os.PathLike[str] | None = None, unfinished: bool = False) -> Path | None:
    """The most recently written save in the user's saves folder (`unfinished`: the most
    recent one whose game is not over)."""
    for f in list_saves(folder):
        if not unfinished:
            return f
        meta = info(f)
        if meta is not None and not meta.finished:
            return f
    return None


@dataclass(frozen=True)
class SaveInfo:
    """What a save's header says, read without replaying it (for lists of saves)."""

    path: Path
    game: str  # the game's title
    seats: list[tuple[str, str]]  # (name, kind): "person" or a computer's level
    moves: int  # the cursor: moves played up to where the game stands
    finished: bool
    updated: str  # ISO date and time of the last write


def info(path: str | os.PathLike[str]) -> SaveInfo | None:
    """The header of a save, or None if the file is not a readable save."""
    try:
        doc = read_document(path)
        game = get_game(str(doc["game"])).title
        seats = doc["seats"]
        players = [(check_name(s["name"]), str(s.get("kind", HUMAN))) for s in seats]
        moves = doc.get("moves", [])
        return SaveInfo(
            Path(path),
            game,
            players,
            int(doc.get("cursor", len(moves))),
            bool(doc.get("finished", False)) and doc.get("cursor", len(moves)) == len(moves),
            str(doc.get("updated", doc.get("created", ""))),
        )
    except Exception:  # whatever is wrong with it, a list shows it as not a readable save
        return None


def list_saves(folder: str | os.PathLike[str] | None = None) -> list[Path]:
    d = saves_dir(folder)
    if not d.is_dir():
        return []
    return sorted(
        (f for f in d.glob("*.toml") if f.is_file()), key=lambda f: f.stat().st_mtime, reverse=True
    )
