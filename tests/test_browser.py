"""The board page in a real headless browser (chromium through selenium): `make test-browser`.

A whole game against the random player is played by clicking the page; the final score the page
shows must be the referee's (the game's SGF replayed through referee.judge, which shares no code
with the go_board rules the server plays on). A refused click shows its reason, the agent's
analysis appears after its move, and a saved SGF replays with the slider, its review (each
move's value before and after) in a table beside it. The proven results of the person's moves
tint exactly the points /api/analysis names, each with its margin as a number (from the stored
value table on the empty board; the solver's progress while it works; their exactness is
tests/test_analysis.py's); a lost position's best try is shown in the server's words. The
server and the browser are stopped whatever happens, and every wait is bounded.
"""

import os
import re
import select
import shutil
import subprocess
import sys
import time

import pytest
from test_agent import HOPELESS, HOPELESS_BEFORE

import decision_log
import opening_book
from go_board import BLACK, Position, from_coord
from littlego import solver
from littlego.analysis import exact, live, move_results
from littlego.referee import judge, rules
from littlego.referee.sgf import sgf_moves

from referee_support import HOST

pytestmark = pytest.mark.browser

SERVER_START_SECONDS = 30
PAGE_SECONDS = 60  # a move of the opponent included
# A whole game's review: serve.REVIEW_CPU_SECONDS for each position the stored table and the
# last plies' proofs do not answer at once, on a shared machine.
REVIEW_SECONDS = 600
MAX_CLICKS = 200
CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")


def start_server(runs_dir, opponent, env=None):
    """`host.py serve` on a free port; returns (process, url)."""
    process = subprocess.Popen(
        [sys.executable, HOST, "serve", "--opponent", opponent, "--port", "0",
         "--runs", str(runs_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
        env=dict(os.environ, **(env or {})))
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = process.stdout.readline()
        if "http://" in line:
            return process, line.split()[line.split().index("at") + 1]
        if not line:
            break
    stop_server(process)
    pytest.fail("host.py serve did not announce its URL in time")


def stop_server(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
    process.stdout.close()


@pytest.fixture
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is missing: run `make test-browser`, which installs it")
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.fail("chromium and chromedriver are missing: run `make test-browser`")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1200,800"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(PAGE_SECONDS)
    driver.set_script_timeout(PAGE_SECONDS)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def served(tmp_path):
    processes = []

    def serve(opponent, env=None):
        process, url = start_server(tmp_path / "runs", opponent, env)
        processes.append(process)
        return url
    yield serve
    for process in processes:
        stop_server(process)


def wait_for(driver, condition, what, seconds=PAGE_SECONDS):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds).until(lambda _: condition(), message=what)


def text_of(driver, element_id):
    return driver.find_element("id", element_id).text


def open_page(driver, url):
    driver.get(url)
    wait_for(driver, lambda: driver.execute_script("return document.body.dataset.ready"),
             "the page to load")


def click_and_wait(driver, element):
    """Click, then wait until the page has shown the server's answer."""
    driver.execute_script("document.body.dataset.ready = '';")
    element.click()
    wait_for(driver, lambda: driver.execute_script("return document.body.dataset.ready"),
             "the answer to a click")


def stones(driver, board_id):
    """The board drawn in `board_id` as 5 lists of 0/1/2."""
    rows = [[0] * rules.SIZE for _ in range(rules.SIZE)]
    for colour, name in ((rules.BLACK, "black"), (rules.WHITE, "white")):
        for stone in driver.find_elements("css selector", "#{} .stone.{}".format(board_id, name)):
            i, j = stone.find_element("xpath", "..").get_attribute("data-move").split(",")
            rows[int(i)][int(j)] = colour
    return rows


def referee_replay(moves):
    """The boards after each move and the verdict, as the referee judges the game."""
    state, boards = judge.opening_input(), [rules.empty_board()]
    for ply, point in enumerate(moves, 1):
        verdict = judge.judge_step(state, rules.PASS if point is None else point, ply)
        boards.append(verdict.board)
        state = verdict.next_input
    assert state is None, "the SGF holds an unfinished game"
    return boards, verdict


def score_result(board):
    black, white = rules.count_stones(board, rules.BLACK), rules.count_stones(board, rules.WHITE)
    margin = black - white - rules.KOMI
    return "{}+{:g}".format("B" if margin > 0 else "W", abs(margin))


def test_a_whole_game_against_random_by_clicks_then_its_replay(browser, served, tmp_path):
    open_page(browser, served("random"))
    assert text_of(browser, "ply") == "ply 1 of 24" and text_of(browser, "score") == "W+2.5"
    clicks = refusals = 0
    while not text_of(browser, "result"):
        assert clicks < MAX_CLICKS, "the game did not end"
        # The page redraws the board after every answer: points are found again by id.
        empty = [point.get_attribute("id") for point in
                 browser.find_elements("css selector", "#board .point:not(.taken)")]
        ply_before = text_of(browser, "ply")
        for point_id in empty:
            click_and_wait(browser, browser.find_element("id", point_id))
            clicks += 1
            if text_of(browser, "ply") != ply_before or text_of(browser, "result"):
                break
            assert " is refused: " in text_of(browser, "message")
            refusals += 1
        else:  # no point accepted: pass
            click_and_wait(browser, browser.find_element("id", "pass"))
    shown_score = text_of(browser, "score")
    saved = browser.execute_script("return fetch('/api/state').then(r => r.json())"
                                   ".then(s => s.saved_as)")
    with open(os.path.join(str(tmp_path / "runs"), saved), encoding="utf-8") as handle:
        moves = sgf_moves(handle.read())
    boards, verdict = referee_replay(moves)
    assert verdict.reason == judge.END_SCORE
    assert shown_score == score_result(verdict.board)
    assert stones(browser, "board") == verdict.board
    winner = {rules.BLACK: "Black", rules.WHITE: "White"}[verdict.winner]
    assert winner in text_of(browser, "result")
    assert text_of(browser, "ply") == "game over after ply {}".format(len(moves))

    # The saved game is listed; the slider walks through the referee's boards.
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element("id", "games")).select_by_value(saved)
    browser.find_element("id", "load").click()
    slider = browser.find_element("id", "slider")
    wait_for(browser, lambda: slider.is_enabled(), "the replay to load")
    assert stones(browser, "replay-board") == verdict.board
    slider.send_keys(Keys.HOME)
    assert text_of(browser, "replay-ply") == "ply 1 of 24" and stones(browser, "replay-board") == boards[0]
    for ply in (1, 2, 3):
        slider.send_keys(Keys.ARROW_RIGHT)
        assert text_of(browser, "replay-ply") == "ply {} of 24".format(ply + 1)
        assert stones(browser, "replay-board") == boards[ply]

    # The game's review (/api/review, analysis/review.py's JSON): a row a move, the move that
    # led to the slider's position marked.
    wait_for(browser, lambda: browser.execute_script("return document.body.dataset.review")
             in ("shown", "error"), "the review", REVIEW_SECONDS)
    reviewed = browser.execute_script(
        "return fetch('/api/review?sgf=' + encodeURIComponent(arguments[0])).then(r => r.json())",
        saved)
    rows = [[cell.text for cell in row.find_elements("tag name", "td")]
            for row in browser.find_elements("css selector", "#review-table tr")[1:]]
    assert rows == [[str(move["ply"]), move["colour"], move["move"], value_label(move["before"]),
                     value_label(move["after"]),
                     "" if move["given_away"] is None else "{:g}".format(move["given_away"])]
                    for move in reviewed["moves"]]
    assert [move["move"] for move in reviewed["moves"]] == [
        "PASS" if point is None else "{},{}".format(*point) for point in moves]
    assert rows[0][3] == "win +0.5"  # the empty board, from the stored value table
    current = browser.find_elements("css selector", "#review-table tr.current td")
    assert current[0].text == "3"  # the slider shows the position after ply 3
    lost = reviewed["first_lost_win"]
    assert text_of(browser, "review-line") == (
        "No move is proven to throw a win away." if lost is None else
        "The first win thrown away: ply {}, {} {} ({} before, {} after).".format(
            lost["ply"], lost["colour"], lost["move"], value_label(lost["before"]),
            value_label(lost["after"])))
    browser.save_screenshot(str(tmp_path / "after-the-game.png"))


def value_label(known):
    """A review's value as the page writes it: win +0.5, loss −1.5, win, ?."""
    if known["result"] is None:
        return "?"
    return known["result"] + ("" if known["margin"] is None else " " + label_of(known["margin"]))


def test_a_refused_click_and_the_agents_analysis(browser, served, tmp_path):
    # The agent without its book: its first answer comes from the search, with candidates.
    url = served("cmd:{} {}".format(sys.executable, os.path.join(os.path.dirname(HOST),
                                                                 "my_player.py")),
                 {"LITTLEGO_BOOK": "0", "LITTLEGO_MOVE_CPU": "0.3", "LITTLEGO_WORKERS": "1",
                  "LITTLEGO_SEED": "11"})
    open_page(browser, url)
    click_and_wait(browser, browser.find_element("id", "board-2-2"))
    assert text_of(browser, "ply") == "ply 3 of 24"
    answer = text_of(browser, "last-move")
    rows = browser.find_elements("css selector", "#candidates tr")
    assert len(rows) >= 2  # a header and at least one candidate
    assert rows[1].find_elements("tag name", "td")[0].text == answer
    assert "%" in rows[1].text
    assert "White played {} (mcts".format(answer) in text_of(browser, "decision")
    click_and_wait(browser, browser.find_element("id", "board-2-2"))
    assert text_of(browser, "message") == "2,2 is refused: point is occupied"
    assert text_of(browser, "ply") == "ply 3 of 24"


# Plies played before the person's move whose proven results are checked: 8 plies are left,
# which the exact search proves well within serve.ANALYSIS_CPU_SECONDS.
LATE_PLY = 16
RESULT_CLASSES = {"win": "result-win", "loss": "result-loss"}


def wait_for_results(driver, statuses=("shown", "unknown")):
    wait_for(driver, lambda: driver.execute_script("return document.body.dataset.results")
             in statuses, "the proven results")


def tinted(driver):
    """{move: (class, margin label)} of every tinted point and of the Pass button."""
    found = {}
    for result, name in RESULT_CLASSES.items():
        for element in driver.find_elements("css selector", "#board .point.{0}, #pass.{0}".format(
                name)):
            move = "PASS" if element.get_attribute("id") == "pass" else \
                element.get_attribute("data-move")
            labels = element.find_elements("css selector", ".margin")
            found[move] = (name, labels[0].text if labels else "")
    return found


def label_of(margin):
    """A margin as the page writes it: +3.5, \u22121.5."""
    return "{}{:g}".format("+" if margin > 0 else "\u2212", abs(margin))


def expected_tints(answer):
    """What `tinted` must find for an /api/analysis answer."""
    return {move: (RESULT_CLASSES[known["result"]],
                   label_of(known["margin"]) if known.get("margin") is not None else "")
            for move, known in answer["moves"].items()}


def test_the_proven_results_of_your_moves_tint_the_board(browser, served, tmp_path):
    open_page(browser, served("random"))
    wait_for_results(browser)
    # The empty board, from the stored value table: every move's margin, the centre's +0.5.
    answer = browser.execute_script("return fetch('/api/analysis').then(r => r.json())")
    assert answer["source"] == live.SOURCE_TABLE and answer["progress"] is None
    shown = tinted(browser)
    assert shown == expected_tints(answer) and len(shown) == 26
    assert shown["2,2"] == ("result-win", "+0.5") and shown["0,0"] == ("result-loss", "−5.5")
    assert shown["PASS"] == ("result-loss", "−2.5")
    assert text_of(browser, "results-source") == results_line(answer) == (
        "proven results: from the stored value table; you win with best play (+0.5).")
    legend = text_of(browser, "results-legend")
    assert "proven win for you" in legend and "proven loss" in legend
    # A first move the stored table does not follow: at ply 3 the solver works move by move,
    # and the line says how far it is.
    click_and_wait(browser, browser.find_element("id", "board-0-0"))
    wait_for_results(browser, ("solving",))
    assert re.fullmatch(r"proven results: .*; solving: \d+ of \d+ moves, \d+ s\.",
                        text_of(browser, "results-source"))
    # Onwards by the first point the rules accept, to a position the exact search proves.
    while int(text_of(browser, "ply").split()[1]) <= LATE_PLY:  # "ply N of 24": N - 1 played
        assert not text_of(browser, "result"), "the game ended early"
        ply_before = text_of(browser, "ply")
        empty = [point.get_attribute("id") for point in
                 browser.find_elements("css selector", "#board .point:not(.taken)")]
        for point_id in empty:
            click_and_wait(browser, browser.find_element("id", point_id))
            if text_of(browser, "ply") != ply_before:
                break
    wait_for_results(browser)
    answer = browser.execute_script("return fetch('/api/analysis').then(r => r.json())")
    # The compiled solver answers first where it is built (make test builds it), else the
    # Python exact search.
    source = live.SOURCE_SOLVER if solver.available() else live.SOURCE_SEARCH
    assert answer["source"] == source and not answer["unknown"]
    assert tinted(browser) == expected_tints(answer)
    assert not browser.find_elements("css selector", "#board .point.taken[class*=result-]")
    assert text_of(browser, "results-source") == results_line(answer)
    browser.save_screenshot(str(tmp_path / "proven-results.png"))


def results_line(answer):
    """The page's line for a whole /api/analysis answer (every move proven)."""
    verdict = {"win": "you win with best play", "loss": "you lose against best play"}
    margin = "" if answer["margin"] is None else " ({})".format(label_of(answer["margin"]))
    best_try = answer["best_try"]
    tried = "" if best_try is None else "; best try {} ({})".format(best_try["move"],
                                                                     best_try["summary"])
    return "proven results: from the {}; {}{}{}.".format(answer["source"],
                                                          verdict[answer["result"]], margin, tried)


def test_a_lost_positions_best_try_is_shown_in_the_servers_words(browser, served):
    # The page's two views, fed the server's JSON for a lost endgame (tests/test_agent.py's
    # HOPELESS): the agent's decision record, and the proven results of the person's moves.
    position = Position.from_text(HOPELESS, BLACK, 23, previous=HOPELESS_BEFORE)
    details = decision_log.try_details(position, from_coord(3, 4), 7)
    decision = decision_log.Decision(from_coord(3, 4), decision_log.SOURCE_EXACT, details)
    record = decision_log.decision_record(decision, position, 0.01, 1.0)
    answer = move_results.move_results(position, 30.0, book=opening_book.NO_BOOK,
                                       engine=exact.PythonExact())
    assert answer["best_try"]["summary"] == details["summary"] == \
        "lost: White must find 7 of 7 moves"
    open_page(browser, served("random"))
    wait_for_results(browser)
    browser.execute_script("showDecision(arguments[0], 'the agent'); showResults(arguments[1]);",
                           record, answer)
    assert text_of(browser, "proof") == "proven loss (best try)"
    assert text_of(browser, "try-summary") == "lost: White must find 7 of 7 moves"
    assert text_of(browser, "results-source") == results_line(answer) == (
        "proven results: from the exact search; you lose against best play ({}); best try 3,4 "
        "(lost: White must find 7 of 7 moves).".format(label_of(answer["margin"])))
    assert browser.find_element("id", "board-3-4").get_attribute("title").endswith(
        "; best try: lost: White must find 7 of 7 moves")


def test_the_margins_appear_as_the_solver_finds_them(browser, served):
    # The page fed an answer in the middle of the solving (the server's JSON shape: two of the
    # three moves' margins found so far, 12 s in).
    open_page(browser, served("random"))
    wait_for_results(browser)
    answer = {"source": live.SOURCE_SOLVER, "result": "win", "margin": None,
              "unknown": True, "best_try": None,
              "moves": {"1,1": {"result": "win", "margin": 3.5},
                        "PASS": {"result": "loss", "margin": -1.5}},
              "progress": {"solved": 2, "moves": 3, "seconds": 12.4, "done": False}}
    browser.execute_script("showResults(arguments[0]);", answer)
    assert tinted(browser) == {"1,1": ("result-win", "+3.5"), "PASS": ("result-loss", "−1.5")}
    assert text_of(browser, "results-source") == (
        "proven results: from the exact solver; you win with best play; solving: 2 of 3 moves, "
        "12 s.")
    assert browser.execute_script("return document.body.dataset.results") == "solving"
    answer["moves"]["0,0"] = {"result": "loss", "margin": -0.5}
    answer.update(margin=3.5, unknown=False, progress=dict(answer["progress"], solved=3,
                                                           done=True))
    browser.execute_script("showResults(arguments[0]);", answer)
    assert tinted(browser) == {"1,1": ("result-win", "+3.5"), "PASS": ("result-loss", "−1.5"),
                               "0,0": ("result-loss", "−0.5")}
    assert text_of(browser, "results-source") == results_line(answer)
