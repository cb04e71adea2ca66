"""The advisors' answer table, shared by every game (``../shared/design/positions.md``): one row per action and
measure from :mod:`kernels.advise`'s count row, the paired differences to the best action, the verdicts, the
precision rule and the one-line answer.

A spec's ``describe`` names the ``actions``, the deciding ``seat`` and, optionally: ``has_last`` (False where a
game has no losing event: no ``last`` rows), ``rank_by`` (``"win"``, the default, or ``"score"``: which measure
picks the best action, the other breaking ties; the verdict follows it; or ``"last"``: the chance to end last,
lowest first, where nothing else is left to move, e.g. Zheng Shangyou once the Winner is out and the scores
taken), ``win_words`` and ``score_words`` (how the answer line names the two, default "goes out first" and
"score").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from kernels.advise import A_FIELDS, A_LAST, A_PAIR, A_SAMPLES, A_SCORE, A_SCORE_SQ, A_WIN, advise_width, pair_index

from .driver import KernelSpec
from .errors import CardlabError
from .rules import strategy_items
from .stats import mean_interval, paired_difference, wilson
from .tables import and_list

#: the order of an advisor's table by verdict (each group in the ranking's order)
VERDICT_ORDER = {"best": 0, "equal": 1, "uncertain": 2, "worse": 3}


def tabulate_actions(
    counts: np.ndarray, trials: int, spec: KernelSpec, ranking: list[int] | None = None
) -> pd.DataFrame:
    """The table of one count row; ``ranking``: the actions best first when the game ranks them by more than
    the row holds (Bismarck: round score, then the quota, then tricks); by default the row's own measures."""
    names = spec.describe["actions"]
    A = len(names)
    c = np.asarray(counts, dtype=np.float64)
    n = c[A_SAMPLES]
    per = c[1 : 1 + A_FIELDS * A].reshape(A, A_FIELDS)
    pairs = c[1 + A_FIELDS * A :].reshape(-1, A_PAIR)
    win, score, score_sq, last = per[:, A_WIN], per[:, A_SCORE], per[:, A_SCORE_SQ], per[:, A_LAST]
    rank_by = spec.describe.get("rank_by", "win")
    by_score = rank_by == "score"

    def key(a: int) -> tuple:
        if rank_by == "last":
            return (-last[a],)  # the lowest chance to end last first
        return (score[a], win[a]) if by_score else (win[a], score[a])

    if ranking is None:
        ranking = sorted(range(A), key=lambda a: (*(-x for x in key(a)), a))
    best = ranking[0] if n else 0

    def cross(a: int, b: int) -> tuple[float, float, float]:
        if a == b:
            return win[a], score_sq[a], last[a]
        p = int(pair_index(min(a, b), max(a, b), A))
        return pairs[p, 0], pairs[p, 1], pairs[p, 2]

    seat = spec.describe["seat"]
    rows = []
    has_last = spec.describe.get("has_last", True)
    measures = ["win", "score", "last", "diff_win", "diff_score", "diff_last"]
    if not has_last:
        measures = [m for m in measures if m not in ("last", "diff_last")]
    zero = (0.0, 0.0, 0.0, 0.0)
    judged = []
    for a in ranking:  # best first
        ww, ss, ll = cross(a, best)
        dw, dw2 = win[a] - win[best], win[a] + win[best] - 2 * ww
        ds, ds2 = score[a] - score[best], score_sq[a] + score_sq[best] - 2 * ss
        dl, dl2 = last[a] - last[best], last[a] + last[best] - 2 * ll
        e_w = wilson(win[a], n)
        e_s = mean_interval(score[a], score_sq[a], n)
        e_l = wilson(last[a], n)
        d_w = paired_difference(dw, dw2, n) if a != best else zero
        d_s = paired_difference(ds, ds2, n) if a != best else zero
        d_l = paired_difference(dl, dl2, n) if a != best else zero
        first, second = (d_s, d_w) if by_score else (d_w, d_s)
        if a == best:
            verdict = "best"
        elif d_w[:2] == (0.0, 0.0) and d_s[:2] == (0.0, 0.0) and d_l[:2] == (0.0, 0.0):
            # the best's outcome on every sampled layout: no difference and no spread in any measure (the losing
            # event paired too, so Zheng Shangyou's suit-for-suit copies of a play read "equal")
            verdict = "equal"
        elif rank_by == "last":
            verdict = "worse" if d_l[2] > 0 else "uncertain"  # more often last than the best, on the same layouts
        else:
            verdict = "worse" if first[3] < 0 or (first[3] <= 0 and second[3] < 0) else "uncertain"
        judged.append((a, verdict, {"win": e_w, "score": e_s, "last": e_l, "diff_win": d_w, "diff_score": d_s,
                                    "diff_last": d_l}))  # fmt: skip
    # the best, the actions the same on every layout, those not separated from it, then the clearly worse, each
    # group in the ranking's order: a clearly worse action whose estimate lies above one not separated from the
    # best (a tighter paired difference) had been listed above it, and read as a contradiction
    judged.sort(key=lambda j: VERDICT_ORDER[j[1]])  # stable: the ranking within a group
    for a, verdict, values in judged:
        for measure in measures:
            e, se, lo, hi = values[measure]
            rows.append(
                {
                    "measure": measure,
                    "seat": seat,
                    "action": names[a],
                    "verdict": verdict,
                    "trials": int(n),
                    "estimate": float(e),
                    "std_error": float(se),
                    "ci_low": float(lo),
                    "ci_high": float(hi),
                }
            )
    df = pd.DataFrame(rows)
    df["seat"] = df["seat"].astype("Int64")
    return df


def precision_done(table: pd.DataFrame, precision: float, measure: str = "diff_win") -> bool:
    """positions.md: every paired difference (``measure``) to the best within ±precision or clear of zero."""
    d = table[table["measure"] == measure]
    d = d[d["verdict"] != "best"]
    half = (d["ci_high"] - d["ci_low"]) / 2
    return bool(((half <= precision) | (d["ci_high"] < 0) | (d["ci_low"] > 0)).all())


def answer_line(
    table: pd.DataFrame,
    win_words: str = "goes out first",
    score_words: str = "score",
    by_score: bool = False,
    only_words: str = "the only legal action",
    runner_up: Callable[[str, str], str] | None = None,
) -> str:
    """The one-line answer: the best action, its win event and payoff, and the runner-up's (the table is the
    best first, then the actions not clearly worse, then the clearly worse: the runner-up is its second action;
    ``by_score``: the payoff ranks the actions and is named first; ``only_words``: what a table of one row is,
    where that row stands for more than one legal action, e.g. equal cards). ``runner_up``: a game's own words for
    the runner-up, given its action and the verdict's words ("clearly worse", "not separated", ...), where the
    table's other measures say more (Zheng Shangyou's: clearly lower in score; Bismarck's: what separates it).
    Where actions are "uncertain" (not separated from the best at 95%), a second sentence counts them: the best is
    then the best by the estimate, which more trials may change."""
    w = table[table["measure"] == "win"].reset_index(drop=True)
    s = table[table["measure"] == "score"].set_index("action")["estimate"]
    best = w[w["verdict"] == "best"].iloc[0]
    a = best["action"]
    verb = "Pass" if a == "pass" else (a[0].upper() + a[1:] if " " in a and a.split()[0].islower() else f"Play {a}")

    def both(action: str, p: float, first: bool) -> str:
        win = f"{100 * p:.1f}%"
        score = f"{s[action]:+.2f}"
        if first:
            return (
                f"{score_words} {score}, {win_words} {win}" if by_score else f"{win_words} {win}, {score_words} {score}"
            )
        return f"{score}, {win}" if by_score else f"{win}, {score}"

    if len(w) == 1:
        return f"{verb}: {only_words} ({both(a, best['estimate'], True)})"
    text = f"{verb}: {both(a, best['estimate'], True)} (best"
    rest = w[w["verdict"] != "best"]
    if len(rest):
        r = rest.iloc[0]
        how = {"worse": "clearly worse", "equal": "the same on every layout"}.get(r["verdict"], "not separated")
        if runner_up is not None:
            how = runner_up(r["action"], how)
        text += f"; next {r['action']}: {both(r['action'], r['estimate'], False)}, {how}"
    return text + ")" + the_others(rest)


def the_others(rest: pd.DataFrame) -> str:
    """The answer's sentences on the actions besides the best and the runner-up it names (``rest``: the rows of
    one measure but the best's, in the table's order, the runner-up first): every action the same as the best on
    every layout by name (a new user found one listed "equal" in the table and not in the answer, which had named
    the first of them alone); and where actions are not separated from the best, that more trials may change
    which is best (a run too short to tell them apart names one of them "best", and a longer one may name another:
    a new user took it as settled)."""
    if not len(rest):
        return ""
    text = ""
    same = [x for x in dict.fromkeys(rest[rest["verdict"] == "equal"]["action"]) if x != rest["action"].iloc[0]]
    if same:
        also = " as well" if rest["verdict"].iloc[0] == "equal" else ""
        text += f". The same as the best on every layout{also}: {and_list(same)}"
    k = int(rest[rest["verdict"] == "uncertain"]["action"].nunique())
    if k == 1 and rest["verdict"].iloc[0] == "uncertain":  # the runner-up named just before, alone
        text += ". More trials may change which of the two is best"
    elif k:
        who = "1 other action is" if k == 1 else f"{k} other actions are"
        text += f". {who} not separated from it at 95%: more trials may change which is best"
    return text


def read_position(path: str | dict, game: str, accepted: tuple[str, ...]) -> dict:
    """A position document (JSON) of ``game``: its fields checked against ``accepted`` (besides ``game``,
    ``variants``, ``models`` and ``players``); ``models`` as ``--strategy`` values (``"planning"`` or
    ``{"1": "planning"}``). ``path`` is a file, or the document itself (``cardlab serve``'s request body), which
    is copied, never changed."""
    import copy

    from .outputs import read_json

    where = position_label(path)
    if isinstance(path, dict):
        doc = copy.deepcopy(path)
    elif _is_json_text(path):
        import json

        try:
            doc = json.loads(path)
        except ValueError as e:
            raise CardlabError(f"{where} is not valid JSON: {e}") from None
    else:
        doc = read_json(path, where)
    if not isinstance(doc, dict):
        raise CardlabError(f"{where}: expected a JSON object of position fields")
    if doc.get("game", game) != game:
        raise CardlabError(f"{where} is a {doc['game']} position, not {game}")
    unknown = sorted(set(doc) - set(accepted) - {"game", "variants", "models", "players"})
    if unknown:
        raise CardlabError(
            f"{where}: unknown field {unknown[0]!r}; accepted: {', '.join(accepted)}, and game, players, variants, "
            "models"
        )
    _check_types(doc, where)
    models = doc.get("models")
    if isinstance(models, dict):
        doc["models"] = [f"{k}={v}" for k, v in models.items()]
    elif isinstance(models, str):
        doc["models"] = [models]
    return doc


def position_label(path: str | dict) -> str:
    """How messages name a position document: its ``--position`` file, or "the position" (a request body)."""
    if isinstance(path, dict):
        return "the position"
    return "--position (the JSON given)" if _is_json_text(path) else f"--position {path!r}"


def _is_json_text(path: str) -> bool:
    """Whether ``--position`` gave the document itself on the command line (JSON text), not a file name."""
    return path.lstrip().startswith("{")


def say_unseen(result, spec: KernelSpec) -> None:
    """Where a position leaves cards unplaced (the cards played not named: they may be in any hand), the header says
    what the sampled layouts take for them (``meta["unseen"]``): a new user's answer moved from 54% to 0% once the
    cards played were named, and nothing had said what was assumed. ``spec.notes``: ``unseen_cards`` (the cards the
    position does not place), ``left_over`` (how many of them no hand holds) and ``undealt`` (of those, the cards
    the deal leaves out: Zheng Shangyou's 3 players with 52 cards deal 51, so one card is in no hand from the
    start), and ``placed_by`` (the options that place cards, where a game has more than the common ones). Nothing is
    said where every card left over is one the deal leaves out."""
    notes = spec.notes
    spare, undealt = notes.get("left_over", 0), notes.get("undealt", 0)
    if spare > undealt:
        never = f" ({undealt} of them never dealt)" if undealt else ""
        result.meta["unseen"] = (
            f"the other hands are drawn from the {notes['unseen_cards']} cards the position does not place (not in "
            f"{notes.get('placed_by', '--hand, on the table, --played or --known')}); the {spare} left over{never} are "
            "taken to be out of play, "
            f"any {spare} of them on each layout: --played names the cards played where you know them"
        )


def unseen_sentence(meta: dict) -> str:
    """A report's sentence on what an advisor's layouts took for the unplaced cards (:func:`say_unseen`), or "" where
    the position places every card."""
    return f" The cards played are not named: {meta['unseen']}." if meta.get("unseen") else ""


def advisor_spec(
    game: str,
    kernel: str,
    args: tuple,
    actions: list[str],
    *,
    on: str = "win",
    chunk_size: int | None = None,
    notes: dict | None = None,
    **describe: Any,
) -> KernelSpec:
    """The kernel spec of an advisor run: ``actions`` named as the table shows them, the count row of
    :mod:`kernels.advise`, the table of :func:`tabulate_actions`, precision on the paired differences of ``on``
    (``win``, ``score`` or ``last``: the ranking measure); ``describe`` holds players, variants, strategies, seat, hand
    and the game's own keys (rank_by, has_last, decision). ``chunk_size``: small where the models search
    (``KernelSpec.chunk_size``)."""
    return KernelSpec(
        game=game,
        kernel=kernel,
        args=args,
        n_counts=advise_width(len(actions)),
        tabulate=tabulate_actions,
        describe={**describe, "actions": list(actions), "analysis": "advisor"},
        precision_measures=(on, f"diff_{on}"),
        precision_done=partial(precision_done, measure=f"diff_{on}"),
        chunk_size=chunk_size,
        notes=notes or {},
    )


def position_kwargs(
    doc: dict, given: dict, fields: tuple[str, ...], variants, strategies, needs_hand: bool = True
) -> dict:
    """An advisor's keywords: a position document's ``fields``, overridden by the flags ``given``; the
    document's ``variants`` and ``models`` unless flags name them. ``needs_hand``: a decision taken before
    the seat sees its hand has none."""
    out: dict[str, Any] = {k: v for k, v in doc.items() if k in fields and v is not None}
    override(out, given)
    if needs_hand and "hand" not in out:
        raise CardlabError("give --hand (or a --position document with a hand)")
    out["variants"] = variants if variants else doc.get("variants")
    out["strategies"] = strategy_items(strategies) or doc.get("models")
    return out


def override(out: dict, given: dict) -> None:
    """The flags ``given`` over a position document's fields ``out`` (in place): a flag given replaces the field,
    and a SEAT=VALUE option (``--cards-left``, ``--known``, ``--won``) replaces the seats it names only."""
    for k, v in given.items():
        if v is None or v is False:
            continue
        out[k] = _by_seat(out[k], v) if k in out and _seat_pairs(out[k]) and _seat_pairs(v) else v


def _seat_pairs(value: Any) -> bool:
    """Whether ``value`` is a seat map as a document or flags give one: ``{"1": 13}`` or ``["1=13", ...]``."""
    if isinstance(value, dict):
        return True
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(x, str) and "=" in x for x in value)


def _by_seat(doc: Any, flags: list[str]) -> list[str]:
    """A document's seat map with the flags' seats replacing its own (the flags' own repeats stay errors)."""
    pairs = doc.items() if isinstance(doc, dict) else (str(x).partition("=")[::2] for x in doc)
    flagged = {str(x).partition("=")[0].strip() for x in flags}
    return [f"{k}={v}" for k, v in pairs if str(k).strip() not in flagged] + list(flags)


def seat_map(items, what: str, P: int) -> dict[int, str]:
    """``["1=13", "2=5"]`` or ``{"1": 13}`` to ``{seat: value}``, seats checked."""
    out: dict[int, str] = {}
    pairs = items.items() if isinstance(items, dict) else (str(x).partition("=")[::2] for x in items or [])
    for seat, value in pairs:
        try:
            s = int(str(seat).strip())
        except ValueError:
            raise CardlabError(f"bad {what} {seat}={value}: expected SEAT=VALUE") from None
        if not 0 <= s < P:
            raise CardlabError(f"bad seat {s} in {what}: seats are 0..{P - 1}")
        if s in out:
            raise CardlabError(f"seat {s} given twice in {what}")
        if "=" in str(value):
            raise CardlabError(
                f"bad {what} {seat}={value}: one SEAT=VALUE each time; repeat {what} for each seat "
                f"({what} 1=... {what} 2=...)"
            )
        out[s] = str(value).strip()
    return out


def seat_counts(items, what: str, P: int, noun: str = "a whole number") -> dict[int, int]:
    """:func:`seat_map` whose values are whole numbers (cards held, tricks won), each checked."""
    out: dict[int, int] = {}
    for s, v in seat_map(items, what, P).items():
        try:
            out[s] = int(v)
        except ValueError:
            raise CardlabError(f"bad {what} {s}={v}: expected {noun}") from None
    return out


#: the position fields' JSON types (positions.md), checked before any use
_INT_FIELDS = {"seat", "by", "starter", "loser", "players", "jingos_so_far"}
_SEAT_LIST_FIELDS = {"finished", "never_played", "trick_passed", "jingo", "declined"}
_TEXT_FIELDS = {
    "hand",
    "current",
    "played",
    "passed",
    "received",
    "exchange_received",
    "decision",
    "upright",
    "tucked",
    "jingo_card",
    "seen",
}
_MAP_FIELDS = {"cards_left": '{"1": 9}', "known": '{"1": "AS"}', "hand_points": '{"NS": 3, "EW": 0}',
               "score": '{"NS": 12, "EW": 8}', "variants": '{"NAME": "VALUE"}', "opening": '{"0": "AH KD"}',
               "flingo": '{"0": "QD"}', "low": '{"2": "4H"}', "swapped": '{"2": 0}'}  # fmt: skip


def _check_types(doc: dict, where: str) -> None:
    """Each field of a position document has its JSON type, refused in one line otherwise; a single seat where a
    list of seats is expected is taken as that list."""
    for k, v in list(doc.items()):
        if k in _INT_FIELDS and (isinstance(v, bool) or not isinstance(v, int)):
            raise CardlabError(f"{where}: {k!r} is a seat or count number, e.g. 2; got {json_text(v)}")
        if k in _SEAT_LIST_FIELDS:
            if isinstance(v, int) and not isinstance(v, bool):
                doc[k] = [v]
            elif not isinstance(v, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
                raise CardlabError(f"{where}: {k!r} is a list of seats, e.g. [2]; got {json_text(v)}")
        if k in _TEXT_FIELDS and not isinstance(v, str):
            raise CardlabError(f'{where}: {k!r} is a string of cards or words, e.g. "5S 5H"; got {json_text(v)}')
        if k in _MAP_FIELDS and not isinstance(v, dict):
            raise CardlabError(f"{where}: {k!r} is an object, e.g. {_MAP_FIELDS[k]}; got {json_text(v)}")


def json_text(v: Any) -> str:
    import json

    return json.dumps(v)
