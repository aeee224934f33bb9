"""Where per-book work runs: in this process (``workers=1``), in a local pool of spawned
processes (``workers=N``), or on a Dask distributed cluster (``scheduler=ADDRESS``).

:func:`run_books` takes the per-task function and the writer as arguments (extract passes
:func:`pipeline.runs.extract.process_unit` and its partition writer), so it knows nothing
about books: a task is a tuple of picklable arguments, ``book_fn(*task)`` returns a picklable
result, and ``write(task, result)`` is called in *this* process for every result, in
completion order. The output is therefore the same whatever the engine, and workers on other
machines need the input at the same path but no shared output directory. Extract's tasks
carry a small description of what to read (:class:`pipeline.formats.books.Unit`: a file, a
zip member, a range of table rows), never the text: each worker reads its own part of the
corpus, so a table corpus is split by row groups / row ranges, not copied to every worker.

Failures. A task whose result never comes back is *lost*: ``book_fn`` raised, its worker
process died (killed by a signal, out of memory: ``BrokenProcessPool``), or the Dask cluster
gave up on it. ``lost(task, reason)`` turns it into a result that is written like any other
(extract: the book recorded as *failed* with the reason, so that a rerun retries it); without
``lost`` the run stops with :class:`EngineError`. When a pool worker dies, every task in
flight in that pool is suspect; each is retried once, alone, in a fresh process of its own,
which either finishes it or dies again: then the task is lost with the signal that killed it
(``worker process died twice while processing it (SIGKILL ...)``). The remaining tasks go on
in a fresh pool. The pool keeps only ``workers`` tasks in flight, so nothing waits forever on
a dead process: the run never hangs.

Parent death. Every worker asks the kernel for SIGKILL when its parent dies
(``prctl(PR_SET_PDEATHSIG)`` on Linux) and also watches its parent's pid once a second, so
killing the main process (even with SIGKILL) leaves no worker behind. SIGTERM to the main
process is handled like Ctrl-C: the workers are terminated and the run stops cleanly.

Dask. Before the first task, every worker's code fingerprint
(:func:`pipeline.formats.fingerprint.run_fingerprint`: the package's source hash, spaCy and
gender-guesser versions) is compared with this process's; a difference is refused with one
line naming the worker and what differs. Each task checks the source hash again on its worker
(:func:`_checked_call`), so a worker that joins later with other code stops the run the same
way. Parent death: the processes of a ``LocalCluster`` started by this process end with it
(distributed's nannies watch their parent; ``tests/stages/test_engines_dask.py`` kills the
client with SIGKILL and checks), so no guard of ours is needed there; a cluster started
elsewhere (``--scheduler ADDRESS``) keeps its own lifetime, as a shared service should.

Start. :func:`started` gets a pool ready before the tasks are known while the caller reads
its input; :func:`run_books` then runs on it. With a warm-up (``warm``: loading what every task
needs, e.g. a spaCy pipeline) the warm-up runs *once*, in a fork server (a fresh interpreter
started at once, :mod:`multiprocessing.forkserver`), and the pool's workers are forked from it
when the first tasks go out: N workers cost one warm-up, not N (generate's re-check: one model
load of about 5 CPU seconds instead of one per worker), and the server warms up on one core
while the caller reads on the other. A worker's parent is then the server, which ends when this
process does (it reads the end of a pipe this process holds) and is stopped when the block
ends; the workers die with it as with their parent. Without a fork server (another user's
already running, no ``forkserver`` start method) every spawned worker warms up itself.

Progress. ``book_fn`` may call :func:`report_progress` (words done so far in its book, per
chunk); the words bar advances with it while the book runs, and is corrected to the count
``write`` returns when the book ends. The caller chooses the display (``bar``: a factory with
tqdm's arguments; the runs pass :func:`pipeline.runs.progress.bar`, bars on a terminal and
plain lines every 30 s elsewhere); without one, tqdm's bars.

May import: the standard library, tqdm, distributed (inside :func:`_run_dask`),
:mod:`pipeline.errors`, :mod:`pipeline.formats.fingerprint` (inside functions). Nothing of the
project's stages.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import uuid
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterable, Sequence

from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

log = logging.getLogger(__name__)

Task = tuple
WORKER_DIED = ("worker process died twice while processing it (killed by a signal, "
               "e.g. the out-of-memory killer)")
MAX_TASKS_PER_CHILD = 20          # a fresh process now and then: spaCy's string store only grows
PARENT_POLL_SECONDS = 1.0
PROGRESS_POLL_SECONDS = 0.5
STOP_GRACE_SECONDS = 3.0          # a terminated worker that still runs after this is killed
KILL_WAIT_SECONDS = 30.0          # ... and reaped within this (at once, unless the machine is loaded)
PR_SET_PDEATHSIG = 1


class EngineError(RuntimeError):
    """A task was lost and no ``lost`` handler was given."""


def died_reason(exitcode: int | None) -> str:
    """The lost reason of a task whose lone worker died with ``exitcode``."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        how = f"{name}, e.g. the out-of-memory killer" if -exitcode == signal.SIGKILL else name
        return f"worker process died twice while processing it (killed by {how})"
    if exitcode is not None:
        return f"worker process died twice while processing it (exit status {exitcode})"
    return WORKER_DIED


# ------------------------------------------------------------------ in the workers -------

_progress: Any = None            # a socket path (pool workers) or a callable (this process)
_current: Any = None             # key of the task running in this process
_socket: Any = None


def report_progress(words: int) -> None:
    """Called by a per-book function: ``words`` more words of the current book are done.

    In a worker it is one datagram to the parent's socket (no lock shared between processes,
    so a worker killed at any moment cannot block the others; a full buffer drops it)."""
    global _socket
    if _progress is None or not words:
        return
    if callable(_progress):
        _progress(_current, words)
        return
    with contextlib.suppress(OSError):       # progress is never worth failing a book
        if _socket is None:
            _socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        _socket.sendto(f"{_current}\t{int(words)}".encode(), socket.MSG_DONTWAIT, _progress)


class _Progress:
    """The parent's end of the workers' progress datagrams (a Unix socket in a temporary
    directory); ``path`` is None where there are no Unix sockets."""

    def __init__(self) -> None:
        self.path = self.sock = self.dir = None
        if hasattr(socket, "AF_UNIX"):
            with contextlib.suppress(OSError):
                self.dir = tempfile.mkdtemp(prefix="cg-progress-")
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                sock.bind(os.path.join(self.dir, "s"))
                sock.setblocking(False)
                self.sock, self.path = sock, os.path.join(self.dir, "s")

    def drain(self, progress) -> None:
        while self.sock is not None:
            try:
                data = self.sock.recv(4096)
            except (BlockingIOError, OSError):
                return
            key, _, words = data.decode(errors="replace").partition("\t")
            with contextlib.suppress(ValueError):
                progress(key, int(words))

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)


def _die_with_parent(parent: int) -> None:
    """SIGKILL when the parent dies: the kernel's parent-death signal on Linux, and a thread
    polling the parent's pid everywhere (the pid changes when the parent is gone)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:               # died before the prctl
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_init(parent: int, progress, warm=None) -> None:
    global _progress
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the parent decides; it terminates us
    _progress = progress
    if warm is not None:
        with contextlib.suppress(Exception):    # a task meets the same failure and reports it
            warm()


def _nothing() -> None:
    """A task that only makes the pool start a worker process."""


def _call(book_fn, key, task):
    global _current
    _current = key
    try:
        return book_fn(*task)
    finally:
        _current = None


def _alone(conn, parent: int, progress, book_fn, key, task) -> None:
    """Body of a lone retry process: run the task, send ("ok", result) or ("error", reason)."""
    _worker_init(parent, progress)
    try:
        result = ("ok", _call(book_fn, key, task))
    except Exception as exc:   # noqa: BLE001
        result = ("error", _reason(exc))
    conn.send(result)
    conn.close()


def run_books(tasks: Sequence[Task], book_fn: Callable[..., Any],
              write: Callable[[Task, Any], int | None], *,
              lost: Callable[[Task, str], Any] | None = None, workers: int = 1,
              scheduler: Any = None, label: Callable[[Task], str] = str,
              bar: Callable[..., Any] | None = None, counted: str = "word",
              books: Callable[[Task], int] | None = None) -> int:
    """Run ``book_fn(*task)`` for every task and hand each result to ``write(task, result)``
    (which may return a word count for the progress bar). Returns the sum of those counts.

    ``workers=1`` runs in this process; ``workers>1`` in a pool of spawned processes;
    ``scheduler`` (an address or a ``distributed.Client``) on a Dask cluster. ``label(task)``
    names a task in messages; ``bar(total=, desc=, unit=, unit_scale=, position=)`` makes a
    progress display (default: tqdm); ``counted`` is the unit of what ``write`` returns (the
    second display's name: ``words``, ``quadruples``); ``books(task)`` is how many books a task
    holds for the first display (default 1: a batch of zip members or a range of table rows
    counts its books)."""
    if not tasks:
        return 0
    total = 0
    make = bar or tqdm
    weight = books or (lambda task: 1)
    books_bar = make(total=sum(weight(t) for t in tasks), desc="books", unit="book", position=0)
    words_bar = make(desc=f"{counted}s", unit=counted, unit_scale=True, position=1)
    reported: dict = {}              # task key -> words reported while it ran
    key = _keys(tasks)

    def progress(key, words: int) -> None:
        reported[key] = reported.get(key, 0) + words
        words_bar.update(words)

    def emit(task: Task, result: Any) -> None:
        nonlocal total
        words = write(task, result) or 0
        total += words
        words_bar.update(words - reported.pop(key(task), 0))
        books_bar.update(weight(task))

    def fail(task: Task, reason: str) -> None:
        log.warning("%s: lost: %s", label(task), reason)
        if lost is None:
            raise EngineError(f"{label(task)}: {reason}")
        emit(task, lost(task, reason))

    try:
        with logging_redirect_tqdm(), _sigterm_as_interrupt():
            if scheduler:
                _run_dask(tasks, book_fn, emit, fail, scheduler)
            elif workers == 1:
                _run_here(tasks, book_fn, emit, fail, progress, key)
            else:
                _run_pool(tasks, book_fn, emit, fail, workers, label, progress, key)
    finally:
        words_bar.close()
        books_bar.close()
    return total


def _keys(tasks: Sequence[Task]) -> Callable[[Task], str]:
    """The key of each task of a run (what its progress datagrams carry): its place in
    ``tasks``, found by identity (a task's repr can be a whole book's instances)."""
    place = {id(task): str(i) for i, task in enumerate(tasks)}
    return lambda task: place[id(task)]


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """SIGTERM raises KeyboardInterrupt in the main thread (the run stops as with Ctrl-C)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _reason(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())


def _run_here(tasks, book_fn, emit, fail, progress, key) -> None:
    global _progress
    previous, _progress = _progress, progress
    try:
        for task in tasks:
            try:
                result = _call(book_fn, key(task), task)
            except Exception as exc:      # noqa: BLE001 -- a lost task, not a lost run
                fail(task, _reason(exc))
            else:
                emit(task, result)
    finally:
        _progress = previous


def _run_alone(ctx, book_fn, task, channel, progress, key) -> tuple[str, Any]:
    """Run one task in a fresh process of its own: ("ok", result), ("error", reason) or
    ("died", reason naming the signal)."""
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_alone, args=(send, os.getpid(), channel.path, book_fn, key(task), task),
                       daemon=True)
    proc.start()
    send.close()
    try:
        while not receive.poll(PROGRESS_POLL_SECONDS):
            channel.drain(progress)
            if not proc.is_alive() and not receive.poll(0):
                break
        try:
            outcome = receive.recv()
        except (EOFError, OSError):
            proc.join()
            outcome = ("died", died_reason(proc.exitcode))
        channel.drain(progress)
        proc.join(timeout=60)
        return outcome
    except BaseException:
        if proc.is_alive():
            proc.terminate()
        raise
    finally:
        receive.close()


WARM_ENV = "PIPELINE_ENGINES_WARM"     # the fork server's warm-up (pickled, base64), read as it starts


def _warm_in_server() -> None:
    """In a fork server that :func:`_warm_server` started (it imports this module first): run
    the warm-up it was given, once, before it forks any worker. Nothing elsewhere (the
    variable is set only around the server's start and removed here)."""
    data = os.environ.pop(WARM_ENV, None)
    if not data:
        return
    import base64
    import pickle

    with contextlib.suppress(Exception):      # a failing warm-up: each task meets it and reports it
        pickle.loads(base64.b64decode(data))()


def _warm_server(warm: Callable[[], Any]):
    """Start a fork server that runs ``warm()`` once: (its context, its pid), or None when
    there is none of ours to have (no ``forkserver`` start method, a server already running
    with another preload, a warm-up that cannot be pickled)."""
    if "forkserver" not in mp.get_all_start_methods():
        return None
    import base64
    import pickle
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    if server is None or getattr(server, "_forkserver_pid", 0) is not None:
        return None
    try:
        data = base64.b64encode(pickle.dumps(warm)).decode("ascii")
    except Exception:   # noqa: BLE001
        return None
    preload = server._preload_modules
    server.set_forkserver_preload([__name__])      # the server imports this module: _warm_in_server
    os.environ[WARM_ENV] = data
    try:
        server.ensure_running()
    finally:
        os.environ.pop(WARM_ENV, None)
        server.set_forkserver_preload(preload)
    return mp.get_context("forkserver"), server._forkserver_pid


def _stop_server(pid: int) -> None:
    """Stop the fork server ``pid`` of :func:`_warm_server` (its workers, if any are left, die
    with it)."""
    from multiprocessing import forkserver

    server = forkserver._forkserver
    if server._forkserver_pid != pid:
        return
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)          # at once, even while it is still warming up
    with contextlib.suppress(OSError):
        server._stop()


class _Recorded:
    """A multiprocessing context that keeps every process it makes (the executor forgets the
    ones that have exited; the fork server is stopped only once they all have, so that it
    reaps them: a worker left to a dead server would linger as another process's zombie)."""

    def __init__(self, ctx):
        self._ctx, self.made = ctx, []

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def Process(self, *args, **kwargs):     # noqa: N802 -- the context's own name
        process = self._ctx.Process(*args, **kwargs)
        self.made.append(process)
        return process


class _Ahead:
    """A pool got ready before the tasks were known (:func:`started`): with a warm-up, workers
    forked from a fork server that has run it once (they start with the first tasks); else
    spawned workers, started now."""

    def __init__(self, workers: int, warm: Callable[[], Any] | None):
        self.workers, self.used = workers, False
        server = _warm_server(warm) if warm is not None else None
        self.ctx, self.server = (_Recorded(server[0]), server[1]) if server else (mp.get_context("spawn"), None)
        parent = self.server or os.getpid()     # a forked worker's parent is the server
        self.channel = _Progress()
        self.pool = ProcessPoolExecutor(workers, mp_context=self.ctx, max_tasks_per_child=MAX_TASKS_PER_CHILD,
                                        initializer=_worker_init, initargs=(parent, self.channel.path, warm))
        if self.server is None:
            for _ in range(workers):    # the pool starts a process for each task it cannot place
                self.pool.submit(_nothing)

    def close(self) -> None:
        """Stop what is left: the workers of an unused pool, the channel of an unused pool, the
        fork server (after its workers, which have their shutdown by now, have exited)."""
        if not self.used:
            _stop(self.pool)
            self.channel.close()
        if self.server is not None:
            with contextlib.suppress(Exception):
                self.pool.shutdown(wait=False, cancel_futures=True)
            deadline = time.monotonic() + 60
            for process in list(self.ctx.made):     # they have their shutdown (or were stopped) by now
                with contextlib.suppress(Exception):
                    process.join(max(0.0, deadline - time.monotonic()))
            _stop_server(self.server)


_ahead: _Ahead | None = None


@contextlib.contextmanager
def started(workers: int, warm: Callable[[], Any] | None = None):
    """Get a pool of ``workers`` processes ready now, so that their start overlaps what the
    caller does before :func:`run_books` (reading its input, checking its output). ``warm()``
    loads what every task needs (an exception there is left for the tasks to meet): it runs
    once in a fork server started now, and the workers are forked from it, warm, when the
    first tasks go out (without a fork server: ``workers`` spawned processes started now, each
    calling ``warm()`` first; module doc, "Start"). The first :func:`run_books` of the block
    with the same ``workers`` (and no scheduler) runs on them; workers left unused and the
    fork server are stopped when the block ends (SIGTERM in the block is a KeyboardInterrupt,
    as in run_books). Nothing for ``workers`` <= 1."""
    global _ahead
    if workers <= 1:
        yield
        return
    ahead = _ahead = _Ahead(workers, warm)
    try:
        with _sigterm_as_interrupt():   # as in run_books: the workers and the socket go with the run
            yield
    finally:
        if _ahead is ahead:
            _ahead = None
        ahead.close()


def _run_pool(tasks, book_fn, emit, fail, workers: int, label, progress, key) -> None:
    global _ahead
    ahead = _ahead if _ahead is not None and _ahead.workers == workers else None
    if ahead is not None:
        _ahead, ahead.used = None, True
    # a fresh interpreter per worker: no forked state of this process (the workers of a started
    # pool may be forked from its fork server, a fresh interpreter that has only warmed up)
    ctx = mp.get_context("spawn")
    channel = ahead.channel if ahead else _Progress()
    pending: deque = deque(tasks)
    suspects: deque = deque()
    try:
        while pending or suspects:
            if suspects:              # alone in a process of its own: finishes, or it was the one
                task = suspects.popleft()
                kind, value = _run_alone(ctx, book_fn, task, channel, progress, key)
                if kind == "ok":
                    emit(task, value)
                else:
                    fail(task, value)
                continue
            running: dict = {}
            if ahead is not None:
                pool, ahead = ahead.pool, None
            else:
                pool = ProcessPoolExecutor(workers, mp_context=ctx, max_tasks_per_child=MAX_TASKS_PER_CHILD,
                                           initializer=_worker_init, initargs=(os.getpid(), channel.path))
            try:
                broken = False
                _submit(pool, running, pending, workers, book_fn, key)
                while running and not broken:
                    done, _ = wait(running, timeout=PROGRESS_POLL_SECONDS, return_when=FIRST_COMPLETED)
                    channel.drain(progress)
                    finished = [(future, running.pop(future)) for future in done]
                    # the next tasks go out before the results are written: a worker never
                    # waits for this process to write the book it has just finished
                    if not any(_broke(future) for future, _ in finished):
                        _submit(pool, running, pending, workers, book_fn, key)
                    for future, task in finished:
                        broken |= _settle(future, task, emit, fail, suspects)
                if broken:
                    # the pool marks every unfinished future broken; some may have finished first
                    wait(running, timeout=60)
                    for future, task in running.items():
                        _settle(future, task, emit, fail, suspects)
                    log.warning("a worker process died; retrying alone the book(s) it may have had: %s",
                                ", ".join(label(t) for t in suspects))
            except BaseException:       # Ctrl-C, SIGTERM, or an error while writing: stop the workers now
                _stop(pool)
                raise
            # every result is in: the workers exit while this process goes on (merging the run's
            # files); the executor joins them, at the latest when this interpreter exits
            pool.shutdown(wait=False, cancel_futures=True)
            channel.drain(progress)
    finally:
        channel.close()


def _submit(pool: ProcessPoolExecutor, running: dict, pending: deque, workers: int, book_fn, key) -> None:
    """Submit pending tasks until ``workers`` are in flight (none to a pool that broke)."""
    while pending and len(running) < workers:
        task = pending[0]
        try:
            future = pool.submit(_call, book_fn, key(task), task)
        except BrokenProcessPool:       # a worker died: the futures in flight say so, or a fresh
            return                      # pool takes the pending tasks
        pending.popleft()
        running[future] = task


def _broke(future) -> bool:
    """Whether a future :func:`wait` handed back shows that its pool broke (a worker died)."""
    if not future.done():
        return True
    return not future.cancelled() and isinstance(future.exception(), BrokenProcessPool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and terminate the workers (rather than wait for the books
    they are on). ``_processes`` is the executor's own table of its worker processes."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    # SIGTERM can be lost: a worker forked but not yet exec'd still runs the parent's Python
    # signal handler, which only notes the signal. What is still alive after the grace goes
    # by SIGKILL, which nothing catches.
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            # SIGKILL cannot be caught: join returns as soon as the process is gone (its
            # sentinel), bounded. (Whether is_alive() then says so depends on who reaped it: a
            # waitpid elsewhere in the process leaves multiprocessing's view "alive".)
            process.join(KILL_WAIT_SECONDS)


def _settle(future, task, emit, fail, suspects) -> bool:
    """Hand a finished future on; True when it shows that the pool broke."""
    if not future.done():
        suspects.append(task)
        return True
    try:
        result = future.result()
    except BrokenProcessPool:
        suspects.append(task)
        return True
    except Exception as exc:   # noqa: BLE001
        fail(task, _reason(exc))
        return False
    emit(task, result)
    return False


class WorkerCodeMismatch(RuntimeError):
    """A Dask worker runs other code than the client (raised in the worker, by
    :func:`_checked_call`, for a worker that joined after the check at the start)."""


def worker_fingerprint() -> dict:
    """This process's :func:`pipeline.formats.fingerprint.run_fingerprint` (no model: the
    per-book function names its own)."""
    from pipeline.formats import fingerprint

    return fingerprint.run_fingerprint(None)


def check_worker_fingerprints(client) -> dict:
    """Refuse (one-line :class:`pipeline.errors.InputError`) when a worker of ``client``'s
    cluster runs other code or other versions of spaCy / gender-guesser than this process,
    naming the worker and what differs; returns this process's fingerprint."""
    from pipeline.errors import InputError
    from pipeline.formats.fingerprint import fingerprint_differences

    mine = worker_fingerprint()
    theirs = client.run(worker_fingerprint)
    for address, fingerprint in sorted(theirs.items()):
        diff = fingerprint_differences(mine, fingerprint)
        if diff:
            raise InputError(f"the Dask worker {address} runs other code than this run "
                             f"({'; '.join(diff)}): its results would mix with this code's; install the "
                             "same version on every worker", "--scheduler")
    return mine


def _checked_call(code: str, book_fn, *task):
    """Run ``book_fn(*task)`` on a Dask worker whose package hash is ``code`` (the client's)."""
    from pipeline.formats import fingerprint

    if fingerprint.source_sha256() != code:
        raise WorkerCodeMismatch(f"code {fingerprint.source_sha256()[:12]} on this worker, "
                                 f"{code[:12]} on the client")
    return book_fn(*task)


def _run_dask(tasks: Iterable[Task], book_fn, emit, fail, scheduler) -> None:
    from distributed import Client, as_completed

    from pipeline.errors import InputError

    client = Client(scheduler) if isinstance(scheduler, str) else scheduler
    run_id = uuid.uuid4().hex[:12]          # keys unique even when runs share a scheduler
    try:
        code = check_worker_fingerprints(client)["code"]
        futures = {client.submit(_checked_call, code, book_fn, *task, key=f"book-{i}-{run_id}", pure=False): task
                   for i, task in enumerate(tasks)}
        for future in as_completed(futures):
            task = futures[future]
            try:
                result = future.result()
            except WorkerCodeMismatch as exc:
                raise InputError(f"a Dask worker runs other code than this run ({exc}): its results "
                                 "would mix with this code's; install the same version on every worker",
                                 "--scheduler") from None
            except Exception as exc:   # noqa: BLE001 -- e.g. KilledWorker after repeated deaths
                fail(task, f"failed on the Dask cluster: {_reason(exc)}")
            else:
                emit(task, result)
            future.release()
    finally:
        if isinstance(scheduler, str):
            client.close()


_warm_in_server()         # in a fork server of _warm_server: its warm-up, once
