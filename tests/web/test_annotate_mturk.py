"""The MTurk files of pipeline.web.annotate.mturk: escaped batch values, the layout's
placeholders, and template checks that raise (not assert)."""

from __future__ import annotations

import html
import json

import pytest

from pipeline.core.annotation_questions import plan_tasks
from pipeline.web.annotate import mturk
from pipeline.web.annotate.mturk import TemplateError, batch_rows, render_template
from tests.annotate_helpers import quad_rows as _rows, shipped_checks


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


def test_a_template_without_its_marks_is_a_template_error(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "mturk.html").write_text("<crowd-form>{{STYLE}}{{SCRIPT}}</crowd-form>", encoding="utf-8")
    (templates / "mturk_question.html").write_text("<div>{{I}}</div>", encoding="utf-8")
    monkeypatch.setattr(mturk, "TEMPLATES", templates)
    with pytest.raises(TemplateError, match="lacks {{QUESTIONS}}"):
        render_template(2)
