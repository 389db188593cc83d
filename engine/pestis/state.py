"""The state of a game of 1347: plain lists indexed by seat and by area (0-5, activation order)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from boardgames_tui.engine.core.decisions import Decision
from boardgames_tui.engine.core.protocol import BaseState


@dataclass(slots=True)
class PestisDecision(Decision):
    """A pending decision of 1347 (see decisions.py for the kinds).

    The steps of an investment turn carry what the seat chose so far; the other kinds read
    the stage's fields of the state (the area being activated, the points left, the victim).
    """

    value: int | None = None  # the token being invested, or moved by a Forged seal
    area: int | None = None  # the area the token goes to (asked: its reinforcements)
    target: int | None = None  # the seat named by a Plague spreader
    source: int | None = None  # the area a Forged seal moves a token from


class Reveal(TypedDict):
    """What the reveal of an area showed, per seat (kept until the end of the round)."""

    tokens: list[list[int]]  # the face-down tokens, highest first
    reinf: list[int]
    gdtok: list[int]
    totals: list[int]
    who: list[int]  # the seats that took part
    active: int  # -1: nobody reached 1 point


# The steps of one investment turn, each with the name of its first part as layout 1 of the
# state kept it (`pend`): every other kind is named as layout 1 named it (`dec`).
INVEST_STEPS = {
    "invest": "",
    "token": "tok",
    "reinforce": "tok",
    "law": "gd",
    "spreader": "spreader",
    "spreader_area": "spreader",
    "seal": "seal",
    "seal_area": "seal",
    "leeches": "leeches",
    "quarantine": "quarantine",
    "informer": "informer",
    "theriac": "theriac",
}


@dataclass
class PestisState(BaseState):
    """Everything needed to continue a game of 1347.

    Per-seat lists are indexed by seat, per-area lists by area index (see data.AREAS).
    Grave-diggers are per colour (a seat's colour is its index): each one is in exactly one of
    reserve, Agrus, a development, the docks, or invested (reinforcement or law token).
    """

    n: int = 0
    round: int = 1
    phase: str = "invest"  # invest | action | upkeep | event | over
    first: int = 0  # First Player of the round
    bank_net: int = 0  # coins paid out by the (unlimited) bank minus coins paid in

    # ---- holdings ------------------------------------------------------------------------
    coins: list[int] = field(default_factory=list)
    reserve: list[int] = field(default_factory=list)  # grave-diggers in the reserve
    agrus: list[int] = field(default_factory=list)  # grave-diggers working in Agrus
    docks: list[int] = field(default_factory=list)  # grave-diggers of each colour at the docks
    hand: list[list[int]] = field(default_factory=list)  # influence token values not invested
    subjects: list[dict[str, bool]] = field(default_factory=list)  # type -> healed
    devs: list[list[str]] = field(default_factory=list)
    res_hand: list[list[str]] = field(default_factory=list)
    res_played: list[list[str]] = field(default_factory=list)
    # Cards in a hand that everybody knows (bought face up; forgotten after a robbery).
    res_known: list[list[str]] = field(default_factory=list)

    # ---- board ---------------------------------------------------------------------------
    invest: list[list[list[int]]] = field(default_factory=list)  # [area][seat] token values
    reinf: list[list[int]] = field(default_factory=list)  # [area][seat] reinforcements
    gdtok: list[list[int]] = field(default_factory=list)  # [area][seat] law grave-digger tokens
    revealed: list[bool] = field(default_factory=list)  # [area]
    res_deck: list[str] = field(default_factory=list)  # top card (face up) is the last
    res_discard: list[str] = field(default_factory=list)
    subj_deck: list[str] = field(default_factory=list)  # top is the last
    subj_discard: list[str] = field(default_factory=list)
    burgus: list[str] = field(default_factory=list)
    event_decks: list[list[str]] = field(default_factory=list)  # per period, top is the last
    event: str = ""
    events_seen: list[str] = field(default_factory=list)

    # ---- this round's effects of resource cards -----------------------------------------
    blocked: list[list[int]] = field(default_factory=list)  # [seat] areas closed to the seat
    quarantined: list[bool] = field(default_factory=list)  # [area] no reinforcements
    leeches: list[list[int]] = field(default_factory=list)  # [area][seat] bonus
    relic: list[bool] = field(default_factory=list)
    remedy: list[bool] = field(default_factory=list)
    informed: list[list[list]] = field(default_factory=list)  # [seat] [[area, owner, values]]
    returned: list[list[int]] = field(default_factory=list)  # [seat] tokens back from reveals

    # ---- investments stage --------------------------------------------------------------
    turn: int = 0  # seat whose investment turn it is
    gd_used: list[bool] = field(default_factory=list)  # law token invested this round
    gd_passed: list[bool] = field(default_factory=list)  # declined the law token this round

    # ---- decisions ----------------------------------------------------------------------
    pending: list[PestisDecision] = field(default_factory=list)  # the head decides now
    area: int = 0  # area being activated
    active: int = -1  # active player of that area
    budget: int = 0  # Burgus / Suburbium points left
    victim: int = -1
    acts: list[str] = field(default_factory=list)  # Schola Medica actions taken
    buys: int = 0  # resources bought in Mercatus
    conv: list[list[int]] = field(default_factory=list)  # [seat, value, is_gd_token] to convert
    up_seat: int = 0  # seat doing its upkeep
    up_count: int = 0  # seats done
    heal_used: list[str] = field(default_factory=list)  # cheap heals used ("lazaretum", ...)
    paid: list[str] = field(default_factory=list)  # subjects whose upkeep is paid this upkeep
    wave_left: list[int] = field(default_factory=list)  # seats still to discard (Wave of deaths)
    results: list[Reveal | None] = field(default_factory=list)  # [area] what its reveal showed
    # The setup's log lines (first event, Burgus, round 1): written out with the first move.
    opening: list[str] = field(default_factory=list)

    @property
    def dec(self) -> str:
        """The kind of the pending decision as layout 1 named it: "invest" for every step of
        an investment turn, "" when nothing is pending."""
        if not self.pending:
            return ""
        kind = self.pending[0].kind
        return "invest" if kind in INVEST_STEPS else kind
