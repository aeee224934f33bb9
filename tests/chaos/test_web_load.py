"""Issue 45, "Figures to reach": the annotate app on 127.0.0.1 under load, then a kill -9 of
the server. ``annotate-serve`` runs as a real process (``python -m pipeline``); 10 annotators
(threads, each with its own page session: cookie and CSRF token) fetch a question and answer it
until 2,000 requests have been made (of the 2,020 the whole task takes); then the server is SIGKILLed while the
others are in flight. Then, in the database:

* every vote the server acknowledged (200) is there: 0 lost;
* no annotator answered one question twice (the table's UNIQUE constraint and the count): 0
  duplicated; the database passes ``PRAGMA integrity_check``;
* every question was served to at most ``--assignments`` annotators' answers.

The latency of the acknowledged requests is measured (p50, p99, max: printed and recorded as
test properties); the bound asserted (p99 under 5 s) only guards against a server that stalls,
as the machine is shared. A restarted server on the same database answers again (its lock
was released by the kernel with the killed process)."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.chaos
ROOT = Path(__file__).resolve().parents[2]
ANNOTATORS = 10
QUADRUPLES = 25                  # 100 questions: 10 annotators x 100 answers x 2 requests ~ 2,000
KILL_AT = 2000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(q: Path, db: Path, port: int) -> subprocess.Popen:
    """annotate-serve in its own process group, its log (a line per request) in a file beside the
    database (a pipe nobody reads would fill and stall the server)."""
    log = db.with_name(f"serve-{port}.log")
    with open(log, "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "pipeline", "annotate-serve", "--quadruples", str(q), "--db",
                                 str(db), "--assignments", str(ANNOTATORS), "--port", str(port)], cwd=ROOT,
                                env=dict(os.environ, TQDM_DISABLE="1"), stdout=f, stderr=subprocess.STDOUT,
                                start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"annotate-serve ended {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            con = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            con.request("GET", "/")
            if con.getresponse().status == 200:
                con.close()
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("annotate-serve never answered")


class Load:
    def __init__(self, port: int):
        self.port = port
        self.lock = threading.Lock()
        self.requests = 0
        self.latencies: list[float] = []
        self.acked: list[tuple[str, str]] = []        # (annotator, question) of every 200 to a vote
        self.refused: list[tuple[int, str]] = []      # other statuses (before the kill)
        self.killed = threading.Event()
        self.kill_now = threading.Event()

    def request(self, con, method, path, body=None, headers=None):
        with self.lock:
            self.requests += 1
            if self.requests >= KILL_AT:
                self.kill_now.set()
        hdrs = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body)
            hdrs["Content-Type"] = "application/json"
        t0 = time.perf_counter()
        con.request(method, path, body=data, headers=hdrs)
        res = con.getresponse()
        payload = res.read()
        with self.lock:
            self.latencies.append(time.perf_counter() - t0)
        return res.status, payload, res.headers

    def annotator(self, k: int, rows: dict) -> None:
        from tests.annotation.helpers import spans_for

        name = f"annotator-{k:02d}"
        con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            status, page, headers = self.request(con, "GET", "/")
            token = re.search(rb'<meta name="csrf-token" content="([^"]+)">', page).group(1).decode()
            hdrs = {"Cookie": headers["Set-Cookie"].split(";")[0], "X-CSRF-Token": token}
            while not self.killed.is_set():
                status, body, _ = self.request(con, "GET", f"/api/next?annotator={name}", headers=hdrs)
                state = json.loads(body)
                if status != 200 or state.get("done"):
                    if status != 200:
                        self.refused.append((status, body[:200].decode(errors="replace")))
                    return
                qid = state["question"]["id"]
                spans, none = spans_for(rows[qid], "A")
                status, body, _ = self.request(con, "POST", "/api/answer",
                                               {"annotator": name, "id": qid, "spans": [list(s) for s in spans],
                                                "none": none}, hdrs)
                if status == 200:
                    with self.lock:
                        self.acked.append((name, qid))
                elif not self.killed.is_set():
                    self.refused.append((status, body[:200].decode(errors="replace")))
        except (OSError, http.client.HTTPException, ValueError):
            if not self.killed.is_set():
                raise
        finally:
            con.close()


def test_ten_annotators_2000_requests_then_kill_9_lose_no_acknowledged_vote(tmp_path, record_property):
    from tests.annotation.helpers import make_quadruple, write_quadruples

    rows = [r for k in range(QUADRUPLES) for r in make_quadruple(str(k), "masculine" if k % 2 else "feminine")]
    write_quadruples(rows, tmp_path / "q.parquet")
    db, port = tmp_path / "a.sqlite", _free_port()
    proc = _serve(tmp_path / "q.parquet", db, port)
    load = Load(port)
    errors: list[BaseException] = []

    def run(k):
        try:
            load.annotator(k, {r["id"]: r for r in rows})
        except BaseException as exc:       # noqa: BLE001 -- reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,), daemon=True) for k in range(ANNOTATORS)]
    t0 = time.monotonic()
    try:
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads) and not load.kill_now.wait(0.05):
            pass
        load.killed.set()
        os.killpg(proc.pid, signal.SIGKILL)                       # kill -9 with requests in flight
        proc.wait(timeout=30)
        for t in threads:
            t.join(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    seconds = time.monotonic() - t0
    assert not errors, errors[:3]
    assert not load.refused, load.refused[:5]

    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = con.execute("SELECT annotator, instance_id FROM answers").fetchall()
        per_question = con.execute("SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM answers GROUP BY instance_id)"
                                   ).fetchone()[0]
    finally:
        con.close()
    lost = set(load.acked) - set(stored)
    duplicated = len(stored) - len(set(stored))
    lat = sorted(load.latencies)
    p50, p99 = lat[len(lat) // 2], lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    figures = (f"{load.requests} requests from {ANNOTATORS} annotators in {seconds:.1f} s, {len(load.acked)} votes "
               f"acknowledged, {len(stored)} stored after kill -9, lost {len(lost)}, duplicated {duplicated}; "
               f"latency p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms")
    print(figures)
    record_property("web_load", figures)
    assert load.requests >= KILL_AT and len(load.acked) >= 800, figures
    assert not lost and not duplicated, figures
    assert per_question <= ANNOTATORS
    assert p99 < 5.0, figures

    # the killed server's lock went with it: a new one serves the same database
    proc = _serve(tmp_path / "q.parquet", db, _free_port())
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)
