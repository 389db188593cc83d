"""Lines in and out: plain text only, one command a line.

Every line printed goes through `clean`: no control characters (escape sequences included),
no box or block characters, arrows and signs in words, so a screen reader or a braille
display reads it as written.
"""

from __future__ import annotations

import contextlib
import queue
import re
import sys
import threading
import unicodedata
from collections.abc import Callable
from types import ModuleType
from typing import IO

# signs the engine's texts use, said plainly
_NUMBERS_TO = re.compile(r"(\d)\s*→\s*(?=[\d-])")  # "rat 0→2": a change of a number
_WORDS = {
    "→": ":",  # elsewhere an arrow says what follows: "Castle standard → takes 1 Sword"
    "—": " - ",
    "–": "-",
    "−": "-",
    "×": " x ",
    "÷": " / ",
    "★": " prestige",
    "…": "...",
    "·": ",",
    "•": "-",
    "▸": ">",
}
_SPACES = re.compile(r" {2,}")


def clean(text: str) -> str:
    """`text` as one plain line: signs in words, anything unprintable a `?`."""
    out = []
    for ch in _NUMBERS_TO.sub(r"\1 to ", text):
        if ch in _WORDS:
            out.append(_WORDS[ch])
        elif ch == "\t":
            out.append(" ")
        elif unicodedata.category(ch)[0] == "C" or "\u2500" <= ch <= "\u25ff":
            out.append("?")
        else:
            out.append(ch)
    return _SPACES.sub(" ", "".join(out)).replace(" :", ":").rstrip()


class Output:
    """Writes cleaned lines to a stream (stdout) or collects them (tests). With the terminal's
    reader, a line that comes while its prompt waits (another player's move or words, the
    clock) goes above the prompt and what is typed there."""

    def __init__(self, stream: IO[str] | None = None, reader: TerminalReader | None = None) -> None:
        self.stream = stream
        self.reader = reader
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        """One line: a newline inside it (a hostile name) is shown, never obeyed."""
        line = clean(text)
        if self.stream is None:
            self.lines.append(line)
        elif self.reader is None or not self.reader.above(self.stream, line):
            self.stream.write(line + "\n")
            self.stream.flush()


Reader = Callable[[float | None], str | None]
"""Reads one line; `None` at the end of the input. With a timeout (seconds) it may also return
`TIMEOUT` when nothing was typed in time (a table waits for the others that way)."""

TIMEOUT = "\x00timeout"

ENDED = "The input has ended (no more lines to read): the line mode stops here."


class Input:
    """The reader the whole line mode reads through. Once its input has ended it stays ended
    and never asks its source again, so a closed input ends the menu, a game and a table at
    once, never in a loop; `tell` says so, once."""

    def __init__(self, read: Reader) -> None:
        self._read = read
        self.ended = False
        self._told = False

    @classmethod
    def of(cls, read: Reader) -> Input:
        """`read` itself if it is one already (a game inside the menu shares its end)."""
        return read if isinstance(read, Input) else cls(read)

    def __call__(self, timeout: float | None = None) -> str | None:
        if self.ended:
            return None
        line = self._read(timeout)
        if line is None:
            self.ended = True
        return line

    def tell(self, say: Callable[[str], None]) -> None:
        """Say that the input has ended, if it has and that was not said yet."""
        if self.ended and not self._told:
            self._told = True
            say(ENDED)


def script_reader(lines: list[str]) -> Reader:
    """A reader over a fixed list of lines (tests and scripts); the end is the end of input."""
    it = iter(lines)

    def read(timeout: float | None = None) -> str | None:
        return next(it, None)

    return read


class TerminalReader:
    """Reads stdin: with readline editing and history on a terminal, plainly from a pipe.

    One thread reads; the session waits for its lines with a timeout, so that a table can
    show the others' moves while nobody types.
    """

    def __init__(self, stream: IO[str] | None = None, prompt: str = "> ") -> None:
        self.stream = stream or sys.stdin
        self.tty = self.stream.isatty()
        self.prompt = prompt if self.tty else ""
        self._readline: ModuleType | None = None
        self._point: Callable[[], int] | None = None  # where the cursor is in the typed line
        self._point_looked = False
        self._showing = False  # the prompt is on the terminal, waiting for a line
        self._lock = threading.Lock()  # the prompt's line: the reading thread's or a line's
        if self.tty:
            with contextlib.suppress(ImportError):  # without readline: plain input
                import readline  # input() edits and remembers lines with it

                # no escape sequences around each line (bracketed paste marks them so)
                readline.parse_and_bind("set enable-bracketed-paste off")
                readline.set_pre_input_hook(self._shown)  # called once the prompt is drawn
                self._readline = readline
        self._asked = False  # the reading thread was asked for a line not yet taken
        self._ended = False  # the end of the input was taken
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._want = threading.Event()
        self._thread = threading.Thread(target=self._run, name="plain-input", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            self._want.wait()
            self._want.clear()
            try:
                if self.stream is sys.stdin and self.tty:
                    if self._readline is None:
                        self._shown()  # input() draws the prompt next
                    line: str | None = input(self.prompt)
                else:
                    raw = self.stream.readline()
                    line = raw.rstrip("\r\n") if raw else None
            except (EOFError, KeyboardInterrupt, OSError, ValueError):
                line = None
            with self._lock:
                self._showing = False
            self._lines.put(line)
            if line is None:
                return

    def _shown(self) -> None:
        with self._lock:
            self._showing = True

    def above(self, out: IO[str], line: str) -> bool:
        """Print `line` above the prompt that waits (the prompt's line cleared, the line, then
        the prompt and what was typed so far again, the cursor where it was); False when no
        prompt waits."""
        with self._lock:
            if not self._showing:
                return False
            typed = self._readline.get_line_buffer() if self._readline is not None else ""
            after = len(typed) - self._typed_before_cursor(typed)
            back = "\b" * after
            out.write(f"\r\x1b[K{line}\n{self.prompt}{typed}{back}")
            out.flush()
            return True

    def _typed_before_cursor(self, typed: str) -> int:
        """How many characters of `typed` are before readline's cursor (all of them where
        readline's own `rl_point` cannot be read)."""
        if not self._point_looked and self._readline is not None:
            self._point_looked = True
            try:
                import ctypes

                point = ctypes.c_int.in_dll(ctypes.CDLL(self._readline.__file__), "rl_point")
                self._point = lambda: point.value
            except (OSError, ValueError, AttributeError, TypeError):
                pass  # another readline: the cursor is taken to be at the end
        if self._point is None:
            return len(typed)
        return len(typed.encode()[: self._point()].decode(errors="ignore"))  # counts bytes

    def __call__(self, timeout: float | None = None) -> str | None:
        if self._ended or (not self._thread.is_alive() and self._lines.empty()):
            # the thread may not have returned yet: asked again it would wait for nothing
            return None
        if not self._asked:
            self._asked = True
            self._want.set()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return TIMEOUT
        self._asked = False
        self._ended = line is None
        return line
