"""Run identity: a fingerprint of the code and of the dependencies that change results.

:func:`run_fingerprint` is recorded in a command's outputs (extract's ``manifest.json``,
annotate-import's ``summary.json``); a resumable command compares the recorded one with its
own (:func:`fingerprint_differences`) and refuses to resume across a difference, naming it in
one line (:func:`check_fingerprint`).

* ``code``: the sha256 of the package's source and shipped resources (every file of the
  ``pipeline`` package, ``__pycache__`` aside, and of ``pipeline.resources``, by relative path
  and content). It is the same for a checkout and for an installed wheel of the same tree, and
  it changes with any edit, committed or not -- the package version ("0.1.0") does not.
* ``git``: ``git rev-parse HEAD`` of the checkout the package runs from, with ``-dirty`` when
  the package's files differ from that commit; ``None`` for an install. Recorded so that a
  person can tell which commit made an output; not compared (``code`` already is, and a
  commit that only changes documentation or tests changes no result).
* ``spacy``, ``gender_guesser``, ``model``: the installed versions (``model``: the spaCy
  pipeline's package name and version; ``None`` when it is not an installed package).

May import: the standard library, :mod:`pipeline.errors`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.resources
import os
import subprocess
from pathlib import Path

from pipeline.errors import InputError

COMPARED = ("code", "spacy", "gender_guesser", "model")
LABELS = {"code": "code", "spacy": "spaCy", "gender_guesser": "gender-guesser", "model": "model"}
SKIP_DIRS = {"__pycache__"}


def _package_dir() -> Path:
    import pipeline

    return Path(pipeline.__file__).resolve().parent


def _resources_dir() -> Path | None:
    try:
        return Path(str(importlib.resources.files("pipeline.resources")))
    except (ModuleNotFoundError, TypeError):
        return None


def _files(root: Path, skip: Path | None = None):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")
                             and (skip is None or Path(dirpath, d).resolve() != skip))
        for name in sorted(filenames):
            if not name.endswith((".pyc", ".pyo")) and not name.startswith("."):
                yield Path(dirpath, name)


@functools.lru_cache(maxsize=1)
def source_sha256() -> str:
    """sha256 of the package's files and resources (relative path and content of each)."""
    h = hashlib.sha256()
    pkg, res = _package_dir(), _resources_dir()
    res = res.resolve() if res is not None else None
    for prefix, root, skip in (("pipeline", pkg, res), ("resources", res, None)):
        if root is None or not root.is_dir():
            continue
        for path in _files(root, skip):
            rel = f"{prefix}/{path.relative_to(root).as_posix()}"
            h.update(rel.encode("utf-8") + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def git_commit() -> str | None:
    """``<commit>`` or ``<commit>-dirty`` of the checkout the package runs from, else None."""
    pkg = _package_dir()
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=pkg, capture_output=True,
                             text=True, timeout=10)
        if top.returncode != 0 or (Path(top.stdout.strip()) / "pipeline").resolve() != pkg:
            return None
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=pkg, capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return None
        status = subprocess.run(["git", "status", "--porcelain", "--",
                                 "pipeline", "resources"], cwd=top.stdout.strip(), capture_output=True,
                                text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    dirty = status.returncode != 0 or bool(status.stdout.strip())
    return head.stdout.strip() + ("-dirty" if dirty else "")


def package_version(name: str) -> str | None:
    """The installed version of distribution ``name`` (``-``/``_`` alike), else None."""
    for candidate in (name, name.replace("_", "-"), name.replace("-", "_")):
        try:
            return importlib.metadata.version(candidate)
        except (importlib.metadata.PackageNotFoundError, ValueError):
            continue
    return None


def run_fingerprint(model: str | None = None) -> dict:
    """The fingerprint of this run: ``code``, ``git``, ``spacy``, ``gender_guesser``, ``model``
    (``"NAME VERSION"`` of the spaCy pipeline ``model``, a package name; None without one)."""
    model_id = None
    if model:
        version = package_version(model)
        model_id = f"{model} {version}" if version else f"{model} (not an installed package)"
    return {"code": source_sha256(), "git": git_commit(), "spacy": package_version("spacy"),
            "gender_guesser": package_version("gender-guesser"), "model": model_id}


def _short(key: str, value) -> str:
    if key == "code" and isinstance(value, str):
        return value[:12]
    return repr(value)


def _git(value) -> str:
    if not value:
        return "unknown"
    return str(value)[:12] + ("-dirty" if str(value).endswith("-dirty") else "")


def fingerprint_differences(old: dict | None, new: dict) -> list[str]:
    """What changed from ``old`` to ``new``, one phrase each (``code 1a2b3c4d5e6f (git
    e279299...) -> ...``); compares :data:`COMPARED` (``model`` only when both name one)."""
    if not isinstance(old, dict):
        return ["no fingerprint recorded (made by an older version)"]
    out = []
    for key in COMPARED:
        if key == "model" and (old.get(key) is None or new.get(key) is None):
            continue
        if old.get(key) != new.get(key):
            a, b = _short(key, old.get(key)), _short(key, new.get(key))
            if key == "code":
                a += f" (git {_git(old.get('git'))})"
                b += f" (git {_git(new.get('git'))})"
            out.append(f"{LABELS[key]} {a} -> {b}")
    return out


def check_fingerprint(old: dict | None, new: dict, where, what: str = "the run already in this directory") -> None:
    """Refuse (one-line :class:`InputError` at ``where``) when ``old`` and ``new`` differ."""
    diff = fingerprint_differences(old, new)
    if diff:
        raise InputError(f"made by other code than this run ({'; '.join(diff)}): results would mix "
                         f"with {what}; use --overwrite to start afresh, or another --out", where)
