"""The plain session: the game in lines, one command a line.

What it says: each event as one line as it happens, for the reader (the seat at the keyboard);
the game's round and phase changes as short headings; at each decision of a person, whose
decision it is, the question and the options numbered with their effects. What it hears: a
number or an option's name plays; words ask (`help` lists them).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardgames_tui.engine.core import PUBLIC, Match, saves
from boardgames_tui.engine.core.protocol import Prompt, may_read
from boardgames_tui.plain.boards import Sections, board_for, counted, listed
from boardgames_tui.plain.lines import TIMEOUT, Input, Reader
from boardgames_tui.session.autosave import Autosaver
from boardgames_tui.session.errors import bot_error_message, write_error
from boardgames_tui.session.keys import by_number, number_range, numbered, option_numbers
from boardgames_tui.session.play import Session
from boardgames_tui.session.scores import history_lines
from boardgames_tui.session.source import Refused, Source

COMMANDS: dict[str, str] = {
    "help": "this list",
    "board": "the board, section by section; board SECTION for one",
    "hand": "your own cards or tokens",
    "scores": "the standing (at the end: every point and where it came from)",
    "status": "round, phase and whose turn",
    "options": "the decision and its options again (Enter alone does the same)",
    "log": "the last lines of the log; log N for the last N",
    "undo": "take back your last move (and the computers' after it)",
    "redo": "play an undone move again",
    "back": "step back out of a move of several parts",
    "hint": "the computer's three best moves for you",
    "rules": "the rules' topics; rules TOPIC for one",
    "review": "step through every move (next, prev, start, end, go N, done)",
    "save": "save the game; save NAME to choose the file",
    "say": "at a shared table: say TEXT to the others (their words arrive marked »)",
    "clock": "at a shared table: the time left for the turn (the table's own news: Table: …)",
    "reclaim": "at a shared table: take your seat back from the computer (after timeouts, away)",
    "propose": "at a shared table: a change the players agree to: propose limit 24h, limit "
    "none, pause, resume, or seat N USER",
    "agree": "at a shared table: agree to the change proposed; agree no turns it down",
    "leave": "at a shared table: leave it for good, after a yes (the computer plays your seat)",
    "cancel": "at a shared table you made, before its game begins: cancel it, after a yes",
    "quit": "leave (the game is saved)",
}
ALIASES = {"q": "quit", "exit": "quit", "?": "help", "h": "help", "o": "options", "b": "board"}
REVIEW_COMMANDS = ("next", "prev", "start", "end", "go", "done")
LOG_LINES = 10
RECAP = 40  # lines at most of what happened since a person's last decision


def is_quit(line: str) -> bool:
    return line.strip().lower() in ("quit", "exit", "q")


class PlainSession:
    """Plays one game (a local match or a shared table) in lines, through a `Session`."""

    def __init__(
        self,
        session: Session | Source | Match,
        read: Reader,
        say: Callable[[str], None],
        saves_dir: str | None = None,
        hint_think: float | None = None,
        think: float | None = None,
    ) -> None:
        if not isinstance(session, Session):
            session = Session(session, autosaver=Autosaver(), saves_dir=saves_dir, think=think)
        self.session = session
        self.read = Input.of(read)
        self.say = say
        self.saves_dir = saves_dir
        self.hint_think = hint_think
        self.confine = False  # a room's session: a save is a name in the player's own folder
        match = session.match
        self.game = match.game
        self.board = board_for(self.game.id)
        self.shared = session.shared
        self.table = session.table  # the shared table's source (talk, its id), or None
        self.handover = session.handover
        # the reader: the seat at the keyboard (hotseat: nobody's before the first hand-over)
        self.viewer: int | None = PUBLIC if self.handover else session.viewer
        self.unlocked: int | None = None if self.handover else self.viewer
        self.told = session.position.n  # the position whose news was said
        self.warnings: list[str] = []  # lines to say before the next moves' (a computer's problem)
        facts = session.facts
        self.talk_said, self.notes_said = len(facts.talk), len(facts.notes)
        self.said = match.cursor  # the moves whose lines have been said
        self.heading = ""
        self.asked: tuple[int, tuple[str, ...]] | None = None
        self.waiting_said: int | None = None
        self.piloted_said = False  # "the computer plays your seat" was said (and still holds)
        self.pending_table: str | None = None  # "leave" or "cancel", asked and not answered
        self.cancelled = False  # this session cancelled its table: it is gone
        self.review_at: int | None = None
        self.pending_undo: int | None = None
        self.ended = False
        self.heard: dict[int, int] = {}  # seat -> the moves said while it had the keyboard

    @property
    def match(self) -> Match:
        return self.session.match

    def mine(self, prompt: Prompt | None) -> bool:
        """A person at this keyboard decides `prompt` now (and reads it)."""
        pos = self.session.position
        return prompt is not None and pos.decides and prompt.seat == self.viewer

    def news(self) -> None:
        """What arrived with no move to show: a move taken back elsewhere, the talk and the
        table's own lines (a timeout, someone left), into `warnings`."""
        pos = self.session.position
        if pos.n != self.told:
            self.told = pos.n
            self.warnings += [x for line in pos.news for x in line.split("\n")]
        facts = pos.facts
        if self.table is not None:
            talk = [t for t in facts.talk[self.talk_said :] if t.user != self.table.user]
            self.warnings += [f"Table: {text}" for _, text in facts.notes[self.notes_said :]]
            self.warnings += [talk_line(t) for t in talk]
        self.talk_said, self.notes_said = len(facts.talk), len(facts.notes)

    def refresh(self) -> None:
        """Anything new at the table (the others' moves, talk, the clock)?"""
        try:
            self.session.poll()
        except Refused as exc:
            self.say(f"{exc}")
        self.news()

    def computer_move(self) -> bool:
        """Let the computer to move decide and play (a bot error: a random legal move);
        False when another terminal plays the table's computers."""
        turn = self.session.computer()
        if turn is None:
            return False
        move_id, error = self.session.think(turn)
        if error is not None:
            name = self.match.seats[turn.seat].name
            log = write_error(f"computer player {name}", error)
            self.warnings.append(bot_error_message(name, log))
        try:
            self.session.computer_done(turn, move_id)
        except Refused as exc:
            self.warnings.append(str(exc))
        self.news()
        return True

    # ---- the loop -----------------------------------------------------------------------
    def run(self) -> int:
        """Play until `quit` or the end of the input; the game is saved either way."""
        code = 0
        try:
            self.intro()
            while self.step():
                pass
        except KeyboardInterrupt:  # Ctrl+C leaves like quit: saved, and said so
            self.say("")
            code = 130
        finally:
            session = self.session
            session.close()
            if session.autosaver is not None:
                if session.dirty:
                    session.autosave()
                session.autosaver.flush()
        self.read.tell(self.say)
        self.goodbye()
        return code

    def step(self) -> bool:
        """One turn of the loop; False to stop."""
        for warning in self.warnings:
            self.say(warning)
        self.warnings.clear()
        self.catch_up()
        m = self.match
        if self.review_at is not None:
            line = self.read(None)
            return line is not None and self.review_command(line)
        prompt = m.prompt
        if prompt is None:
            if not self.ended:
                self.ended = True
                self.viewer = None
                self.say_end()
            line = self.read(None)
            return line is not None and self.command(line)
        self.ended = False
        pos = self.session.position
        if pos.computer:
            if not self.computer_move():
                return self.wait()  # another process plays the computers
            return True
        if pos.handover is not None:
            return self.hand_over(prompt)
        if not pos.decides:
            return self.wait()
        self.viewer = prompt.seat
        key = (m.cursor, tuple(prompt.ids()))
        if self.asked != key:
            self.asked = key
            self.ask(prompt)
        # at a table the others talk, and the turn's time may run out: listen meanwhile
        line = self.read(1.0 if self.shared else None)
        if line == TIMEOUT:
            self.refresh()
            return True
        return line is not None and self.command(line)

    def wait(self) -> bool:
        """Another seat of a table is to move: say so once, and listen meanwhile."""
        m = self.match
        prompt = m.prompt
        waiting_for = None if prompt is None else prompt.seat
        if self.waiting_said != waiting_for:  # once a seat, not at each step of its move
            self.waiting_said = waiting_for
            if self.session.position.waiting is not None:
                self.say("Waiting for players to take the open seats.")
            elif prompt is not None:
                self.say(f"Waiting for {m.seats[prompt.seat].name} to move.")
        piloted = self.piloted()
        if piloted and not self.piloted_said:
            self.say("The computer plays your seat: type reclaim to take it back.")
        self.piloted_said = piloted
        line = self.read(1.0)
        if line == TIMEOUT:
            self.refresh()
            return True
        return line is not None and self.command(line)

    def hand_over(self, prompt: Prompt) -> bool:
        """Hotseat: name who takes the keyboard, and nothing private until they are there."""
        name = self.match.seats[prompt.seat].name
        self.say(f"Pass to {name} and press Enter.")
        line = self.read(None)
        if line is None or is_quit(line):
            return False
        if self.unlocked is not None:  # what the one leaving the keyboard has heard
            self.heard[self.unlocked] = self.said
        self.unlocked = self.viewer = prompt.seat
        self.session.hand_over(prompt.seat)
        self.recap(prompt.seat)
        return True

    def recap(self, seat: int) -> None:
        """What happened since `seat` last had the keyboard, as `seat` reads it."""
        m = self.match
        since = min(self.heard.get(seat, 0), m.cursor)
        lines = [line for _, line in m.events(seat)[self._first_line(since) :]]
        if since == 0 and m.cursor == 0:
            lines = m.opening(seat)
        name = m.seats[seat].name
        if lines:
            self.say(f"{name}, since your last turn:" if since else f"{name}, so far:")
            for line in lines[-RECAP:]:
                self.say(line)
        self.heading = ""
        self.say_heading(self.view())

    def _first_line(self, cursor: int) -> int:
        """The index in `events()` of the first line of move `cursor + 1`."""
        m = self.match
        return sum(len(s.lines_for(self.viewer)) for s in m.steps[:cursor])

    def intro(self) -> None:
        m, table, facts = self.match, self.table, self.session.facts
        seats = []
        for i, s in enumerate(m.seats):
            if table is not None:
                who = "you" if i == facts.seat else ("computer, " + s.kind if s.is_bot else "")
            else:
                who = f"computer, {s.kind}" if s.is_bot else "person"
            seats.append(f"{s.name} ({who})" if who else s.name)
        where = f"Table {facts.table_id}: " if table is not None else ""
        self.say(f"{where}{self.game.title}, {len(m.seats)} players: {listed(seats)}.")
        if table is not None and facts.seat is None:
            self.say("You are watching: no seat of yours is open.")
        if table is not None:
            clock = self.session.clock()
            self.say(
                "At this table: say TEXT talks to the others (their words arrive marked »), "
                f"clock tells the time left{f' ({clock})' if clock else ''}."
            )
            recent = [talk_line(t) for t in facts.talk][-5:]  # said before this terminal came
            if recent:
                self.say("Said here lately:")
                for line in recent:
                    self.say(line)
        if self.review_at is not None:  # `review FILE`: the review first
            self.say(
                f"Review of {m.length} moves: next, prev, start, end, go N, board, hand, done."
            )
            self.review_say()
            return
        self.say("Type a number to play an option, or help for the commands.")
        if self.handover and self.unlocked is None:
            return  # the first person's recap says the opening
        if m.cursor == 0:
            for line in m.opening(self.viewer):
                self.say(line)
        elif table is not None and table.last_look is not None and table.last_look < m.cursor:
            seen = table.last_look
            since = [line for n, line in m.events(self.viewer) if n > seen]
            self.say(f"Since you last looked: {m.cursor - seen} move(s).")
            for line in since[-RECAP:]:
                self.say(line)
        else:
            self.say(f"Continuing at move {m.cursor}. The last lines of the log:")
            for _, line in m.events(self.viewer)[-5:]:
                self.say(line)
        self.say_heading(self.view())

    def goodbye(self) -> None:
        path = self.session.last_autosave
        if self.cancelled:
            return  # said when it was cancelled
        if self.table is not None:
            self.say(f"Left table {self.session.facts.table_id}; it stays in the store.")
        elif path is not None:
            self.say(f"Saved to {path}.")

    # ---- saying ---------------------------------------------------------------------------
    def view(self, index: int | None = None) -> Any:
        return self.session.view(self.viewer, index)

    def say_heading(self, view: Any) -> None:
        heading = self.board.heading(view)
        if heading and heading != self.heading:
            self.heading = heading
            self.say(f"== {heading} ==")

    def catch_up(self) -> None:
        """Say the lines of the moves played since the last time, each as it happened."""
        m = self.match
        if self.said > m.cursor:  # undone (here or at the table)
            self.said = m.cursor
            self.asked = None
            self.heading = ""
        # the end's summary says "Game over. …" above the scores: a log that ends so (Notre
        # Dame) does not say it first
        over = f"Game over. {self.game.result(m.state).summary}" if m.prompt is None else None
        while self.said < m.cursor:
            step = m.steps[self.said]
            lines = step.lines_for(self.viewer)
            if self.said == 0:  # the setup's lines, said already
                lines = lines[len(m.opening(self.viewer)) :]
            for line in lines:
                if line != over or self.said < m.cursor - 1:
                    self.say(line)
            self.said += 1
            self.say_heading(self.view(self.said))

    def ask(self, prompt: Prompt) -> None:
        self.waiting_said = None
        m = self.match
        name = m.seats[prompt.seat].name
        text = prompt.text_for(self.viewer)
        if text.startswith(f"{name}: "):
            text = text[len(name) + 2 :]
        back = " (or back)" if prompt.step > 0 else ""
        self.say(f"{name} to decide: {text}{back}")
        for line in numbered(prompt.moves):
            self.say(line)

    def say_end(self) -> None:
        m = self.match
        res = self.game.result(m.state)
        self.say(f"Game over. {res.summary}")
        for line in self.final_scores():
            self.say(line)
        for line in history_lines(m):
            self.say(line)
        self.say("Type scores, board, log or review to look back; quit to leave.")

    def final_scores(self) -> list[str]:
        m = self.match
        res = self.game.result(m.state)
        out = []
        # a title that ranks nobody (0) is ranked by score, ties sharing a place
        unranked = all(not x.rank for x in res.lines) and not self.game.cooperative
        ranks = {x.seat: 1 + sum(y.score > x.score for y in res.lines) for x in res.lines}
        key = (
            (lambda x: (ranks[x.seat], x.seat)) if unranked else (lambda x: (x.rank or 99, x.seat))
        )
        for line in sorted(res.lines, key=key):
            parts = [f"{k} {number(v)}" for k, v in line.breakdown]
            note = f" {line.note}" if line.note else ""
            place = ranks[line.seat] if unranked else line.rank
            rank = f"{place}. " if place else ""
            name = m.seats[line.seat].name
            out.append(f"{rank}{name}: {number(line.score)}{note} ({listed(parts)})")
        out += res.details
        return out

    # ---- commands -----------------------------------------------------------------------
    def command(self, line: str) -> bool:
        """Carry out one line; False to stop."""
        text = line.strip()
        if self.pending_undo is not None:
            self.pending_undo = None
            if text.lower() in ("yes", "y"):
                self.do_undo()
            else:
                self.say("Not undone.")
            return True
        if self.pending_table is not None:
            asked, self.pending_table = self.pending_table, None
            if text.lower() not in ("yes", "y"):
                self.say("Not left." if asked == "leave" else "Not cancelled.")
                return True
            return self.leave_or_cancel(asked)
        word, _, rest = text.partition(" ")
        word = ALIASES.get(word.lower(), word.lower())
        rest = rest.strip()
        prompt = self.match.prompt
        mine = self.mine(prompt)
        if not text:
            if mine and prompt is not None:
                self.ask(prompt)
            return True
        if word == "quit":
            return False
        if word == "play" and rest and mine and prompt is not None:
            return self.play_option(prompt, rest, strict=True)
        handler = getattr(self, f"cmd_{word}", None)
        if word in COMMANDS and handler is not None:
            handler(rest)
            return True
        if mine and prompt is not None and self.play_option(prompt, text, strict=False):
            return True
        self.unknown(text, prompt if mine else None)
        return True

    def unknown(self, text: str, prompt: Prompt | None) -> None:
        words = list(COMMANDS)
        labels = [m.label.lower() for m in prompt.moves] if prompt else []
        near = difflib.get_close_matches(text.lower(), words + labels, n=3, cutoff=0.5)
        near += [w for w in words if w.startswith(text.lower()[:2]) and w not in near]
        choose = f"a number ({number_range(prompt.moves)}) or " if prompt else ""
        if near:
            self.say(f"No command {text!r}: nearest {listed(near[:3], '')}; or type {choose}help.")
        else:
            self.say(f"No command {text!r}: type {choose}help for the commands.")

    def play_option(self, prompt: Prompt, text: str, strict: bool) -> bool:
        """Play the option a number, an id or a name picks; False if none does."""
        moves = prompt.moves
        chosen = None
        if text.isdigit():
            chosen = by_number(moves, text)
            if chosen is None:
                self.say(f"No option {text}: choose {number_range(moves)}.")
                return True
        else:
            low = text.lower()
            exact = [m for m in moves if m.label.lower() == low or m.id.lower() == low]
            starts = [m for m in moves if m.label.lower().startswith(low)]
            if exact:
                chosen = exact[0]
            elif len(starts) == 1:
                chosen = starts[0]
            elif len(starts) > 1:
                nums = [n for m, n in zip(moves, option_numbers(moves), strict=True) if m in starts]
                self.say(f"{text!r} names {len(starts)} options ({listed(nums)}): type its number.")
                return True
        if chosen is None:
            if strict:
                self.say(f"No option {text!r}: choose {number_range(moves)}.")
                return True
            return False
        try:
            self.session.play(chosen.id)
        except Refused as exc:
            self.say(f"Not played: {str(exc).rstrip('.')}.")
            self.news()
            return True
        self.news()
        self.asked = None
        return True

    def cmd_say(self, rest: str) -> None:
        if self.table is None:
            self.say("say is for shared tables: this game is played here only.")
            return
        if not rest.strip():
            self.say("say what? e.g. say good luck")
            return
        try:
            self.table.say(rest)
        except Refused as exc:
            self.say(f"Not said: {exc}.")
            return
        self.session.refresh()
        self.say(f"» you: {rest.strip()}")
        self.news()

    def piloted(self) -> bool:
        """The computer plays this person's seat at the table (timeouts, left, away)."""
        facts = self.session.facts
        return self.table is not None and facts.seat is not None and "reclaim" not in facts.keys_off

    def cmd_reclaim(self, rest: str) -> None:
        if self.table is None:
            self.say("reclaim is for shared tables: here nobody plays for you.")
            return
        try:
            said = self.table.reclaim()
        except Refused as exc:
            self.say(f"Not taken back: {str(exc).rstrip('.')}.")
            return
        self.session.refresh()
        self.piloted_said = False
        self.asked = None
        self.say(said)

    def cmd_propose(self, rest: str) -> None:
        self.table_change(rest, propose=True)

    def cmd_agree(self, rest: str) -> None:
        self.table_change(rest, propose=False)

    def table_change(self, rest: str, propose: bool) -> None:
        """`propose WORDS` or `agree [no]`: the table's change, as `table propose`/`agree`."""
        from boardgames_tui.engine.tables import StoreError

        word = "propose" if propose else "agree"
        if self.table is None:
            self.say(f"{word} is for shared tables: here nobody else is asked.")
            return
        if propose and not rest:
            self.say("propose what? limit 24h, limit none, pause, resume, or seat N USER.")
            return
        no = not propose and rest.lower() in ("no", "n")
        table, tid = self.table, self.table.info.id
        try:
            if propose:
                made, done = table.store.propose(tid, table.user, rest.split())
            else:
                made, done = table.store.agree(tid, table.user, yes=not no)
        except StoreError as exc:
            self.say(f"Not {'proposed' if propose else 'answered'}: {str(exc).rstrip('.')}.")
            return
        self.refresh()
        if no:
            self.say(f"Turned down: {made.text}")
            return
        said = "Done" if done else ("Proposed" if propose else "Agreed")
        waiting = "" if done else f" (waiting for {', '.join(made.waiting_for)})"
        self.say(f"{said}: {made.text}{waiting}")

    def cmd_leave(self, rest: str) -> None:
        self.ask_table(
            "leave",
            "Leave table {} for good? The computer plays your seat from then "
            "on (reclaim takes it back).",
        )

    def cmd_cancel(self, rest: str) -> None:
        self.ask_table("cancel", "Cancel table {}? It is gone for everyone.")

    def ask_table(self, word: str, question: str) -> None:
        """`leave` or `cancel`: asked first, as the app's Tables screen does."""
        if self.table is None:
            self.say(f"{word} is for shared tables: this game is played here only.")
            return
        self.pending_table = word
        self.say(question.format(self.table.info.id) + " Type yes to go on, anything else not to.")

    def leave_or_cancel(self, word: str) -> bool:
        """Leave or cancel the table (answered yes); False once the table is gone."""
        from boardgames_tui.engine.tables import StoreError

        assert self.table is not None
        table, tid = self.table, self.table.info.id
        try:
            if word == "leave":
                table.store.leave(tid, table.user)
            else:
                table.store.cancel(tid, table.user)
        except StoreError as exc:
            self.say(f"Not {'left' if word == 'leave' else 'cancelled'}: {str(exc).rstrip('.')}.")
            return True
        if word == "cancel":
            self.cancelled = True
            self.say(f"Table {tid} is cancelled: it is gone, and its players are told.")
            return False
        self.refresh()
        self.say(f"You left table {tid}: the computer plays your seat (reclaim takes it back).")
        return True

    def cmd_clock(self, rest: str) -> None:
        clock = self.session.clock()
        self.say(f"Clock: {clock}." if clock else "No clock runs here.")

    def cmd_help(self, rest: str) -> None:
        self.say("Commands (a number or an option's name plays it):")
        for word, what in COMMANDS.items():
            self.say(f"{word}: {what}")

    def sections(self, view: Any) -> Sections:
        return self.board.sections(view, self.viewer)

    def cmd_board(self, rest: str, index: int | None = None) -> None:
        sections = self.sections(self.view(index))
        names = [name for name, _ in sections]
        if rest:
            want = rest.lower()
            found = [s for s in sections if s[0] == want] or [
                s for s in sections if s[0].startswith(want)
            ]
            if not found:
                self.say(f"No section {rest!r}: the board has {listed(names)}.")
                return
            sections = found[:1]
        else:
            self.say(f"Board: {listed(names)}.")
        for name, lines in sections:
            self.say(f"{name.capitalize()}:")
            for line in lines:
                self.say(line)

    def cmd_hand(self, rest: str, index: int | None = None) -> None:
        hand = dict(self.sections(self.view(index))).get("hand")
        if hand:
            for line in hand:
                self.say(line)
        elif not self.game.has_private_info:
            self.say("No hand in this game: nothing is hidden, everything is on the board.")
        elif self.viewer == PUBLIC:
            self.say("No hand: you are watching, not playing a seat.")
        else:
            self.say("No hand to show now.")

    def cmd_scores(self, rest: str) -> None:
        if self.match.over:
            res = self.game.result(self.match.state)
            self.say(res.summary)
            for line in self.final_scores():
                self.say(line)
            return
        for line in self.board.scores(self.view()):
            self.say(line)

    def cmd_status(self, rest: str) -> None:
        m = self.match
        prompt = m.prompt
        heading = self.board.heading(self.view())  # "" from a board without one
        if prompt is None:
            self.say(f"{heading}. The game is over." if heading else "The game is over.")
            return
        who = m.seats[prompt.seat]
        kind = f" (computer, {who.kind})" if who.is_bot else ""
        where = f" {heading}." if heading else ""
        clock = self.session.clock()
        clock = f" Clock: {clock}." if clock else ""
        self.say(f"{who.name}{kind} to move, move {m.cursor + 1}.{where}{clock}")

    def cmd_options(self, rest: str) -> None:
        prompt = self.match.prompt
        if self.mine(prompt) and prompt is not None:
            self.ask(prompt)
        else:
            self.say("No decision of yours now.")

    def log_lines(self, upto: int | None = None) -> list[str]:
        m = self.match
        out = [f"Setup: {line}" for line in m.opening(self.viewer)]
        setup = len(m.opening(None))
        for i, step in enumerate(m.steps[: m.cursor if upto is None else upto], start=1):
            lines = step.lines_for(self.viewer)
            if i == 1:
                lines = lines[len(m.opening(self.viewer)) if setup else 0 :]
            out += [f"Move {i}: {line}" for line in lines]
        return out

    def cmd_log(self, rest: str) -> None:
        n = LOG_LINES
        if rest:
            if not rest.isdigit() or int(rest) < 1:
                self.say(f"log takes a number of lines, e.g. log 20 (not {rest!r}).")
                return
            n = int(rest)
        lines = self.log_lines()
        if not lines:
            self.say("The log is empty: nothing has happened yet.")
            return
        shown = lines[-n:]
        self.say(f"Log, the last {len(shown)} of {len(lines)} lines:")
        for line in shown:
            self.say(line)

    # ---- undo, redo, back -------------------------------------------------------------------
    def cmd_undo(self, rest: str) -> None:
        m = self.match
        if self.session.facts.strict:
            self.say("Undo is off in this game (strict rules).")
            return
        if not m.can_undo():
            self.say("Nothing to undo.")
            return
        reasons = self.session.undo_reasons()
        if reasons:
            self.pending_undo = m.cursor
            why = "; ".join(reasons)
            self.say(f"Undo? {why[0].upper()}{why[1:]}. Type yes to undo, anything else to keep.")
            return
        self.do_undo()

    def do_undo(self, back: bool = False) -> None:
        """Undo (or, `back`, step out of a move of several parts at a table)."""
        before = self.match.cursor
        try:
            if back:
                self.session.step_back()
            else:
                self.session.undo()
        except Refused as exc:
            self.say(f"Not undone: {str(exc).rstrip('.')}.")
            return
        m = self.match
        self.say(f"Undone {counted(before - m.cursor, 'move')}: back at move {m.cursor + 1}.")
        self.said = m.cursor
        self.asked = None
        self.heading = ""
        self.say_heading(self.view())

    def cmd_redo(self, rest: str) -> None:
        if not self.match.can_redo():
            self.say("Nothing to redo.")
            return
        try:
            self.session.redo()
        except Refused as exc:
            self.say(f"Not redone: {str(exc).rstrip('.')}.")
            return
        self.say("Redone:")

    def cmd_back(self, rest: str) -> None:
        prompt = self.match.prompt
        if prompt is None or prompt.step == 0 or not self.session.position.decides:
            self.say("Nothing to step back from: this decision is the first of its move.")
            return
        if self.shared:
            self.do_undo(back=True)
            return
        self.session.step_back()
        self.said = self.match.cursor
        self.asked = None
        self.say("Stepped back.")

    # ---- hint, rules, save ----------------------------------------------------------------
    def cmd_hint(self, rest: str) -> None:
        m = self.match
        prompt = m.prompt
        if self.session.facts.strict:
            self.say("Hints are off in this game (strict rules).")
            return
        if not self.mine(prompt) or prompt is None:
            self.say("A hint is for your own decision: wait for your turn.")
            return
        from boardgames_tui.engine.bots.analysis import decision_seed
        from boardgames_tui.engine.bots.coach import Coach
        from boardgames_tui.engine.bots.search import default_think

        think = self.hint_think if self.hint_think is not None else 3 * default_think()
        self.say("Thinking...")
        coach = Coach(self.game, seed=decision_seed(m, m.cursor + 1), think=think)
        try:
            values = coach.values(self.game.clone(m.state), prompt)
        except Exception as exc:  # a search bug must not end the game
            from boardgames_tui.session.errors import hint_error_message, write_error

            self.say(hint_error_message(write_error("hint", exc)))
            return
        if not self.shared:
            m.hints.add(m.cursor + 1)
        ids = prompt.ids()
        numbers = option_numbers(prompt.moves)
        scale = "chance the team wins" if self.game.cooperative else "chance of winning"
        best = [
            f"{numbers[ids.index(v.move_id)]} {v.label} {v.value:.0%}"
            for v in values[:3]
            if v.move_id in ids
        ]
        self.say(f"Hint ({scale}): {'; '.join(best)}.")

    def cmd_rules(self, rest: str) -> None:
        text = self.game.rules_reference(self.match.options)
        sections = rule_sections(text)
        topics = [h for h, _ in sections[1:]]
        if not rest:
            self.say(f"Rules of {self.game.title}: {sections[0][1][0] if sections[0][1] else ''}")
            self.say(f"Topics: {listed(topics)}. Type rules TOPIC (a word of it is enough).")
            return
        want = rest.lower()
        found = [s for s in sections[1:] if want in s[0].lower()]
        if not found:
            found = [s for s in sections[1:] if any(want in line.lower() for line in s[1])]
        if not found:
            self.say(f"No rules topic {rest!r}: topics are {listed(topics)}.")
            return
        heading, lines = found[0]
        self.say(f"Rules, {heading}:")
        for line in lines:
            self.say(line)

    def cmd_save(self, rest: str) -> None:
        if self.shared:
            self.say("A table is kept in its store; export it when it is over (table export).")
            return
        m = self.match
        folder = saves.saves_dir(self.saves_dir)
        if self.confine:
            from boardgames_tui.session.confine import ConfineError, confined_path

            try:
                target = confined_path(rest or f"{m.game.id}-{m.seed}", self.saves_dir)
            except ConfineError as exc:
                self.say(f"Not saved: {exc}.")
                return
            rest = str(target)
        target = Path(rest).expanduser() if rest else Path(m.save_path or f"{m.game.id}-{m.seed}")
        if not target.is_absolute():
            target = folder / target
        if target.suffix != ".toml":
            target = target.with_name(target.name + ".toml")
        try:
            saves.save(m, target)
        except (OSError, ValueError) as exc:
            self.say(f"Could not save to {target}: {exc}.")
            return
        self.say(f"Saved to {target}.")

    # ---- review -----------------------------------------------------------------------------
    def cmd_review(self, rest: str) -> None:
        m = self.match
        if m.length == 0:
            self.say("Nothing to review: no move has been played.")
            return
        self.review_at = m.cursor
        self.say(
            f"Review: {m.length} moves. next, prev, start, end, go N, board, hand, done. "
            "The game waits meanwhile."
        )
        self.review_say()

    def review_viewer(self) -> int | None:
        return None if self.match.over else self.viewer

    def review_line(self, i: int) -> str:
        """Move `i` (1-based) as the reader may read it."""
        m = self.match
        step = m.steps[i - 1]
        viewer = self.review_viewer()
        name = m.seats[step.seat].name
        line = m.move_line(i, viewer)
        if not line.startswith(name):
            line = f"{name}: {line}"
        return line

    def review_lines(self) -> list[str]:
        return [f"{i} {self.review_line(i)}" for i in range(1, self.match.length + 1)]

    def review_say(self) -> None:
        i = self.review_at
        assert i is not None
        m = self.match
        if i == 0:
            self.say(f"Move 0 of {m.length}: the setup.")
            return
        step = m.steps[i - 1]
        viewer = self.review_viewer()
        lines = step.lines_for(viewer)
        if i == 1:
            lines = lines[len(m.opening(viewer)) :]
        name = m.seats[step.seat].name
        first = self.review_line(i)
        self.say(f"Move {i} of {m.length}: {first}")
        for line in lines[1:]:
            self.say(line)
        if not lines and first != f"{name}: {step.label_for(viewer)}":
            pass

    def review_command(self, line: str) -> bool:
        m = self.match
        word, _, rest = line.strip().lower().partition(" ")
        word = {"n": "next", "p": "prev", "back": "done", "q": "done", "quit": "done"}.get(
            word, word
        )
        assert self.review_at is not None
        viewer, self.viewer = self.viewer, self.review_viewer()
        try:
            if word in ("", "next"):
                if self.review_at >= m.length:
                    self.say(f"The last move: {m.length} of {m.length}.")
                    return True
                self.review_at += 1
            elif word == "prev":
                if self.review_at == 0:
                    self.say("The setup: nothing before it.")
                    return True
                self.review_at -= 1
            elif word == "start":
                self.review_at = 0
            elif word == "end":
                self.review_at = m.length
            elif word == "go" and rest.isdigit() and int(rest) <= m.length:
                self.review_at = int(rest)
            elif word == "board":
                self.cmd_board(rest.strip(), self.review_at)
                return True
            elif word == "hand":
                self.cmd_hand(rest, self.review_at)
                return True
            elif word == "done":
                self.review_at = None
                where = "its end" if m.over else f"move {m.cursor + 1}"
                self.say(f"Back to the game at {where}.")
                self.asked = None
                return True
            else:
                near = difflib.get_close_matches(word, [*REVIEW_COMMANDS, "board", "hand"], n=2)
                hint = f"nearest {listed(near)}; " if near else ""
                self.say(
                    f"No review command {line.strip()!r}: {hint}next, prev, start, end, "
                    f"go N (0 to {m.length}), board, hand or done."
                )
                return True
            self.review_say()
            return True
        finally:
            self.viewer = viewer


def talk_line(talk: Any) -> str:
    """A line of table talk as the line mode says it (marked »)."""
    return f"» {talk.user}{' (watching)' if talk.spectator else ''}: {talk.text}"


def number(value: object) -> str:
    """3.0 as 3; anything else as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def rule_sections(markdown: str) -> list[tuple[str, list[str]]]:
    """The rules reference as (heading, plain lines): the title first, then each `##`."""
    out: list[tuple[str, list[str]]] = [("", [])]
    for raw in markdown.splitlines():
        if raw.startswith("## "):
            out.append((plain_markdown(raw[3:]), []))
            continue
        if raw.startswith("# "):
            continue
        line = plain_markdown(raw)
        if line.strip() and not set(line.strip()) <= set("|-: "):
            out[-1][1].append(line.strip())
    return out


def plain_markdown(text: str) -> str:
    """A Markdown line as plain text: no emphasis marks, headings or table bars."""
    text = re.sub(r"\*\*|__|`", "", text)
    text = re.sub(r"^#+\s*", "", text)
    text = re.sub(r"^\s*[-*]\s+", "- ", text)
    if text.strip().startswith("|"):
        text = "; ".join(c.strip() for c in text.strip().strip("|").split("|"))
    return text


__all__ = ["PlainSession", "may_read"]
