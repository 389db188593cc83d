"""Computer players that work for every game through the core protocol.

Levels (`make_bot(level, game, seed, think=None, iterations=None)`):

- **random**: a uniformly random legal move.
- **greedy**: one ply. Each option is played on sampled worlds (`game.determinize`), the
  rest of the seat's multi-part move is finished step by step (each step the best-looking
  one), and the position is scored with the game's evaluation for computer players
  (`heuristics.value`: its `AIHints.evaluators[""]`, else the game's own `evaluate`).
- **strong**: search over sampled worlds (`search.SearchBot`), per game one of
  - *rollout*: every option is played out on the same sampled worlds by greedy players
    (or the game's own rule player, `AIHints.policy`, where there is one) up
    to a checkpoint (the next round, two rounds on, or the end of the game), and scored
    there; the option greedy would take is kept unless another beats it on those worlds by
    a clear margin;
  - *tree*: information-set Monte Carlo tree search with heuristic leaf values.
  The settings are per game, or per game and player count (`AIHints.search`).

What a bot knows of a particular game comes from that game's package (its `AIHints`, named by
its Title and loaded by `boardgames_tui.engine.core.registry.ai_hints`): nothing here imports a game.
  It thinks for `think` seconds per decision (default 0.6, `$BOARDGAMES_THINK`,
  `boardgames-tui new --think`, `simulate --think`), or for a fixed number of iterations
  (tests: reproducible decisions).

Fair play: a bot reads the real state only through `game.determinize(state, seat, rng)`
with its own seeded rng, and chooses among the prompt's move ids; two states that differ
only in what the seat cannot see give the same decision (tests/conformance/test_bots_fairness.py).

`simulate.simulate` plays bots against each other (the `simulate` command): the levels
rotate through the seats and each deal is played once per rotation.
"""

from .players import LEVELS, Bot, GreedyBot, SearchBot, make_bot

__all__ = ["LEVELS", "Bot", "GreedyBot", "SearchBot", "make_bot"]
