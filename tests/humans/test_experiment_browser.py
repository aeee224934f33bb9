"""The experiment app in a real headless Chromium (Debian's chromium + chromium-driver, via
Selenium): a scripted participant does the calibration, timed QA trials, a reload, and a Maze
sentence with one wrong key press. Screenshots go to ``outputs/screenshots/`` (git-ignored).

Skips with the reason when the browser or its driver is absent (``make browser`` installs
them); never installs anything itself. Display times are checked with the ``performance.now()``
values the page records (``window.cgLog``), not with sleeps in the test.
"""

from __future__ import annotations

import sqlite3
import threading

import pytest


pytestmark = pytest.mark.browser

TOLERANCE_MS = 50


@pytest.fixture
def browser(make_browser):
    return make_browser(1100, 800)


@pytest.fixture
def screenshots(root):
    out = root / "outputs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def serve(plan, db):
    from pipeline.humans.web.app import create_app
    from pipeline.web.serving import make_server

    server = make_server(create_app(plan, db), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def real_fillers(nlp, items):
    """Filler questions from the parse, as experiment-plan makes them."""
    from pipeline.humans.nlp import filler_questions

    return {it["id"]: [f.__dict__ for f in filler_questions(nlp(it["text"]), {
        "pronoun": (it["pronoun_start"], it["pronoun_end"]), "main": (it["main_start"], it["main_end"]),
        "other": (it["other_start"], it["other_end"])})] for it in items}


@pytest.fixture
def qa_server(tmp_path, nlp, chromium_paths):
    from pipeline.humans.core.plan import qa_plan
    from tests.humans.experiment_helpers import make_items, write_plan

    items = make_items(20)
    rows = qa_plan(items, real_fillers(nlp, items), 1, 0, targets=2, calibration=2)
    write_plan(rows, tmp_path / "plan.parquet")
    server, thread = serve(tmp_path / "plan.parquet", tmp_path / "db.sqlite")
    try:
        yield f"http://127.0.0.1:{server.port}/", tmp_path / "db.sqlite", rows
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def real_distractors(nlp, items):
    """Distractors made as experiment-plan makes them (a 3,000-word lexicon, to stay quick)."""
    import random

    from pipeline.humans.core import maze as maze
    from pipeline.humans.nlp import tag_words, tokens_tags

    words = maze.distractor_candidates(3000)
    lexicon = maze.Lexicon([maze.Entry(w, z, maze.coarse_pos(t))
                            for (w, z), t in zip(words, tag_words(nlp, [w for w, _ in words]))])
    return {it["id"]: maze.distractors(it["tokens"], tokens_tags(nlp(it["text"]), it["tokens"]),
                                       lexicon, random.Random(it["id"])) for it in items}


@pytest.fixture
def maze_server(tmp_path, nlp, chromium_paths):
    from pipeline.humans.core.plan import maze_plan
    from tests.humans.experiment_helpers import make_items, write_plan

    items = make_items(6)
    rows = maze_plan(items, real_distractors(nlp, items), 1, 0, per_participant=1)
    write_plan(rows, tmp_path / "plan.parquet")
    server, thread = serve(tmp_path / "plan.parquet", tmp_path / "db.sqlite")
    try:
        yield f"http://127.0.0.1:{server.port}/", tmp_path / "db.sqlite", rows
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def query(db, sql, *params):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def click_answer(drv, answer):
    from selenium.webdriver.common.by import By

    drv.find_element(By.CSS_SELECTOR, f'#answers .answer[data-answer="{answer}"]').click()


def wait_ready(wait, position):
    from selenium.webdriver.common.by import By

    wait.until(lambda d: d.find_element(By.ID, "question-box").get_attribute("data-ready") == str(position))


@pytest.mark.slow
def test_qa_calibration_timed_trials_reload_and_code(browser, qa_server, screenshots):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    url, db, rows = qa_server
    wait = WebDriverWait(browser, 20, poll_frequency=0.02)
    browser.get(url + "?key=BR-1")
    wait.until(lambda d: d.find_element(By.ID, "consent").is_displayed())
    assert browser.find_element(By.ID, "key").get_attribute("value") == "BR-1"
    browser.find_element(By.ID, "agree").click()
    browser.find_element(By.ID, "start").click()

    # calibration: the sentence and its question together, no time limit, feedback
    for position in (0, 1):
        wait_ready(wait, position)
        sentence = browser.find_element(By.ID, "sentence")
        assert sentence.is_displayed() and sentence.text == rows[position]["text"]
        if position == 0:
            browser.save_screenshot(str(screenshots / "experiment_calibration.png"))
            wrong = "neutral" if rows[0]["correct_answer"] != "neutral" else "male"
            click_answer(browser, wrong)                      # wrong: feedback, try again
            wait.until(lambda d: "Not quite" in d.find_element(By.ID, "feedback").text)
            wait_ready(wait, 0)
        # the participant reads for a second of the page's own clock (the clock the pace is
        # measured with): a pace the timed trials can be photographed at
        ready_at = browser.execute_script("return performance.now()")
        wait.until(lambda d: d.execute_script("return performance.now()") >= ready_at + 1000)
        click_answer(browser, rows[position]["correct_answer"])
        wait.until(lambda d: d.find_element(By.ID, "feedback").text == "Right.")
        browser.find_element(By.ID, "next").click()

    pace = query(db, "SELECT pace FROM participants")[0][0]
    assert pace > 0
    # three timed trials: shown for alpha x pace x length, then hidden, then the question
    for position in (2, 3, 4):
        row = rows[position]
        if position == 2:
            # the sentence on screen, or already gone (its display time logged by the page):
            # photographed when caught, never a timeout for a short display on a slow machine
            wait.until(lambda d: d.find_element(By.ID, "sentence").text == row["text"]
                       or d.execute_script("return window.cgLog.timings.length") > 0)
            if browser.find_element(By.ID, "sentence").text == row["text"]:
                browser.save_screenshot(str(screenshots / "experiment_timed_trial.png"))
        wait_ready(wait, position)
        assert not browser.find_element(By.ID, "sentence").is_displayed()
        assert browser.find_element(By.ID, "question").text == row["question"]
        if position == 2:
            browser.save_screenshot(str(screenshots / "experiment_question.png"))
        click_answer(browser, "female")
        wait.until(lambda d: d.find_element(By.ID, "feedback").text)
        fb = browser.find_element(By.ID, "feedback").text
        assert fb == "Right." if row["correct_answer"] == "female" else fb.startswith("Wrong")
        browser.find_element(By.ID, "next").click()

    log = browser.execute_script("return window.cgLog.timings")
    assert [t["position"] for t in log] == [2, 3, 4]
    print("timed trials (target ms, measured ms):",
          [(round(t["target"], 1), round(t["actual"], 1)) for t in log])
    stored = query(db, "SELECT s.position, s.target_ms, s.actual_ms, a.answer FROM shown s JOIN "
                       "qa_answers a ON a.key = s.key AND a.position = s.position ORDER BY s.position")
    assert [s[0] for s in stored] == [2, 3, 4]
    for t, (pos, target_ms, actual_ms, answer) in zip(log, stored):
        row = rows[pos]
        expected = row["alpha"] * pace * row["n_words"] * 1000
        assert t["target"] == pytest.approx(expected, abs=0.1)
        assert target_ms == pytest.approx(expected, abs=0.1)
        # the sentence disappeared after the computed time, within 50 ms (page clock)
        assert 0 <= t["actual"] - t["target"] < TOLERANCE_MS, t
        assert actual_ms == pytest.approx(t["actual"])
        assert answer == "female"

    # the fourth trial has been shown and its question is up before the reload: the page state
    # the reload must resume from (reloading while the page still posts /api/shown raced the
    # reloaded page's own /api/shown: 409, no question, a timeout)
    wait_ready(wait, 5)
    assert query(db, "SELECT position FROM shown WHERE position = 5") == [(5,)]
    # a reload resumes at the fourth trial, without the consent page, never repeating one
    browser.refresh()
    wait.until(lambda d: d.find_element(By.ID, "sentence").get_attribute("data-position") == "5")
    wait_ready(wait, 5)
    assert not browser.find_element(By.ID, "consent").is_displayed()
    assert not browser.find_element(By.ID, "sentence").is_displayed()
    assert browser.execute_script("return window.cgLog.timings") == []     # not shown again
    assert browser.find_element(By.ID, "qa-error").text == ""
    click_answer(browser, "unknown")
    wait.until(lambda d: d.find_element(By.ID, "feedback").text)
    browser.find_element(By.ID, "next").click()
    wait.until(lambda d: d.find_element(By.ID, "done").is_displayed())
    code = browser.find_element(By.ID, "code").text
    assert code.startswith("CG-")
    browser.save_screenshot(str(screenshots / "experiment_done.png"))
    assert query(db, "SELECT completion_code FROM participants WHERE key = 'BR-1'") == [(code,)]
    positions = [r[0] for r in query(db, "SELECT position FROM qa_answers ORDER BY position")]
    assert positions == [0, 1, 2, 3, 4, 5]


@pytest.mark.slow
def test_maze_sentence_with_one_wrong_key(browser, maze_server, screenshots):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    url, db, rows = maze_server
    row = rows[0]
    wait = WebDriverWait(browser, 20, poll_frequency=0.02)
    browser.get(url + "?PROLIFIC_PID=mz_1")
    browser.find_element(By.ID, "agree").click()
    browser.find_element(By.ID, "start").click()
    wait.until(lambda d: d.find_element(By.ID, "maze-begin").is_displayed())
    assert browser.find_element(By.ID, "maze-first").text == row["tokens"][0]
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(" ")
    for i in range(1, len(row["tokens"])):
        wait.until(lambda d: d.find_element(By.ID, "maze-pair").get_attribute("data-ready") == str(i))
        left = browser.find_element(By.ID, "maze-left").text
        right = browser.find_element(By.ID, "maze-right").text
        true_side = row["sides"][i]
        assert (left, right) == ((row["tokens"][i], row["distractors"][i]) if true_side == "left"
                                 else (row["distractors"][i], row["tokens"][i]))
        right_key, wrong_key = ("e", "i") if true_side == "left" else ("i", "e")
        if i == 2:
            browser.save_screenshot(str(screenshots / "experiment_maze_step.png"))
            body.send_keys(wrong_key)
            wait.until(lambda d: "Wrong word" in d.find_element(By.ID, "maze-error").text)
            # the wrong press is stored at once, before the right one
            WebDriverWait(browser, 10, poll_frequency=0.02).until(
                lambda d: query(db, "SELECT word_index FROM maze_errors") == [(2,)])
        body.send_keys(right_key)
    wait.until(lambda d: d.find_element(By.ID, "done").is_displayed())
    words = query(db, "SELECT word_index, word, side, is_pronoun, first_correct, n_errors, "
                      "first_ms, correct_ms FROM maze_words ORDER BY word_index")
    assert [w[0] for w in words] == list(range(1, len(row["tokens"])))
    for index, word, side, is_pronoun, first_correct, n_errors, first_ms, correct_ms in words:
        assert word == row["tokens"][index] and side == row["sides"][index]
        assert is_pronoun == int(index == row["pronoun_index"])
        assert (first_correct, n_errors) == ((0, 1) if index == 2 else (1, 0))
        assert 0 < first_ms <= correct_ms
        assert row["distractors"][index] != word
        if index == 2:
            assert correct_ms > first_ms           # the retry came after the wrong press
        else:
            assert correct_ms == first_ms
    log = browser.execute_script("return window.cgLog.maze")
    assert [(e["word"], e["ok"]) for e in log if e["word"] == 2] == [(2, False), (2, True)]
