import os

import matplotlib

matplotlib.use("Agg")
os.environ.setdefault("CARDLAB_TEST", "1")
# no helper processes compiling ahead (analysis.compile_ahead): the test workers fill every core already
os.environ.setdefault("CARDLAB_COMPILE_AHEAD", "0")

# `make test` runs the files on two workers (pytest -n auto --dist loadfile --no-loadscope-reorder): each
# worker takes the next file in this order when it runs low (two each to start with). The heaviest go first,
# so that the files left at the end are short and neither worker waits long for the other; files that compile
# the same kernels are kept apart where the order allows, so that the two workers seldom compile one kernel at
# once. Files not named follow in their usual order. The seconds are each file's rough time from a cold numba cache (pytest --durations).
FILE_ORDER = [
    "test_zheng_shangyou_game.py",  # 90 s
    "test_bismarck_search.py",  # 120 s: the hand loop with the search and solver players (simulate, record, compare)
    "test_zheng_shangyou_odds.py",  # the advisor's kernels: play on, exchange
    "test_zheng_shangyou_search.py",  # the play loop compiled again with the search player in it
    "test_bismarck_dd.py",  # 100 s (the solver, its bounds against brute force): after test_bismarck_search has
    # begun, so that the two seldom compile the solver's search at once
    "test_biscuits_analysis.py",  # 45 s
    "test_zheng_shangyou_review.py",  # record_game, the advisor, simulate
    "test_biscuits_odds.py",  # the advisor's kernels: the pass, play on from a state
    "test_biscuits_search.py",  # the play loop compiled again with the search player in it
    "test_biscuits_review.py",  # record_hand, the advisors, simulate
    "test_bismarck_odds.py",  # the advisor's kernels: a card, trumps, the round (play_from, the 3-hand search)
    "test_bismarck_engine.py",  # 40 s (the plain kernels: heuristic and random players)
    "test_bisko_bobo_review.py",  # the advisor of any decision, trace_deal, play_fixed
    "test_cli.py",  # 60 s (the Bisko-Bobo simulation compiles here)
    "test_zheng_shangyou_analysis.py",  # 90 s
    "test_zheng_shangyou_engine.py",  # 35 s
    "test_bisko_bobo_analysis.py",  # 50 s
    "test_rng.py",  # 40 s
    "test_biscuits_game.py",  # 36 s
    "zheng-shangyou.ipynb",  # 29 s
    "bismarck.ipynb",  # 28 s
    "test_golden.py",  # 20 s
    "test_bisko_bobo_reference.py",  # 18 s
    "test_driver.py",  # 16 s
    # late, so that the Bismarck advisor's kernels (both flavours: with and without the solver players) are in
    # the cache by then: run beside test_bismarck_odds, the two workers compiled them twice at once
    "test_bismarck_review.py",  # record_hand, the advisor, simulate
]


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(FILE_ORDER)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FILE_ORDER)))  # stable: a file keeps its order
