"""Files: atomic writes (temporary file, fsync, rename), one writer per output directory,
all-or-nothing output sets, streamed sha256, strict JSON.

* :func:`atomic_path` -- one file: write a temporary file beside the target, fsync it,
  rename it onto the target, fsync the directory.
* :func:`output_lock` -- one writer per output directory: a :class:`filelock.FileLock` (an
  exclusive ``flock``) on ``OUT/.counter-gap.lock``, which holds the holder's pid and command
  line (filelock's ``on_acquired`` hook writes it). A second run is refused at once with one
  line naming that pid. The kernel drops the lock when its holder dies, however it dies, so a
  lock is never stale. Re-entrant within one process (filelock's ``is_singleton``). filelock
  opens the lock file with ``O_NOFOLLOW``: a lock that is a symbolic link is refused, naming
  it, never written through. :func:`output_file_lock` does the same for one output file
  (``DIR/.NAME.counter-gap.lock`` beside it).
* :func:`staged_outputs` -- several files that belong together (a TSV and its Parquet, a
  report's json/md/png), published all-or-nothing:

  1. every file is written into a staging directory ``OUT/.staging-<pid>-*`` and fsynced;
     the staging directory's ``.owner`` file is flocked by its run for as long as it lives;
  2. a journal ``OUT/.publishing.json`` naming the staging directory and its files is
     written atomically;
  3. the files are renamed into place, the directory fsynced, the journal removed.

  The run record ``OUT/run.json`` of the previous set is removed before step 2 (and a file's
  ``FILE.run.json`` before :func:`atomic_path` replaces it): the CLI writes the new record
  once the run has succeeded, so a kill between the renames never leaves a record that
  describes the other generation of files.

  A failure before step 2 leaves the previous set untouched; a crash during step 3 leaves the
  journal, and the next writer into OUT rolls the publish forward (every staged file was
  complete and synced before the journal existed), so the directory holds the whole old set
  or the whole new one. The project's readers (:func:`check_published`, called by
  :func:`read_json`, the Parquet and GAP TSV readers) refuse a file named by a journal, with
  one line, instead of reading a half-published set. Staging directories of other runs are
  removed only when their owner is provably dead (their ``.owner`` lock is free).
* :func:`two_part_text` -- one text file written as two streams (a head, and a tail spooled
  beside it), joined and renamed into place at the end (cda: the originals, then the copies).
* :func:`sha256_file`, :func:`jsonable`, :func:`write_json`, :func:`read_json`, :func:`read_head`
  (a file's first bytes), :func:`read_utf8`.

May import: the standard library, filelock, numpy (optional) and :mod:`pipeline.errors`.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

from pipeline.errors import InputError

try:
    import fcntl
except ImportError:         # not POSIX: no locks (the project runs on Linux)
    fcntl = None

LOCK_NAME = ".counter-gap.lock"
JOURNAL = ".publishing.json"
STAGING_PREFIX = ".staging-"
OWNER = ".owner"
OWNERLESS_AGE = 24 * 3600      # a staging directory of an older version (no .owner): removed after a day


def fsync_path(path: str | os.PathLike) -> None:
    """fsync a file or a directory. Directories: best effort (not every OS or file system
    allows it). A file: an error is raised with the file's name (a disk that reports ENOSPC or
    EIO only at fsync, as NFS and delayed allocation do, has not stored the data, and the file
    must not be renamed into place)."""
    is_dir = Path(path).is_dir()
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) if is_dir else os.O_RDONLY
    try:
        fd = os.open(path, flags)
    except OSError:
        if is_dir:
            return
        raise
    try:
        os.fsync(fd)
    except OSError as exc:
        if not is_dir:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; fsync and rename it onto ``target`` on success.

    On any exception the temporary file is removed and ``target`` is left untouched.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_dead_temporaries(target)
    fd, tmp = tempfile.mkstemp(prefix=f".tmp-{target.name}.", dir=target.parent)
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # held while the file is written: its owner lives
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp_path, 0o666 & ~umask)   # mkstemp creates 0600; outputs are ordinary files
    try:
        yield tmp_path
        fsync_path(tmp_path)
        sidecar = target.parent / (target.name + RUN_SIDECAR)
        if not target.name.endswith((RUN_SIDECAR, RUN_RECORD)) and sidecar.is_file():
            sidecar.unlink()                 # it describes the file being replaced (see _drop_record)
        os.replace(tmp_path, target)
        fsync_path(target.parent)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        if exc.filename is None:
            raise named_os_error(exc, target) from None
        raise
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise
    finally:
        os.close(fd)


def _remove_dead_temporaries(target: Path) -> None:
    """Remove the temporary files of ``target`` (``.tmp-NAME.*``) that a killed writer left: a
    writer holds a lock on its temporary file until the rename, so one whose lock is free has
    no living writer."""
    if fcntl is None:
        return
    prefix = f".tmp-{target.name}."
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        path = target.parent / name
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue                         # a living writer
        else:
            with contextlib.suppress(OSError):
                path.unlink()
        finally:
            os.close(fd)


def named_os_error(exc: OSError, path: str | os.PathLike) -> OSError:
    """``exc`` with ``path`` as its file name when it has none (pyarrow's "Error writing bytes
    to file ... [errno 28] No space left on device", a plain ``write`` on a full disk), so that
    the one-line error names the file being written."""
    import re

    if exc.filename is not None:
        return exc
    code = exc.errno
    if code is None:
        m = re.search(r"\[errno (\d+)\]", str(exc), re.IGNORECASE)
        code = int(m.group(1)) if m else None
    reason = os.strerror(code) if code else (exc.strerror or " ".join(str(exc).split()))
    named = OSError(code, reason, str(path)) if code else OSError(0, reason, str(path))
    return named


def write_text(target: str | os.PathLike, text: str) -> None:
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")


@contextlib.contextmanager
def two_part_text(target: str | os.PathLike) -> Iterator[tuple]:
    """Write a text file as two streams at once, neither held in memory: yields ``(head,
    tail)``, two UTF-8 text files (``newline=""``: line ends as written); on success ``target``
    holds head's text followed by tail's, written atomically (:func:`atomic_path`). Tail is
    spooled to an anonymous temporary file beside ``target``. On any exception ``target`` is
    left untouched and nothing stays behind."""
    target = Path(target)
    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8", newline="") as head, \
            tempfile.TemporaryFile("w+", encoding="utf-8", newline="", dir=target.parent) as tail:
        yield head, tail
        tail.seek(0)
        shutil.copyfileobj(tail, head)
        head.flush()


def write_csv_rows(target: str | os.PathLike, rows: list[dict], columns: list[str] | None = None,
                   delimiter: str = ",") -> None:
    """Dict rows as a UTF-8 CSV (``\n`` line ends), atomically: a header of ``columns`` (default:
    the first row's keys; no rows and no columns: an empty file), ``None`` as an empty cell,
    other keys of a row left out. For the side files of a run (answers, codes, participants);
    a file in a published layout has its own writer (``humans.formats.results``, ``annotation.formats.mturk_csv``).
    ``delimiter="\t"``: the same as TSV (``rejected.tsv`` of ``generate --gap-tsv``)."""
    import csv

    if columns is None:
        columns = list(rows[0]) if rows else []
    with atomic_path(target) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            if not columns:
                return
            w = csv.DictWriter(fh, fieldnames=columns, lineterminator="\n", extrasaction="ignore",
                               delimiter=delimiter)
            w.writeheader()
            for r in rows:
                w.writerow({k: ("" if v is None else v) for k, v in r.items()})


# ------------------------------------------------------------------ one writer -----------

def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        text = ""
    return text.splitlines()[0] if text else "pid unknown"


_NO_FLOCK = {getattr(errno, n) for n in ("ENOSYS", "ENOLCK", "EOPNOTSUPP", "ENOTSUP") if hasattr(errno, n)}
_WAIT = 0.25        # seconds: a lock whose holder unlinked it is taken on the next poll (not refused)


class _NotARegularFile(Exception):
    """Raised by :func:`_write_holder`: the lock path is a FIFO, a device..."""


def _write_holder(fd: int) -> None:
    """filelock's ``on_acquired`` hook (the lock's descriptor, held): a lock file that is not a
    regular file (a FIFO, a device) is refused; otherwise our pid and command line replace its
    text, which a refused second run quotes."""
    import stat

    if not stat.S_ISREG(os.fstat(fd).st_mode):
        raise _NotARegularFile
    command = " ".join([os.path.basename(sys.executable)] + sys.argv)[:500]
    os.ftruncate(fd, 0)
    os.write(fd, f"pid {os.getpid()}: {command}\n".encode("utf-8", "replace"))


def _file_lock(path: Path):
    """The process-wide :class:`filelock.FileLock` of ``path`` (``is_singleton``: one object per
    path, re-entrant across this process's threads; ``blocking=False`` with a short wait: a
    second run is refused at once)."""
    from filelock import FileLock

    return FileLock(path, timeout=_WAIT, thread_local=False, is_singleton=True, fallback_to_soft=False,
                    on_acquired=_write_holder)


@contextlib.contextmanager
def _locked(out: Path, path: Path, what: str) -> Iterator[None]:
    """Hold ``path``'s lock for the body: filelock does the locking, this turns its refusals
    into one-line :class:`InputError`\\ s and removes the lock file on the last release.

    filelock opens the lock file with ``O_NOFOLLOW`` (and ``O_CREAT | O_EXCL`` first), so a
    lock that is a symbolic link fails with ``ELOOP`` before anything is written through it; no
    guard of our own is needed, only the message naming it. The lock file is unlinked while
    still held, before the release: a waiter that opened the old inode finds it unlinked once it
    gets the flock (filelock checks ``st_nlink``) and starts over on a new file, so removing it
    keeps the exclusion (filelock itself leaves the file in place)."""
    from filelock import Timeout

    lock = _file_lock(path)
    try:
        lock.acquire()
    except Timeout:
        raise InputError(f"another run is writing into {what} ({_holder(path)}); wait for it to end, "
                         "or choose another output", out) from None
    except _NotARegularFile:
        raise InputError("the lock file is not a regular file; remove it", path) from None
    except OSError as exc:
        if path.is_symlink():
            raise InputError(f"the lock file is a symbolic link (to {os.readlink(path)}): not ours to write "
                             "through; remove it", path) from None
        if exc.errno == errno.EISDIR:
            raise InputError("the lock file is not a regular file; remove it", path) from None
        if exc.errno not in _NO_FLOCK:
            raise InputError(f"cannot open the lock file: {exc.strerror or exc}", path) from None
        # a file system without flock (some network mounts): warned, not refused
        logging.getLogger(__name__).warning("%s: cannot lock (%s); nothing stops a second run into %s",
                                            out, exc.strerror or exc, what)
        lock = None
    try:
        yield
    finally:
        if lock is not None:
            if lock.lock_counter == 1:
                with contextlib.suppress(OSError):
                    os.unlink(path)          # while still holding it (see above)
            lock.release()


@contextlib.contextmanager
def output_lock(out_dir: str | os.PathLike, remove_if_created: bool = False) -> Iterator[Path]:
    """Hold the exclusive lock of the output directory ``out_dir`` (created if missing).

    Another process holding it: a one-line :class:`InputError` naming its pid and command.
    Re-entrant in one process. On release the lock file is removed, and with
    ``remove_if_created`` the directory too when this call created it and it is empty."""
    out = Path(out_dir)
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        with _locked(out, out / LOCK_NAME, "this directory"):
            yield out
    finally:
        if created and remove_if_created and not holds_lock(out):
            with contextlib.suppress(OSError):
                out.rmdir()                  # only when empty


def file_lock_path(target: str | os.PathLike) -> Path:
    """The lock beside an output file: ``DIR/.NAME.counter-gap.lock``."""
    target = Path(target)
    return target.parent / f".{target.name}{LOCK_NAME}"


@contextlib.contextmanager
def output_file_lock(target: str | os.PathLike) -> Iterator[Path]:
    """One writer per output FILE (``cda --out FILE``, ``weights --out FILE``): the lock
    :func:`file_lock_path` beside it, as :func:`output_lock` does for a directory (a second run
    is refused with one line naming the holder; a symlinked lock is refused). Re-entrant in one
    process; the lock file is removed on release."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with _locked(target, file_lock_path(target), "this file"):
        yield target


def holds_lock(out_dir: str | os.PathLike) -> bool:
    """Whether this process holds the lock of ``out_dir``."""
    return _file_lock(Path(out_dir) / LOCK_NAME).is_locked


# ------------------------------------------------------------------ all or nothing -------

def _named_pid_alive(stage: Path) -> bool | None:
    """A staging directory without its owner file (a run interrupted between creating it and
    opening the file, or an older version's): False when the process its name gives
    (``.staging-PID-...``) no longer exists, else None (alive, or a pid reused: nothing is
    proven)."""
    rest = stage.name[len(STAGING_PREFIX):]
    pid = rest.split("-", 1)[0]
    if not pid.isdigit() or int(pid) == os.getpid():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return None
    return None


def _owner_alive(stage: Path) -> bool | None:
    """True/False: the staging directory's owner is alive/dead (its ``.owner`` lock is held or
    free); None: no owner file (an older version's), nothing is proven."""
    owner = stage / OWNER
    if not owner.exists():
        return _named_pid_alive(stage)
    if fcntl is None:
        return None
    try:
        fd = os.open(owner, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:                 # no flock on this file system: nothing is proven
        return None
    finally:
        os.close(fd)
    return False


def _roll_forward(out: Path) -> None:
    """Complete the publish a dead run left half-done (its journal in ``out``)."""
    journal = out / JOURNAL
    try:
        data = json.loads(journal.read_text(encoding="utf-8"))
        stage = out / str(data["stage"])
        files = [str(f) for f in data["files"]]
    except (OSError, ValueError, KeyError, TypeError):
        journal.unlink(missing_ok=True)      # unreadable: it was never complete (written atomically)
        return
    if stage.exists() and _owner_alive(stage):
        raise InputError(f"a run ({_holder(stage / OWNER)}) is publishing into this directory; wait for "
                         "it to end", out)
    for rel in files:
        src, dest = stage / rel, out / rel
        if src.is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, dest)
    fsync_path(out)
    journal.unlink(missing_ok=True)
    fsync_path(out)
    shutil.rmtree(stage, ignore_errors=True)


def remove_stale_stages(out: Path) -> None:
    """Finish an interrupted publish (journal) and remove staging directories whose owner is
    provably dead (ownerless ones of an older version only after a day)."""
    if (out / JOURNAL).exists():
        _roll_forward(out)
    for stage in out.glob(STAGING_PREFIX + "*"):
        alive = _owner_alive(stage)
        if alive is False or (alive is None and _age(stage) > OWNERLESS_AGE):
            shutil.rmtree(stage, ignore_errors=True)


def _age(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def check_published(path: str | os.PathLike) -> None:
    """Refuse to read a file that a publish in its directory has not finished (module doc)."""
    path = Path(path)
    journal = path.parent / JOURNAL
    if not journal.exists():
        return
    try:
        data = json.loads(journal.read_text(encoding="utf-8"))
        named = path.name in {Path(str(f)).parts[0] for f in data.get("files", [])}
        stage = path.parent / str(data.get("stage", ""))
    except (OSError, ValueError, TypeError, AttributeError):
        return
    if not named:
        return
    if stage.exists() and _owner_alive(stage):
        raise InputError(f"being written by another run ({_holder(stage / OWNER)}): read it when that "
                         "run has ended", path)
    raise InputError("a run was interrupted while publishing this directory's files, so they may "
                     "not belong together; rerun the command that writes it (the next run into "
                     "the directory completes the publish)", path)


@contextlib.contextmanager
def staged_outputs(out_dir: str | os.PathLike, lock: bool = True) -> Iterator[Path]:
    """Write a set of files all-or-nothing (module doc).

    Yields a fresh staging directory inside ``out_dir``; write every output there (plain
    writes are fine, nothing is visible yet). When the block ends without an exception, the
    files are fsynced, journaled and renamed onto their places in ``out_dir``
    (sub-directories kept), then the staging directory is removed. On an exception before the
    journal nothing in ``out_dir`` changes; after it, the next writer completes the publish.
    ``lock``: hold ``out_dir``'s :func:`output_lock` meanwhile (``False`` only where the caller
    holds the lock of a directory above)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with output_lock(out) if lock else contextlib.nullcontext():
        remove_stale_stages(out)
        stage = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=out))
        try:
            owner = os.open(stage / OWNER, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except BaseException:           # (a SIGINT here): no stage without its owner file is left
            shutil.rmtree(stage, ignore_errors=True)
            raise
        journaled = False
        try:
            if fcntl is not None:
                with contextlib.suppress(OSError):     # no flock here: the stage is kept for a day
                    fcntl.flock(owner, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.write(owner, f"pid {os.getpid()}\n".encode())
            try:
                yield stage
            except OSError as exc:          # a writer that named no file: the set being written
                raise named_os_error(exc, out) from None
            files = sorted(p for p in stage.rglob("*") if p.is_file() and p != stage / OWNER)
            for p in files:
                fsync_path(p)
            rels = [p.relative_to(stage).as_posix() for p in files]
            _drop_record(out)
            write_text(out / JOURNAL, json.dumps({"pid": os.getpid(), "stage": stage.name, "files": rels}))
            journaled = True
            for rel in rels:
                dest = out / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                os.replace(stage / rel, dest)
            fsync_path(out)
            (out / JOURNAL).unlink()
            fsync_path(out)
            journaled = False
        finally:
            os.close(owner)                  # the owner lock goes with it
            if not journaled:                # else left for the next writer to roll forward
                shutil.rmtree(stage, ignore_errors=True)


RUN_RECORD = "run.json"           # pipeline.formats.run_record's names (that module imports this one)
RUN_SIDECAR = ".run.json"


def _drop_record(out: Path) -> None:
    """Before a new set of files starts replacing the old one in ``out``: remove the run
    record describing the old set (the CLI writes the new one once the run has succeeded), so
    that a kill between the renames never leaves ``run.json`` describing the other generation."""
    record = out / RUN_RECORD
    if record.is_file() and not record.is_symlink():
        record.unlink()
        fsync_path(out)


def read_head(path: str | os.PathLike, size: int) -> bytes:
    """The first ``size`` bytes of a file (its magic number: to tell its format)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError as exc:
        raise named_os_error(exc, path) from None


def read_utf8(path: str | os.PathLike, what: str = "text") -> str:
    """A UTF-8 text file (a resource, a vocabulary); a missing file, a directory or bytes that
    are not UTF-8 are a one-line :class:`InputError`."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError(f"a directory, not a {what} file", path)
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not a UTF-8 {what} file (byte {exc.start}: {exc.reason})", path) from None


def read_text_any(path: str | os.PathLike, what: str = "text") -> tuple[str, str]:
    """(text, encoding) of a text file written by a spreadsheet or a web service: UTF-16 with
    a BOM, UTF-8 (with or without a BOM), else Windows-1252 (Excel's "CSV" on Windows). Bytes
    that none of them reads, or a NUL byte, are a one-line :class:`InputError`."""
    import codecs

    path = Path(path)
    if path.is_dir():
        raise InputError(f"a directory, not a {what} file", path)
    check_published(path)
    data = path.read_bytes()
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        candidates = [("utf-16", "UTF-16")]
    elif data.startswith(codecs.BOM_UTF8):
        candidates = [("utf-8-sig", "UTF-8")]
    else:
        candidates = [("utf-8", "UTF-8"), ("cp1252", "cp1252")]
    for codec, name in candidates:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if "\0" in text:
            raise InputError(f"a NUL byte: binary data, not a {what} file", path)
        return text, name
    raise InputError(f"not a {what} file: neither UTF-8, UTF-16 with a BOM, nor cp1252", path)


def sha256_file(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def jsonable(obj):
    """Make ``obj`` strict JSON: numpy scalars -> Python, NaN/inf -> null, keys -> str,
    tuples -> lists."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if hasattr(obj, "item") and type(obj).__module__ == "numpy":
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def dumps_json(data) -> str:
    return json.dumps(jsonable(data), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(target: str | os.PathLike, data) -> None:
    """Write strict JSON (see :func:`jsonable`) atomically."""
    write_text(target, dumps_json(data))


def read_json(path: str | os.PathLike):
    """Parse a JSON file; a missing or unreadable file is an :class:`InputError`."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError("a directory, not a JSON file", path)
    check_published(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not readable JSON ({exc})", path) from exc
    except RecursionError:
        raise InputError("JSON nested too deeply to read", path) from None
