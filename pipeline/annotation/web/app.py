"""The local annotation web app (Flask): one question at a time, answers in SQLite.

Binds 127.0.0.1 only (:func:`make_server`). The annotator types a name on the start page and
gets one question at a time; every answer is checked on the server with the same rules as in
the browser (:func:`pipeline.annotation.core.questions.check_answer`) and committed to SQLite at once
(WAL journal, ``synchronous=FULL``), so a crash loses nothing and reopening the page with the
same name resumes. An annotator never gets an instance twice (a UNIQUE constraint on
``(annotator, instance_id)``), and an instance gets at most ``assignments`` answers (checked
inside the writing transaction, so two annotators racing for the last slot cannot both win).

Order: the seeded round-robin order of the MTurk export
(:func:`pipeline.annotation.core.questions.interleave`: variants of one quadruple far apart); among the
instances still open to an annotator, those with the most answers come first, so instances
get completed before new ones are started.

Leases: handing out a question leases one of its ``assignments`` slots to the annotator for
``lease_seconds`` (default 10 minutes; table ``leases``). An instance whose answers and other
annotators' live leases fill its slots is not handed out, so annotators who arrive together
get different questions instead of racing for the same one (and being refused with 409). An
annotator holds one lease at a time and gets the same question back on a reload; the lease
ends with the answer, or expires.

The database (schema, the quadruples-hash guard, and every query of this app) is
:mod:`pipeline.annotation.formats.store`: a database started with another quadruples file is
refused. The quadruples file may be a GAP
TSV file (:mod:`pipeline.annotation.runs.rows`); the guard hashes the file as given.

May import: Flask/werkzeug (inside functions), the standard library, :mod:`pipeline.errors`,
:mod:`pipeline.annotation.core.questions`, :mod:`pipeline.formats`, :mod:`pipeline.annotation.web`,
:mod:`pipeline.web.serving` (the request guards both apps share), :mod:`pipeline.web.validate` (the JSON
fields' checks); also :mod:`pipeline.annotation.runs.rows`.
"""

from __future__ import annotations

import random
import time

from pipeline.annotation.core.questions import AnswerError, check_answer, interleave, parse_spans, pick_next
from pipeline.errors import InputError
from pipeline.formats.files import sha256_file
from pipeline.annotation.web import STATIC, TEMPLATES
from pipeline.annotation.runs.rows import annotation_rows
from pipeline.formats.sqlite_store import connect, immediate
from pipeline.annotation.formats import store as store
from pipeline.web.validate import boolean, spans as checked_spans, text as checked_text
from pipeline.web.serving import protect

MAX_NAME = 80
LEASE_SECONDS = 600.0


def create_app(quadruples_path, db_path, assignments: int = 3, seed: int = 0, model: str | None = None,
               lease_seconds: float = LEASE_SECONDS):
    """The Flask app. All state is in the SQLite file; the questions are held in memory.

    ``quadruples_path``: a quadruples Parquet file or a GAP TSV file (persons found with the
    spaCy pipeline ``model``: :func:`pipeline.annotation.runs.rows.annotation_rows`)."""
    from flask import Flask, jsonify, render_template, request

    if assignments < 1:
        raise InputError("--assignments must be at least 1")
    rows, conversion = annotation_rows(quadruples_path, model)
    sequence, _ = interleave(rows, random.Random(seed))
    questions = {q.id: q for _, q in sequence}
    order = list(questions)                                  # the seeded order
    info = store.open_store(db_path, quadruples_path, sha256_file(quadruples_path), assignments)
    unknown = [i for i in store.answered_instance_ids(db_path) if i not in questions]
    if unknown:
        raise InputError(f"the database holds answers to {len(unknown)} instance(s) not in the "
                         f"quadruples file, e.g. {unknown[0]!r}", db_path)

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static",
                template_folder=str(TEMPLATES))       # pages: Jinja templates (render_template)
    protect(app, "annotation app")
    app.config["CSRF_GET_PATHS"] = ("/api/next",)          # it leases a question: a write
    app.config.update(JSON_SORT_KEYS=False, COUNTER_GAP={"db": str(db_path), "info": info,
                                                          "instances": len(questions),
                                                          "conversion": conversion})
    def annotator_name(value) -> str:
        if value is not None and not isinstance(value, str):
            raise AnswerError("the annotator name must be a string", "no-name")
        name = " ".join((value or "").split())
        if not name:
            raise AnswerError("type your name first", "no-name")
        if len(name) > MAX_NAME:
            raise AnswerError(f"a name of at most {MAX_NAME} characters, please", "no-name")
        return name

    def next_for(con, name: str) -> dict:
        """The annotator's next question, leased to them (one write transaction)."""
        now = time.time()
        with immediate(con):
            store.drop_expired_leases(con, now)
            mine = store.answered_by(con, name)
            best, n_open = pick_next(order, store.answer_counts_per_instance(con), mine, store.leased_by(con, name),
                                     store.lease_counts_of_others(con, name), assignments)
            out = {"annotator": name, "answered": len(mine), "open": n_open}
            store.release_leases(con, name)
            if best is None:
                return {**out, "done": True}
            store.add_lease(con, best, name, now + lease_seconds)
        return {**out, "done": False, "question": questions[best].payload()}

    @app.get("/")
    def index():
        return render_template("app.html")

    @app.get("/api/next")
    def api_next():
        try:
            name = annotator_name(request.args.get("annotator"))
        except AnswerError as exc:
            return jsonify(error=str(exc)), 400
        con = connect(db_path)
        try:
            return jsonify(next_for(con, name))
        finally:
            con.close()

    @app.post("/api/answer")
    def api_answer():
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            return jsonify(error="expected a JSON object"), 400
        try:
            name = annotator_name(data.get("annotator"))
            qid = data.get("id")
            if not isinstance(qid, str) or qid not in questions:
                return jsonify(error=f"unknown instance {str(qid)[:80]!r}"), 400
            try:
                spans = parse_spans(checked_spans(data.get("spans"), "spans", length=len(questions[qid].text)))
            except (ValueError, KeyError, TypeError) as exc:
                return jsonify(error=f"bad spans: {exc}"), 400
            try:
                none = boolean(data.get("none"), "none")
                contradiction = checked_text(data.get("contradiction"), "contradiction", max_len=2000).strip()
            except ValueError as exc:
                return jsonify(error=f"bad answer: {exc}"), 400
            check_answer(questions[qid], spans, none)
        except AnswerError as exc:
            return jsonify(error=str(exc)), 400
        text = questions[qid].text
        stored = [[s, e, text[s:e]] for s, e in spans]
        con = connect(db_path)
        try:
            with immediate(con):
                mine = store.has_answered(con, name, qid)
                count = store.answers_to(con, qid)
                store.release_leases(con, name, qid)
                if not (mine or count >= assignments):
                    store.add_answer(con, name, qid, stored, none, contradiction)
            if mine or count >= assignments:
                reason = ("you have already answered this question" if mine
                          else "this question already has enough answers")
                return jsonify(error=reason, next=next_for(con, name)), 409
            return jsonify(ok=True, next=next_for(con, name))
        finally:
            con.close()

    return app


