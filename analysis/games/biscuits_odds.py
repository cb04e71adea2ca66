"""Biscuits' advisor (``cardlab odds biscuits``): which two cards to pass to the partner (BI-4), every one of the
pairs of a freshly dealt hand tried on the same sampled deals of the other 39 cards and the same random draws,
each hand played to its end by the chosen models (``../shared/design/positions.md``; the fields are listed in
``seeds/biscuits.md``).

The position: the deciding ``seat``'s 13 dealt cards (``hand``) and the hand's ``starter`` (BI-3). The partner and
the opponents pass by their models at the same time (BI-4), so nothing of their passes is known yet.

The answer: per pass, the chance that the seat's team scores more points this hand than the other (``win``), the
team's points minus the other team's (``score``, BI-8), and the paired differences to the best pass (``diff_win``,
``diff_score``) with 95% intervals and a verdict. The best is the pass with the highest ``score`` (the points are
what the game counts, BI-12); ``--precision P`` holds the differences in points to ±P or clear of zero.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..advisor import advisor_spec, answer_line, position_kwargs, read_position
from ..driver import KernelSpec
from ..driver import run as run_spec
from ..errors import CardlabError
from ..rules import seat_assignments
from ..tables import Result
from .biscuits import DECK, GAME, STRATEGIES, cards_of, rules, variant_array

#: the advisor's default models: the strongest built-in player (positions.md; Biscuits.advisor_model)
DEFAULT_MODEL = "planning"
SEATS = "0 = N, 1 = E, 2 = S, 3 = W; N-S (0, 2) and E-W (1, 3) are partners"
FIELDS = ("seat", "hand", "starter", "decision")


def pass_spec(
    *,
    hand: str,
    seat: int = 0,
    starter: int = 0,
    variants: dict | None = None,
    strategies: list[str] | None = None,
) -> KernelSpec:
    """The advisor's kernel spec for the pass of one dealt hand (see the module docstring)."""
    full = rules().resolve_variants(variants)
    for s, what in ((seat, "--seat"), (starter, "--starter")):
        if not 0 <= s < 4:
            raise CardlabError(f"bad {what} {s}: seats are 0..3 ({SEATS})")
    mask = DECK.mask(hand)
    cards = [c for c in range(52) if (mask >> c) & 1]
    if len(cards) != 13:
        raise CardlabError(f"--hand holds {len(cards)} cards: the pass is made from the 13 dealt cards (BI-4)")
    pool = np.array([c for c in range(52) if not (mask >> c) & 1], dtype=np.int64)
    pairs = list(combinations(cards, 2))
    gives = np.array([(1 << a) | (1 << b) for a, b in pairs], dtype=np.uint64)
    names = [f"pass {cards_of((1 << a) | (1 << b))}" for a, b in pairs]
    models = seat_assignments(strategies, 4, DEFAULT_MODEL, STRATEGIES)
    strat = np.array([STRATEGIES[n] for n in models], dtype=np.int64)
    args = (np.int64(seat), np.uint64(mask), pool, gives, np.int64(starter), strat, variant_array(variants))
    return advisor_spec(
        GAME, "kernels.biscuits:advise_pass_chunks", args, names, on="score",
        players=4, variants=full, strategies=models, seat=seat, hand=cards_of(mask), decision="pass",
        has_last=False, rank_by="score",
    )  # fmt: skip


def position_fields(given: dict, variants: dict | None, strategies) -> dict:
    """The advisor's keywords from a position document (``position``: a JSON file) and the flags given (which
    override it); a document's ``variants`` and ``models`` are used unless flags name them."""
    path = given.pop("position", None)
    doc = read_position(path, GAME, FIELDS) if path else {}
    return position_kwargs(doc, given, FIELDS, variants, strategies)


def odds(run: dict, variants: dict | None = None, strategies: list[str] | None = None, **position) -> Result:
    """Run the advisor on one position; the table has a row per action and measure (module docstring)."""
    decision = position.pop("decision", None) or "pass"
    if decision != "pass":
        raise CardlabError(
            f"decision {decision!r}: the Biscuits advisor answers the pass (BI-4) so far; accepted: pass"
        )
    spec = pass_spec(variants=variants, strategies=strategies, **position)
    result = run_spec(spec, **run)
    result.meta["answer"] = answer_line(result.table, "team ahead this hand", "net points", by_score=True)
    result.meta["models"] = spec.describe["strategies"]
    return result
