"""Run records: every command's settings saved with its outputs (``run.json``).

The CLI (:func:`pipeline.cli.main`) writes the record after a command ends with status 0,
still holding the output directory's lock; the layout is in ``docs/runs.md``:

* an output **directory** ``OUT`` gets ``OUT/run.json``; an output **file** ``FILE`` gets the
  sidecar ``FILE.run.json``. Which arguments name outputs: ``--out`` (``args.out``) and the
  names a command lists in ``RUN_OUTPUTS``;
* the record is written atomically (:func:`pipeline.formats.files.write_json`: temporary
  file, fsync, rename), after the outputs are in place;
* a failed run (exit status other than 0, an error, Ctrl-C) writes no record. A record of an
  earlier successful run is kept while the outputs it lists are unchanged (their sha256 is in
  it), and removed when the failed run changed, added or removed any of them, so a record
  never describes outputs it did not make.

The record (``"record": 1``, keys in this order): ``command``; ``arguments`` (every parsed
argument, paths as strings, in the order of the parser); ``inputs`` (every value of an option
that takes a path (``args._paths``, from the command's click options) naming an existing file
or directory, other than an output or an argument the command lists in ``RUN_UNHASHED``
(annotate-import's private salt), hashed as below);
``settings`` (:attr:`RunRecord.settings`: the ``settings`` of the result the command's run
returns, :class:`pipeline.runs.settings.RunResult`: word lists, the name-form mode, the
resolved spaCy model...); ``fingerprint`` (:func:`pipeline.formats.fingerprint.run_fingerprint`
of the model in the settings or given with ``--model``); ``outputs`` (the files the record describes).
No time stamp, host or user name: the record of a deterministic command is itself
byte-identical from run to run.

Hashing (``inputs`` and ``outputs``): a file gives ``{"path", "kind": "file", "bytes",
"sha256"}``. A directory gives ``{"path", "kind": "directory", "files", "bytes", "sha256",
"listing_sha256"}``: ``sha256`` over every file's relative path and content hash when the
directory holds at most :data:`MAX_FILES` files and :data:`MAX_BYTES` bytes (else ``null``),
``listing_sha256`` always (relative path, size and modification time of every file), and a
per-file list ``entries`` when it holds at most :data:`MAX_ENTRIES` files. A single file over
:data:`MAX_BYTES` is recorded with its size and ``"sha256": null``. Hidden files (``.``),
``__pycache__``, the lock, staging directories and run records are left out.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`,
:mod:`pipeline.formats.fingerprint`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pipeline.formats.files import read_json, sha256_file, write_json

RECORD = "run.json"
SIDECAR = ".run.json"
LAYOUT = 1
MAX_BYTES = 1 << 30          # content hashed up to 1 GiB per input (a file, or a directory in all)
MAX_FILES = 20_000           # ... and up to this many files in a directory
MAX_ENTRIES = 200            # a per-file list for directories of at most this many files
SKIP_DIRS = {"__pycache__"}


def record_path(output: str | os.PathLike) -> Path:
    """``OUT/run.json`` for a directory, ``FILE.run.json`` for a file (existing or not: a
    name without a suffix that does not exist is taken for a directory)."""
    path = Path(output)
    if path.is_dir() or (not path.exists() and not path.suffix):
        return path / RECORD
    return path.with_name(path.name + SIDECAR)


def _plain(value):
    """An argument value as JSON: paths as strings, callables by name, tuples as lists."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def arguments(args) -> dict:
    """The parsed arguments (the CLI's own ``_``-prefixed ones and ``verbose`` left out)."""
    return {k: _plain(v) for k, v in vars(args).items() if not k.startswith("_") and k not in ("command", "verbose")}


def _skipped(name: str) -> bool:
    return name.startswith(".") or name in SKIP_DIRS or name == RECORD or name.endswith(SIDECAR)


def _walk(root: Path) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not _skipped(d))
        found.extend(Path(dirpath, n) for n in sorted(filenames)
                     if not _skipped(n) and Path(dirpath, n).is_file())     # no FIFO, socket, dangling link
    return found


def _sha256(path: Path) -> str | None:
    try:
        return sha256_file(path)
    except OSError:               # unreadable: recorded without a hash (the command says why)
        return None


def describe(path: str | os.PathLike) -> dict:
    """The hash entry of one file or directory (module doc); an unreadable file has
    ``"sha256": null``."""
    path = Path(path)
    if not path.is_dir():
        size = path.stat().st_size
        return {"path": str(path), "kind": "file", "bytes": size,
                "sha256": _sha256(path) if size <= MAX_BYTES else None}
    files = _walk(path)
    stats = [(f, f.stat()) for f in files]
    total = sum(s.st_size for _, s in stats)
    listing = hashlib.sha256()
    for f, s in stats:
        listing.update(f"{f.relative_to(path).as_posix()}\0{s.st_size}\0{s.st_mtime_ns}\n".encode("utf-8", "replace"))
    entry = {"path": str(path), "kind": "directory", "files": len(files), "bytes": total, "sha256": None,
             "listing_sha256": listing.hexdigest()}
    if len(files) <= MAX_FILES and total <= MAX_BYTES:
        content, entries = hashlib.sha256(), []
        for f, s in stats:
            rel, digest = f.relative_to(path).as_posix(), _sha256(f)
            content.update(f"{rel}\0{digest}\n".encode("utf-8", "replace"))
            entries.append({"path": rel, "bytes": s.st_size, "sha256": digest})
        entry["sha256"] = content.hexdigest()
        if len(files) <= MAX_ENTRIES:
            entry["entries"] = entries
    return entry


def input_paths(args, outputs: list[str]) -> list[tuple[str, Path]]:
    """(argument, path) of every path an option names (``args._paths``: option name -> the
    paths given, filled by the CLI from the options that take a path) that exists and is not an
    output, nor inside one, nor holding one. Taken before the command runs. A value of an option
    that takes no path (a name, a number, the command's name) is never taken for a path, even
    where a file of that name exists."""
    outs = [Path(o).resolve() for o in outputs]
    found, seen = [], set()
    for key, values in (getattr(args, "_paths", None) or {}).items():
        if key in outputs_keys(args) or key in getattr(args, "_run_unhashed", ()):
            continue
        for cand in values:
            try:
                path = Path(cand)
                if not (path.is_file() or path.is_dir()):
                    continue
                real = path.resolve()
            except (OSError, ValueError):
                continue
            if real in seen or any(real == o or o in real.parents or real in o.parents for o in outs):
                continue
            seen.add(real)
            found.append((key, path))
    return found


def outputs_keys(args) -> tuple[str, ...]:
    return tuple(getattr(args, "_run_outputs", None) or ())


class RunRecord:
    """One run's record, begun before the command runs (the inputs are hashed then) and
    written after it succeeded (:meth:`finish`) or settled after it failed (:meth:`fail`)."""

    def __init__(self, args):
        self.args = args
        self.outputs = [(k, getattr(args, k, None)) for k in outputs_keys(args)]
        self.outputs = [(k, os.fspath(v)) for k, v in self.outputs if v not in (None, "")]
        self.arguments = arguments(args)
        self.settings: dict = {}        # the run's result's settings, set by the CLI after the run
        self.inputs = []
        for key, path in input_paths(args, [v for _, v in self.outputs]):
            self.inputs.append({"argument": key, **describe(path)})

    def _output_files(self, output: str) -> list[dict]:
        path = Path(output)
        if path.is_dir():
            entry = describe(path)
            return entry.get("entries") or [{k: entry[k] for k in ("files", "bytes", "sha256", "listing_sha256")}]
        if path.is_file():
            entry = describe(path)
            return [{"path": path.name, "bytes": entry["bytes"], "sha256": entry["sha256"]}]
        return []

    def record(self, output: str) -> dict:
        from pipeline.formats.fingerprint import run_fingerprint

        settings = self.settings
        model = settings.get("model") or getattr(self.args, "model", None)
        return {"record": LAYOUT, "command": getattr(self.args, "command", None), "arguments": self.arguments,
                "inputs": self.inputs, "settings": _plain(settings),
                "fingerprint": run_fingerprint(model if isinstance(model, str) else None),
                "outputs": self._output_files(output)}

    def finish(self) -> list[Path]:
        """Write the record of every output that exists; returns the records written."""
        written = []
        for _, output in self.outputs:
            if not Path(output).exists():
                continue
            target = record_path(output)
            write_json(target, self.record(output))
            written.append(target)
        return written

    def fail(self) -> None:
        """After a failed run: remove a record whose outputs the run changed."""
        for _, output in self.outputs:
            target = record_path(output)
            if not target.is_file():
                continue
            try:
                old = read_json(target)
                same = isinstance(old, dict) and old.get("outputs") == self._output_files(output)
            except Exception:      # noqa: BLE001 -- unreadable: it describes nothing
                same = False
            if not same:
                target.unlink(missing_ok=True)
