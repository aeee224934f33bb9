"""Per-book functions for the engine tests (a helper module, not a test module).

They live in an importable module because the local pool pickles the function by name and its
spawned workers import it. Run as ``python -m tests.stages.engine_helpers MODE ...`` from the
project root, so that a test can guard the whole run with a subprocess timeout:

* ``pool VICTIM WORKERS``: :func:`pipeline.engines.run_books` over tasks 0..5 and -VICTIM with
  :func:`square_or_die` (task VICTIM kills its worker, task -VICTIM raises; VICTIM 0: tasks
  0..5 only, none fails); prints one JSON object ``{"results": {...}, "lost": {...}}``.
* ``pool-write-error``: the writer raises on the first result while the other worker is busy
  for a minute; prints ``stopped: ...`` once the run has stopped, then ``after S s`` (since
  the run began) and ``since the failure S s`` (since the writer raised).
* ``dask-sleep MARKER``: a Dask ``LocalCluster`` of this process runs :func:`marked_sleep`
  (the test kills this process once MARKER exists).
* ``extract VICTIM ARGS...``: ``python -m pipeline extract ARGS...`` with the extract run's per-unit
  function replaced by :func:`kill_on_book` (SIGKILL of its own worker for the unit of the book
  file named VICTIM, passed to the workers in ``$KILL_BOOK``).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path


def square_or_die(x: int, victim: int) -> int:
    if x == victim:
        os.kill(os.getpid(), signal.SIGKILL)
    if x == -victim:
        raise ValueError(f"bad task {x}")
    return x * x


def slow_square(x: int, victim: int) -> int:
    import time

    time.sleep(0.2 if x == 0 else 60)        # every task but the first would run for a minute
    return x * x


def marked_sleep(x: int, marker: str) -> int:
    """Write ``marker`` (the task has started on its worker), then sleep for a minute."""
    import time

    Path(marker).write_text(str(os.getpid()))
    time.sleep(60)
    return x


def note_pid(folder: str) -> None:
    """A pool worker's warm-up (:func:`pipeline.engines.started`): its pid, as a file in ``folder``."""
    Path(folder, str(os.getpid())).touch()


def deaf_to_sigterm(folder: str) -> None:
    """A warm-up that makes the worker ignore SIGTERM (as a worker forked but not yet exec'd
    in effect does), then notes its pid in ``folder``."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    Path(folder, str(os.getpid())).touch()


def worker_pid(x: int) -> int:
    return os.getpid()


WARMED: list[int] = []          # the pids of the processes that ran warm_up (a forked worker inherits it)


def warm_up() -> None:
    """A warm-up that leaves a trace in the process's memory (not in a file)."""
    WARMED.append(os.getpid())


def warm_trace(x: int) -> tuple[int, int, list[int]]:
    """(this worker's pid, its parent's pid, the pids that warmed up the memory it has)."""
    return os.getpid(), os.getppid(), list(WARMED)


# the run's real per-book function, kept when main() rebinds its name in pipeline.runs.extract (in workers
# that module is fresh and unpatched)
_REAL = None


def kill_on_book(unit, *args, **kwargs):
    from pipeline.runs import extract

    if Path(unit.path).name == os.environ.get("KILL_BOOK"):
        os.kill(os.getpid(), signal.SIGKILL)
    return (_REAL or extract.process_unit)(unit, *args, **kwargs)


def main(argv: list[str]) -> int:
    mode = argv[0]
    if mode == "pool":
        from pipeline import engines

        victim, workers = int(argv[1]), int(argv[2])
        tasks = [(x, victim) for x in range(6)] + [(-victim, victim)] if victim else [(x, 1000) for x in range(6)]
        results, lost = {}, {}

        def write(task, result):
            results[task[0]] = result
            return 0

        def on_lost(task, reason):
            lost[task[0]] = reason
            return None

        def write_or_lost(task, result):
            if task[0] not in lost:
                write(task, result)
            return 0

        engines.run_books(tasks, square_or_die, write_or_lost, lost=on_lost, workers=workers)
        print(json.dumps({"results": results, "lost": lost}))
        return 0
    if mode == "pool-write-error":
        # the writer fails on the first result while other tasks run: the run stops at once
        from pipeline import engines

        import time

        failed_at = []

        def failing_write(task, result):
            failed_at.append(time.monotonic())
            raise RuntimeError("disk full")

        t0 = time.monotonic()
        try:
            engines.run_books([(x, 1000) for x in range(8)], slow_square, failing_write, workers=2)
        except RuntimeError as exc:
            stopped = time.monotonic()
            print(f"stopped: {exc}")
            print(f"after {stopped - t0:.1f} s")
            print(f"since the failure {stopped - failed_at[0]:.1f} s")
            return 0
        return 1
    if mode == "dask-sleep":
        # a LocalCluster of this process (1 worker process + its nanny), one task that writes
        # the marker argv[1] and sleeps: the test kills this process meanwhile
        import distributed

        from pipeline import engines

        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            engines.run_books([(0, argv[1])], marked_sleep, lambda task, result: 0, scheduler=client)
        return 0
    if mode == "extract":
        global _REAL
        from pipeline.cli import main as cli_main
        from pipeline.runs import extract

        os.environ["KILL_BOOK"] = argv[1]        # inherited by the spawned workers
        _REAL = extract.process_unit
        extract.process_unit = kill_on_book
        return cli_main(["extract", *argv[2:]])
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    # run through the module's real name, so that the pool pickles
    # tests.stages.engine_helpers.<function>, not __main__.<function>
    from tests.stages import engine_helpers

    raise SystemExit(engine_helpers.main(sys.argv[1:]))
