"""The Zheng Shangyou search player (issue 37; kernels/zheng_shangyou/search.py): legal, complete and reproducible
games, a play that goes out taken at once, stronger than the greedy seats it replaces on the same deals, and its
strategy syntax."""

from __future__ import annotations

import numpy as np
import pytest

from analysis import driver
from analysis.errors import CardlabError
from analysis.games import zheng_shangyou as zs
from analysis.games import zheng_shangyou_odds as zo
from analysis.jackknife import chunk_size_for
from kernels import rng
from kernels import zheng_shangyou as K
from tests.same_counts import assert_same_counts


def test_games_with_a_search_seat_are_complete_zero_sum_and_reproducible():
    spec = zs.simulation_spec(strategies=["1=search:60"])
    assert spec.kernel.endswith("simulate_full_chunks")
    a = driver.run(spec, trials=120, seed=4, chunk_size=30, progress=False, threads=1)
    # two threads, each on chunks of the spec's size (small with a search seat): the same counts
    b = driver.run(spec, trials=120, seed=4, progress=False, threads=2)
    assert b.meta["chunk_size"] == chunk_size_for(120, zs.SEARCH_CHUNK) < 120  # a short run: 32 chunks or more
    assert_same_counts(a.table, b.table)
    assert zs.compare_spec("greedy", "search").chunk_size == zs.SEARCH_CHUNK
    from analysis.games.zheng_shangyou_odds import odds_spec

    pos = dict(hand="3D 4D 9S 9H KC", cards_left={"1": 4, "2": 6, "3": 2}, current="8S", by=3)
    assert odds_spec(**pos, strategies=["search:20"]).chunk_size == zs.SEARCH_CHUNK  # the advisor's too
    assert odds_spec(**pos).chunk_size is None
    assert zs.simulation_spec(strategies=["0=planning"]).chunk_size is None  # the default, 4,096
    t = a.table
    assert t[(t.measure == "score") & t.seat.isna()].iloc[0].total == 0
    places = t[(t.measure == "place") & t.seat.notna()]
    assert (places.groupby("place").successes.sum() == 120).all()
    assert not zs.simulation_spec(strategies=["greedy"]).kernel.endswith("full_chunks")


def test_the_greedy_kernels_play_as_the_full_ones_and_refuse_other_players():
    """The greedy players only (flavour 0, kernels.zheng_shangyou.game): the same rows as the kernels with every
    player on the same seed (greedy, greedy-hold and greedy-stop seats, single games and a match); random,
    planning and search seats pick the full kernels, and a greedy kernel handed one stops with a clear error."""
    import dataclasses

    for strategies, games in ((["greedy"], 1), (["1=greedy-hold", "2=greedy-stop"], 3)):
        spec = zs.simulation_spec(strategies=strategies, games_per_match=games)
        assert spec.kernel.endswith(":simulate_chunks")
        full = dataclasses.replace(spec, kernel=spec.kernel.replace("simulate_chunks", "simulate_full_chunks"))
        a = driver.run(spec, trials=200, seed=9, chunk_size=50, progress=False)
        b = driver.run(full, trials=200, seed=9, chunk_size=50, progress=False)
        assert a.rows() == b.rows()
    spec = zs.compare_spec("greedy", "greedy-hold", players=4)
    assert spec.kernel.endswith(":compare_chunks")
    full = dataclasses.replace(spec, kernel=spec.kernel.replace("compare_chunks", "compare_full_chunks"))
    a = driver.run(spec, trials=100, seed=3, chunk_size=50, progress=False)
    assert a.rows() == driver.run(full, trials=100, seed=3, chunk_size=50, progress=False).rows()
    for other in ("0=random", "2=planning", "3=search:5"):
        assert zs.simulation_spec(strategies=[other]).kernel.endswith(":simulate_full_chunks")
        assert zs.compare_spec("greedy", other.split("=")[1], players=4).kernel.endswith(":compare_full_chunks")
    for other in ("0=random", "1=planning", "3=search:5"):
        spec = zs.simulation_spec(strategies=[other])
        lite = dataclasses.replace(spec, kernel=spec.kernel.replace("simulate_full_chunks", "simulate_chunks"))
        with pytest.raises(ValueError, match="a random, planning or search seat needs the kernels with every player"):
            driver.run(lite, trials=4, seed=1, chunk_size=4, progress=False, threads=1)
    # play_game (from Python: every built-in player but search) refuses a search seat before the game
    hands = np.array([zs.to_mask(x) for x in ("3D 4D", "5C 6C", "7H 8H", "9S TS")], dtype=np.uint64)
    strat, _ = zs.strategy_table(["1=search:5"], 4)
    rec = np.zeros((4, K.G_FIELDS), dtype=np.int64)
    rec[:, K.G_NEVER_PLAYED] = 1
    with pytest.raises(ValueError, match="a search seat needs the kernels with the search player"):
        K.play_game(4, hands, np.full(4, 2, dtype=np.int64), 0, strat, rng.new_state(), rec, K.new_moves(),
                    K.make_scratch(), zs.variant_array({}))  # fmt: skip


def _position(hands: list[str], turn: int, current: str | None = None, by: int = 0):
    zv = zs.variant_array({})
    P = len(hands)
    h = np.array([zs.to_mask(x) for x in hands], dtype=np.uint64)
    counts = np.array([len(x.split()) for x in hands], dtype=np.int64)
    kind = length = key = 0
    if current:
        cm, cd = zs.to_mask(current)
        kind, length, key = (int(v) for v in K.classify(np.uint64(cm), np.uint64(cd), zv, 0))
    moves, scratch = K.new_moves(), K.make_scratch()
    n = int(K.moves_into(h[turn, 0], h[turn, 1], kind, length, key, moves, scratch, zv, 0))
    rec = np.zeros((P, K.G_FIELDS), dtype=np.int64)
    strat, _ = zs.strategy_table(["search:64"], P)
    st = rng.new_state()
    rng.seed_state(st, np.uint64(1), np.uint64(2), np.uint64(0), np.uint64(0))
    passes = 0 if not current else (turn - by - 1) % P
    return (P, h, counts, turn, kind, length, key, by if current else turn, passes, 0, -1, 0, strat, st, rec, moves,
            scratch, zv, n)  # fmt: skip


def test_a_play_that_goes_out_is_taken_at_once():
    # seat 0 leads holding a pair: playing it ends the game (ZS-7); following a single with one higher card left
    play, dup = K.search_play(*_position(["9S 9H", "3D 4D 5D", "6C 7C", "8H TH"], 0))
    assert zs.cards_of(int(play), int(dup)) == "9H 9S"
    play, dup = K.search_play(*_position(["3D 4D 5D", "2S", "6C 7C", "8H TH"], 1, current="KD", by=0))
    assert zs.cards_of(int(play), int(dup)) == "2S"


def test_a_search_seat_beats_the_greedy_seats_on_the_same_deals():
    """DouZero's protocol in small: the same deals, each seat in turn searching among greedy seats, paired with the
    all-greedy game. At 100 rollouts a decision the search seat's win share is well above a fair 0.25 (make bench
    measures the default budget on 2,000 deals: about 0.5)."""
    spec = zs.compare_spec("greedy", "search:100", players=4)
    assert spec.kernel.endswith("compare_full_chunks")
    t = driver.run(spec, trials=150, seed=11, chunk_size=25, progress=False).table
    pooled = t[t.seat.isna()]
    win = pooled[pooled.measure == "challenger_minus_field_win"].iloc[0]
    assert win.ci_low > 0 and win.challenger_value > 0.32, win
    score = pooled[pooled.measure == "challenger_minus_field_score"].iloc[0]
    assert score.estimate > 0, score


@pytest.mark.parametrize("name", ["search:0", "search:x", "search:10:-1", "search:1:2:3", "greedy:3", "searchy"])
def test_bad_search_names_are_refused(name):
    with pytest.raises(CardlabError, match="bad strategy|unknown strategy"):
        zs.strategy_table([name], 4)


def test_the_search_player_as_a_model_in_records_and_reviews():
    """Everywhere a strategy name is: the advisor's models (its search kernels), a record (the first game of simulate
    with the same seed and players: the same winner), a review of that record against search models."""
    from analysis.games import zheng_shangyou_review as zr

    strat, names = zs.strategy_table(["2=search:500:1.5"], 4)
    assert names[2] == "search:500:1.5" and list(strat[2]) == [K.POLICY_SEARCH, 0, 500, 1500]
    strat, names = zs.strategy_table(["search"], 4)  # without C: sequential halving, explore -1
    assert names[0] == f"search:{zs.SEARCH_BUDGET}" and list(strat[0]) == [K.POLICY_SEARCH, 0, zs.SEARCH_BUDGET, -1]
    spec = zo.odds_spec(hand="3D 4D 5D 9H", cards_left=["1=5", "2=5", "3=5"], strategies=["search:20"])
    assert spec.kernel.endswith("advise_full_chunks")
    t = driver.run(spec, trials=16, chunk_size=8, seed=1, progress=False).table
    assert (t[t.measure == "win"].trials == 16).all()
    doc = zr.record(seed=5, strategies=["0=search:40"])
    assert doc["strategies"]["0"] == "search:40"  # the budget spelled out (sequential halving)
    sim = driver.run(zs.simulation_spec(strategies=["0=search:40"]), trials=1, seed=5, progress=False).table
    winner = sim[(sim.measure == "winner") & sim.seat.notna() & (sim.successes == 1)].seat.iloc[0]
    assert doc["result"]["winner"] == winner
    res = zr.review(doc, seat=0, precision=0.2, max_trials=32, chunk_size=16)
    assert res.meta["strategies"][0] == "search:40" and len(res.table) > 0


@pytest.mark.parametrize("explore", [-1, 700], ids=["halving", "ucb1"])
def test_the_kernel_chooses_the_reference_play_on_the_same_layouts(explore):
    """Random positions (some seats out, a play on the table or a lead): the kernel's candidates are the
    reference's (tests/reference/zheng_shangyou.py search_candidates), and on the same layouts (the kernel's
    sampler on the rollout stream, fed what the player knows) the reference's search (sequential halving or
    UCB1, greedy rollouts by the reference game) chooses the kernel's play."""
    from kernels.ucb import rollout_stream
    from kernels.zheng_shangyou.search import MAX_CAND, _candidates
    from tests.reference import zheng_shangyou as ref
    from tests.test_zheng_shangyou_game import kernel_legal_for
    from tests.test_zheng_shangyou_odds import _random_position

    P, budget = 4, 30
    _, _, _, zv, full = zs._table(P, {})
    legal = kernel_legal_for(zv)
    rnd = __import__("random").Random(37)
    searched = 0
    for trial in range(30):
        hands, out, turn, current, by, passes = _random_position(rnd, P, full)
        played = [len(h) < 9 or s in out for s, h in enumerate(hands)]
        winner = out[0] if out else None
        kh = np.array([ref.to_masks(sorted(h.elements())) for h in hands], dtype=np.uint64)
        counts = np.array([ref.size(h) for h in hands], dtype=np.int64)
        ck, cn, ckey = current if current else (0, 0, 0)
        moves, scratch = K.new_moves(), K.make_scratch()
        n = int(K.moves_into(kh[turn, 0], kh[turn, 1], ck, cn, ckey, moves, scratch, zv, 0))
        if n == 0:
            continue
        cand = np.zeros((MAX_CAND, 2), dtype=np.uint64)
        A = int(_candidates(kh[turn, 0], kh[turn, 1], counts[turn], current is not None, moves, n, zv, 0, cand))
        order = [tuple(sorted(ref.from_masks(int(x), int(y)))) for x, y in cand[: max(A, 0)]]
        want_set = ref.search_candidates(hands[turn], current, legal, full)
        if A < 0:
            assert want_set == {tuple(sorted(ref.from_masks(int(moves[-1 - A, 0]), int(moves[-1 - A, 1]))))}
        elif len(want_set) <= ref.SEARCH_MAX_CANDIDATES:
            assert set(order) == want_set
        else:  # one of the lowest plays of each (kind, length), every group present
            assert set(order) <= want_set
            groups = {ref.classify(p, full)[:2] for p in want_set if p}
            assert len({ref.classify(p, full)[:2] for p in order if p}) == len([p for p in order if p]) == len(groups)
        strat = np.zeros((P, 4), dtype=np.int64)
        strat[turn] = (K.POLICY_SEARCH, 0, budget, explore)
        rec = np.zeros((P, K.G_FIELDS), dtype=np.int64)
        rec[:, K.G_NEVER_PLAYED] = [0 if p else 1 for p in played]
        st = rng.new_state()
        rng.seed_state(st, np.uint64(trial), np.uint64(3), np.uint64(0), np.uint64(0))
        st_roll = rng.new_state()
        rollout_stream(st.copy(), st_roll)
        last = turn if by is None else by
        play, dup = K.search_play(
            P, kh.copy(), counts.copy(), turn, ck, cn, ckey, last, passes, len(out), -1 if winner is None else winner,
            0, strat, st, rec, moves, scratch, zv, n,
        )  # fmt: skip
        got = tuple(sorted(ref.from_masks(int(play), int(dup))))
        if A <= 1:
            assert got == (order[0] if A == 1 else next(iter(want_set)))
            continue
        # the kernel's determinization: the other hands pooled in seat order, each dealt its count anew
        pool = np.array([c for s in range(P) if s != turn and counts[s] for w in (0, 1) for c in range(54)
                         if int(kh[s, w]) >> c & 1], dtype=np.int64)  # fmt: skip
        own = np.zeros((P, 2), dtype=np.uint64)
        own[turn] = kh[turn]
        need = np.where(np.arange(P) == turn, 0, counts)
        h, cnt = np.zeros((P, 2), dtype=np.uint64), np.zeros(P, dtype=np.int64)

        def draw(_own=own, _counts=counts, _pool=pool, _need=need, _h=h, _cnt=cnt, _st=st_roll):
            K.sample_layout(_st, P, turn, _own, _counts, _pool, _need, _h, _cnt, _pool.copy(), -1, 0)
            return [sorted(ref.from_masks(int(a), int(b))) for a, b in _h]

        want = ref.search_play(
            hands, turn, order, legal, full, draw, budget, None if explore < 0 else explore / 1000, current=current, last=last, passes=passes,
            played=played, winner=winner,
        )  # fmt: skip
        assert got == want, trial
        searched += 1
    assert searched >= 10
