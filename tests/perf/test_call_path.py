"""The path one book takes to one quadruple (``python -m pipeline.perf.call_path``), held to what
docs/architecture.md says of it: the files a reader follows, and a ceiling on the files touched.

The counts are read from a real trace of the sample book, never from a list kept by hand; the
lists below are what the trace must find.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline import vocab
from pipeline.perf import call_path

ROOT = Path(__file__).resolve().parents[2]

# From a read book (runs.extract.process_book + core.quadruples.quadruple), steady state.
SPINE = ["runs/extract.py", "lang/book_evidence.py", "lang/names.py", "lang/aliases.py", "core/extract.py",
         "nlp/prune.py", "nlp/persons.py", "core/cast.py", "core/instances.py", "core/quadruples.py"]
MAX_SPINE = 10
# Ceilings: a change may lower them (then lower the number here and in the docs), never raise
# without a decision written in docs/architecture.md (raised once: the book's alias table, which
# lang/names and lang/aliases consult in turn, and four new English modules of the persons work).
MAX_TOUCHED = 25
MAX_SPINE_FROM_UNIT, MAX_TOUCHED_FROM_UNIT = 12, 30


@pytest.fixture(scope="module")
def book_path(nlp):
    path, n = call_path.book_to_quadruple()
    assert n > 0
    return path


def test_the_spine_is_the_documented_one(book_path):
    assert len(SPINE) <= MAX_SPINE
    assert sorted(book_path.spine) == sorted(SPINE)
    assert book_path.spine[0] == "runs/extract.py"          # the trace starts where the docs do


def test_touched_files_stay_under_the_ceiling(book_path):
    assert set(SPINE) <= set(book_path.touched)
    assert len(book_path.touched) <= MAX_TOUCHED
    # the leaves are consulted only: each is called from a file of the spine
    for leaf in set(book_path.touched) - set(book_path.spine):
        assert set(book_path.callers(leaf)) <= set(book_path.spine), leaf
    # every call goes down the layers (or stays in one): the path never climbs back up
    assert [(a, b) for a in book_path.spine for b in book_path.edges[a] if _rank(b) > _rank(a)] == []


@pytest.mark.slow
def test_reading_the_book_adds_the_corpus_reader(nlp):
    path, _ = call_path.book_to_quadruple(from_unit=True)
    assert "formats/books.py" in path.spine
    assert len(path.spine) <= MAX_SPINE_FROM_UNIT and len(path.touched) <= MAX_TOUCHED_FROM_UNIT


def test_docs_quote_the_trace(book_path):
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Following one book from corpus to quadruple", 1)[1].split("\n## ", 1)[0]
    for f in SPINE:
        assert f"`{f.removesuffix('.py')}`" in section, f
    assert re.search(rf"spine[^.]*\b{len(book_path.spine)} files", section)
    assert re.search(rf"\b{len(book_path.touched)} files touched", section)


# --------------------------------------------------------------- the trace itself -----------

def test_a_leaf_is_touched_but_not_on_the_spine():
    path, results = call_path.trace([lambda: vocab.split_id("17-swap-1")])
    assert results == [("17", "swap-1")]
    assert path.touched == ["vocab.py"] and path.spine == []


def _module(directory: Path, name: str, source: str):
    import importlib.util

    file = directory / f"{name}.py"
    file.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"callpath_{name}", file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_callers_are_on_the_spine_and_libraries_are_seen_through(tmp_path):
    """a.py calls b.py directly and c.py through a library (functools.reduce, as spaCy calls a
    component); c.py calls nothing of the package: a is the spine, b and c are leaves."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    c = _module(pkg, "c", "def add(x, y):\n    return x + y\n")
    b = _module(pkg, "b", "def double(x):\n    return 2 * x\n\ndef same(x):\n    return x\n")
    a = _module(pkg, "a", "import functools\n\ndef run(b, c):\n"
                          "    return functools.reduce(c.add, [b.double(1), b.same(2), 3])\n")
    path, results = call_path.trace([lambda: a.run(b, c), lambda: b.same(0)], package=pkg)
    assert results == [7, 0]
    assert path.touched == ["a.py", "b.py", "c.py"]
    assert path.spine == ["a.py"]
    assert dict(path.edges["a.py"]) == {"b.py": 2, "c.py": 2}
    assert path.callers("c.py") == ["a.py"]
    assert path.calls["b.py"] == {"double": 1, "same": 2}    # the step's own call counts, not as an edge


def test_help_runs_nothing(capsys):
    with pytest.raises(SystemExit) as exc:
        call_path.main(["--help"])
    assert exc.value.code == 0
    assert "usage:" in capsys.readouterr().out.lower()


# ----------------------------------------------------------- evaluate's arguments ----------

def _rank(file: str) -> int:
    """The layer of a traced file (``core/metrics.py`` -> pipeline.core.metrics) by the
    architecture test's table."""
    from tests.test_architecture import LAYERS

    module = "pipeline." + file.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    return max((rank for prefix, rank in LAYERS.items() if module == prefix or module.startswith(prefix + ".")),
               default=-1)


@pytest.mark.slow
def test_evaluate_does_not_re_enter_its_command(tmp_path):
    """Following ``evaluate``'s arguments: the command module is entered from the CLI only
    (its ``run``; its options are declared when it is imported), and the work below it never
    calls back up into it."""
    from pipeline.cli import main
    from tests.stages.test_evaluate import write_gold, write_system

    gold = write_gold(tmp_path / "gold.tsv")
    system = write_system(tmp_path / "a.tsv")
    argv = ["evaluate", "--dataset", str(gold), "--system", f"a={system}", "--out", str(tmp_path / "out"),
            "--resamples", "50"]
    path, results = call_path.trace([lambda: main(argv)])
    assert results == [0]
    assert set(path.calls["commands/evaluate.py"]) <= {"<module>", "run"}
    assert path.callers("commands/evaluate.py") == ["cli.py"]
    # and every call goes down the layers: none climbs back up (not even through a callback)
    up = [(a, b) for a in path.spine for b in path.edges[a] if _rank(b) > _rank(a)]
    assert up == []
