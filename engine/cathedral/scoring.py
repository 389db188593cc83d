"""The result of a game of The Cathedral of Orléans: the team's sections (everybody wins or
everybody loses), with where each section came from."""

from __future__ import annotations

from ..core.protocol import Result, ScoreLine
from . import data
from .state import CathedralState


def result(s: CathedralState) -> Result:
    """Final (during play: provisional) result; every seat scores the sections built."""
    sources: dict[str, int] = {}
    for src in s.section_log:
        sources[src] = sources.get(src, 0) + 1
    breakdown: list[tuple[str, float | str]] = [(k, float(n)) for k, n in sources.items()]
    lines = [
        ScoreLine(seat=i, score=float(s.sections), breakdown=list(breakdown), rank=1)
        for i in range(len(s.names))
    ]
    if s.won:
        summary = f"The cathedral is built in round {s.round}: everybody wins!"
        winners = list(range(len(s.names)))
    elif s.over:
        summary = (
            f"Only {s.sections} of {data.SECTIONS} sections after round {data.ROUNDS}: "
            "everybody loses."
        )
        winners = []
    else:
        summary = f"Round {s.round}: {s.sections} of {data.SECTIONS} sections built so far."
        winners = []
    return Result(winners, lines, summary, cooperative=True, details=_details(s))


def _details(s: CathedralState) -> list[str]:
    details = [f"Cathedral sections built: {s.sections} of {data.SECTIONS}"]
    details += [f"Section {i + 1}: {src}" for i, src in enumerate(s.section_log)]
    if s.sections == data.SECTIONS - 1:
        details.append(f"Missing: section {data.SECTIONS}")
    elif s.sections < data.SECTIONS:
        details.append(f"Missing: sections {s.sections + 1}-{data.SECTIONS}")
    done = [data.WORKSHOP_BY_KEY[w.key].name for w in s.workshops if w.done]
    open_ = [data.WORKSHOP_BY_KEY[w.key].name for w in s.workshops if not w.done]
    details.append(f"Workshops fulfilled: {', '.join(done) or 'none'}")
    if open_:
        details.append(f"Workshops unfinished: {', '.join(open_)}")
    details.append(
        "Hourglass tiles fulfilled: "
        + (", ".join(data.HOURGLASS_BY_KEY[h].name for h in s.hourglass_done) or "none")
    )
    details.append(f"Blueprints flipped: {len(s.blueprints_flipped)}")
    return details
