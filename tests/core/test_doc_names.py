"""Every file and module the guides name exists: README.md, CONTRIBUTING.md and docs/*.md name
`engine/tables/store.py` or `boardgames_tui.engine.core.protocol`, and a name left behind by a
move or a rename is found here rather than by a reader. (docs/adding-a-game.md's code and
commands are checked by tests/core/test_docs.py.)"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from boardgames_tui.engine.core import registry
from boardgames_tui.plain.boards import TEXT_BOARDS
from boardgames_tui.tui.games import BOARDS
from tests.root import ROOT

GUIDES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]

# a path of the repository: it starts with one of its top-level files or folders (a name the
# checkout ignores, such as `.venv`, is a reader's, not the repository's)
IGNORED = {
    line.strip().strip("/") for line in (ROOT / ".gitignore").read_text().splitlines() if line
}
TOP = {p.name for p in ROOT.iterdir()} - IGNORED - {".git"}
PATH = re.compile(r"(?<![\w/.:~$-])((?:[\w.-]+/)+[\w.-]*)")
# a module of the package, maybe with an attribute (`module:ATTR` as entry points name one)
MODULE = re.compile(r"(?<![\w/.-])(boardgames_tui(?:\.[A-Za-z_]\w*)+(?::\w+)?)")
# what is a name but not a module: the entry-point groups, and the guide's example game
NOT_MODULES = {registry.GROUP, BOARDS, TEXT_BOARDS}
EXAMPLE = "my_game"


def _placeholder(name: str) -> bool:
    """A name standing for one the reader picks: `saves/NAME/`, `engine/<game>/`, `…`."""
    parts = re.split(r"[/.:]", name)
    return EXAMPLE in parts or any(
        re.fullmatch(r"[A-Z][A-Z_]+", p) or set(p) & set("<>{}*…") for p in parts
    )


def _paths(text: str) -> set[str]:
    return {
        p.rstrip(".") for p in PATH.findall(text) if p.split("/")[0] in TOP and not _placeholder(p)
    }


def _exists(name: str) -> bool:
    """Whether `name` (`a.b.c` or `a.b:C`) is a module, or an attribute of one."""
    first, *rest = name.replace(":", ".").split(".")
    found: object = importlib.import_module(first)
    for part in rest:
        module = f"{getattr(found, '__name__', '')}.{part}"
        if hasattr(found, "__path__") and importlib.util.find_spec(module) is not None:
            found = importlib.import_module(module)
        elif hasattr(found, part):
            found = getattr(found, part)
        else:
            return False
    return True


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_paths_a_guide_names_exist(guide: Path) -> None:
    text = guide.read_text(encoding="utf-8")
    missing = [p for p in sorted(_paths(text)) if not (ROOT / p).exists()]
    assert missing == [], f"{guide.name} names what is not in the repository"


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_modules_a_guide_names_exist(guide: Path) -> None:
    text = guide.read_text(encoding="utf-8")
    names = {n for n in MODULE.findall(text) if n not in NOT_MODULES and not _placeholder(n)}
    missing = [n for n in sorted(names) if not _exists(n)]
    assert missing == [], f"{guide.name} names modules that do not import"


def test_the_checks_find_names() -> None:
    """The patterns catch what the guides write (a broken pattern would find nothing)."""
    sample = "see `engine/tables/store.py`, `boardgames_tui.engine.core.protocol` and saves/NAME/"
    assert _paths(sample) == {"engine/tables/store.py"}
    assert MODULE.findall(sample) == ["boardgames_tui.engine.core.protocol"]
    assert _exists("boardgames_tui.engine.core.registry:register")
    assert not _exists("boardgames_tui.engine.core.nothing")
    assert not (ROOT / "tui/plain/source.py").exists()  # what the README's old map named
    assert "tui/plain/source.py" in _paths("the old `tui/plain/source.py`")
