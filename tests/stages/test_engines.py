"""The engines on their own (no spaCy): in this process, a local pool with a worker killed by
SIGKILL, lost tasks, and no import of any command module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline import engines
from tests.stages.engine_helpers import square_or_die

ROOT = Path(__file__).resolve().parents[2]


def helper(*args: str) -> subprocess.CompletedProcess:
    """Run the helper in its own process; the timeout only guards against a hang."""
    return subprocess.run([sys.executable, "-m", "tests.stages.engine_helpers", *args], cwd=ROOT,
                          env=dict(os.environ, TQDM_DISABLE="1"), capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
def test_pool_survives_a_killed_worker():
    res = helper("pool", "3", "2")
    assert res.returncode == 0, res.stderr[-2000:]
    got = json.loads(res.stdout)
    assert got["results"] == {"0": 0, "1": 1, "2": 4, "4": 16, "5": 25}
    assert set(got["lost"]) == {"3", "-3"}
    assert got["lost"]["3"] == engines.died_reason(-9)
    assert "SIGKILL" in got["lost"]["3"] and "twice" in got["lost"]["3"]
    assert got["lost"]["-3"] == "ValueError: bad task -3"
    assert "retrying alone" in res.stderr


@pytest.mark.slow
def test_pool_without_failures():
    res = helper("pool", "0", "2")
    assert res.returncode == 0, res.stderr[-2000:]
    got = json.loads(res.stdout)
    assert got == {"results": {str(x): x * x for x in range(6)}, "lost": {}}


@pytest.mark.slow
def test_pool_stops_at_once_when_the_writer_fails():
    """The busy worker (a minute to go) is terminated, not waited for; the timeout only
    guards against a hang. Fails when the pool waits for its workers (``_stop`` as
    ``pool.shutdown(wait=True)``: 60 s) or leaves them running (the helper's exit waits)."""
    t0 = time.monotonic()
    res = helper("pool-write-error")
    wall = time.monotonic() - t0
    assert res.returncode == 0, res.stderr[-2000:]
    stopped, after, since = res.stdout.strip().splitlines()
    assert stopped == "stopped: disk full"
    # "at once": within a few seconds of the writer's error, and the whole helper (interpreter,
    # two spawned workers, their exit) well before the busy worker's minute is up
    assert float(since.split()[-2]) < 5, since
    assert float(after.split()[1]) < 30, after
    assert wall < 30, f"the helper took {wall:.1f} s"


def test_in_process_engine_keeps_order_and_counts():
    seen = []

    def write(task, result):
        seen.append((task[0], result))
        return result

    total = engines.run_books([(x, 99) for x in range(4)], square_or_die, write)
    assert seen == [(0, 0), (1, 1), (2, 4), (3, 9)] and total == 14


def test_lost_task_goes_through_lost_or_stops_the_run():
    seen, lost = [], []

    def on_lost(task, reason):
        lost.append(reason)
        return "skipped"

    engines.run_books([(1, 2), (-2, 2), (3, 2)], square_or_die,
                      lambda task, result: seen.append(result), lost=on_lost)
    assert seen == [1, "skipped", 9] and lost == ["ValueError: bad task -2"]
    with pytest.raises(engines.EngineError, match="bad task -2"):
        engines.run_books([(-2, 2)], square_or_die, lambda task, result: 0)


def test_no_tasks_is_no_work():
    assert engines.run_books([], square_or_die, lambda task, result: 1 / 0) == 0


def test_engines_import_no_command():
    code = "import sys, pipeline.engines; print(sorted(m for m in sys.modules if m.startswith('pipeline.commands')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_workers_started_ahead_run_the_tasks(tmp_path):
    """engines.started: the pool's workers start (and warm up) before the tasks are known;
    the run_books in the block runs on exactly those workers."""
    import functools

    from tests.stages.engine_helpers import note_pid, worker_pid

    pids: dict = {}
    with engines.started(2, functools.partial(note_pid, str(tmp_path))):
        ahead = engines._ahead
        engines.run_books([(x,) for x in range(4)], worker_pid, lambda task, pid: pids.__setitem__(task[0], pid),
                          workers=2)
    assert ahead.used and engines._ahead is None
    warmed = {int(p.name) for p in tmp_path.iterdir()}     # (a slow second worker may not be there yet)
    assert set(pids) == {0, 1, 2, 3}
    assert set(pids.values()) <= warmed


def test_workers_started_ahead_and_left_unused_are_stopped(tmp_path):
    """Without a warm-up the workers are spawned at once; left unused, they are stopped."""
    with engines.started(2):
        ahead = engines._ahead
        processes = list(ahead.pool._processes.values())      # the executor's own table
    assert engines._ahead is None and not ahead.used and len(processes) == 2 and ahead.server is None
    for process in processes:
        process.join(timeout=30)
        assert not process.is_alive()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_warm_up_runs_once_and_the_workers_are_forked_from_it():
    """With a warm-up, started() runs it once, in a fork server, and the pool's workers are
    forked from that server: they have its memory (generate: the spaCy pipeline loaded once,
    not once per worker) and it is their parent. The server is stopped when the block ends.
    Fails with spawned workers that each warm up (the first pid of the trace would be the
    worker's own, and the worker's parent this process)."""
    from tests.stages.engine_helpers import warm_trace, warm_up

    got: dict = {}
    with engines.started(2, warm_up):
        ahead = engines._ahead
        server = ahead.server
        engines.run_books([(x,) for x in range(4)], warm_trace, lambda task, r: got.__setitem__(task[0], r),
                          workers=2)
    assert server is not None and server != os.getpid()
    assert set(got) == {0, 1, 2, 3}
    for pid, parent, warmed in got.values():
        assert parent == server and warmed[0] == server and pid != server
    assert len({pid for pid, _, _ in got.values()}) <= 2
    assert _gone(server) and all(_gone(pid) for pid, _, _ in got.values())


def test_a_started_server_left_unused_is_stopped():
    from tests.stages.engine_helpers import warm_up

    with engines.started(2, warm_up):
        ahead = engines._ahead
    assert not ahead.used and ahead.server is not None and _gone(ahead.server)


def test_the_warm_server_is_not_left_in_the_environment():
    from tests.stages.engine_helpers import warm_up

    with engines.started(2, warm_up):
        assert engines.WARM_ENV not in os.environ


def test_workers_deaf_to_sigterm_are_killed_when_stopped(tmp_path):
    """A busy worker that does not die of SIGTERM (the CI run of 2026-11-27 met one: a worker
    forked but not yet exec'd only notes the signal) is killed after STOP_GRACE_SECONDS."""
    import functools
    import multiprocessing as mp
    import time
    from concurrent.futures import ProcessPoolExecutor

    from tests.stages.engine_helpers import deaf_to_sigterm

    pool = ProcessPoolExecutor(2, mp_context=mp.get_context("spawn"),
                               initializer=functools.partial(deaf_to_sigterm, str(tmp_path)))
    for _ in range(2):
        pool.submit(time.sleep, 120)
    deadline = time.monotonic() + 60
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(list(tmp_path.iterdir())) == 2        # both busy, both ignore SIGTERM
    processes = list(pool._processes.values())
    stopping = time.monotonic()
    engines._stop(pool)
    took = time.monotonic() - stopping
    for process in processes:
        # dead for the kernel (no process, or a zombie): in the whole suite something reaps
        # children with a waitpid of its own, and multiprocessing's is_alive() then stays True
        # (two clean-clone runs of 2026-11-27 failed on "not process.is_alive()")
        assert _gone(process.pid), process
        assert process.exitcode in (-9, None)
    assert took < engines.STOP_GRACE_SECONDS + engines.KILL_WAIT_SECONDS


def _gone(pid: int) -> bool:
    """Whether process ``pid`` is dead: no such process, or a zombie waiting to be reaped."""
    import os

    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    if state in ("Z", "X"):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False
