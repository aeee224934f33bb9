"""The Dask engine: workers that run other code are refused with one line naming the worker
and what differs, and the workers of a LocalCluster die with the process that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline import engines
from pipeline.errors import InputError
from tests.stages.engine_helpers import square_or_die

ROOT = Path(__file__).resolve().parents[2]
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def _run(client) -> dict:
    results = {}

    def write(task, result):
        results[task[0]] = result
        return 0

    engines.run_books([(x, 1000) for x in range(4)], square_or_die, write, scheduler=client)
    return results


def _other_code() -> str:
    """In a worker: this process now hashes as other code would (as after an edit)."""
    from pipeline.formats import fingerprint

    fingerprint.source_sha256 = lambda: "0" * 64
    return "patched"


def _same_code() -> str:
    import importlib

    from pipeline.formats import fingerprint

    importlib.reload(fingerprint)
    return "restored"


def test_workers_with_the_same_code_run_the_tasks(client):
    assert _run(client) == {0: 0, 1: 1, 2: 4, 3: 9}
    assert engines.check_worker_fingerprints(client)["code"] == engines.worker_fingerprint()["code"]


def test_a_worker_with_other_code_is_refused_naming_it(client):
    client.run(_other_code)
    try:
        with pytest.raises(InputError) as exc:
            _run(client)
    finally:
        client.run(_same_code)
    message = str(exc.value)
    (address,) = client.scheduler_info()["workers"]
    assert "\n" not in message and address in message
    mine = engines.worker_fingerprint()["code"][:12]
    assert f"code {mine} (git " in message and "-> 000000000000 (git " in message
    assert _run(client) == {0: 0, 1: 1, 2: 4, 3: 9}          # the same code again: runs


def test_a_task_on_a_worker_with_other_code_stops():
    """A worker that joins after the check: each task checks the code hash again."""
    with pytest.raises(engines.WorkerCodeMismatch, match="000000000000 on the client"):
        engines._checked_call("0" * 64, square_or_die, 2, 1000)
    assert engines._checked_call(engines.worker_fingerprint()["code"], square_or_die, 2, 1000) == 4


@pytest.mark.slow
def test_killing_the_client_ends_its_local_cluster(tmp_path):
    psutil = pytest.importorskip("psutil")
    marker = tmp_path / "started"
    proc = subprocess.Popen([sys.executable, "-m", "tests.stages.engine_helpers", "dask-sleep", str(marker)],
                            cwd=ROOT, env=dict(os.environ, TQDM_DISABLE="1"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert marker.exists(), "the task never started"
        children = psutil.Process(proc.pid).children(recursive=True)
        worker = int(marker.read_text())
        assert worker in {c.pid for c in children}                # the worker descends from the client
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        _, alive = psutil.wait_procs(children, timeout=10)
        assert not alive, f"processes of the cluster alive 10 s after the client died: {[p.pid for p in alive]}"
    finally:
        if proc.poll() is None:
            proc.kill()
