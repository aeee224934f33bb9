"""The MTurk files of pipeline.annotation.web.mturk: escaped batch values, the layout's
placeholders, and template checks that raise (not assert)."""

from __future__ import annotations

import html
import json

import pytest

from pipeline.annotation.core.questions import plan_tasks
from pipeline.annotation.web import mturk
from pipeline.annotation.web.mturk import TemplateError, batch_rows, render_template
from tests.annotation.helpers import quad_rows as _rows, shipped_checks


def test_csv_values_are_html_escaped_and_template_has_every_placeholder():
    rows = _rows(3)
    tasks, _ = plan_tasks(rows, 4, 1, shipped_checks(), 0)
    header, recs = batch_rows(tasks, 4)
    assert header[:3] == ["q1_id", "q1_text", "q1_spans"] and len(header) == 12
    texts = {r["id"]: r["text"] for r in rows}
    for rec in recs:
        for i in range(1, 5):
            qid = html.unescape(rec[f"q{i}_id"])
            if qid in texts:
                assert '"' not in rec[f"q{i}_text"] and "&amp;" in rec[f"q{i}_text"]
                assert html.unescape(rec[f"q{i}_text"]) == texts[qid]
                spans = json.loads(html.unescape(rec[f"q{i}_spans"]))
                assert set(spans) == {"pronoun", "persons"}
    page = render_template(4)
    for h in header:
        assert "${" + h + "}" in page
    assert "${q5_" not in page and "{{" not in page
    for i in range(1, 5):
        for f in ("spans", "none", "contradiction"):
            assert f'name="q{i}_{f}"' in page


def test_a_widget_using_dollar_braces_is_a_template_error(tmp_path, monkeypatch):
    """MTurk substitutes ``${...}``: a widget using it must stop the export (an error, not
    an assert that ``python -O`` would drop)."""
    static = tmp_path / "static"
    static.mkdir()
    for name in ("annotate.js", "annotate.css"):
        (static / name).write_text((mturk.STATIC / name).read_text(encoding="utf-8"), encoding="utf-8")
    (static / "annotate.js").write_text("const s = `${x}`;\n", encoding="utf-8")
    monkeypatch.setattr(mturk, "STATIC", static)
    with pytest.raises(TemplateError, match="annotate.js uses"):
        render_template(2)


def test_a_template_without_its_questions_or_widget_is_a_template_error(tmp_path, monkeypatch):
    """The layout is a Jinja template: one that leaves out the question blocks (no
    ``${qI_...}`` placeholders), the inlined widget, or that does not parse stops the export
    with a TemplateError naming what is wrong."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "mturk_question.html").write_text((mturk.TEMPLATES / "mturk_question.html").read_text(
        encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(mturk, "TEMPLATES", templates)
    for page, message in (("<crowd-form>{{ style|safe }}{{ script|safe }}</crowd-form>", "has no placeholder"),
                          ('<crowd-form>{% for i in range(1, n + 1) %}{% include "mturk_question.html" %}'
                           "{% endfor %}</crowd-form>", "does not inline static/annotate.js"),
                          ("<crowd-form>{% for i in range(1, n + 1) %}</crowd-form>", "templates/mturk.html, line 1")):
        (templates / "mturk.html").write_text(page, encoding="utf-8")
        with pytest.raises(TemplateError, match=message):
            render_template(2)


def test_the_preview_is_the_layout_with_a_plain_form_and_no_remote_script():
    values = {f"q{i}_{f}": f"&lt;v{i}{f}&gt;" for i in range(1, 3) for f in ("id", "text", "spans")}
    page = mturk.preview_page(2, values)
    assert page.startswith("<!doctype html>") and "crowd-html-elements.js" not in page and "<crowd-form" not in page
    assert '<form data-preview="1">' in page and 'id="cg-submit"' in page
    assert 'data-text="&lt;v2text&gt;"' in page and "${q1_" not in page and "${q2_" not in page
