"""The robustness probes, as tests (marker ``chaos``; ``make chaos`` runs them alone):
malformed inputs (:mod:`tests.chaos.malformed`), kill -9 in the middle of a publish, two runs
into one output directory, staging directories of live and dead runs, the parent of a worker
pool killed, progress inside a book, and the web apps under a foreign Host header, a 30 MB
body, a missing CSRF token and six annotators arriving together. Each failed on the code
before the issue. Subprocesses carry timeouts that only guard against a hang."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.formats.gap_tsv import read_gap_tsv
from tests.chaos import malformed

pytestmark = pytest.mark.chaos
ROOT = Path(__file__).resolve().parents[2]


def helper(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.chaos.helpers", *args], cwd=ROOT,
                            env=dict(os.environ, TQDM_DISABLE="1"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def wait_line(proc: subprocess.Popen, expected: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    line = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline().strip()
        if line == expected:
            return
        if proc.poll() is not None:
            break
    raise AssertionError(f"helper never said {expected!r}: {line!r} {proc.stderr.read()[-2000:]}")


# ------------------------------------------------------------------ malformed inputs ------

@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("chaos")
    return malformed.make_inputs(root / "inputs", malformed.sample_instances(root))


def _param(case):
    marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
    return pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in malformed.all_cases()])
def test_malformed_input(case, inputs, tmp_path, record_property):
    """One line and exit 2 naming the file (previous outputs untouched), a skip with the reason,
    or read correctly: never a traceback, a silent acceptance, a hang or 2 GB of memory (the
    cases of malformed.py and probes.py; the conftest counts the verdicts by category)."""
    outcome = malformed.run_case(case, inputs, tmp_path)
    if outcome.rss:
        record_property("rss", outcome.rss)
    assert outcome.verdict == "pass", f"{outcome.verdict}: {outcome.detail}"


def test_mturk_filler_never_substitutes_inside_data():
    from pipeline.annotation.web.mturk import batch_rows, fill_template, render_template
    from tests.annotation.helpers import make_quadruple
    from pipeline.annotation.core.questions import question_from_row

    rows = make_quadruple("1")
    rows[0]["text"] = rows[0]["text"].replace("left.", "left. ${q2_text}")
    qs = [question_from_row(r) for r in rows[:2]]
    header, batch = batch_rows([qs], 2)
    page = fill_template(render_template(2), batch[0])
    assert page.count(batch[0]["q2_text"]) == 1            # question 2's passage once: its own place
    assert fill_template("<p>${q1_text}</p><p>${q2_text}</p>", {"q1_text": "a ${q2_text}", "q2_text": "B"}) \
        == "<p>a ${q2_text}</p><p>B</p>"


# ------------------------------------------------------------------ kill -9, two writers --

def test_kill_9_between_the_renames_of_a_publish(inputs, tmp_path, capsys):
    """generate killed with SIGKILL after the first file of its set was renamed into place:
    readers refuse the half-published directory (one line), and the next run completes it."""
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(inputs.instances), "--out", str(out),
                 "--no-title-period"]) == 0
    before = pq.read_metadata(out / "quadruples.parquet").num_rows
    proc = helper("generate-and-die", "--instances", str(inputs.instances), "--out", str(out))
    proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL
    assert (out / ".publishing.json").exists()
    capsys.readouterr()
    assert main(["annotate-export", "--quadruples", str(out / "quadruples.parquet"),
                 "--out", str(tmp_path / "export")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "interrupted while publishing" in err
    # the next writer rolls the dead run's publish forward: a whole set again
    assert main(["generate", "--instances", str(inputs.instances), "--out", str(out)]) == 0
    assert not (out / ".publishing.json").exists() and not list(out.glob(".staging-*"))
    rows = pq.read_metadata(out / "quadruples.parquet").num_rows
    tsv, _ = read_gap_tsv(out / "quadruples.tsv")
    assert rows == len(tsv) == before


def test_a_second_run_into_the_same_directory_is_refused(inputs, tmp_path, capsys):
    out = tmp_path / "out"
    proc = helper("stage-and-sleep", str(out), "30")          # a live run in the middle of its publish
    try:
        wait_line(proc, "staging")
        assert main(["generate", "--instances", str(inputs.instances), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"pid {proc.pid}" in err and "another run" in err
        assert not (out / "quadruples.parquet").exists()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    # the holder is dead: its lock went with it
    assert main(["generate", "--instances", str(inputs.instances), "--out", str(out)]) == 0


def test_two_concurrent_runs_leave_one_whole_set(inputs, tmp_path):
    """Two generate processes into one OUT at once (one with --no-title-period, so the sets
    differ): each exits 0 or is refused with one line; the files on disk are one run's set."""
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "pipeline", "generate", "--instances", str(inputs.instances), "--out", str(out)]
    env = dict(os.environ, TQDM_DISABLE="1")
    procs = [subprocess.Popen(cmd + extra, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for extra in ([], ["--no-title-period"])]
    results = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    for _, err, code in results:
        assert code in (0, 2), err
        if code == 2:
            assert "another run" in err and err.count("\n") == 1
    assert any(code == 0 for *_, code in results)
    rows = pq.read_metadata(out / "quadruples.parquet").num_rows
    assert rows == len(read_gap_tsv(out / "quadruples.tsv")[0])
    if (out / "quadruples-nodot.parquet").exists():
        assert pq.read_metadata(out / "quadruples-nodot.parquet").num_rows == rows
    assert not list(out.glob(".staging-*")) and not (out / ".publishing.json").exists()


def test_staging_of_a_live_run_is_kept_and_of_a_dead_run_removed(tmp_path):
    from pipeline.formats.files import STAGING_PREFIX, remove_stale_stages

    out = tmp_path / "out"
    proc = helper("stage-and-sleep", str(out), "30")
    try:
        wait_line(proc, "staging")
        [stage] = out.glob(STAGING_PREFIX + "*")
        remove_stale_stages(out)              # what another run's clean-up does
        assert stage.exists() and (stage / "late.txt").exists()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert stage.exists()                     # SIGKILL: no clean-up of its own
    remove_stale_stages(out)
    assert not stage.exists()


# ------------------------------------------------------------------ workers ---------------

def test_a_worker_killed_twice_costs_its_book_only_and_names_the_signal():
    """Task 3 SIGKILLs its worker every time: retried once alone, then lost with the signal
    (extract records it as failed, exits 1 and retries it on a rerun:
    tests/stages/test_extract_safety.py::test_worker_killed_with_sigkill)."""
    res = subprocess.run([sys.executable, "-m", "tests.stages.engine_helpers", "pool", "3", "2"], cwd=ROOT,
                         env=dict(os.environ, TQDM_DISABLE="1"), capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    got = json.loads(res.stdout)
    assert got["results"] == {"0": 0, "1": 1, "2": 4, "4": 16, "5": 25}
    assert "died twice" in got["lost"]["3"] and "SIGKILL" in got["lost"]["3"]


def pool_workers(psutil, proc) -> list:
    """The two busy worker processes of a ``pool-sleep`` helper."""
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    workers = []
    while time.monotonic() < deadline and len(workers) < 2:
        workers = [c for c in parent.children(recursive=True)
                   if "resource_tracker" not in " ".join(c.cmdline())]
        time.sleep(0.2)
    assert len(workers) >= 2, "the pool never started"
    time.sleep(1.0)                           # the workers are busy with their books
    return workers


def test_killing_the_parent_leaves_no_worker(tmp_path):
    psutil = pytest.importorskip("psutil")
    proc = helper("pool-sleep")
    try:
        workers = pool_workers(psutil, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        gone, alive = psutil.wait_procs(workers, timeout=10)
        assert not alive, f"orphaned workers after 10 s: {[p.pid for p in alive]}"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_sigterm_stops_the_pool_cleanly(tmp_path):
    psutil = pytest.importorskip("psutil")
    proc = helper("pool-sleep")
    workers = pool_workers(psutil, proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err or "KeyboardInterrupt" in err
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive


def test_progress_advances_inside_a_book():
    """Two books of three "chunks" each in a pool: the words bar moves while they run, long
    before the first book ends, and ends at the books' word counts."""
    proc = helper("progress")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err[-2000:]
    events = [json.loads(line) for line in out.splitlines()]
    end = next(e["t"] for e in events if e.get("end"))
    updates = [e for e in events if "n" in e]
    first_book_done = end - 0.1
    during = [e for e in updates if e["t"] < first_book_done - 1.0]
    assert sum(e["n"] for e in during) >= 200, events
    assert sum(e["n"] for e in updates) == 600


def test_extract_reports_words_per_chunk(monkeypatch, tmp_path):
    from pipeline import engines
    from pipeline.runs import extract

    book = tmp_path / "c" / "long.txt"
    book.parent.mkdir()
    book.write_text("Tom saw the cat. " * 2000, encoding="utf-8")      # 34,000 chars: 4 chunks
    seen = []
    monkeypatch.setattr(engines, "_progress", lambda key, words: seen.append(words))
    from pipeline.formats.books import read_book

    result = extract.process_book(read_book(book, book.parent))
    assert len(seen) >= 4 and sum(seen) == result.book["n_words"] == 8000


# ------------------------------------------------------------------ web apps --------------

@pytest.fixture
def served(tmp_path):
    from pipeline.annotation.web.app import create_app
    from pipeline.web.serving import make_server
    from tests.annotation.helpers import make_quadruple, write_quadruples

    rows = [r for k in range(4) for r in make_quadruple(str(k), "masculine" if k % 2 else "feminine")]
    write_quadruples(rows, tmp_path / "q.parquet")
    app = create_app(tmp_path / "q.parquet", tmp_path / "a.sqlite", assignments=3)
    server = make_server(app, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.port, {r["id"]: r for r in rows}
    server.shutdown()
    server.server_close()


def request(port, method, path, body=None, headers=None, host=None):
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    hdrs = dict(headers or {})
    if host is not None:
        con.putrequest(method, path, skip_host=True)
        con.putheader("Host", host)
        data = json.dumps(body).encode() if body is not None else b""
        if body is not None:
            con.putheader("Content-Type", "application/json")
        con.putheader("Content-Length", str(len(data)))
        for k, v in hdrs.items():
            con.putheader(k, v)
        con.endheaders(data)
    else:
        if body is not None:
            hdrs["Content-Type"] = "application/json"
        con.request(method, path, body=json.dumps(body) if body is not None else None, headers=hdrs)
    res = con.getresponse()
    data = res.read()
    con.close()
    return res.status, data, res.headers


def session(port):
    """What a browser has after opening the page: the cookie and the page's token."""
    status, page, headers = request(port, "GET", "/")
    assert status == 200
    m = re.search(rb'<meta name="csrf-token" content="([^"]+)">', page)
    if m is None or not headers.get("Set-Cookie"):
        return {}
    return {"Cookie": headers["Set-Cookie"].split(";")[0], "X-CSRF-Token": m.group(1).decode()}


def test_foreign_host_header_is_refused(served):
    port, _ = served
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1", f"127.0.0.1.evil.example:{port}"):
        status, body, _ = request(port, "GET", "/api/next?annotator=x", host=host)
        assert status == 403, host
    assert request(port, "GET", "/", host=f"localhost:{port}")[0] == 200
    assert request(port, "GET", "/")[0] == 200


def test_a_30_mb_body_is_refused_before_it_is_read(served):
    port, _ = served
    import socket

    size = 30 * 1024 * 1024
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall((f"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode()
                     + b"{" + b" " * 65536)
        reply = sock.recv(4096).decode(errors="replace")
    assert reply.startswith("HTTP/1.1 413"), reply[:200]


def test_posts_need_the_page_token(served):
    port, rows = served
    hdrs = session(port)
    assert hdrs, "the page carries no CSRF token"
    answer = {"annotator": "ann", "id": next(iter(rows)), "spans": [], "none": True}
    assert request(port, "POST", "/api/answer", answer, {"Cookie": hdrs["Cookie"]})[0] == 403
    assert request(port, "POST", "/api/answer", answer, {**hdrs, "X-CSRF-Token": "forged"})[0] == 403
    assert request(port, "POST", "/api/answer", answer, hdrs)[0] == 200


def test_six_annotators_at_once_are_never_refused(served):
    from tests.annotation.helpers import spans_for

    port, rows = served
    statuses, barrier = [], threading.Barrier(6)

    def annotator(k):
        hdrs = session(port)
        name = f"annotator-{k}"
        barrier.wait()
        for _ in range(3):
            status, body, _ = request(port, "GET", f"/api/next?annotator={name}", headers=hdrs)
            state = json.loads(body)
            if state.get("done"):
                return
            row = rows[state["question"]["id"]]
            spans, none = spans_for(row, "A")
            status, _, _ = request(port, "POST", "/api/answer",
                                   {"annotator": name, "id": row["id"],
                                    "spans": [list(s) for s in spans], "none": none}, hdrs)
            statuses.append(status)

    threads = [threading.Thread(target=annotator, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(statuses) == 18 and set(statuses) == {200}, statuses


def test_published_votes_hold_pseudonyms_only(tmp_path, capsys):
    from tests.annotation.helpers import make_quadruple, write_quadruples

    rows = make_quadruple("1") + make_quadruple("2", "feminine")
    write_quadruples(rows, tmp_path / "q.parquet")
    inputs = malformed.Inputs(tmp_path, tmp_path, tmp_path, tmp_path / "q.parquet", tmp_path)
    (tmp_path / "results.csv").write_text(malformed._mturk_csv(inputs), encoding="utf-8")
    out, key = tmp_path / "final", tmp_path / "private" / "ids.csv"
    args = ["annotate-import", "--results", str(tmp_path / "results.csv"), "--quadruples",
            str(tmp_path / "q.parquet"), "--out", str(out)]
    assert main(args + ["--annotator-ids", str(key)]) == 0
    published = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
    for raw in ("W1Zoë", "W2", "W3"):
        assert raw.encode() not in published
    assert b"a-" in (out / "votes.parquet").read_bytes() or b"a-" in (out / "summary.json").read_bytes()
    mapping = key.read_text(encoding="utf-8").splitlines()
    assert mapping[0] == "pseudonym,annotator" and len(mapping) == 4
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    before = (out / "votes.parquet").read_bytes()
    assert main(args) == 0                                           # same salt: same pseudonyms
    assert (out / "votes.parquet").read_bytes() == before
    assert main(args + ["--annotator-ids", str(out / "ids.csv")]) == 2  # never inside --out
