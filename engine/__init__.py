"""The rules engine of boardgames-tui: pure Python, no terminal I/O."""

from boardgames_tui import __version__

__all__ = ["__version__"]
