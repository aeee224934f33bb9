"""End to end in a real headless Chromium (Debian's chromium + chromium-driver, via Selenium).

The browser is installed by the Makefile's test set-up (``make browser``), never by the tests:
when ``/usr/bin/chromium`` or ``/usr/bin/chromedriver`` is missing, these tests skip and say
so. Selenium is given the driver's path, so Selenium Manager never runs (and SE_OFFLINE
forbids it any download anyway).
"""

from __future__ import annotations

import json
import threading

import pytest

from tests.annotation.helpers import stored_answers, make_quadruple, write_quadruples

pytestmark = pytest.mark.browser

@pytest.fixture
def browser(make_browser):
    return make_browser(1280, 1000)


@pytest.fixture
def served(tmp_path):
    """The annotate-serve app on 127.0.0.1 (free port) in a thread; stopped at the end."""
    from pipeline.annotation.web.app import create_app
    from pipeline.web.serving import make_server

    rows = make_quadruple("1", "masculine") + make_quadruple("2", "feminine")
    qpath, db = tmp_path / "q.parquet", tmp_path / "answers.sqlite"
    write_quadruples(rows, qpath)
    server = make_server(create_app(qpath, db, assignments=2), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}/", db, {r["id"]: r for r in rows}
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# JavaScript: viewport rectangle of the characters [s, e) of the question text (BMP text).
RECT_JS = """
const box = document.querySelector('#question .cg-text');
const [s, e] = [arguments[0], arguments[1]];
const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
let pos = 0, node, range = document.createRange(), started = false;
while ((node = walker.nextNode())) {
  const n = node.textContent.length;
  if (!started && s < pos + n) { range.setStart(node, s - pos); started = true; }
  if (started && e <= pos + n) { range.setEnd(node, e - pos); break; }
  pos += n;
}
const r = range.getBoundingClientRect();
return [r.left, r.top, r.right, r.bottom];
"""


def drag_select(drv, start: int, end: int) -> None:
    """Select text with a real mouse drag from inside the first to inside the last character."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    left, top, right, bottom = drv.execute_script(RECT_JS, start, end)
    y = int((top + bottom) / 2)
    actions = ActionBuilder(drv)
    actions.pointer_action.move_to_location(int(left) + 3, y).pointer_down()
    actions.pointer_action.move_to_location(int(right) - 3, y).pointer_up()
    actions.perform()



@pytest.mark.slow
def test_browser_answers_a_question_and_the_row_is_in_sqlite(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    url, db, rows = served
    wait = WebDriverWait(browser, 20)
    browser.get(url)
    browser.find_element(By.ID, "annotator").send_keys("Ada Tester")
    browser.find_element(By.ID, "start-button").click()
    wait.until(lambda d: d.find_element(By.ID, "question").get_attribute("data-id"))
    qid = browser.find_element(By.ID, "question").get_attribute("data-id")
    row = rows[qid]
    pronoun = browser.find_element(By.CSS_SELECTOR, "#question .cg-pronoun")
    assert pronoun.text == row["pronoun"]

    # highlight B's name by dragging the mouse over it
    b_start, b_end = row["b_offset"], row["b_offset"] + len(row["b"])
    drag_select(browser, b_start, b_end)
    mark = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#question mark.cg-highlight")))
    assert mark.text == row["b"]
    assert mark.get_attribute("data-span") == f"{b_start},{b_end}"

    # the tick box together with a highlight is refused on submit, and nothing is stored
    browser.find_element(By.CSS_SELECTOR, "#question .cg-none").click()
    browser.find_element(By.ID, "submit").click()
    error = browser.find_element(By.CSS_SELECTOR, "#question .cg-error")
    assert "cannot be combined" in error.text
    assert stored_answers(db) == []

    browser.find_element(By.CSS_SELECTOR, "#question .cg-none").click()     # untick
    browser.find_element(By.CSS_SELECTOR, "#question .cg-flag").send_keys("none really")
    browser.find_element(By.ID, "submit").click()
    wait.until(lambda d: d.find_element(By.ID, "question").get_attribute("data-id") != qid)

    stored = stored_answers(db)
    assert len(stored) == 1
    annotator, instance_id, spans, no_names, contradiction = stored[0]
    assert (annotator, instance_id, no_names, contradiction) == ("Ada Tester", qid, 0, "none really")
    assert json.loads(spans) == [[b_start, b_end, row["b"]]]

    # resume: a fresh page with the same name continues, never showing qid again
    browser.get(url)
    wait.until(lambda d: d.find_element(By.ID, "annotator").get_attribute("value") == "Ada Tester")
    browser.find_element(By.ID, "start-button").click()
    wait.until(lambda d: d.find_element(By.ID, "question").get_attribute("data-id"))
    assert browser.find_element(By.ID, "question").get_attribute("data-id") != qid
    assert "1 answered" in browser.find_element(By.ID, "progress").text


@pytest.mark.slow
def test_browser_mturk_preview_checks_on_submit(browser, tmp_path):
    """The exported MTurk template (preview.html, a local copy of task 1) enforces its checks."""
    from selenium.webdriver.common.by import By

    from pipeline.annotation.commands.annotate_export import export

    rows = make_quadruple("1", "masculine") + make_quadruple("2", "feminine")
    write_quadruples(rows, tmp_path / "q.parquet")
    export(tmp_path / "q.parquet", tmp_path / "out", per_task=3, n_checks=1)
    browser.get((tmp_path / "out" / "preview.html").as_uri())
    blocks = browser.find_elements(By.CSS_SELECTOR, ".cg-question")
    assert len(blocks) == 3
    browser.find_element(By.ID, "cg-submit").click()
    errors = [b.find_element(By.CSS_SELECTOR, ".cg-error").text for b in blocks]
    assert all("Highlight the name" in e for e in errors)
    assert browser.find_element(By.ID, "cg-preview-output").text == ""
    for b in blocks:
        b.find_element(By.CSS_SELECTOR, ".cg-none").click()
    browser.find_element(By.ID, "cg-submit").click()
    answers = json.loads(browser.find_element(By.ID, "cg-preview-output").text)
    assert sorted(answers) == ["q1", "q2", "q3"]
    assert all(a["none"] is True and a["spans"] == [] for a in answers.values())
