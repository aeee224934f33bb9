"""Whose output a folder holds: the one guard of every command with ``--out DIR`` and
``--overwrite`` (extract, persons, generate, build).

Each of these commands leaves a mark saying the folder is its run's: extract and persons
``OUT/manifest.json`` (``"command": "extract"`` / ``"kind": "persons"``), generate
``OUT/generate-parts/manifest.json``, build ``OUT/build.json`` and its first stage's
``OUT/extract/manifest.json``. :func:`check_out` refuses a folder holding another command's mark
or partitions, with or without ``--overwrite`` (``persons --out <an extract output>
--overwrite`` deleted all of extract's partitions), naming the file that shows whose it is;
:func:`remove_own` is what ``--overwrite`` then removes: the files and folders the command's
own manifest lists, nothing else. Extract and generate may share a folder (``generate
--instances OUT --out OUT`` writes beside extract's files, under its own names).

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

# mark file -> {the command written in it: the command whose folder it shows}; None: any content
_MARKS = (
    ("manifest.json", {"extract": "extract", "persons": "persons"}),
    ("generate-parts/manifest.json", {"generate": "generate"}),
    ("build.json", None),
    ("extract/manifest.json", {"extract": "build"}),
)
SHARES = {"extract": ("generate",), "generate": ("extract",)}     # commands that may write one folder


def _unreadable(path: Path) -> str | None:
    """Why a mark file cannot be read as JSON (cut by a kill, not UTF-8, not JSON); None when it
    can."""
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return exc.strerror or str(exc)
    except ValueError as exc:
        return f"not readable JSON: {' '.join(str(exc).split())[:120]}"
    return None


def _named(path: Path) -> str | None:
    """The command a manifest names (``command``, else persons' ``kind``); None when the file is
    not a JSON object naming one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    who = data.get("command") or data.get("kind")
    return who if isinstance(who, str) and who else None


def owners(out: Path) -> list[tuple[str, str, Path]]:
    """(whose folder the mark shows, the command the file names, the mark file) for each mark
    in ``out``; a manifest naming no command, or one another command does not write there, is
    shown as ``another command's`` (whose: "")."""
    found = []
    for rel, kinds in _MARKS:
        path = out / rel
        if not path.is_file():
            continue
        if kinds is None:
            found.append(("build", "build", path))
            continue
        named = _named(path)
        if rel == "extract/manifest.json":          # a build's first stage, or a folder of another kind
            if named == "extract":
                found.append(("build", named, path))
            continue
        found.append((kinds.get(named or "", ""), named or "", path))
    return found


def _a(command: str) -> str:
    return f"an {command}" if command[:1] in "aeiou" else f"a {command}"


def check_out(out: Path, command: str, parts: str = "", own_part_files: tuple = ()) -> None:
    """Refuse ``out`` (InputError, one line naming the mark file) when it holds another command's
    run: a mark of another command (except one that shares folders with ``command``), a manifest
    naming no command we know, or -- with ``parts`` -- partitions under ``out/parts`` holding
    files that are not of ``own_part_files`` (another command's, even without its manifest).
    Called before anything is removed, with or without ``--overwrite``."""
    from pipeline.errors import InputError

    for whose, named, path in owners(out):
        if whose == command or whose in SHARES.get(command, ()):
            continue
        problem = None if whose or named else _unreadable(path)
        if problem:          # a cut or garbled manifest: whose it was cannot be told
            raise InputError(f"unreadable manifest ({problem}): whose run it holds cannot be told, so "
                             "--overwrite leaves it alone; remove it to start afresh, or choose another --out", path)
        what = (f"of {_a(whose)} run" if whose else
                f"of another command ({named!r})" if named else "of no command we know (no command field)")
        raise InputError(f"not the manifest of {_a(command)} run but {what}: --overwrite leaves another "
                         "command's folder alone; choose another --out", path)
    if parts:
        root = out / parts
        if root.is_dir():
            own = set(own_part_files)
            for d in sorted(root.iterdir()):
                other = ([d.name] if not d.is_dir() else
                         sorted(f.name for f in d.iterdir() if f.name not in own and not f.name.startswith(".")))
                if other:
                    raise InputError(f"holds partitions of another command ({d.name}: {other[0]} is not "
                                     f"{command}'s); --overwrite leaves them alone; choose another --out", root)


def remove_own(out: Path, files: tuple = (), folders: tuple = ()) -> None:
    """What ``--overwrite`` removes: the ``files`` and ``folders`` of ``out`` its command writes,
    nothing else. A folder is first renamed away (then deleted), so a crash half-way never
    leaves a mix of old and new partitions. The caller holds OUT's lock and has passed
    :func:`check_out`."""
    from pipeline.formats.files import fsync_path

    for name in folders:
        if (out / name).is_dir():
            trash = Path(tempfile.mkdtemp(prefix=".trash-", dir=out))
            (out / name).rename(trash / Path(name).name)
            fsync_path(out)
            shutil.rmtree(trash)
    for name in files:
        (out / name).unlink(missing_ok=True)
