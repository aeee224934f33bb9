"""The entry point started from an interpreter without the project's dependencies (the system
Python instead of ``.venv``): one line naming ``make setup`` and the venv, no traceback, while
``--help`` keeps working with click alone (the command line's library). The missing dependency is simulated in a subprocess (a meta-path
finder that refuses to find it), so the test runs on any machine."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pipeline.cli import CORE_IMPORTS, environment_hint

ROOT = Path(__file__).resolve().parents[1]

# run `python -m pipeline ARGV` with the named top-level modules made unimportable
BLOCKED_RUN = """
import runpy, sys
BLOCKED = set(sys.argv[1].split(","))
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Block())
sys.argv = ["python -m pipeline", *sys.argv[2:]]
runpy.run_module("pipeline", run_name="__main__")
"""


def run_blocked(blocked: str, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKED_RUN, blocked, *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_a_run_without_the_dependencies_prints_one_line_naming_make_setup(tmp_path):
    done = run_blocked("tqdm", "extract", "--corpus", str(ROOT / "resources" / "sample"),
                       "--out", str(tmp_path / "out"))
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "make setup" in lines[0] and ".venv/bin/python -m pipeline" in lines[0]
    assert ".venv/bin/counter-gap" in lines[0] and "'tqdm'" in lines[0]
    assert not (tmp_path / "out").exists()          # nothing written, no lock left behind


def test_help_needs_no_dependency_but_click():
    done = run_blocked("tqdm,numpy,pandas,pyarrow,spacy", "extract", "--help")
    assert done.returncode == 0, done.stderr
    assert "--corpus" in done.stdout
    top = run_blocked("tqdm,numpy,pandas,pyarrow,spacy", "--help")
    assert top.returncode == 0 and "extract" in top.stdout, top.stderr
    no_click = run_blocked("click", "extract", "--help")
    assert no_click.returncode == 1 and "Traceback" not in no_click.stderr, no_click.stderr
    assert len(no_click.stderr.strip().splitlines()) == 1 and "'click'" in no_click.stderr


def test_the_hint_is_only_for_the_environment():
    """An optional adapter's package or a module of the project itself missing is not a
    wrong interpreter: the error propagates (the adapters turn theirs into messages)."""
    assert environment_hint(ModuleNotFoundError("x", name="fastcoref")) is None
    assert environment_hint(ModuleNotFoundError("x", name="pipeline.nowhere")) is None
    assert "make setup" in environment_hint(ModuleNotFoundError("x", name="pandas.core"))
    assert "make setup" in environment_hint(ModuleNotFoundError("x", name="pipeline.resources"))


def test_core_imports_are_the_dependencies_of_pyproject():
    """CORE_IMPORTS names every direct dependency's import package, and nothing else."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    norm = lambda s: re.sub(r"[-_.]+", "-", s).lower()
    names = {norm(re.split(r"[=<>!~; \[]", d, maxsplit=1)[0]) for d in deps}
    provided = importlib.metadata.packages_distributions()
    tops_of = {name: {top for top, dists in provided.items() if name in {norm(d) for d in dists}}
               for name in names}
    missing = {name for name, tops in tops_of.items() if not tops & set(CORE_IMPORTS)}
    assert not missing, f"add their import names to pipeline.cli.CORE_IMPORTS: {sorted(missing)}"
    extra = set(CORE_IMPORTS) - set().union(*tops_of.values())
    assert not extra, f"not a dependency of pyproject.toml: {sorted(extra)}"


@pytest.mark.skipif(not Path("/usr/bin/python3").exists(), reason="no system python3")
def test_the_system_python_gets_the_hint_or_runs(tmp_path):
    """With the real system interpreter: --help works where it has click (the command line's
    one library), else prints the hint naming click; a run prints the hint (or, where the
    system Python happens to hold every dependency, no hint is needed)."""
    help_ = subprocess.run(["/usr/bin/python3", "-m", "pipeline", "generate", "--help"], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    if help_.returncode not in (0, 1) or "Traceback" in help_.stderr:
        pytest.skip(f"the system python cannot start the package: {help_.stderr[-200:]}")
    if help_.returncode == 1:
        lines = help_.stderr.strip().splitlines()
        assert len(lines) == 1 and "make setup" in lines[0] and "'click'" in lines[0], help_.stderr
    else:
        assert "--instances" in help_.stdout, help_.stderr
    done = subprocess.run(["/usr/bin/python3", "-m", "pipeline", "generate", "--instances",
                           str(tmp_path / "none"), "--out", str(tmp_path / "out")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr


def test_an_installed_package_is_told_to_install_not_a_venv_path(monkeypatch):
    import pipeline.cli

    monkeypatch.setattr(pipeline.cli.os.path, "exists", lambda path: False)
    line = environment_hint(ModuleNotFoundError("x", name="tqdm"))
    assert "make setup" in line and "pip install" in line and "\n" not in line
