"""A new front end in 50 lines: a whole game through `Session`, one line a decision.

Run it from a checkout: `python examples/session_front_end.py [GAME] [SEED]`; type an
option's number at each of your decisions (the computer plays the other seat).
docs/architecture.md walks through it; tests/core/test_architecture.py runs it.
"""

from __future__ import annotations

import sys

from boardgames_tui.engine.core import Match, Seat
from boardgames_tui.session.play import Session


def main(game: str = "notre-dame", seed: int = 1) -> int:
    match = Match.new(game, [Seat("you"), Seat("bot", "random")], seed=seed)
    session = Session(match)  # a local match; a TableSource would make it a shared table
    pos = session.position
    while not pos.over:
        for line in pos.lines:  # what happened since the last position, as you may read it
            print(f"  {line}")
        if pos.handover is not None:  # people sharing the keyboard: nothing private before
            input(f"Pass to {pos.handover.name} and press Enter. ")
            pos = session.hand_over(pos.handover.seat)
        elif pos.computer:
            turn = session.computer()
            if turn is None:  # another terminal plays the computers: wait for its move
                session.poll()
            else:
                move_id, _error = session.think(turn)  # a failing computer: a random move
                session.computer_done(turn, move_id)
        elif pos.decides and pos.prompt is not None:
            print(pos.prompt.text_for(pos.viewer))
            for i, move in enumerate(pos.prompt.moves, start=1):
                print(f"  {i} {move.label}")
            line = sys.stdin.readline()
            if not line:
                return 1  # the input ended before the game
            moves = pos.prompt.moves
            choice = int(line) - 1 if line.strip().isdigit() else -1
            if 0 <= choice < len(moves):
                session.play(moves[choice].id)
        pos = session.position
    result = match.game.result(pos.state)
    print(f"Game over. {result.summary}")
    for score in result.lines:
        print(f"{match.seats[score.seat].name}: {score.score}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2], *[int(a) for a in sys.argv[2:3]]))
