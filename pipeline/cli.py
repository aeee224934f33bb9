"""Command line: ``python -m pipeline COMMAND ...`` (installed as ``counter-gap``).

Commands are the modules of :mod:`pipeline.stages`, found by name: each defines ``COMMAND``,
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Command modules import their
heavy dependencies inside ``run``, so building the parser stays cheap. An
:class:`pipeline.errors.InputError` anywhere becomes a one-line error and exit status 2, and so
does an ``OSError`` that reaches this level (a read-only or full file system, a file that
cannot be opened): outputs are written all-or-nothing, so the previous ones are untouched.

A command whose module names ``OUTPUT_DIR`` (the attribute of ``args`` holding its output
directory) runs holding that directory's lock (:func:`pipeline.formats.files.output_lock`):
a second run into the same directory is refused while the first is alive.

May import: :mod:`pipeline.stages` (by name), :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import pkgutil
import re
import sys

import pipeline.stages


def commands() -> dict[str, object]:
    """COMMAND name -> its module, in alphabetical order of module name."""
    found = {}
    for info in sorted(pkgutil.iter_modules(pipeline.stages.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"pipeline.stages.{info.name}")
        name = getattr(module, "COMMAND", None)
        if name:
            found[name] = module
    return found


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the command named in ``argv`` (if any) gets its arguments added."""
    argv = argv or []
    wanted = next((a for a in argv if not a.startswith("-")), None)
    parser = argparse.ArgumentParser(
        prog="python -m pipeline",
        description="counter-gap: build and evaluate counterfactual gender-bias coreference test sets.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in commands().items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        if name == wanted:
            module.add_arguments(p)
            p.set_defaults(_run=module.run, _output_dir=getattr(module, "OUTPUT_DIR", None))
    return parser


def main(argv: list[str] | None = None) -> int:
    from pipeline.errors import InputError

    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    # our own messages at INFO (DEBUG with -v); other libraries' only from WARNING up
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr, force=True)
    logging.getLogger("pipeline").setLevel(logging.DEBUG if args.verbose else logging.INFO)
    if getattr(args, "_run", None) is None:
        parser.print_help()
        return 2
    try:
        with _locked_output(args):
            return int(args._run(args) or 0)
    except InputError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {os_error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; completed outputs are kept, rerun to resume", file=sys.stderr)
        return 130


def _locked_output(args):
    from pipeline.formats.files import output_lock

    out = getattr(args, args._output_dir, None) if getattr(args, "_output_dir", None) else None
    if out is None or (os.path.exists(out) and not os.path.isdir(out)):
        return contextlib.nullcontext()
    return output_lock(out, remove_if_created=True)


def os_error_line(exc: OSError) -> str:
    """``PATH: reason`` of an OSError, the staging directory left out of the path."""
    path = exc.filename
    reason = exc.strerror or " ".join(str(exc).split())
    if path is None:
        return reason
    path = re.sub(r"/\.staging-[^/]*(?=/)", "", str(path))
    path = re.sub(r"/\.tmp-([^/]+)\.[a-z0-9_]{8}$", r"/\1", path)
    return f"{path}: {reason}"
