"""cardlab serve in a real browser: Debian's headless Chromium, driven by Playwright (no browser download).

A person enters a position by clicking cards for three games and reads the advisor's verdict, which must equal
the command line's answer for the same position and seed; a record is simulated, reviewed and stepped through.
Screenshots go to tests/screenshots/ (gitignored). `make test` installs Chromium when it runs as root; where
none is installed the module is skipped with one line saying so.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from analysis.cli import main
from analysis.tables import ADVISOR_ROWS

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(__file__).parent / "screenshots"

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason="no Chromium here (make test installs Debian's chromium when run as root): the page's browser tests "
    "did not run",
)
# Chromium flags for a closed network and a container (no sandbox as root, no GPU, no background fetches)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import uvicorn

    from analysis.serve import create_app

    reports = tmp_path_factory.mktemp("reports")
    (reports / "zheng-shangyou").mkdir()
    (reports / "zheng-shangyou" / "report.html").write_text("<h1>Zheng Shangyou report</h1>", encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(reports=reports), host="127.0.0.1", port=port,
                                        log_level="warning", ws="none"))  # fmt: skip
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(15)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server, request):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    yield page
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{request.node.name}.png"), full_page=True)
    page.close()
    assert not errors, f"the page raised: {errors}"


def click_cards(page, field: str, cards: str, key: str | None = None) -> None:
    """Pick the field, then click each card in the deck, as a person does."""
    sel = f'#fields [data-field="{field}"]' + (f'[data-key="{key}"]' if key is not None else "")
    page.click(sel)
    for c in cards.split():
        page.click(f'#deck .card[data-card="{c}"]')
    assert sorted(page.input_value(sel).split()) == sorted(cards.split())


def ask(page, trials: int, seed: int = 5) -> str:
    page.select_option("#size-kind", "trials")
    page.fill("#size", str(trials))
    page.fill("#seed", str(seed))
    page.click("#run")
    page.wait_for_selector("#answer:not([hidden])", timeout=240_000)
    return page.inner_text("#verdict")


def cli_answer(tmp_path, game: str, doc: dict, trials: int, seed: int = 5) -> dict:
    pos = tmp_path / "position.json"
    pos.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "out.json"
    args = ["odds", game, "--position", str(pos), "--trials", str(trials), "--seed", str(seed)]
    assert main([*args, "--format", "json", "--out", str(out), "--quiet"]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_zheng_shangyou_position_by_clicking(page, tmp_path):
    page.select_option("#game", "zheng-shangyou")
    click_cards(page, "hand", "3D 4D 9S 9H KC")
    for seat, n in {"1": "4", "2": "6", "3": "2"}.items():
        page.fill(f'#fields [data-field="cards_left"][data-key="{seat}"]', n)
    click_cards(page, "current", "8S")
    page.fill('#fields [data-field="by"]', "3")
    verdict = ask(page, 2000)
    doc = {"hand": "3D 4D 9S 9H KC", "cards_left": {"1": 4, "2": 6, "3": 2}, "current": "8S", "by": 3}
    cli = cli_answer(tmp_path, "zheng-shangyou", doc, 2000)
    assert verdict == cli["meta"]["answer"]
    actions = page.eval_on_selector_all("#result-table tbody tr", "rs => rs.map(r => r.dataset.action)")
    assert sorted(actions) == sorted(cli["meta"]["actions"])
    assert page.locator("#chart svg rect.bar").count() == len(actions)


def test_biscuits_pass_by_clicking(page, tmp_path):
    page.select_option("#game", "biscuits")
    page.select_option('#fields [data-field="decision"]', "pass")
    hand = "2C 3D 4H 5S 7C 8D 9H TS JC QD KH AS 6C"
    click_cards(page, "hand", hand)
    verdict = ask(page, 256)
    cli = cli_answer(tmp_path, "biscuits", {"decision": "pass", "hand": hand}, 256)
    assert verdict == cli["meta"]["answer"] and verdict.startswith("Pass")
    # the chart and the table show the passes not clearly worse and the best of the others (the server says how
    # many: /api/games advisor_rows, the command line's table too); a button under the table shows all 78
    score = [r for r in cli["rows"] if r["measure"] == "score"]
    charted = [r for i, r in enumerate(score) if i < ADVISOR_ROWS or r["verdict"] != "worse"]
    assert page.locator("#chart svg rect.bar").count() == len(charted) < 78
    assert f"({78 - len(charted)} more, each clearly worse: under the table)" in page.inner_text("#chart")
    rows = page.locator("#result-table tbody tr")
    assert rows.count() == 78 and page.locator("#result-table tbody tr:visible").count() == len(charted)
    shown = page.eval_on_selector_all("#result-table tbody tr:not([hidden])", "rs => rs.map(r => r.dataset.action)")
    assert shown == [r["action"] for r in charted]
    page.click("#more-actions")
    assert page.locator("#result-table tbody tr:visible").count() == 78
    assert page.locator("#more-actions").count() == 0


def test_bismarck_lead_by_clicking(page, tmp_path):
    page.select_option("#game", "bismarck")
    hand = "AS KS 2H 3H 4C 5C 6C 7C 8D 9D TD JD QH KH AH 2S"
    click_cards(page, "hand", hand)
    page.fill('#fields [data-field="round"]', "1")
    page.fill('#fields [data-field="dealer"]', "2")
    verdict = ask(page, 64)
    cli = cli_answer(tmp_path, "bismarck", {"hand": hand, "round": 1, "dealer": 2}, 64)
    assert verdict == cli["meta"]["answer"] and verdict.startswith("Play")  # the opening lead


def test_bisko_bobo_split_deck_and_the_example(page, tmp_path):
    """BB-1 on the grid: at 4 players the HIGH deck is 9..A, the LOW deck 2..8 (the Bingo-Bango LOW cards)."""
    page.select_option("#game", "bisko-bobo")
    page.click('#fields [data-field="upright"]')
    assert "off" in page.get_attribute('#deck .card[data-card="2C"]', "class")
    assert "off" not in page.get_attribute('#deck .card[data-card="9H"]', "class")
    page.click('#fields [data-field="low"][data-key="0"]')
    assert "off" not in page.get_attribute('#deck .card[data-card="2C"]', "class")
    assert "off" in page.get_attribute('#deck .card[data-card="AS"]', "class")
    page.click("#example")
    verdict = ask(page, 400)
    cli = cli_answer(tmp_path, "bisko-bobo", {"seat": 1, "decision": "flingo", "upright": "9H", "tucked": "KS"}, 400)
    assert verdict == cli["meta"]["answer"]


def test_bad_input_is_one_line_on_the_page(page):
    page.select_option("#game", "zheng-shangyou")
    page.fill('#fields [data-field="hand"]', "3D 3X")
    page.select_option("#size-kind", "trials")
    page.fill("#size", "100")
    page.click("#run")
    page.wait_for_selector("#advisor-error:not([hidden])")  # beside the button, where the person looks
    text = page.inner_text("#advisor-error")
    assert text.startswith("bad card '3X'") and "\n" not in text and "Traceback" not in text


def test_record_reviewed_and_stepped(page):
    page.select_option("#game", "zheng-shangyou")
    page.click("#tab-review")
    page.fill("#record-seed", "1")
    page.click("#record-make")
    page.wait_for_selector("#review-run:not([disabled])", timeout=240_000)
    page.select_option("#review-seat", "2")
    page.fill("#review-precision", "0.1")
    page.click("#review-run")
    page.wait_for_selector("#review-result:not([hidden])", timeout=240_000)
    assert page.inner_text("#review-summary").startswith("seat 2:")
    total = page.locator("#review-chart svg circle").count()
    assert total >= 3
    assert page.inner_text("#step-label").startswith(f"decision 1 of {total} (event ")
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step-label").startswith(f"decision 3 of {total} (event ")
    assert page.locator("#review-chart svg circle.current").count() == 1
    assert page.inner_text("#loss")  # the loss (or "the best action") of the current decision is said


def test_a_record_file_without_players_or_hands_gets_the_games_seats(page, tmp_path):
    """A Bismarck record of a hand played at a table (the 48 cards in order, no hands, no players): the page counts
    the game's 3 seats, not 4 (nor one per hand given, which a Zheng Shangyou record of your own hand would make 1)."""
    from analysis.rules import seeds_dir

    doc = json.loads((seeds_dir() / "records" / "bismarck-example.json").read_text())
    bare = {k: v for k, v in doc.items() if k not in ("hands", "players")}
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(bare))
    page.select_option("#game", "bismarck")
    page.click("#tab-review")
    page.set_input_files("#record-file", str(f))
    page.wait_for_selector("#review-run:not([disabled])")
    assert "3 players, 48 events" in page.inner_text("#record-summary")
    assert page.locator("#review-seat option").count() == 4  # every seat, and seats 0..2


def test_reports_reachable(page, server):
    page.click("#tab-reports")
    page.wait_for_selector("#report-list a")
    href = page.get_attribute("#report-list a", "href")
    assert href == "/reports/zheng-shangyou/report.html"
    page.goto(server + href)
    assert page.inner_text("h1") == "Zheng Shangyou report"
