"""The annotation task as Amazon Mechanical Turk files: the batch rows, the HTML layout with
``${qI_...}`` placeholders, and a locally usable preview of one task.

The layout is built from this package's templates and static widget (the same JavaScript
checks as the local web app), so MTurk and the web app ask the same question.

The batch columns are :mod:`pipeline.formats.mturk_csv`.

May import: the standard library, :mod:`pipeline.core.annotation_questions`, :mod:`pipeline.formats`,
:mod:`pipeline.web.annotate`.
"""

from __future__ import annotations

import html
import json
import re

from pipeline.core.annotation_questions import Question
from pipeline.formats.mturk_csv import INPUT_FIELDS, batch_column, batch_header
from pipeline.web.annotate import STATIC, TEMPLATES


class TemplateError(RuntimeError):
    """The packaged templates cannot produce a valid MTurk layout (a packaging bug)."""


def _escape(value: str) -> str:
    """HTML-escaped, and ``$`` as ``&#36;``: a text holding ``${q2_text}`` can never be taken
    for a placeholder by MTurk (the browser shows the same characters)."""
    return html.escape(value, quote=True).replace("$", "&#36;")


def batch_rows(tasks: list[list[Question]], per_task: int) -> tuple[list[str], list[dict]]:
    """The batch CSV: header and one dict per task, values HTML-escaped for MTurk
    (MTurk pastes them verbatim into the layout; ``$`` escaped too, see :func:`_escape`)."""
    header = batch_header(per_task)
    out = []
    for task in tasks:
        rec = {h: "" for h in header}
        for i, q in enumerate(task, start=1):
            payload = q.payload()
            spans = json.dumps({"pronoun": payload["pronoun"], "persons": payload["persons"]},
                               separators=(",", ":"))
            rec[batch_column(i, "id")] = _escape(q.id)
            rec[batch_column(i, "text")] = _escape(q.text)
            rec[batch_column(i, "spans")] = _escape(spans)
        out.append(rec)
    return header, out


def render_template(per_task: int) -> str:
    """The MTurk HTML layout with ``${qI_...}`` placeholders for ``per_task`` questions."""
    page = (TEMPLATES / "mturk.html").read_text(encoding="utf-8")
    block = (TEMPLATES / "mturk_question.html").read_text(encoding="utf-8")
    script = (STATIC / "annotate.js").read_text(encoding="utf-8")
    style = (STATIC / "annotate.css").read_text(encoding="utf-8")
    for name, text in (("annotate.js", script), ("annotate.css", style)):
        if "${" in text:
            raise TemplateError(f"static/{name} uses '${{', which MTurk would substitute")
    for name, text, marks in (("mturk.html", page, ("{{STYLE}}", "{{SCRIPT}}", "{{QUESTIONS}}")),
                              ("mturk_question.html", block, ("{{I}}",))):
        absent = [m for m in marks if m not in text]
        if absent:
            raise TemplateError(f"templates/{name} lacks {', '.join(absent)}")
    questions = "".join(block.replace("{{I}}", str(i)) for i in range(1, per_task + 1))
    layout = (page.replace("{{STYLE}}", style).replace("{{SCRIPT}}", script)
              .replace("{{QUESTIONS}}", questions).replace("{{N}}", str(per_task)))
    for i in range(1, per_task + 1):
        for f in INPUT_FIELDS:
            if "${" + batch_column(i, f) + "}" not in layout:
                raise TemplateError(f"the layout has no placeholder ${{{batch_column(i, f)}}}")
    return layout


PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_]+)\}")


def fill_template(template: str, values: dict) -> str:
    """Substitute ``${name}`` like MTurk does (values inserted verbatim), in one pass over the
    template: a value that itself contains ``${q2_text}`` is inserted as written, never
    substituted again."""
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
                           template)


def preview_page(template: str, values: dict) -> str:
    """A locally usable page: no remote script, a plain form that shows the answers."""
    page = fill_template(template, values)
    page = page.replace('<script src="https://assets.crowd.aws/crowd-html-elements.js"></script>', "")
    page = page.replace('<crowd-form answer-format="flatten-objects">', '<form data-preview="1">')
    page = page.replace("</crowd-form>", '<button type="submit" id="cg-submit">Submit</button>\n</form>')
    return "<!doctype html>\n<meta charset=\"utf-8\">\n<title>counter-gap task preview</title>\n" + page


def mturk_files(tasks: list[list[Question]], per_task: int) -> tuple[list[str], list[dict], str, str]:
    """The MTurk files of an export: the batch header and rows (:func:`batch_rows`), the layout
    (``task.html``, :func:`render_template`) and the layout filled with the first task
    (``preview.html``, :func:`preview_page`). Handed to :func:`pipeline.runs.annotate_export.export`
    as its ``layout`` by the ``annotate-export`` command."""
    header, recs = batch_rows(tasks, per_task)
    template = render_template(per_task)
    return header, recs, template, preview_page(template, recs[0])
