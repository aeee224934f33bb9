"""Where per-book work runs: in this process (``workers=1``), in a local pool of spawned
processes (``workers=N``), or on a Dask distributed cluster (``scheduler=ADDRESS``).

:func:`run_books` takes the per-task function and the writer as arguments (extract passes
:func:`pipeline.stages.extract.process_unit` and its partition writer), so it knows nothing
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
(extract: the book recorded as skipped with the reason); without ``lost`` the run stops with
:class:`EngineError`. When a pool worker dies, every task in flight in that pool is
suspect; each is retried alone in a one-process pool, which either finishes it or pins the
death on it, and the remaining tasks go on in a fresh pool. The pool keeps only ``workers``
tasks in flight, so nothing waits forever on a dead process: the run never hangs.

May import: the standard library, tqdm, distributed (inside :func:`_run_dask`). Nothing of
the project's stages.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import uuid
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterable, Sequence

from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

log = logging.getLogger(__name__)

Task = tuple
WORKER_DIED = ("worker process died while processing it (killed by a signal, "
               "e.g. the out-of-memory killer)")
MAX_TASKS_PER_CHILD = 20          # a fresh process now and then: spaCy's string store only grows


class EngineError(RuntimeError):
    """A task was lost and no ``lost`` handler was given."""


def run_books(tasks: Sequence[Task], book_fn: Callable[..., Any],
              write: Callable[[Task, Any], int | None], *,
              lost: Callable[[Task, str], Any] | None = None, workers: int = 1,
              scheduler: Any = None, label: Callable[[Task], str] = str) -> int:
    """Run ``book_fn(*task)`` for every task and hand each result to ``write(task, result)``
    (which may return a word count for the progress bar). Returns the sum of those counts.

    ``workers=1`` runs in this process; ``workers>1`` in a pool of spawned processes;
    ``scheduler`` (an address or a ``distributed.Client``) on a Dask cluster. ``label(task)``
    names a task in messages."""
    if not tasks:
        return 0
    total = 0
    books_bar = tqdm(total=len(tasks), desc="books", unit="book", position=0)
    words_bar = tqdm(desc="words", unit="word", unit_scale=True, position=1)

    def emit(task: Task, result: Any) -> None:
        nonlocal total
        words = write(task, result) or 0
        total += words
        words_bar.update(words)
        books_bar.update(1)

    def fail(task: Task, reason: str) -> None:
        log.warning("%s: lost: %s", label(task), reason)
        if lost is None:
            raise EngineError(f"{label(task)}: {reason}")
        emit(task, lost(task, reason))

    try:
        with logging_redirect_tqdm():
            if scheduler:
                _run_dask(tasks, book_fn, emit, fail, scheduler)
            elif workers == 1:
                _run_here(tasks, book_fn, emit, fail)
            else:
                _run_pool(tasks, book_fn, emit, fail, workers, label)
    finally:
        words_bar.close()
        books_bar.close()
    return total


def _reason(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())


def _run_here(tasks, book_fn, emit, fail) -> None:
    for task in tasks:
        try:
            result = book_fn(*task)
        except Exception as exc:      # noqa: BLE001 -- a lost task, not a lost run
            fail(task, _reason(exc))
        else:
            emit(task, result)


def _run_pool(tasks, book_fn, emit, fail, workers: int, label) -> None:
    ctx = mp.get_context("spawn")     # a fresh interpreter per worker: no forked spaCy state
    pending: deque = deque(tasks)
    suspects: deque = deque()
    while pending or suspects:
        if suspects:                  # alone in a one-process pool: finishes, or it was the one
            task = suspects.popleft()
            with ProcessPoolExecutor(1, mp_context=ctx) as pool:
                future = pool.submit(book_fn, *task)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    fail(task, WORKER_DIED)
                except Exception as exc:   # noqa: BLE001
                    fail(task, _reason(exc))
                else:
                    emit(task, result)
            continue
        running: dict = {}
        pool = ProcessPoolExecutor(workers, mp_context=ctx, max_tasks_per_child=MAX_TASKS_PER_CHILD)
        try:
            broken = False
            while (pending or running) and not broken:
                while pending and len(running) < workers:
                    task = pending.popleft()
                    running[pool.submit(book_fn, *task)] = task
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    task = running.pop(future)
                    broken |= _settle(future, task, emit, fail, suspects)
            if broken:
                # the pool marks every unfinished future broken; some may have finished first
                wait(running, timeout=60)
                for future, task in running.items():
                    _settle(future, task, emit, fail, suspects)
                log.warning("a worker process died; retrying alone the book(s) it may have had: %s",
                            ", ".join(label(t) for t in suspects))
        except BaseException:       # Ctrl-C, or an error while writing: stop the workers now
            _stop(pool)
            raise
        pool.shutdown(wait=True, cancel_futures=True)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and terminate the workers (rather than wait for the books
    they are on). ``_processes`` is the executor's own table of its worker processes."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()


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


def _run_dask(tasks: Iterable[Task], book_fn, emit, fail, scheduler) -> None:
    from distributed import Client, as_completed

    client = Client(scheduler) if isinstance(scheduler, str) else scheduler
    run_id = uuid.uuid4().hex[:12]          # keys unique even when runs share a scheduler
    try:
        futures = {client.submit(book_fn, *task, key=f"book-{i}-{run_id}", pure=False): task
                   for i, task in enumerate(tasks)}
        for future in as_completed(futures):
            task = futures[future]
            try:
                result = future.result()
            except Exception as exc:   # noqa: BLE001 -- e.g. KilledWorker after repeated deaths
                fail(task, f"failed on the Dask cluster: {_reason(exc)}")
            else:
                emit(task, result)
            future.release()
    finally:
        if isinstance(scheduler, str):
            client.close()
