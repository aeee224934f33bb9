"""The human experiment app (Flask): timed QA with calibration, or Maze, answers in SQLite.

Serves 127.0.0.1 only (:func:`make_server`) and refuses any request whose peer address is not
loopback (a proxy in front would have to be put there on purpose: see ``docs/experiment.md``).

Flow (one plan = one experiment, from ``experiment-plan``):

* consent and instructions; the participant key is typed or passed in the URL (``?key=``,
  ``?PROLIFIC_PID=`` or ``?workerId=``); letters, digits, ``_`` and ``-`` only (at most 64);
  a new key takes the next free participant slot of the plan (P001, P002, ...);
* QA: the calibration sentences with their question and no time limit (feedback; a wrong
  answer is tried again; the time to the correct answer counts); the reading pace
  (:func:`pipeline.humans.core.pace.reading_pace`) is stored when the last one is answered; then the
  trials: the sentence for alpha x pace x length ms (:func:`pipeline.humans.core.pace.display_ms`;
  the page measures the real display time with ``performance.now()`` and stores it), then the
  question (male / female / neutral / unknown) without a time limit, then feedback;
* Maze: per sentence, the first word alone, then for each next word the true word and its
  distractor left and right (side from the plan); ``e`` = left, ``i`` = right; a wrong choice
  shows an error and the participant tries again (each wrong press stored at once); time to
  the first and to the correct answer stored per word;
* at the end a completion code (stored; ``experiment-export`` lists them).

Every answer is checked on the server (the participant's current trial, the answer options)
and committed at once; UNIQUE constraints make a second tab's answer to the same trial fail
(409) rather than store it twice. A timed sentence is marked as shown before it is displayed,
so after a reload it is never shown again (the page goes straight to its question).

Layout: this module loads the plan and builds the app; the routes are three Flask blueprints
(:mod:`.routes_session`: page, state, start; :mod:`.routes_qa`; :mod:`.routes_maze`), a
participant's place in the plan is :mod:`.state`, the request checks :mod:`.common`, and every
SQL statement is a function of the store, :mod:`pipeline.humans.formats.experiment_db`.

May import: Flask/werkzeug (inside functions), the standard library, :mod:`pipeline.errors`,
:mod:`pipeline.formats`, :mod:`pipeline.humans.web`, :mod:`pipeline.web.serving` (the request
guards both apps share).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import InputError
from pipeline.humans.formats.experiment_db import open_experiment_db
from pipeline.formats.files import sha256_file
from pipeline.formats.tables import read_table
from pipeline.humans.web import STATIC, TEMPLATES
from pipeline.humans.web.common import EXTENSION, Experiment, Refused
from pipeline.web.serving import protect


def load_plan(plan_path) -> tuple[str, dict[str, list[dict]]]:
    """(experiment, slot -> its rows in order) of a plan.parquet."""
    table = read_table(plan_path)
    need = {"participant", "position", "experiment", "item_id", "kind", "text", "tokens"}
    missing = sorted(need - set(table.column_names))
    if missing:
        raise InputError(f"not an experiment plan: missing column(s) {', '.join(missing)}", plan_path)
    rows = table.to_pylist()
    if not rows:
        raise InputError("the plan has no trials", plan_path)
    kinds = {r["experiment"] for r in rows}
    if len(kinds) != 1 or not kinds <= {"qa", "maze"}:
        raise InputError(f"a plan holds one experiment (qa or maze), found {sorted(map(str, kinds))}",
                         plan_path)
    slots: dict[str, list[dict]] = {}
    for r in rows:
        slots.setdefault(r["participant"], []).append(r)
    for s in slots.values():
        s.sort(key=lambda r: r["position"])
        if [r["position"] for r in s] != list(range(len(s))):
            raise InputError(f"participant {s[0]['participant']}: positions are not 0..{len(s) - 1}",
                             plan_path)
    kind = kinds.pop()
    if kind == "maze":
        for k, r in enumerate(rows):
            check_maze_row(r, plan_path, k + 1)
    return kind, dict(sorted(slots.items()))


def check_maze_row(r: dict, plan_path, row: int) -> None:
    """A Maze trial whose words, distractors and sides do not line up, or whose pronoun is
    not one of its words, is refused: the page would fail on the missing
    word (a 500 mid-sentence) or never record the pronoun's times."""
    where = f"participant {r.get('participant')}, position {r.get('position')}"
    tokens = r.get("tokens")
    if not isinstance(tokens, list) or len(tokens) < 2 or not all(isinstance(t, str) and t for t in tokens):
        raise InputError(f"{where}: a Maze sentence needs two words or more", plan_path, row)
    n = len(tokens)
    for col in ("distractors", "sides"):
        v = r.get(col)
        if not isinstance(v, list) or len(v) != n:
            raise InputError(f"{where}: {col} must have one entry per word ({n}), "
                             f"got {len(v) if isinstance(v, list) else v!r}", plan_path, row)
    if any(not isinstance(w, str) or not w for w in r["distractors"][1:]):
        raise InputError(f"{where}: every word after the first needs a distractor", plan_path, row)
    if any(side not in ("left", "right") for side in r["sides"][1:]):
        raise InputError(f"{where}: sides must be 'left' or 'right'", plan_path, row)
    pi = r.get("pronoun_index")
    if pi is not None and not (isinstance(pi, int) and 1 <= pi < n):
        raise InputError(f"{where}: pronoun_index {pi} is outside the sentence's words 1..{n - 1}",
                         plan_path, row)


def create_app(plan_path, db_path, completion_url: str | None = None):
    """The Flask app; all state is in the SQLite file, the plan is held in memory."""
    from flask import Flask, jsonify

    from pipeline.humans.web.routes_maze import maze
    from pipeline.humans.web.routes_qa import qa
    from pipeline.humans.web.routes_session import session

    experiment, slots = load_plan(plan_path)
    info = open_experiment_db(db_path, plan_path, sha256_file(plan_path), experiment)
    if completion_url is not None and "{code}" not in completion_url:
        raise InputError("--completion-url must contain {code} (where the code goes)")

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static",
                template_folder=str(TEMPLATES))       # pages: Jinja templates (render_template)
    app.config.update(EXPERIMENT={"db": str(db_path), "experiment": experiment,
                                  "slots": len(slots), "info": info})
    app.extensions[EXTENSION] = Experiment(experiment, slots, Path(db_path), completion_url)

    protect(app, "experiment app")

    @app.errorhandler(Refused)
    def refused(exc: Refused):
        return jsonify(error=str(exc)), exc.status

    for blueprint in (session, qa, maze):
        app.register_blueprint(blueprint)
    return app
