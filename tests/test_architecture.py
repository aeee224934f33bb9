"""The layered house (docs/architecture.md), checked by reading every module's syntax tree.

The reading is :class:`tests.architecture_check.Package` (``ast`` only: never a regular
expression over the text, never a docstring). An import is ``import a.b``, ``from a import b``,
a relative import, attribute access through a bound project name (``import pipeline`` then
``pipeline.runs.extract.f()``; ``getattr(pipeline.runs, "extract")``), or
``importlib.import_module``/``__import__`` under any alias with a name whose value is known (a
constant, or constants joined; an f-string such as ``f"pipeline.commands.{name}"``
imports every module its literal prefix names). Imports inside functions count like the
others.

Checked (:func:`violations`, one entry per rule): imports point one way (:data:`LAYERS`); two
packages of the same rank import each other only where :data:`SAME_RANK` says so; no cycle;
only the CLI imports a command module; no command imports another; no computed import (a name
no reader can know, an import function passed around, ``exec``) in a layered module, except the
three of :data:`COMPUTED` whose reach is declared (the CLI's: the command packages); the
spine imports no feature room and a room no other (:data:`ROOMS`, :data:`ROOM_DEPS`; a room's
layers are ranked with the spine's, :data:`ROOM_LAYERS`); cores import no reader or writer (only the
pure modules of :data:`PURE_FORMATS`), call no file I/O (``open``, ``write_text``,
``to_parquet``, ``savefig``, ``os.replace``...) and draw no progress bar; reports and web apps
write no file; only the stores in formats hold SQL (:func:`web_sql`). The layer rules apply
by the layer's name (:func:`kind`), in the spine and in every room alike. Each rule is shown to
catch what it forbids on a copy of the package with violations planted in it
(:func:`test_planted_violations_are_caught`), and a docstring edit changes nothing.

What the rules find today and is still to be fixed is listed in :data:`KNOWN`, one line each
with the reason: the list may only get shorter (an entry that no longer violates fails too).

Also checked: commands stay under :data:`MAX_COMMAND_LINES` lines (the commands over it would
be listed in :data:`OVERSIZE` with their count as a ceiling: none today); every module's
docstring has a "May import:" line that covers what it imports (:func:`declared`; a module's
own package and siblings, its own room's lower layers, and :data:`IMPLICIT`, need no naming; gaps would be listed in
:data:`UNDECLARED`, as a ceiling too: empty today). The "May import:" lines stay prose written
by hand (they say *why* and *inside which function*); they document, the rules above enforce.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

import pipeline
from tests.architecture_check import Package

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
    "pipeline.web": 8,          # the annotation app takes its rows from annotation.runs.rows
    "pipeline.commands": 9,
    "pipeline.perf": 10, "pipeline.cli": 10,
    "pipeline.__main__": 11,
}

# Feature rooms (docs/architecture.md): one package per satellite feature, with its own small
# layers named as the spine's. A room's layer sits just above the
# spine's layer of the same name (its rank + 0.5): it may import the shared layers below it and
# its own lower layers, and no spine layer may import it (by rank alone a spine run could import a
# room's core: the "room" rule forbids it).
ROOMS = ("pipeline.humans", "pipeline.annotation", "pipeline.cda", "pipeline.embeddings",
         "pipeline.sowinobias", "pipeline.diagnostics")
ROOM_LAYERS = {"formats": 1, "nlp": 3, "core": 4, "report": 6, "runs": 7, "web": 8, "commands": 9}
for _room in ROOMS:
    LAYERS[_room] = 0.5                                   # the room's package marker
    LAYERS.update({f"{_room}.{inner}": rank + 0.5 for inner, rank in ROOM_LAYERS.items()})
# Rooms that may import another room: (importer, imported). None today.
ROOM_DEPS: set[tuple[str, str]] = set()
# Outside a room, who may import it: the CLI (its commands, by name) and the timing scripts.
ROOM_IMPORTERS = ("pipeline.cli", "pipeline.perf")

# Two layers of one rank are independent: neither imports the other, but for these pairs
# (importer's layer, imported layer).
SAME_RANK = {
    ("pipeline.perf", "pipeline.cli"),      # timing scripts run a command through pipeline.cli.main
}

# Computed imports whose reach is declared: module -> the package its computed names lie in
# (checked in the module itself). They count as imports of every module of that package, so
# the layer rules hold for them too.
COMPUTED = {
    "pipeline.systems.registry": "pipeline.systems",     # the adapters of BUILTIN, imported when used
    "pipeline.lang.evidence_json": "pipeline.lang",      # a stored record's class, refused outside pipeline.lang
    # the command modules it finds in the command packages, imported by their dotted names
    "pipeline.cli": ("pipeline.commands",) + tuple(f"{room}.commands" for room in ROOMS),
}

# formats modules without file I/O: schemas and record types a core may use.
PURE_FORMATS = {"pipeline.formats", "pipeline.formats.schemas"}      # whole modules a core may import

# Who may import a command module: the CLI (by name). Nothing else, the timing scripts
# included (they call runs, or the CLI's ``main``).
COMMAND_IMPORTERS = ("pipeline.cli",)

# Violations found by the rules and not fixed yet: (rule, module), each with its reason and
# issue. The list only gets shorter; empty today (issue 47: the core's tqdm bar, the reports'
# own savefig calls and the runs' own writes are gone: runs draw progress, formats writes).
KNOWN: set[tuple[str, str]] = set()

# What a run or a command may do to the file system itself: make and remove folders and its
# own files (formats.out_guard decides what is its own). Every file it reads or writes goes
# through formats (its readers; atomic or staged writers).
HOUSEKEEPING = {".mkdir()", ".unlink()", ".rmdir()", "shutil.rmtree", "os.makedirs", "os.mkdir",
                "os.remove", "os.unlink", "os.rmdir"}

MAX_COMMAND_LINES = 100
# Commands over the limit, with their line count as a ceiling: a command may shrink (then
# lower or remove its entry), never grow. The list only ever gets shorter (empty today).
OVERSIZE: dict[str, int] = {}

# Modules whose "May import:" line is missing (None) or does not cover these imports (a
# ceiling: fix a docstring, then remove its entry; the list only ever gets shorter; empty today).
UNDECLARED: dict[str, set[str] | None] = {}


def read_package(root: Path = ROOT) -> Package:
    return Package(root, "pipeline", layers=LAYERS, computed_allowed=COMPUTED)


PKG = read_package()
MODULES = {name: mod.path for name, mod in PKG.modules.items()}


def imports_of(module: str) -> frozenset[str]:
    """The project modules ``module`` imports (at any depth of its body)."""
    return PKG.imports_of(module)


def rank(module: str) -> int | None:
    return PKG.rank(module)


def command_modules() -> set[str]:
    return set(PKG.commands)


def kind(pkg: Package, module: str) -> str:
    """The layer a module is in, by its name whether in the spine or in a room: ``core``,
    ``formats``, ``runs``, ``report``, ``web``, ``commands``..."""
    inner = (pkg.layer(module) or "").rpartition(".")[2]
    return inner


def room_of(module: str) -> str | None:
    return next((r for r in ROOMS if module == r or module.startswith(r + ".")), None)


def _is_formats(pkg: Package, module: str) -> bool:
    return kind(pkg, module) == "formats"


# ------------------------------------------------------------------------- the rules ----

_CACHE: dict[tuple, set[str]] = {}
IO_NAME = re.compile(r"^_?(read|write|load|save|open|publish|dump|parse_file|staged|atomic|sha256_file)")


def io_functions(pkg: Package, module: str) -> set[str]:
    """Top-level functions of a formats module that read or write files: those whose name says
    so (``read_*``, ``write_*``, ``load_*``...), whose body calls file I/O (read from the tree:
    :meth:`Package.file_io`), or that call such a function of the same module."""
    key = ("io_functions", module, pkg.modules[module].text)
    if key in _CACHE:
        return _CACHE[key]
    tree = pkg.modules[module].tree
    lines = [int(entry.split(":")[0].removeprefix("line ")) for entry in pkg.file_io(module)]
    funcs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    io = {name for name, n in funcs.items()
          if IO_NAME.match(name) or any(n.lineno <= line <= n.end_lineno for line in lines)}
    calls = {name: {c.func.id for c in ast.walk(n) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
             for name, n in funcs.items()}
    while True:
        more = {name for name in funcs if name not in io and calls[name] & io}
        if not more:
            _CACHE[key] = io
            return io
        io |= more


def core_io_imports(pkg: Package, module: str) -> list[str]:
    """A core's imports of formats readers/writers: a whole formats module other than the pure
    ones, ``pipeline.formats.files``, or a reading/writing function of another."""
    mod = pkg.modules[module]
    found = []
    for node in mod.nodes:
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if _is_formats(pkg, a.name)
                      and pkg.known(a.name) not in PURE_FORMATS]
        elif isinstance(node, ast.ImportFrom):
            base = pkg._resolve_from(mod, node)
            if not _is_formats(pkg, base):
                continue
            for alias in node.names:
                target = pkg.known(f"{base}.{alias.name}")
                if target and target != base:                 # a module: pure ones only
                    if target not in PURE_FORMATS:
                        found.append(target)
                elif base == "pipeline.formats.files" or (
                        pkg.known(base) and alias.name in io_functions(pkg, pkg.known(base))):
                    found.append(f"{base}.{alias.name}")
    # attribute access on a formats module reached another way (``import pipeline`` ...)
    for dep in sorted(pkg.imports_of(module)):
        if _is_formats(pkg, dep) and dep not in PURE_FORMATS and dep not in found \
                and not any(f.startswith(dep + ".") for f in found):
            direct = any(isinstance(n, ast.ImportFrom) and pkg._resolve_from(mod, n) == dep for n in mod.nodes)
            if not direct:
                found.append(dep)
    return found


def _cycles(pkg: Package) -> list[list[str]]:
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = "open"
        for dep in sorted(pkg.named_imports_of(node)):
            if state.get(dep) == "open":
                cycles.append(stack[stack.index(dep):] + [dep] if dep in stack else [node, dep])
            elif dep not in state:
                visit(dep, stack + [dep])
        state[node] = "done"

    for module in sorted(pkg.modules):
        if module not in state:
            visit(module, [module])
    return cycles


def violations(pkg: Package) -> dict[str, dict[str, list[str]]]:
    """rule -> module -> what breaks it; only rules with a finding. Read from the syntax trees
    alone: a docstring (the "May import:" lines included) changes nothing here."""
    found: dict[str, dict[str, list[str]]] = {}

    def add(rule: str, module: str, items):
        items = sorted(items)
        if items:
            found.setdefault(rule, {}).setdefault(module, []).extend(items)

    commands = pkg.commands
    for m in sorted(pkg.modules):
        r, deps = pkg.rank(m), pkg.imports_of(m)
        if r is not None:
            add("upward", m, [d for d in deps if pkg.rank(d) is not None and pkg.rank(d) > r])
            add("same-rank", m, [d for d in deps if pkg.rank(d) == r and pkg.layer(d) != pkg.layer(m)
                                 and (pkg.layer(m), pkg.layer(d)) not in SAME_RANK])
            add("computed-import", m, pkg.computed_imports(m))
        if m not in commands and m not in COMMAND_IMPORTERS:
            add("command-import", m, deps & commands)
        if m in commands:
            add("command-imports-command", m, deps & commands)
        room = room_of(m)
        add("room", m, [d for d in deps if room_of(d) not in (None, room) and (
            (room is None and not (m in ROOM_IMPORTERS or m.startswith(tuple(r + "." for r in ROOM_IMPORTERS))))
            or (room is not None and (room, room_of(d)) not in ROOM_DEPS))])
        layer = kind(pkg, m)
        if layer == "core":
            add("core-reader", m, core_io_imports(pkg, m))
            add("core-io", m, pkg.file_io(m))
            add("core-progress", m, pkg.progress_bars(m))
        if layer in ("report", "web"):
            add("report-web-writes", m, pkg.file_io(m, writes_only=True))
        if layer in ("runs", "commands"):
            add("run-io", m, [w for w in pkg.file_io(m) if w.split(": ", 1)[1] not in HOUSEKEEPING])
        if layer != "formats":
            add("sql", m, web_sql(m, pkg))
    for cycle in _cycles(pkg):
        add("cycle", cycle[0], [" -> ".join(cycle)])
    return found


def _unexpected(found: dict[str, dict[str, list[str]]], rules: set[str]) -> dict:
    return {rule: {m: f for m, f in by_module.items() if (rule, m) not in KNOWN}
            for rule, by_module in found.items() if rule in rules
            if any((rule, m) not in KNOWN for m in by_module)}



def test_the_checker_finds_the_cli_s_commands():
    from pipeline.cli import commands

    assert PKG.commands == {m.__name__ for m in commands().values()}


def test_the_spine_imports_no_room_and_rooms_import_each_other_only_as_declared():
    """A room (``pipeline/humans/``...) is imported from outside only by the CLI and the timing
    scripts; one room imports another only where :data:`ROOM_DEPS` says so."""
    assert _unexpected(FOUND, {"room"}) == {}


def test_every_package_is_listed_in_pyproject():
    """pyproject.toml lists its packages one by one: a room's new subpackage is listed too."""
    import tomllib

    listed = set(tomllib.loads((ROOT.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    assert {m for m, mod in PKG.modules.items() if mod.is_package} - listed == set()


def test_every_room_has_its_layers_ranked():
    """Each subpackage or module of a room is one of its layers (:data:`ROOM_LAYERS`)."""
    for room in ROOMS:
        inner = {m.split(".")[2] for m in MODULES if m.startswith(room + ".")}
        assert inner <= set(ROOM_LAYERS), (room, inner - set(ROOM_LAYERS))


def test_every_package_has_a_layer():
    assert [m for m in MODULES if m != "pipeline" and rank(m) is None] == []


def test_imports_point_one_way():
    """No module imports one of a higher layer (lazy imports, attribute access through
    ``import pipeline`` and known ``importlib`` names included)."""
    assert _unexpected(FOUND, {"upward"}) == {}


def test_layers_of_one_rank_stay_apart():
    """``engines`` and ``core`` share a rank: neither imports the other (nor ``vocab``,
    ``errors`` and ``options`` one another)."""
    assert _unexpected(FOUND, {"same-rank"}) == {}


def test_no_import_cycle():
    assert _unexpected(FOUND, {"cycle"}) == {}


def test_only_the_cli_imports_a_command():
    assert _unexpected(FOUND, {"command-import"}) == {}


def test_no_command_imports_another_command():
    assert _unexpected(FOUND, {"command-imports-command"}) == {}


def test_no_computed_import():
    """A name no reader can follow (``import_module(name)``, ``f = importlib.import_module``,
    ``exec``) hides which layer is imported: only :data:`COMPUTED` may, within its package."""
    assert _unexpected(FOUND, {"computed-import"}) == {}


def test_cores_use_no_reader_or_writer():
    """pipeline.core is pure: from formats only record types, constants and pure helpers
    (``parse_bool``, ``NameEntry``, ``rows_list``), never a function that reads or writes
    files, nor the I/O module ``formats.files``."""
    assert _unexpected(FOUND, {"core-reader"}) == {}


def test_cores_do_no_file_io_and_draw_no_progress_bar():
    assert _unexpected(FOUND, {"core-io", "core-progress"}) == {}


def test_reports_and_web_apps_write_no_file():
    """They render and serve; formats write (a web app reads its own templates)."""
    assert _unexpected(FOUND, {"report-web-writes"}) == {}


def test_runs_and_commands_read_and_write_files_only_through_formats():
    """A run reads its inputs with formats' readers and writes its outputs with formats' writers
    (atomic files, staged sets, Parquet streams, figures); itself it only makes and removes
    folders and its own files."""
    assert _unexpected(FOUND, {"run-io"}) == {}


def test_known_violations_are_still_violations():
    """An entry of :data:`KNOWN` that no longer breaks its rule is removed from the list."""
    stale = sorted((rule, m) for rule, m in KNOWN if m not in FOUND.get(rule, {}))
    assert stale == []


def test_computed_reach_is_declared_in_the_module():
    """Each :data:`COMPUTED` module's reach is its own package (what the module refuses
    outside it is its own business; here: the entries name real modules of one layer)."""
    for module, package in COMPUTED.items():
        if module == "pipeline.cli":            # the command packages, spine's and rooms'
            assert all(PKG.is_command_package(p) and p in MODULES for p in package)
            continue
        assert module in MODULES and package in MODULES
        assert PKG.layer(module) == PKG.layer(package)


# ---------------------------------------------------------------------- the reader ----

def _reader_on(tmp_path, files: dict[str, str]) -> Package:
    """A copy of the package with ``files`` (relative path -> text) added or replaced."""
    copy = tmp_path / "pipeline"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for rel, text in files.items():
        (copy / rel).write_text(text, encoding="utf-8")
    return read_package(copy)


def test_the_reader_sees_every_kind_of_import(tmp_path):
    pkg = _reader_on(tmp_path, {"formats/mod.py": (
        "from . import files\nfrom ..core import extract as ex\nimport importlib\n"
        "import importlib as il\nfrom importlib import import_module as load\nimport pipeline\n"
        "from pipeline import nlp\n"
        "def f(name):\n    importlib.import_module('pipeline.report.memory')\n"
        "    importlib.import_module(f'pipeline.commands.{name}')\n    __import__('pipeline.vocab')\n"
        "    il.import_module('pipeline.' + 'cda.runs.cda')\n    load('.gap_tsv', __package__)\n"
        "    load('pipeline.runs.%s' % name)\n"
        "    p = pipeline\n    p.web.serving.serve\n    nlp.prune.f()\n"
        "    getattr(pipeline.lang, 'names')\n")})
    commands = {m for m in pkg.modules if m.startswith("pipeline.commands")}
    runs = {m for m in pkg.modules if m.startswith("pipeline.runs")}
    assert pkg.imports_of("pipeline.formats.mod") == {
        "pipeline.formats", "pipeline.formats.files", "pipeline.core", "pipeline.core.extract",
        "pipeline.report.memory", "pipeline.vocab", "pipeline.cda.runs.cda", "pipeline.formats.gap_tsv",
        "pipeline.web.serving", "pipeline.nlp", "pipeline.nlp.prune", "pipeline.lang", "pipeline.lang.names",
        *commands, *runs}
    assert pkg.computed_imports("pipeline.formats.mod") == []


def test_the_reader_sees_computed_imports(tmp_path):
    pkg = _reader_on(tmp_path, {"core/mod.py": (
        "import importlib, sys\nimport pipeline\n"
        "def f(name, names):\n    importlib.import_module(name)\n    list(map(importlib.import_module, names))\n"
        "    __import__(name.upper())\n    exec('import pipeline.runs')\n    sys.modules[name]\n"
        "    getattr(pipeline, name)\n    g = importlib.import_module\n    g(name)\n"
        "    g('pipeline.cda.runs.cda')\n    importlib.import_module('numpy')\n"
        "    importlib.import_module(f'spacy_{name}')\n    sys.modules.get(name)\n"
        "    sys.modules.get('pipeline.runs.label')\n")})
    assert pkg.computed_imports("pipeline.core.mod") == [
        "line 4: importlib.import_module(<computed name>)",
        "line 5: importlib.import_module passed around (an import by a name not seen)",
        "line 6: __import__(<computed name>)", "line 7: exec(...)", "line 8: sys.modules[<computed>]",
        "line 9: getattr(pipeline, <computed name>)", "line 11: importlib.import_module(<computed name>)",
        "line 15: sys.modules.get(<computed>)"]
    assert {"pipeline.cda.runs.cda", "pipeline.runs.label"} <= pkg.imports_of("pipeline.core.mod")


def test_the_reader_sees_file_io(tmp_path):
    pkg = _reader_on(tmp_path, {"core/mod.py": (
        "import os, shutil\nimport pyarrow.parquet as pq\nfrom os import replace as swap\n"
        "from pathlib import Path\nfrom tqdm.auto import tqdm\n"
        "def f(df, fig, t, p, mode):\n    open(p)\n    open(p, 'w')\n    open(p, mode=mode)\n"
        "    Path(p).write_text('x')\n    p.write_bytes(b'')\n    df.to_parquet(p)\n    fig.savefig(p)\n"
        "    pq.write_table(t, p)\n    os.replace(p, p)\n    swap(p, p)\n    shutil.copy(p, p)\n"
        "    df.to_csv(p)\n    df.to_csv()\n    'a'.replace('a', 'b')\n    p.read_text()\n")})
    io = pkg.file_io("pipeline.core.mod")
    assert io == ["line 7: open(..., 'r')", "line 8: open(..., 'w')", "line 9: open(..., <computed mode>)",
                  "line 10: .write_text()", "line 11: .write_bytes()", "line 12: .to_parquet()",
                  "line 13: .savefig()", "line 14: pyarrow.parquet.write_table", "line 15: os.replace",
                  "line 16: os.replace", "line 17: shutil.copy", "line 18: .to_csv(path)",
                  "line 21: .read_text()"]
    writes = pkg.file_io("pipeline.core.mod", writes_only=True)
    assert set(io) - set(writes) == {"line 7: open(..., 'r')", "line 21: .read_text()"}
    assert pkg.progress_bars("pipeline.core.mod") == ["line 5: from tqdm.auto import ..."]


def test_the_reader_or_writer_check_catches_one(tmp_path):
    pkg = _reader_on(tmp_path, {"core/leaky.py": (
        "from pipeline.formats.gap_tsv import parse_bool, read_gap_tsv\n"
        "from pipeline.formats import files, schemas\n")})
    assert core_io_imports(pkg, "pipeline.core.leaky") == ["pipeline.formats.gap_tsv.read_gap_tsv",
                                                           "pipeline.formats.files"]


# ------------------------------------------------------------ violations planted in a copy ----

# Each planted violation: (file under pipeline/, text appended, the (rule, module, finding)
# entries it must add). The four the issue names first, then more ways to write each.
PLANTED = {
    "a core imports a run by a computed name": (
        "core/metrics.py",
        "\n\ndef _planted_run(name):\n    import importlib\n"
        "    return importlib.import_module('.'.join(['pipeline', 'runs', name]))\n",
        {("computed-import", "pipeline.core.metrics")}),
    "a core imports a run by a name built from constants": (
        "core/metrics.py",
        "\n\ndef _planted_run2():\n    from importlib import import_module as load\n"
        "    return load('pipeline.' + 'runs.extract')\n",
        {("upward", "pipeline.core.metrics")}),
    "a core writes a file": (
        "core/quadruples.py",
        "\n\ndef _planted_write(path, text):\n    with open(path, 'w', encoding='utf-8') as fh:\n"
        "        fh.write(text)\n",
        {("core-io", "pipeline.core.quadruples")}),
    "a core writes through Path, pandas and os": (
        "core/label.py",
        "\n\ndef _planted_writes(path, frame, fig):\n    import os\n    from pathlib import Path\n"
        "    Path(path).write_text('x')\n    frame.to_parquet(path)\n    fig.savefig(path)\n"
        "    os.replace(path, path)\n",
        {("core-io", "pipeline.core.label")}),
    "a core draws a progress bar": (
        "core/weights.py", "\n\ndef _planted_bar(xs):\n    import tqdm\n    return list(tqdm.tqdm(xs))\n",
        {("core-progress", "pipeline.core.weights")}),
    "a format reaches a command through import pipeline": (
        "formats/tables.py",
        "\n\nimport pipeline\n\n\ndef _planted_command(args):\n"
        "    return pipeline.commands.extract.run(args)\n",
        {("upward", "pipeline.formats.tables"), ("command-import", "pipeline.formats.tables")}),
    "engines imports a core of the same rank": (
        "engines.py", "\n\ndef _planted_core():\n    from pipeline.core import metrics\n    return metrics\n",
        {("same-rank", "pipeline.engines")}),
    "a run writes a file itself": (
        "diagnostics/runs/diagnostics.py", "\n\ndef _planted_save(stage, text, png):\n    (stage / 'a.md').write_text(text)\n"
        "    (stage / 'a.png').write_bytes(png)\n    stage.mkdir(exist_ok=True)\n",
        {("run-io", "pipeline.diagnostics.runs.diagnostics")}),
    "a command reads a file itself": (
        "diagnostics/commands/analyze.py", "\n\ndef _planted_read(path):\n    with open(path, 'rb') as fh:\n"
        "        return fh.read(4)\n",
        {("run-io", "pipeline.diagnostics.commands.analyze")}),
    "a spine run writes a file itself": (
        "runs/label.py", "\n\ndef _planted_save(stage, text):\n    (stage / 'a.md').write_text(text)\n",
        {("run-io", "pipeline.runs.label")}),
    "the spine imports a room": (
        "runs/evaluate.py", "\n\ndef _planted_room():\n    from pipeline.diagnostics.core import analysis\n"
        "    return analysis\n",
        {("room", "pipeline.runs.evaluate")}),
    "a room imports another room": (
        "humans/runs/humans.py", "\n\ndef _planted_room():\n    import pipeline.cda.core.namemap as nm\n"
        "    return nm\n",
        {("room", "pipeline.humans.runs.humans")}),
    "a room's core imports its own run": (
        "cda/core/namemap.py", "\n\ndef _planted_up():\n    from pipeline.cda.runs import namemap\n"
        "    return namemap\n",
        {("upward", "pipeline.cda.core.namemap")}),
    "a report writes a file": (
        "report/memory.py", "\n\ndef _planted_save(path, text):\n    path.write_text(text)\n",
        {("report-web-writes", "pipeline.report.memory")}),
}
DOCSTRING_EDIT = ('"""May import: every layer, everything above (:mod:`pipeline.runs`, '
                  ':mod:`pipeline.commands`, :mod:`pipeline.core`). Pure: no file I/O."""\n')


def _plant(tmp_path, name: str, cases) -> Package:
    copy = tmp_path / name / "pipeline"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for rel, text, _ in cases:
        path = copy / rel
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    return read_package(copy)


def _docstring_edit(pkg: Package, rels) -> Package:
    """Every planted module's docstring replaced by one that declares everything."""
    for rel in rels:
        path = pkg.root / rel
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        doc = tree.body[0] if tree.body and isinstance(tree.body[0], ast.Expr) \
            and isinstance(tree.body[0].value, ast.Constant) and isinstance(tree.body[0].value.value, str) else None
        if doc is not None:
            lines[doc.lineno - 1:doc.end_lineno] = [DOCSTRING_EDIT]
        else:
            lines.insert(0, DOCSTRING_EDIT)
        path.write_text("".join(lines), encoding="utf-8")
    return read_package(pkg.root)


def _new_entries(before: dict, after: dict) -> set[tuple[str, str]]:
    return {(rule, m) for rule, by_module in after.items() for m, items in by_module.items()
            if set(items) - set(before.get(rule, {}).get(m, []))}


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_planted_violations_are_caught(tmp_path, case):
    rel, text, expected = PLANTED[case]
    pkg = _plant(tmp_path, "one", [PLANTED[case]])
    found = violations(pkg)
    assert _new_entries(FOUND, found) >= expected
    edited = violations(_docstring_edit(pkg, [rel]))
    assert _new_entries(FOUND, edited) >= expected
    # the docstring edit moves lines: compare without line numbers
    strip = lambda f: {(r, m, re.sub(r"^line \d+: ", "", i)) for r, bm in f.items() for m, its in bm.items() for i in its}
    assert strip(edited) == strip(found)


def test_the_four_planted_violations_of_the_issue_fail_the_tests(tmp_path):
    """The scratch copy of the issue, all four at once: each rule's test would fail."""
    names = ["a core imports a run by a computed name", "a core writes a file",
             "a format reaches a command through import pipeline", "engines imports a core of the same rank"]
    pkg = _plant(tmp_path, "four", [PLANTED[n] for n in names])
    found = violations(_docstring_edit(pkg, [PLANTED[n][0] for n in names]))
    for rule in ("computed-import", "core-io", "upward", "command-import", "same-rank"):
        assert _unexpected(found, {rule}) != {}, rule
    assert _unexpected(violations(PKG), set(FOUND)) == _unexpected(FOUND, set(FOUND))


SQL_STATEMENT = re.compile(r"\b(SELECT\b[\s\S]*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|"
                           r"DELETE\s+FROM|CREATE\s+(TABLE|INDEX)|DROP\s+TABLE|PRAGMA)\b")
SQL_CALLS = {"execute", "executemany", "executescript"}


def web_sql(module: str, pkg: Package | None = None) -> list[str]:
    """SQL in a web module: string literals holding a statement (``SELECT ... FROM``,
    ``INSERT INTO``, ``UPDATE ... SET``, ``DELETE FROM``, ``CREATE TABLE``...; docstrings
    included) and calls of a connection's ``execute``/``executemany``/``executescript``.
    The web apps only serve: their queries are named functions of their stores
    (:mod:`pipeline.annotation.formats.store`, :mod:`pipeline.humans.formats.experiment_db`)."""
    found = []
    for node in (pkg or PKG).modules[module].nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_STATEMENT.search(node.value):
            found.append(f"line {node.lineno}: {node.value.strip()[:60]!r}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in SQL_CALLS):
            found.append(f"line {node.lineno}: .{node.func.attr}(...)")
    return found


def test_web_apps_hold_no_sql():
    offenders = {m: web_sql(m) for m in MODULES if kind(PKG, m) == "web"}
    assert {m: f for m, f in offenders.items() if f} == {}


def test_only_the_stores_hold_sql():
    """Not the web apps, nor a command that prints what is stored: every query is a named
    function of a store in ``pipeline.formats``."""
    assert _unexpected(FOUND, {"sql"}) == {}


def test_the_sql_check_catches_one(tmp_path):
    pkg = _reader_on(tmp_path, {"web/leaky.py": (
        '"""Select a name FROM the list; update the page (prose, not SQL)."""\n'
        "def f(con, name):\n"
        "    rows = con.execute('SELECT id FROM answers WHERE annotator = ?', (name,))\n"
        "    q = ('INSERT OR IGNORE INTO meta(key, value) '\n"
        "         'VALUES (?, ?)')\n"
        "    return rows, q\n")})
    assert sorted(web_sql("pipeline.web.leaky", pkg)) == [
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
        for node in PKG.modules[module].tree.body:
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
        if room_of(module) and room_of(dep) == room_of(module) and rank(dep) <= rank(module):
            continue                                 # its own room's lower layers (the room's rule)
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


DOC_PATH = re.compile(r"`((?:pipeline/)?(?:core|formats|lang|nlp|runs|commands|report|web|systems|perf|humans|annotation|cda|embeddings|sowinobias|diagnostics)"
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


# read once, after every rule's helper is defined (web_sql above)
FOUND = violations(PKG)
