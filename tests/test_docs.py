"""The manual against the code: what docs/ and the README quote must exist.

* Every column name quoted in ``docs/formats.md`` (a backticked lower-case identifier in a
  sentence or table about a Parquet file) is a column of some schema of
  :mod:`pipeline.formats.schemas`, or one of the other formats' fields listed in
  :data:`NOT_PARQUET` (GAP TSV, system outputs, CoNLL, name map TSV, ...).
* Every command line in ``docs/*.md`` and ``README.md`` that invokes ``python -m pipeline CMD``
  or ``counter-gap CMD`` (in a code block or an inline code span) names a command, and the
  command's click options accept them, exactly spelt (no abbreviation). A line
  written as a synopsis (``[--opt X]``, ``a|b``, ``...``, ``$VAR``) is checked for its option
  names; a concrete line is parsed as a whole (values, choices, sub-commands), without running
  anything. Only a missing required option is forgiven: prose quotes a command
  with the options it talks about.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from functools import lru_cache
from pathlib import Path

import click
import pyarrow as pa
import pytest

from pipeline import cli
from pipeline.formats import schemas

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]

INVOKE = re.compile(r"(?:(?<![\w./-])(?:\S*/)?python3?(?:\.\d+)?\s+-m\s+pipeline|(?<![\w./-])(?:\S*/)?counter-gap)(?=\s|$)")


# ---------------------------------------------------------------- reading the pages ---------

def code_texts(path: Path, inline: bool = True) -> list[tuple[int, str]]:
    """(line number, text) of every code block line (``\\`` continuations joined) and, with
    ``inline``, every inline code span (line breaks inside it become spaces) of a Markdown page."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, prose, prose_start, fence, pending, pending_line = [], [], 1, None, "", 0

    def flush_prose():
        if not inline:
            return
        text = "\n".join(prose)
        for m in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text, re.S):
            found.append((prose_start + text.count("\n", 0, m.start()), " ".join(m.group(2).split())))

    for number, line in enumerate(lines, 1):
        marker = re.match(r"\s*(```+|~~~+)", line)
        if fence is None and marker:
            flush_prose()
            prose, fence = [], marker.group(1)
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence, prose_start = None, number + 1
                continue
            if not pending:
                pending_line = number
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            found.append((pending_line, pending + line))
            pending = ""
            continue
        if not prose:
            prose_start = number
        prose.append(line)
    flush_prose()
    return found


def command_segment(rest: str) -> str:
    """The command's own words: up to a shell separator (``;``, ``&&``, ``||``, a pipe with
    spaces around it outside brackets, an unopened ``)``) or a ``#`` comment."""
    depth, paren, quote, i = 0, 0, None, 0
    while i < len(rest):
        c = rest[i]
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "[":
            depth += 1
        elif c == "]":
            depth = max(depth - 1, 0)
        elif c == "(":
            paren += 1
        elif c == ")":
            if paren == 0:
                return rest[:i]
            paren -= 1
        elif c == ";" or rest.startswith("&&", i) or rest.startswith("||", i):
            return rest[:i]
        elif c == "|" and depth == 0 and rest[i - 1:i] in (" ", "") and rest[i + 1:i + 2] in (" ", ""):
            return rest[:i]
        elif c == "#" and rest[i - 1:i] in (" ", "\t"):
            return rest[:i]
        i += 1
    return rest


def command_lines() -> list[tuple[str, str]]:
    """(where, the words after the invocation) of every command line of the manual."""
    found = []
    for page in PAGES:
        for number, text in code_texts(page):
            text = text.replace("\\|", "|")
            if text.lstrip().startswith("$ "):
                text = text.lstrip()[2:]
            for m in INVOKE.finditer(text):
                found.append((f"{page.relative_to(ROOT)}:{number}", command_segment(text[m.end():]).strip()))
    return found


# ---------------------------------------------------------------- checking one line ---------

@lru_cache(maxsize=None)
def command_options(name: str) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """The option strings of a command (``-h``/``--help`` included) and, for a command of
    subcommands (``humans qa``), each subcommand's."""
    cmd = cli.command_of(cli.commands()[name])

    def strings(command):
        return frozenset(s for p in command.params if isinstance(p, click.Option) for s in p.opts + p.secondary_opts) \
            | {"-h", "--help"}

    subs = {sub: strings(c) for sub, c in cmd.commands.items()} if isinstance(cmd, click.Group) else {}
    return strings(cmd), subs


def parse(argv: list[str]) -> str | None:
    """None when the CLI accepts ``argv`` (missing required options forgiven), else the CLI's
    message."""
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            cli.parse(argv)
    except click.MissingParameter:
        return None
    except click.UsageError as exc:
        return exc.format_message()
    return None


def check(words: str) -> list[str]:
    """The problems of one command line (the words after ``python -m pipeline``)."""
    try:
        tokens = shlex.split(words)
    except ValueError as exc:
        return [f"cannot split: {exc}"]
    synopsis = False
    clean = []
    for token in tokens:
        bare = token.replace("[", "").replace("]", "")
        if "..." in bare or "…" in bare:
            synopsis = True
            bare = bare.replace("...", "").replace("…", "")
        if "$" in bare or "<" in bare:
            synopsis = True
        if bare in ("", "|"):
            synopsis = synopsis or bare == "|"
            continue
        if token != bare or "|" in bare:
            synopsis = True
        clean.append(bare)
    while clean and clean[0] in ("-v", "--verbose"):
        clean.pop(0)
    if not clean or clean[0] in ("-h", "--help", "--version") or clean[0].isupper():
        return []                           # no command, or a placeholder (COMMAND --help)
    problems = []
    index = cli.commands()
    names = clean[0].split("|")
    for name in names:
        if name not in index:
            problems.append(f"no command {name!r}")
    if problems:
        return problems
    alternatives = max(len(t.split("|")) for t in clean)
    for name in names:
        own, subs = command_options(name)
        options = set(own)
        rest = clean[1:]
        if subs:
            action = next((t for t in rest if not t.startswith("-")), None)
            for sub in (action.split("|") if action else []):
                if sub not in subs:
                    problems.append(f"{name}: no sub-command {sub!r}")
                else:
                    options |= subs[sub]
        for token in rest:
            for alt in token.split("|"):
                if alt.startswith("-") and not re.fullmatch(r"-\d[\d.]*", alt):
                    option = alt.split("=", 1)[0]
                    if option not in options:
                        problems.append(f"{name}: unknown option {option}")
        if synopsis or problems:
            continue
        for i in range(alternatives):
            argv = [name] + [t.split("|")[min(i, len(t.split("|")) - 1)] for t in rest]
            argv = [t for t in argv if t not in ("-h", "--help")]
            message = parse(argv)
            if message:
                problems.append(f"{' '.join(argv)}: {message}")
    return problems


LINES = command_lines()


def test_the_manual_has_command_lines():
    assert len(LINES) > 50
    pages = {where.split(":")[0] for where, _ in LINES}
    assert {"README.md", "docs/extract.md", "docs/evaluate.md"} <= pages


@pytest.mark.parametrize("where,words", LINES, ids=[f"{w} {x[:40]}" for w, x in LINES])
def test_every_command_line_parses(where, words):
    assert not check(words), f"{where}: python -m pipeline {words}"


def test_the_checker_catches_what_it_should():
    assert check("extract --corpus C --out O --workers 2") == []
    assert check("extract --corpus C --out O --worker 2")            # abbreviation
    assert check("extract --corpus C --out O --nonsense")
    assert check("extract --corpus C --out O --strategy fast")       # not a choice
    assert check("nosuchcommand --out O")
    assert check("humans qa --results R --out O") == []
    assert check("humans dance --results R --out O")
    assert check("baseline --dataset D --kind random|dist1|dist2|dist3 --out O") == []
    assert check("baseline --dataset D --kind random|dist9 --out O") == []   # synopsis: names only
    assert check("extract --corpus C [--frobnicate N] --out O")
    assert check("persons --workers 2") == []                        # required ones forgiven
    assert check("annotate-export|annotate-serve|annotate-import --help") == []
    assert check("COMMAND --help") == []
    assert command_segment("extract --out A && generate --x") == "extract --out A "
    assert command_segment("cda --mode acda|ncda --out O  # comment") == "cda --mode acda|ncda --out O  "


# ---------------------------------------------------------------- formats.md's columns ------

# Backticked lower-case words of docs/formats.md that are no column of any file: values, Python
# names, and the like. A column name goes in a schema, never here.
NOT_COLUMNS = {
    "str", "csv", "max_length",            # Python's str, the csv module, spaCy's max_length
    "ok", "skipped", "failed",             # values of books.parquet's status
    "detection",                           # a value of cda's person_source
    "nw_",                                 # a doc-key prefix
}


def schema_columns() -> set[str]:
    """Every column of a Parquet schema of pipeline.formats.schemas, nested fields included."""
    names = set()

    def add(t: pa.DataType):
        if pa.types.is_struct(t):
            for f in t:
                names.add(f.name)
                add(f.type)
        elif pa.types.is_list(t) or pa.types.is_large_list(t):
            add(t.value_type)
        elif pa.types.is_map(t):
            add(t.item_type)

    for value in vars(schemas).values():
        if isinstance(value, pa.Schema):
            for f in value:
                names.add(f.name)
                add(f.type)
    return names


def other_fields() -> set[str]:
    """Fields of the files that have no Parquet schema, from their readers and writers: cda's
    OUT.persons.tsv header, the JSON keys system_outputs reads and the name map's file
    metadata that namemap writes (string literals of those modules)."""
    import ast

    from pipeline.formats import conll, system_outputs
    from pipeline.cda.runs import namemap

    keys = set(conll.PERSON_SOURCES_HEADER)
    for module in (system_outputs, namemap):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        keys |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return keys


def formats_names() -> set[str]:
    """Functions and constants of pipeline.formats' modules, and the commands' names."""
    import importlib
    import pkgutil

    import pipeline.formats

    names = set(cli.commands())
    for info in pkgutil.walk_packages(pipeline.formats.__path__, "pipeline.formats."):
        names |= set(vars(importlib.import_module(info.name)))
    return names


def test_formats_quotes_only_real_columns():
    """Every backticked lower-case identifier on docs/formats.md, outside code blocks, is a
    column of a schema (or a field of a file without one, a function of pipeline.formats, a
    command, or one of NOT_COLUMNS)."""
    page = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), page, flags=re.S)
    known = schema_columns() | other_fields() | formats_names() | NOT_COLUMNS
    unknown = [(prose.count("\n", 0, m.start()) + 1, m.group(1))
               for m in re.finditer(r"`([a-z][a-z0-9_]*)`", prose) if m.group(1) not in known]
    assert not unknown, f"docs/formats.md quotes columns no schema has: {unknown}"


def columns_of(schema: pa.Schema) -> set[str]:
    names = set()

    def add(t: pa.DataType):
        if pa.types.is_struct(t):
            for f in t:
                names.add(f.name)
                add(f.type)
        elif pa.types.is_list(t) or pa.types.is_large_list(t):
            add(t.value_type)

    for f in schema:
        names.add(f.name)
        add(f.type)
    return names


def test_the_parquet_table_names_real_columns():
    """Each row of the Parquet table names columns of the schema(s) in its schema cell; the
    books.parquet row names every column of BOOKS."""
    page = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    rows = [line.split("|") for line in page.splitlines() if re.match(r"\| `[\w/*]+\.parquet`", line)]
    assert len(rows) >= 10
    for cells in rows:
        schema_names = re.findall(r"`([A-Z_]+)`", cells[2])
        assert schema_names and all(isinstance(getattr(schemas, n, None), pa.Schema) for n in schema_names), cells[1]
        columns = set().union(*(columns_of(getattr(schemas, n)) for n in schema_names))
        quoted = set(re.findall(r"`([a-z][a-z0-9_]*)`", cells[3])) - {"alpha", "nam_dict_sha256"}  # file metadata
        assert quoted <= columns, f"{cells[1].strip()}: {sorted(quoted - columns)}"
        if schema_names == ["BOOKS"]:
            assert quoted == set(schemas.BOOKS.names), set(schemas.BOOKS.names) ^ quoted


# ---------------------------------------------------------------- servers -------------------

# Commands that start a listening server, and the option that says where it listens.
SERVERS = re.compile(r"(?:^|[\s/])(?:dask[ -]scheduler|dask[ -]worker|flask\s+run|http\.server|jupyter\s+\w+)\b")
# Pages whose server examples still listen on every interface, to be fixed there (a ceiling:
# remove a page once its examples bind an address).
LISTEN_EVERYWHERE: set[str] = set()


def server_lines() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for number, text in code_texts(page, inline=False):
            if SERVERS.search(text) and not text.lstrip().startswith("#"):
                found.append((f"{page.relative_to(ROOT)}:{number}", text))
    return found


def test_every_server_example_binds_an_address():
    """A server started in an example names its address (``--host``/``--bind``/``--listen-address``);
    our own apps (annotate-serve, experiment-serve) bind 127.0.0.1 by themselves. A page
    that binds another address says why on the same line (a comment)."""
    unbound = [(where, text.strip()) for where, text in server_lines()
               if not re.search(r"--(?:host|bind|listen-address|ip)[ =]", text)
               and where.split(":")[0] not in LISTEN_EVERYWHERE]
    assert not unbound, unbound
    for where, text in server_lines():
        address = re.search(r"--(?:host|bind|listen-address|ip)[ =](\S+)", text)
        if address and address.group(1) not in ("127.0.0.1", "localhost", "tcp://127.0.0.1"):
            assert "#" in text, f"{where}: listens on {address.group(1)}: say why in a comment"


# ---------------------------------------------------------------- make targets --------------

def test_every_make_target_quoted_exists():
    """``make TARGET ...`` in docs/ and the README names targets of the Makefile."""
    from tests.test_make_help import targets

    known = set(targets())
    missing = []
    for page in PAGES:
        for number, text in code_texts(page):
            for m in re.finditer(r"(?<![\w-])make((?:\s+[a-z][\w-]*(?![\w=/.-]))+)", text):
                for name in m.group(1).split():
                    if name not in known:
                        missing.append((f"{page.relative_to(ROOT)}:{number}", name))
    assert not missing, missing


# ---------------------------------------------------------------- links ---------------------

def test_every_relative_link_points_at_a_file():
    """Pages move (a log to docs/measurements/): every relative link of docs/ and the README
    still reaches a file."""
    broken = []
    for page in PAGES:
        prose = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for m in re.finditer(r"\]\(([^)\s]+)\)", prose):
            target = m.group(1).split("#")[0]
            if target and not re.match(r"[a-z]+:", target) and not (page.parent / target).exists():
                broken.append((str(page.relative_to(ROOT)), m.group(1)))
    assert not broken, broken
