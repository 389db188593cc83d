"""The rules engine of boardgames-tui: pure Python, no terminal I/O."""

__version__ = "0.1.0"
