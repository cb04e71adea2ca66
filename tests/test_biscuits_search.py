"""The Biscuits search player (issue 37; kernels/biscuits/search.py): complete and reproducible hands, a play that
goes out taken at once, a searching team ahead of a planning team on the same deals, its strategy syntax."""

from __future__ import annotations

import numpy as np
import pytest

from analysis import driver
from analysis.errors import CardlabError
from analysis.games import biscuits as bi
from analysis.games import biscuits_odds as bo
from analysis.jackknife import chunk_size_for
from kernels import biscuits as K
from kernels import rng
from tests.same_counts import assert_same_counts


def test_hands_with_search_seats_are_complete_and_reproducible():
    spec = bi.simulation_spec(strategies=["planning", "0=search:30", "2=search:30"], unit="hand")
    assert spec.kernel.endswith("simulate_search_chunks")
    a = driver.run(spec, trials=60, seed=4, chunk_size=60, progress=False, threads=1)
    # two threads, each on chunks of the spec's size (small with a search seat; smaller for so short a run, which
    # the jackknife of the pooled rows cuts into 32 chunks): the same counts
    b = driver.run(spec, trials=60, seed=4, progress=False, threads=2)
    assert b.meta["chunk_size"] == chunk_size_for(60, bi.SEARCH_CHUNK) < 60
    assert_same_counts(a.table, b.table)
    assert bi.compare_spec("planning", "search").chunk_size == bi.SEARCH_CHUNK
    from analysis.games.biscuits_odds import pass_spec

    hand = "2C 3D 4H 5S 7C 8D 9H TS JC QD KH AS 6C"
    assert pass_spec(hand=hand, strategies=["search:20"]).chunk_size == bi.SEARCH_CHUNK  # the advisor's too
    assert pass_spec(hand=hand).chunk_size is None
    assert bi.simulation_spec(strategies=["planning"]).chunk_size is None  # the default, 4,096
    t = a.table
    first = t[(t.measure == "out_first") & t.seat.notna()]
    assert len(first) == 4 and first.successes.sum() == 60  # one seat goes out first in every hand (BI-8)
    assert not bi.simulation_spec(strategies=["planning"]).kernel.endswith("search_chunks")


def test_a_play_that_goes_out_is_taken_at_once():
    hands = np.array([bi.to_mask(h) for h in ("9S 9H", "3D 4D 5D", "6C 7C 8C", "2H 3H 4H")], dtype=np.uint64)
    counts = np.array([2, 3, 3, 3], dtype=np.int64)
    strat = bi.strategy_rows(["search:50"] * 4)
    st = rng.new_state()
    rng.seed_state(st, np.uint64(1), np.uint64(2), np.uint64(0), np.uint64(0))
    rec = np.zeros((4, K.H_FIELDS), dtype=np.int64)
    moves = np.zeros(K.MAX_MOVES, dtype=np.uint64)
    play = K.search_play(hands, counts, np.zeros(2, dtype=np.int64), 0, 0, 0, 0, 0, 0, 0, strat, st, rec, moves,
                         bi.variant_array({}), 0, 0, 1 << 40)  # fmt: skip
    assert bi.cards_of(int(play)) == bi.cards_of(bi.to_mask("9S 9H"))


def test_a_searching_team_beats_a_planning_team_on_the_same_deals():
    """Both teams in turn switch to search on the same deals (paired with the all-planning hand): at 60 rollouts a
    play the searching team's points a hand are clearly above planning's (make bench measures the default on 2,000
    deals: about +2.7)."""
    spec = bi.compare_spec("planning", "search:60")
    assert spec.kernel.endswith("compare_search_chunks")
    t = driver.run(spec, trials=60, seed=11, progress=False).table  # in 32 chunks or more (the pooled row's jackknife)
    pooled = t[t.team.isna()].iloc[0]
    assert pooled.ci_low > 0, pooled


def test_the_verdict_names_the_players_as_the_header_does():
    """compare's one-line verdict names a search player with its budget, as the header and the rows do (it had
    said 'search against planning' where the header said search:400)."""
    from analysis.games import get
    from analysis.games.base import RunOptions

    r = get("biscuits").compare("planning", "search:20", run=RunOptions(trials=16, seed=1, progress=False))
    assert r.meta["verdict"].startswith("search:20 against planning (pooled over the teams)"), r.meta["verdict"]
    r = get("biscuits").compare("search", "planning", run=RunOptions(trials=4, seed=1, progress=False))
    assert r.meta["verdict"].startswith(f"planning against search:{bi.SEARCH_BUDGET} "), r.meta["verdict"]


@pytest.mark.parametrize("name", ["search:0", "search:x", "search:10:-1", "search:1:2:3"])
def test_bad_search_names_are_refused(name):
    with pytest.raises(CardlabError, match="bad strategy"):
        bi.simulation_spec(strategies=[name])


def test_the_search_player_as_a_model_in_records_and_reviews():
    """Everywhere a strategy name is: the advisor's models (its search kernels), a record (the first hand of simulate
    with the same seed and players: the same points), a review of that record against search models; the win
    table (the field's own play) refuses it."""
    from analysis.games import biscuits_review as br

    assert list(bi.strategy_rows(["search:500:1.5"])[0][4:]) == [500, 1500]
    assert list(bi.strategy_rows(["search"])[0][4:]) == [bi.SEARCH_BUDGET, -1]  # sequential halving
    spec = bo.pass_spec(hand="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", strategies=["search:10"])
    assert spec.kernel.endswith("advise_pass_search_chunks")
    t = driver.run(spec, trials=4, chunk_size=4, seed=1, progress=False).table
    assert (t[t.measure == "win"].trials == 4).all()
    doc = br.record(seed=3, strategies=["planning", "1=search:30"])
    assert doc["strategies"]["1"] == "search:30"  # the budget spelled out (sequential halving)
    sim = driver.run(bi.simulation_spec(strategies=["planning", "1=search:30"], unit="hand"), trials=1, seed=3,
                     progress=False).table  # fmt: skip
    pts = sim[(sim.measure == "team_points_per_hand") & sim.seat.notna()].set_index("seat").estimate
    assert [doc["result"]["points"][k] for k in ("NS", "EW")] == [pts[0], pts[1]]
    res = br.review(doc, seat=1, precision=0.9, max_trials=8, chunk_size=8)
    assert "search:30" in res.meta["strategies"] and len(res.table) > 0
    with pytest.raises(CardlabError, match="not available in the win table"):
        bi.win_table_spec("search")


@pytest.mark.parametrize("explore", [-1, 700], ids=["halving", "ucb1"])
@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_the_kernel_chooses_the_reference_play_on_the_same_layouts(k, explore):
    """The advisor's play positions (tests/test_biscuits_odds.py IN_HAND), each layout of a few samples taken as
    the true hands: on the same layouts (the kernel's deal of the unseen cards on the rollout stream) and the same
    rollout draws, the reference's search (tests/reference/biscuits.py search_play: sequential halving or UCB1,
    planning rollouts by the reference hand) chooses the kernel's play."""
    from kernels.ucb import rollout_stream
    from tests.reference import biscuits as ref
    from tests.test_biscuits_game import legal_for
    from tests.test_biscuits_odds import IN_HAND, PHASES, _codes, _layouts

    spec = bo.state_spec(strategies=["planning"], **IN_HAND[k])
    (seat, _known, _pool, _counts, points0, out_count, turn, last, cur_kind, cur_key, passes, locked, phase,
     _fkind, _fvals, strat, bv, score0, score1, target) = spec.args  # fmt: skip
    assert PHASES[int(phase)] == "turn" and turn == seat
    legal = legal_for(bv)
    v = {"pass_locks_out": "true" if bv[K.V_PASS_LOCKS_OUT] else "false",
         "game_end_check": "immediate" if bv[K.V_END_IMMEDIATE] else "end_of_hand"}  # fmt: skip
    budget = 30
    # the special actions by coin and random cards (BI-9): the rollouts draw, so kernel and reference must draw
    # from the same stream (with halving, a copy of it after each layout's draw, the same for every candidate)
    strat = strat.copy()
    strat[:, 2:4] = K.ACT_RANDOM
    search = strat.copy()
    search[turn] = bi.strategy_rows(["search"])[0]
    search[turn, 1:4] = strat[turn, 1:4]
    search[turn, 4:6] = (budget, explore)
    roll = [tuple(int(x) for x in r) for r in strat]  # the rollouts' players: planning play, the rows' policies
    assert all(r[0] == K.PLAY_PLANNING for r in roll)
    choices = 0

    def _draws(st):
        return lambda n: int(rng.below(st, n))

    for t, hands in _layouts(spec, 5, 3):
        kh = np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)
        counts = np.array([len(h) for h in hands], dtype=np.int64)
        st = rng.new_state()
        rng.seed_state(st, np.uint64(t), np.uint64(k), np.uint64(0), np.uint64(0))
        st_roll = rng.new_state()
        rollout_stream(st.copy(), st_roll)
        rec = np.zeros((4, K.H_FIELDS), dtype=np.int64)
        moves = np.zeros(K.MAX_MOVES, dtype=np.uint64)
        got = K.search_play(kh, counts, points0.copy(), out_count, turn, last, cur_kind, cur_key, passes, locked,
                            search, st, rec, moves, bv, score0, score1, target)  # fmt: skip
        # the kernel's determinization: the other hands pooled in seat order, dealt anew in seat order
        pool = [c for s in range(4) if s != turn for c in sorted(hands[s])]

        def draw(_pool=pool, _hands=hands, _st=st_roll):
            deck, out, i = list(_pool), [], 0
            for s in range(4):
                if s == turn:
                    out.append(set(_hands[s]))
                    continue
                h = set()
                for _ in range(len(_hands[s])):
                    j = i + int(rng.below(_st, len(deck) - i))
                    deck[i], deck[j] = deck[j], deck[i]
                    h.add(deck[i])
                    i += 1
                out.append(h)
            return out

        want = ref.search_play(
            hands, int(turn), legal, roll, draw, budget, None if explore < 0 else explore / 1000,
            lambda n: int(rng.below(st_roll, n)), v, fork=lambda: _draws(st_roll.copy()),
            current=None if cur_kind == 0 else (int(cur_kind), int(cur_key)), points=tuple(int(x) for x in points0),
            outs=[-1] * int(out_count), last=int(last), passes=int(passes), out_of_trick=_codes(locked),
            phase="turn", scores=(int(score0), int(score1)), target=int(target),
        )  # fmt: skip
        assert (tuple(sorted(_codes(int(got)))) if got else None) == want, t
        choices += (
            len(legal(hands[turn], None if cur_kind == 0 else (int(cur_kind), int(cur_key)))) + (cur_kind != 0) > 1
        )
    assert choices == 3  # every layout a real choice, not a forced play
