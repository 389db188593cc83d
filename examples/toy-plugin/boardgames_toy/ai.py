"""What the computer players know of Toy (loaded only when one plays it)."""

from engine.core.titles import AIHints, SearchSettings

from .game import ToyState


def turns(state: ToyState) -> int:
    """A playout checkpoint: a new round once every seat has played."""
    return state.turn // len(state.names)


def stones(state: ToyState, seat: int) -> float:
    """Stones taken so far, and half a stone for each card in hand."""
    return state.scores[seat] + 0.5 * sum(state.hands[seat])


AI = AIHints(
    scale=2.0,  # two stones make a clear lead
    search={0: SearchSettings(mode="rollout", horizon="2")},
    evaluators={"": stones},
    checkpoint=turns,
)
