"""The table output's text: prose wrapped at spaces with its line structure kept (tables.prose), and the review's
table fitted to a terminal's width (review.fit_columns)."""

from __future__ import annotations

import pandas as pd

from analysis.review import FIT_ORDER, fit_columns, table_text
from analysis.tables import PROSE_WIDTH, and_list, header_text, prose


def test_prose_wraps_at_spaces_and_keeps_each_line_and_its_indentation():
    bullet = "  - (one Jingo so far, seat free): " + "the Jingo when U is 2 or more, " * 6
    text = "short line\n" + bullet + "\n    indented short line\n" + "word " * 40
    out = prose(text, width=60).split("\n")
    assert all(len(line) <= 60 for line in out)
    assert out[0] == "short line" and "    indented short line" in out  # short lines as they were
    # the bullet's continuation lines sit under its text, past the "- " marker, not at column 0
    start = out.index(bullet[:60].rsplit(" ", 1)[0].rstrip())
    more = out[start + 1 : out.index("    indented short line")]
    assert more and all(line.startswith("    ") and not line.startswith("     ") for line in more)
    assert " ".join(" ".join(out).split()) == " ".join(text.split())  # no word lost or broken
    assert prose(prose(text, width=60), width=60) == prose(text, width=60)
    # a long flag or word stays whole
    assert "--a-very-long-flag-name-that-does-not-fit" in prose(
        "x " * 30 + "--a-very-long-flag-name-that-does-not-fit", width=20
    )


def test_header_lines_wrap_with_their_continuation_indented():
    lines = ["game, 4 players", "a, " * 60]
    out = header_text(lines).split("\n")
    assert out[0] == "game, 4 players" and len(out) > 2 and all(len(x) <= PROSE_WIDTH for x in out)
    assert all(x.startswith("  ") for x in out[2:])
    assert and_list(["a"]) == "a" and and_list(["a", "b", "c"]) == "a, b and c"


def _review_view(rows: int = 3) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "event": range(rows),
            "on_table": ["lead (trick 1)"] * rows,
            "actions": [13] * rows,
            "taken": ["AD"] * rows,
            "best": ["9S (or TS)"] * rows,
            "verdict": ["worse"] * rows,
            "dd_taken": [1] * rows,
            "dd_best": [1] * rows,
            "tricks_taken": [2.828] * rows,
            "tricks_best": [3.578] * rows,
            "win_taken": [0.359] * rows,
            "win_best": [0.547] * rows,
            "score_taken": [0.094] * rows,
            "score_best": [0.297] * rows,
            "loss_win": [0.188] * rows,
            "loss_win 95%": ["0.044 to 0.331"] * rows,
            "loss_score": [0.203] * rows,
            "loss_score 95%": ["0.078 to 0.328"] * rows,
            "hand": ["2C 5C 7C 9C 3D 7D AD 2H 4H 7H JH QH 3S 4S 9S TS"] * rows,
        }
    )


def test_a_review_table_fits_a_terminal_leaving_out_the_least_needed_columns_first():
    view = _review_view()
    wide = max(map(len, table_text(view).splitlines()))
    same, out, fits = fit_columns(view, wide, "loss_win")  # wide enough already: nothing changes
    assert same is view and out == [] and fits
    for width in (160, 120, 100):
        narrow, out, fits = fit_columns(view, width, "loss_win")
        assert fits and max(map(len, table_text(narrow).splitlines())) <= width
        assert out and set(out) | set(narrow.columns) == set(view.columns) and not set(out) & set(narrow.columns)
        # the columns left keep their order, and the decisions, verdicts, double-dummy tricks and the loss the
        # verdicts go by always stay
        assert list(narrow.columns) == [c for c in view.columns if c in narrow.columns]
        assert {"event", "taken", "best", "verdict", "dd_taken", "dd_best", "loss_score"} <= set(narrow.columns)
        assert "hand" in out  # the first to go
    # the loss the verdicts do not go by goes last, after every group of FIT_ORDER
    narrow, out, fits = fit_columns(view, 60, "loss_win")
    assert not fits and "loss_win" in out and "loss_score" in narrow.columns
    assert all(c in out for group in FIT_ORDER for c in group if c in view.columns)
    # an empty review: nothing to fit
    empty = view.iloc[:0]
    assert fit_columns(empty, 60, "loss_win") == (empty, [], True)


def test_the_header_says_what_the_layouts_take_for_cards_the_position_does_not_place():
    """An answer moved from 54% to 0% once a new user named the cards played: where the position leaves cards
    unplaced, the header says so; not where the only card left over is one the deal never deals (Zheng Shangyou's
    3 players with 52 cards deal 51). The counts are notes, not the run's fingerprint (a checkpoint's identity)."""
    from analysis.advisor import say_unseen
    from analysis.games import zheng_shangyou_odds as zo
    from analysis.tables import Result

    hand = "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3C 4C 5C 6C"
    said = []
    for left in (["1=17", "2=17"], ["1=10", "2=17"]):
        spec = zo.odds_spec(players=3, variants={"deck": "3p_52"}, hand=hand, cards_left=left)
        res = Result(pd.DataFrame())
        say_unseen(res, spec)
        said.append(res.meta.get("unseen"))
        assert "unseen_cards" not in spec.describe and spec.notes["undealt"] == 1
    assert said[0] is None
    assert said[1].startswith("the other hands are drawn from the 35 cards the position does not place")
    assert "the 8 left over (1 of them never dealt) are taken to be out of play" in said[1]
    header = "\n".join(Result(pd.DataFrame(), meta={"game": "zheng-shangyou", "unseen": said[1]}).header_lines())
    assert "unseen cards: the other hands are drawn" in header


def test_a_table_ranked_by_no_measure_keeps_its_measures_on_a_narrow_terminal():
    """Fitting an advisor's table to a terminal drops only measures beside the one it is ranked by: a table that
    names none (Bisko-Bobo's swap) is left whole (it had come out as pandas' "Empty DataFrame")."""
    from analysis.tables import Result

    rows = [
        {"measure": m, "seat": 0, "action": a, "verdict": v, "trials": 100, "estimate": e, "std_error": 0.01,
         "ci_low": e - 0.02, "ci_high": e + 0.02}
        for m in ("win", "diff_win")
        for a, v, e in (("swap with seat 1", "best", 0.3), ("do not swap", "worse", 0.25))
    ]  # fmt: skip
    res = Result(pd.DataFrame(rows), meta={"game": "bisko-bobo"}, headline=("win", "diff_win"))
    out = res.to_text(width=60)
    assert "Empty DataFrame" not in out and "left out to fit" not in out
    assert "swap with seat 1" in out and "diff_win" in out


def test_leave_out_to_fit_goes_in_order_and_puts_back_a_narrow_group_where_it_fits():
    """The shared rule of the advisor's and the review's fitting: groups go least needed first until the text fits;
    a group that went before the last one comes back where it fits beside what is left."""
    from analysis.tables import leave_out_to_fit

    widths = {"a": 10, "b": 40, "c": 5}  # each group's share of the width; the rest of the table is 50

    def text_of(out):
        return "x" * (50 + sum(w for k, w in widths.items() if k not in out))

    assert leave_out_to_fit([["a"], ["b"], ["c"]], 200, text_of) == ([], True)
    # 105 wide: "a" goes (95), then "b" (55): fits at 60; "a" comes back? 65 > 60: no
    assert leave_out_to_fit([["a"], ["b"], ["c"]], 60, text_of) == (["a", "b"], True)
    # at 65 "a" comes back beside what is left once "b" is out
    assert leave_out_to_fit([["a"], ["b"], ["c"]], 65, text_of) == (["b"], True)
    # too narrow for anything: every group out, and it says so
    assert leave_out_to_fit([["a"], ["b"], ["c"]], 40, text_of) == (["a", "b", "c"], False)


def test_a_note_wraps_on_a_terminal_and_is_one_line_to_a_pipe(monkeypatch, capsys):
    """tables.note: stderr notes wrap at spaces to the terminal's width, continuation indented; to a pipe one line."""
    import sys

    from analysis.tables import note

    text = "note: " + "word " * 50 + "--a-flag-that-stays-whole"
    note(text)
    assert capsys.readouterr().err == f"cardlab: {text}\n"
    monkeypatch.setenv("COLUMNS", "70")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    note(text)
    lines = capsys.readouterr().err.rstrip("\n").split("\n")
    assert len(lines) > 2 and all(len(x) <= 70 for x in lines) and lines[0].startswith("cardlab: note: ")
    assert all(x.startswith("  ") for x in lines[1:]) and lines[-1].endswith("--a-flag-that-stays-whole")


def test_settled_rows_leave_win_and_score_blank_in_the_text_view():
    """Zheng Shangyou's decisions after the Winner went out (loss_last set): no action moves the win chance or
    the settled score, so the review's text view and report leave those columns blank there; the rows before
    the Winner went out, and the chance to end last, keep their figures."""
    from analysis.review import blank_settled

    t = pd.DataFrame({"event": [3, 9], "win_taken": [0.2, 0.0], "score_best": [-4.0, 0.0], "loss_win": [0.1, 0.0],
                      "loss_score_low": [0.5, 0.0], "last_taken": [None, 0.3], "loss_last": [None, 0.1]})  # fmt: skip
    out = blank_settled(t)
    assert out.loc[0].equals(t.loc[0]) and out.loc[1, ["event", "last_taken", "loss_last"]].tolist() == [9, 0.3, 0.1]
    assert out.loc[1, ["win_taken", "score_best", "loss_win", "loss_score_low"]].isna().all()
    assert t["win_taken"].tolist() == [0.2, 0.0]  # a copy: csv and json keep the zeros
    assert blank_settled(t.drop(columns=["last_taken", "loss_last"])).equals(
        t.drop(columns=["last_taken", "loss_last"])
    )


def test_one_forced_decision_is_named_in_the_singular():
    from analysis.review import _singular

    assert [_singular(w) for w in ("forced passes", "forced cards", "forced choices", "turns with one legal action")] \
        == ["forced pass", "forced card", "forced choice", "turn with one legal action"]  # fmt: skip


def test_a_blank_row_says_why():
    """A conditional measure whose condition no trial met (Bisko-Bobo's dealer at 2 players never has a free
    choice) is blank in the text view, and a note under the table says why; a table without one says nothing."""
    rows = [{"measure": "flingo_when_free", "seat": s, "trials": n, "estimate": e, "ci_low": lo, "ci_high": hi}
            for s, n, e, lo, hi in ((0, 120, 1.0, 0.97, 1.0), (1, 0, None, None, None))]  # fmt: skip
    from analysis.tables import Result

    res = Result(pd.DataFrame(rows), meta={"game": "bisko-bobo"}, headline=("flingo_when_free",))
    why = "(a blank row: no trial of this run met the row's condition, so it has no estimate)"
    assert why in res.to_text()
    res.table = res.table.iloc[:1]
    assert why not in res.to_text()
