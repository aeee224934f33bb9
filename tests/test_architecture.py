"""The layered house (docs/architecture.md), checked by reading every module's imports.

Imports are read from the source (``ast``): ``import a.b``, ``from a import b``, relative
imports (``from .x import y``, resolved against the module's package), and
``importlib.import_module("a.b")`` / ``__import__("a.b")`` with a literal name (an f-string
such as the CLI's ``f"pipeline.stages.{name}"`` counts as an import of its literal prefix's
package). Imports inside functions count like the others.

Checked: imports point one way (:data:`LAYERS`); no cycle; only the CLI imports a command
module; no command imports another command; cores import no reader or writer (only the pure
modules of :data:`PURE_FORMATS`); the web apps hold no SQL (their stores in formats do:
:func:`web_sql`); commands stay under :data:`MAX_COMMAND_LINES` lines (the
commands over it would be listed in :data:`OVERSIZE` with their count as a ceiling: none today);
every module's docstring has a "May import:" line that covers what it imports
(:func:`declared`; a module's own package and siblings, and :data:`IMPLICIT`, need no
naming; gaps would be listed in :data:`UNDECLARED`, as a ceiling too: empty today).

The "May import:" lines stay prose written by hand (they say *why* and *inside which
function*); this test checks them instead of generating them.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

import pipeline

ROOT = Path(pipeline.__file__).resolve().parent

# Lower layers may not import higher ones: rank of each layer (a module's rank is that of the
# longest prefix listed). ``runs`` (orchestration: extraction, evaluation, annotation import)
# sits between the cores and the commands; ``perf`` (timing/fidelity scripts, formerly
# ``benchmarks``) at the top beside the CLI.
LAYERS = {
    "pipeline.vocab": 0, "pipeline.errors": 0, "pipeline.options": 0,
    "pipeline.formats": 1,
    "pipeline.lang": 2,
    "pipeline.nlp": 3,
    "pipeline.core": 4, "pipeline.engines": 4,
    "pipeline.systems": 5,
    "pipeline.report": 6,
    "pipeline.runs": 7,
    "pipeline.web": 8,          # the annotation app takes its rows from runs.annotation_rows
    "pipeline.stages": 9,
    "pipeline.perf": 10, "pipeline.cli": 10,
    "pipeline.__main__": 11,
}

# formats modules without file I/O: schemas and record types a core may use.
PURE_FORMATS = {"pipeline.formats", "pipeline.formats.schemas"}      # whole modules a core may import

# Who may import a command module: the CLI (by name). Nothing else, the timing scripts
# included (they call runs, or the CLI's ``main``).
COMMAND_IMPORTERS = ("pipeline.cli",)

MAX_COMMAND_LINES = 100
# Commands over the limit, with their line count as a ceiling: a command may shrink (then
# lower or remove its entry), never grow. The list only ever gets shorter (empty today).
OVERSIZE: dict[str, int] = {}

# Modules whose "May import:" line is missing (None) or does not cover these imports (a
# ceiling: fix a docstring, then remove its entry; the list only ever gets shorter; empty today).
UNDECLARED: dict[str, set[str] | None] = {}


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ("pipeline",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(module: str, path: Path, level: int, name: str | None) -> str:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{name}" if name else package


def _literal_prefix(node) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value).rstrip(".") or None
    return None


def _known(name: str) -> str | None:
    """The longest project module that ``name`` is or lies in."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


@lru_cache(maxsize=None)
def imports_of(module: str) -> frozenset[str]:
    """The project modules ``module`` imports (at any depth of its body)."""
    path = MODULES[module]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node.level, node.module) if node.level else (node.module or "")
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__"):
                literal = _literal_prefix(node.args[0])
                if literal:
                    names = [literal]
        for name in names:
            if name == "pipeline" or not name.startswith("pipeline"):
                continue
            known = _known(name)
            if known and known != module and known != "pipeline":
                found.add(known)
    return frozenset(found)


def rank(module: str) -> int | None:
    best = None
    for prefix, r in LAYERS.items():
        if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, r)
    return best[1] if best else None


def command_modules() -> set[str]:
    from pipeline.cli import command_index

    return {f"pipeline.stages.{m}" for m, _ in command_index().values()}


# --------------------------------------------------------------------------- the reader ----

def test_the_reader_sees_relative_and_importlib_imports(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "mod.py").write_text(
        "from . import files\nfrom ..core import extract as ex\nimport importlib\n"
        "def f(name):\n    importlib.import_module('pipeline.report.usage')\n"
        "    importlib.import_module(f'pipeline.stages.{name}')\n    __import__('pipeline.vocab')\n")
    monkeypatch.setitem(MODULES, "pipeline.formats.mod", pkg / "mod.py")
    imports_of.cache_clear()
    try:
        assert imports_of("pipeline.formats.mod") == {"pipeline.formats", "pipeline.formats.files",
                                                      "pipeline.core", "pipeline.core.extract",
                                                      "pipeline.report.usage", "pipeline.stages",
                                                      "pipeline.vocab"}
    finally:
        imports_of.cache_clear()


def test_every_package_has_a_layer():
    assert [m for m in MODULES if m != "pipeline" and rank(m) is None] == []


# --------------------------------------------------------------------------- the rules -----

def test_imports_point_one_way():
    """No module imports one of a higher layer (lazy imports inside functions included)."""
    upward = [f"{m} -> {d}" for m in MODULES for d in imports_of(m)
              if rank(m) is not None and rank(d) is not None and rank(d) > rank(m)]
    assert upward == []


def test_no_import_cycle():
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = "open"
        for dep in sorted(imports_of(node)):
            if state.get(dep) == "open":
                cycles.append(stack[stack.index(dep):] + [dep] if dep in stack else [node, dep])
            elif dep not in state:
                visit(dep, stack + [dep])
        state[node] = "done"

    for module in sorted(MODULES):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_only_the_cli_imports_a_command():
    commands = command_modules()
    offenders = [f"{m} -> {d}" for m in MODULES for d in imports_of(m) & commands
                 if m not in commands and m not in COMMAND_IMPORTERS]
    assert offenders == []


def test_no_command_imports_another_command():
    commands = command_modules()
    assert [f"{m} -> {d}" for m in sorted(commands) for d in sorted(imports_of(m) & commands)] == []


IO_NAME = re.compile(r"^_?(read|write|load|save|open|publish|dump|parse_file|staged|atomic|sha256_file)")
IO_CALL = re.compile(r"\bopen\(|\.read_(text|bytes)\(|\.write_(text|bytes)\(|\bos\.(replace|rename|remove|unlink)\("
                     r"|\.mkdir\(|\.unlink\(|read_table\(|write_table\(|read_parquet\(|to_parquet\(|read_csv\(|to_csv\(")


def _io_names(module: str) -> set[str]:
    """Names defined in a formats module that read or write files: functions whose name says
    so (``read_*``, ``write_*``, ``load_*``...) or whose body calls file I/O."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    source = MODULES[module].read_text(encoding="utf-8")
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = ast.get_source_segment(source, node) or ""
            if IO_NAME.match(node.name) or IO_CALL.search(body):
                out.add(node.name)
    return out


def core_io_imports(module: str) -> list[str]:
    """A core's imports of formats readers/writers: a whole formats module other than the pure
    ones, ``pipeline.formats.files``, or a reading/writing function of another."""
    path = MODULES[module]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("pipeline.formats")
                      and _known(a.name) not in PURE_FORMATS]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node.level, node.module) if node.level else (node.module or "")
            if not base.startswith("pipeline.formats"):
                continue
            for alias in node.names:
                target = _known(f"{base}.{alias.name}")
                if target and target != base:                 # a module: pure ones only
                    if target not in PURE_FORMATS:
                        found.append(target)
                elif base == "pipeline.formats.files" or alias.name in _io_names(_known(base)):
                    found.append(f"{base}.{alias.name}")
    return found


def test_cores_use_no_reader_or_writer():
    """pipeline.core is pure: from formats only record types, constants and pure helpers
    (``parse_bool``, ``NameEntry``, ``rows_list``), never a function that reads or writes
    files, nor the I/O module ``formats.files``."""
    offenders = {m: core_io_imports(m) for m in MODULES if m.startswith("pipeline.core")}
    assert {m: f for m, f in offenders.items() if f} == {}


def test_the_reader_or_writer_check_catches_one(tmp_path, monkeypatch):
    mod = tmp_path / "leaky.py"
    mod.write_text("from pipeline.formats.gap_tsv import parse_bool, read_gap_tsv\n"
                   "from pipeline.formats import files, schemas\n")
    monkeypatch.setitem(MODULES, "pipeline.core.leaky", mod)
    assert core_io_imports("pipeline.core.leaky") == ["pipeline.formats.gap_tsv.read_gap_tsv",
                                                      "pipeline.formats.files"]


SQL_STATEMENT = re.compile(r"\b(SELECT\b[\s\S]*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|"
                           r"DELETE\s+FROM|CREATE\s+(TABLE|INDEX)|DROP\s+TABLE|PRAGMA)\b")
SQL_CALLS = {"execute", "executemany", "executescript"}


def web_sql(module: str) -> list[str]:
    """SQL in a web module: string literals holding a statement (``SELECT ... FROM``,
    ``INSERT INTO``, ``UPDATE ... SET``, ``DELETE FROM``, ``CREATE TABLE``...; docstrings
    included) and calls of a connection's ``execute``/``executemany``/``executescript``.
    The web apps only serve: their queries are named functions of their stores
    (:mod:`pipeline.formats.annotation_store`, :mod:`pipeline.formats.experiment_db`)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_STATEMENT.search(node.value):
            found.append(f"line {node.lineno}: {node.value.strip()[:60]!r}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in SQL_CALLS):
            found.append(f"line {node.lineno}: .{node.func.attr}(...)")
    return found


def test_web_apps_hold_no_sql():
    offenders = {m: web_sql(m) for m in MODULES if m.startswith("pipeline.web")}
    assert {m: f for m, f in offenders.items() if f} == {}


def test_only_the_stores_hold_sql():
    """Not the web apps, nor a command that prints what is stored: every query is a named
    function of a store in ``pipeline.formats``."""
    offenders = {m: web_sql(m) for m in MODULES if not m.startswith("pipeline.formats")}
    assert {m: f for m, f in offenders.items() if f} == {}


def test_the_sql_check_catches_one(tmp_path, monkeypatch):
    mod = tmp_path / "leaky.py"
    mod.write_text('"""Select a name FROM the list; update the page (prose, not SQL)."""\n'
                   "def f(con, name):\n"
                   "    rows = con.execute('SELECT id FROM answers WHERE annotator = ?', (name,))\n"
                   "    q = ('INSERT OR IGNORE INTO meta(key, value) '\n"
                   "         'VALUES (?, ?)')\n"
                   "    return rows, q\n")
    monkeypatch.setitem(MODULES, "pipeline.web.leaky", mod)
    assert sorted(web_sql("pipeline.web.leaky")) == [
        "line 3: 'SELECT id FROM answers WHERE annotator = ?'",
        "line 3: .execute(...)",
        "line 4: 'INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)'"]


SERVERS = {"annotate_serve", "experiment_serve"}   # they start a web app and wait: more than a call
MAX_RUN_STATEMENTS = 3


def test_a_command_runs_by_one_call():
    """A command's ``run(args)`` is its imports and one call (into a run, or ``systems.run``),
    with at most a note for the run record or a loop printing what the run returned."""
    fat = {}
    for module in sorted(command_modules()):
        name = module.rpartition(".")[2]
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == "run" and name not in SERVERS:
                body = [n for n in node.body if not isinstance(n, (ast.Import, ast.ImportFrom))
                        and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
                if len(body) > MAX_RUN_STATEMENTS:
                    fat[name] = len(body)
    assert fat == {}


def test_commands_stay_small():
    sizes = {m.rpartition(".")[2]: len(MODULES[m].read_text(encoding="utf-8").splitlines())
             for m in command_modules()}
    over = {name: n for name, n in sizes.items() if n > max(MAX_COMMAND_LINES, OVERSIZE.get(name, 0))}
    assert over == {}, f"commands over {MAX_COMMAND_LINES} lines (or over their OVERSIZE ceiling): {over}"
    assert set(OVERSIZE) <= set(sizes), f"OVERSIZE names modules that are not commands: {set(OVERSIZE) - set(sizes)}"


# ------------------------------------------------------------------- "May import:" lines ---

# Allowed without naming: the option vocabulary (standard library only) for any parser builder.
IMPLICIT = {"pipeline.options"}
# "May import:", "May import (inside ``run``):", "Pure: may import ...", "imports nothing from the project"
MAY_IMPORT = re.compile(r"\b[Mm]ay import\b[^:.]*:?|\bimports nothing\b")
EVERY_LOWER = re.compile(r"every layer|everything above|every other layer|all layers", re.I)


def declared(module: str) -> tuple[set[str], bool] | None:
    """(the project modules/packages named by the module's "May import:" line, whether it
    allows every lower layer); None without such a line. The line runs to the end of its
    paragraph."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    found = MAY_IMPORT.search(doc)
    if not found:
        return None
    text = doc[found.start():].split("\n\n")[0]
    names = set(re.findall(r":mod:`~?(pipeline[\w.]*)`", text))
    names |= set(re.findall(r"``(pipeline[\w.]*)``", text))
    return names, bool(EVERY_LOWER.search(text))


def undeclared(module: str) -> set[str] | None:
    """What ``module`` imports that its "May import:" line does not cover (None: no line)."""
    found = declared(module)
    if found is None:
        return None
    names, every_lower = found
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for dep in imports_of(module):
        if any(dep == n or dep.startswith(n + ".") for n in names) or dep in IMPLICIT:
            continue
        if dep == package or dep.rpartition(".")[0] == package:      # its own package and siblings
            continue
        if every_lower and rank(dep) is not None and rank(module) is not None and rank(dep) <= rank(module):
            continue
        out.add(dep)
    return out


def test_may_import_lines_are_true():
    drift = {}
    for module in sorted(MODULES):
        if module == "pipeline":
            continue
        missing = undeclared(module)
        allowed = UNDECLARED.get(module, set()) if module in UNDECLARED else set()
        if missing is None:
            if module not in UNDECLARED or UNDECLARED[module] is not None:
                drift[module] = "no 'May import:' line in its docstring"
        elif allowed is None:
            continue
        elif missing - allowed:
            drift[module] = sorted(missing - allowed)
    assert drift == {}


@pytest.mark.parametrize("module", ["pipeline.options", "pipeline.formats.run_record", "pipeline.cli"])
def test_new_modules_declare_exactly_what_they_import(module):
    assert undeclared(module) == set()


ISSUE_NUMBER = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def test_no_module_points_readers_to_an_issue_number():
    """A newcomer cannot see the tracker: docstrings and comments say what and why, not
    "issue 26"."""
    found = [f"{module}:{n}: {line.strip()}" for module, path in sorted(MODULES.items())
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if ISSUE_NUMBER.search(line)]
    assert found == []


DOC_PATH = re.compile(r"`((?:pipeline/)?(?:core|formats|lang|nlp|runs|stages|report|web|systems|perf)"
                      r"(?:/[A-Za-z_0-9]+)+(?:\.py)?)`")


def test_docs_name_only_modules_that_exist():
    """A path in README or docs/ (``core/metrics.py``, ``pipeline/runs/``, ``nlp/prune``) names a
    module or package of today's layout: a split or a rename updates the docs with it."""
    docs = [ROOT.parent / "README.md", *sorted((ROOT.parent / "docs").glob("*.md"))]
    missing = []
    for doc in docs:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for m in DOC_PATH.finditer(line):
                rel = m.group(1).removeprefix("pipeline/").removesuffix(".py")
                if not ((ROOT / rel).is_dir() or (ROOT / f"{rel}.py").is_file()):
                    missing.append(f"{doc.name}:{n}: {m.group(1)}")
    assert missing == []
