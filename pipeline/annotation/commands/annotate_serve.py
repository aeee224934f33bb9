"""``annotate-serve``: the annotation task as a local web app, answers in SQLite.

Thin command: parses the arguments, builds the Flask app
(:func:`pipeline.annotation.web.app.create_app`), serves it on 127.0.0.1 until Ctrl-C or
SIGTERM and prints what is stored. The SQLite file remembers the sha256 of the quadruples
file it was started with; another quadruples file is refused (one-line error, exit 2), so
answers are never stored against the offsets of a regenerated file. One server per
database: a second ``annotate-serve`` on the same ``--db`` (which would rewrite its stored
settings under the first) is refused while the first holds the lock beside the file. ``--quadruples`` may be a
GAP TSV file (Counter-GAP's releases): its persons are found with ``--model``
(:mod:`pipeline.annotation.runs.rows`).

May import: the standard library; inside ``run``: :mod:`pipeline.annotation.web`, :mod:`pipeline.web.serving` (port check,
server, shutdown); also :mod:`pipeline.annotation.formats.store`, :mod:`pipeline.annotation.runs.rows`,
:mod:`pipeline.formats.files` (the database's lock: one server per ``--db``).
"""

from __future__ import annotations

from pipeline import options as opt

command = opt.command("annotate-serve", "local annotation web app (127.0.0.1)", [
    opt.option("--quadruples", type=opt.FILE, required=True,
               help="quadruples.parquet to annotate, or a GAP TSV file (persons found with --model)"),
    opt.option("--db", type=opt.FILE, required=True,
               help="SQLite file for the answers (created if new; tied to --quadruples)"),
    opt.port(8765),
    opt.option("--assignments", type=int, default=3,
               help="at most this many annotators per instance (default 3)"),
    opt.seed("the question order"),
    opt.model("for a GAP TSV input (use the same one for annotate-import)"),
])


def run(args) -> int:
    from pipeline.web.serving import check_port, serve_until_stopped

    check_port(args.port)            # before anything is loaded or created

    from pipeline.annotation.web.app import create_app
    from pipeline.web.serving import make_server
    from pipeline.annotation.runs.rows import conversion_report
    from pipeline.annotation.formats.store import answer_counts
    from pipeline.formats.files import output_file_lock

    with output_file_lock(args.db):         # one server per database: a second one is refused
        return _serve(args, create_app, make_server, conversion_report, answer_counts, serve_until_stopped)


def _serve(args, create_app, make_server, conversion_report, answer_counts, serve_until_stopped) -> int:
    app = create_app(args.quadruples, args.db, args.assignments, args.seed, args.model)
    info = app.config["COUNTER_GAP"]
    for line in conversion_report(info["conversion"]):
        print(line)
    server = make_server(app, args.port)
    print(f"{info['instances']} instances, {info['info']['answers']} answers so far in {args.db}; "
          f"at most {args.assignments} annotators per instance")
    print(f"annotate at http://127.0.0.1:{server.port}/  (Ctrl-C stops; answers are saved as given)",
          flush=True)

    serve_until_stopped(server)
    n, people = answer_counts(args.db)
    print(f"stopped: {n} answers from {people} annotator(s) in {args.db}")
    return 0
