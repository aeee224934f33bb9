"""Routes of the experiment app that every experiment has: the page, the participant's state,
and the start (consent, a free participant slot for a new key).

May import: Flask (imported only by :func:`pipeline.humans.web.app.create_app`), the
standard library, :mod:`pipeline.formats`, :mod:`pipeline.humans.web`.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from pipeline.humans.formats import experiment_db as db
from pipeline.formats.sqlite_store import immediate
from pipeline.humans.web.common import Refused, body_json, check_key, current, now
from pipeline.humans.web.state import state

session = Blueprint("session", __name__)


@session.get("/")
def index():
    return render_template("experiment.html", experiment=current().kind)


@session.get("/api/state")
def api_state():
    exp = current()
    key = check_key(request.args.get("key"))
    return jsonify(exp.connected(lambda con: state(exp, con, key)))


@session.post("/api/start")
def api_start():
    exp = current()
    data = body_json()
    key = check_key(data.get("key"))
    if data.get("consent") is not True:
        raise Refused("tick the consent box to take part")

    def go(con):
        with immediate(con):
            if db.participant_slot(con, key) is None:
                taken = db.taken_slots(con)
                free = [s for s in exp.slots if s not in taken]
                if not free:
                    raise Refused(f"all {len(exp.slots)} participant slots of this plan are taken", 409)
                db.add_participant(con, key, free[0], now())
        return state(exp, con, key)

    return jsonify(exp.connected(go))
