"""``experiment-serve``: the human experiment (timed QA or Maze) as a local web app.

Thin command: builds the Flask app (:func:`pipeline.humans.web.app.create_app`), serves it
on 127.0.0.1 until Ctrl-C or SIGTERM and prints what is stored. The SQLite file is tied to the
plan it was started with (another plan: one-line error, exit 2), and served by one server at a
time: the server holds a lock beside it (:func:`pipeline.formats.files.output_file_lock`, as
``annotate-serve`` does), so a second ``experiment-serve`` on the same ``--db`` is refused with
the first one's pid instead of handing out the same participant slots beside it.

May import: the standard library; inside ``run``: :mod:`pipeline.humans.web`, :mod:`pipeline.web.serving` (port
check, server, shutdown), :mod:`pipeline.humans.formats.experiment_db` (what is stored),
:mod:`pipeline.formats.files` (the database's lock).
"""

from __future__ import annotations

from pipeline import options as opt

command = opt.command("experiment-serve", "local web app of the human QA / Maze experiment (127.0.0.1)", [
    opt.option("--plan", type=opt.FILE, required=True, help="plan.parquet (command experiment-plan)"),
    opt.option("--db", type=opt.FILE, required=True, help="SQLite file for the answers (created if new)"),
    opt.port(8766),
    opt.option("--completion-url", default=None,
               help="link shown with the completion code, {code} replaced, e.g. "
                    "https://app.prolific.com/submissions/complete?cc={code}"),
])


def run(args) -> int:
    from pipeline.web.serving import check_port, serve_until_stopped

    check_port(args.port)            # before anything is loaded or created
    from pipeline.formats.files import output_file_lock

    with output_file_lock(args.db):         # one server per database: a second one is refused
        return _serve(args, serve_until_stopped)


def _serve(args, serve_until_stopped) -> int:
    from pipeline.humans.formats.experiment_db import participant_counts
    from pipeline.humans.web.app import create_app
    from pipeline.web.serving import make_server

    app = create_app(args.plan, args.db, args.completion_url)
    info = app.config["EXPERIMENT"]
    server = make_server(app, args.port)
    print(f"{info['experiment']} experiment: {info['slots']} participant slots, "
          f"{info['info']['participants']} started so far in {args.db}")
    print(f"open http://127.0.0.1:{server.port}/?key=PARTICIPANT  (Ctrl-C stops; answers are saved "
          "as given)", flush=True)

    serve_until_stopped(server)
    n, done = participant_counts(args.db)
    print(f"stopped: {n} participant(s), {done} completed, in {args.db}")
    return 0
