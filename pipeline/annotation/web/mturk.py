"""The annotation task as Amazon Mechanical Turk files: the batch rows, the HTML layout with
``${qI_...}`` placeholders, and a locally usable preview of one task.

The layout is the Jinja template ``templates/mturk.html`` (one ``mturk_question.html`` block
per question) with this package's static widget inlined (the same JavaScript checks as the
local web app), so MTurk and the web app ask the same question.

The batch columns are :mod:`pipeline.annotation.formats.mturk_csv`.

May import: the standard library, jinja2 (inside functions; Flask's and spaCy's template
engine), :mod:`pipeline.annotation.core.questions`, :mod:`pipeline.formats`, :mod:`pipeline.annotation.web`.
"""

from __future__ import annotations

import html
import json
import re

from pipeline.annotation.core.questions import Question
from pipeline.annotation.formats.mturk_csv import INPUT_FIELDS, batch_column, batch_header
from pipeline.annotation.web import STATIC, TEMPLATES


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


def _layout(per_task: int, preview: bool) -> str:
    """``templates/mturk.html`` rendered by Jinja (autoescaped; the packaged widget's CSS and
    JavaScript inlined as they are), then checked: every ``${qI_...}`` placeholder present."""
    import jinja2

    script = (STATIC / "annotate.js").read_text(encoding="utf-8")
    style = (STATIC / "annotate.css").read_text(encoding="utf-8")
    for name, text in (("annotate.js", script), ("annotate.css", style)):
        if "${" in text:
            raise TemplateError(f"static/{name} uses '${{', which MTurk would substitute")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                             autoescape=jinja2.select_autoescape(["html"]), keep_trailing_newline=True)
    try:
        layout = env.get_template("mturk.html").render(style=style, script=script, n=per_task, preview=preview)
    except jinja2.TemplateError as exc:
        where = f"templates/{exc.name}, line {exc.lineno}: " if getattr(exc, "lineno", None) else "templates: "
        raise TemplateError(f"{where}{exc.message or exc}") from None
    if script.strip() not in layout or style.strip() not in layout:
        raise TemplateError("templates/mturk.html does not inline static/annotate.js and annotate.css")
    for i in range(1, per_task + 1):
        for f in INPUT_FIELDS:
            if "${" + batch_column(i, f) + "}" not in layout:
                raise TemplateError(f"the layout has no placeholder ${{{batch_column(i, f)}}}")
    return layout


def render_template(per_task: int) -> str:
    """The MTurk HTML layout with ``${qI_...}`` placeholders for ``per_task`` questions."""
    return _layout(per_task, preview=False)


PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_]+)\}")


def fill_template(template: str, values: dict) -> str:
    """Substitute ``${name}`` like MTurk does (values inserted verbatim), in one pass over the
    template: a value that itself contains ``${q2_text}`` is inserted as written, never
    substituted again."""
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
                           template)


def preview_page(per_task: int, values: dict) -> str:
    """A locally usable page of one task (``values``: a batch row): the layout rendered with
    ``preview`` (no remote script, a plain form that shows the answers), filled as MTurk does."""
    return fill_template(_layout(per_task, preview=True), values)


def mturk_files(tasks: list[list[Question]], per_task: int) -> tuple[list[str], list[dict], str, str]:
    """The MTurk files of an export: the batch header and rows (:func:`batch_rows`), the layout
    (``task.html``, :func:`render_template`) and the layout filled with the first task
    (``preview.html``, :func:`preview_page`). Handed to :func:`pipeline.annotation.runs.export.export`
    as its ``layout`` by the ``annotate-export`` command."""
    header, recs = batch_rows(tasks, per_task)
    template = render_template(per_task)
    return header, recs, template, preview_page(per_task, recs[0])
