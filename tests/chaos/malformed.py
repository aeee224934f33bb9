"""The malformed-input probe set (a helper module, not a test module).

Each case builds its inputs in a directory and names what to run: a command line (through
:func:`pipeline.cli.main`) or, for a reader probed without the command around it, a callable
(an :class:`~pipeline.errors.InputError` it raises counts as the command's one-line error).
The expected outcome is one of:

* ``"error"``: a one-line ``error: ...`` on standard error, exit status 2, naming ``names``
  (a file of the case) when the case gives it, and the output directory (pre-filled with a
  previous run's files where the case says so) untouched;
* ``"ok"``: exit 0 (a file that the world really produces, read correctly), with ``says`` in
  the output and ``check`` (if any) finding nothing wrong;
* ``"skip"``: exit 0 and the skip's reason (``says``) in the output: the bad part is left out
  with the reason, the rest goes on.

:func:`classify` runs one case in-process through :func:`pipeline.cli.main` and says what
happened: ``pass``, ``traceback`` (an exception escaped), ``silent`` (exit 0 where an error
or a skip was due), ``multi-line`` (exit 2 but not one line), ``unnamed`` (the line does not
name the file), ``changed`` (the previous outputs were touched), ``refused`` (an error where
the input is good), ``hang`` (past the case's ``timeout``), ``memory`` (an ``isolated`` case,
run in a child process, whose peak RSS passed :data:`MEMORY_LIMIT`) or ``wrong`` (any other
mismatch). A case with ``xfail`` is a known open bug (a strict xfail in the test).
``python -m tests.chaos.malformed`` prints the figures; the new probes of issue 45's
categories are in :mod:`tests.chaos.probes` (:func:`all_cases` gives both).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

GAP_HEADER = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL\n"
GAP_ROW = ("{id}\tAnn met Cleo in town, and then she smiled at Bob and Tom.\tshe\t31\tAnn\t0\tTRUE\t"
           "Cleo\t8\tFALSE\t\n")

CONLL = """#begin document (tiny); part 000
tiny\t0\t0\tMary\tNNP\t*\t-\t-\t-\t-\t*\t(0)
tiny\t0\t1\twaved\tVBD\t*\t-\t-\t-\t-\t*\t-
tiny\t0\t2\tto\tIN\t*\t-\t-\t-\t-\t*\t-
tiny\t0\t3\this\tPRP$\t*\t-\t-\t-\t-\t*\t(1)
tiny\t0\t4\tfather\tNN\t*\t-\t-\t-\t-\t*\t-
tiny\t0\t5\t.\t.\t*\t-\t-\t-\t-\t*\t-

#end document
"""


def gap_dataset_rows() -> list[dict]:
    """A tiny evaluation dataset: one quadruple (original, control, swap-1, swap-2)."""
    rows = []
    for suffix, (a, b, p) in {"": ("Darcy", "Jane", "he"), "-control": ("Bingley", "Jane", "he"),
                              "-swap-1": ("Emma", "John", "she"),
                              "-swap-2": ("Harriet", "John", "she")}.items():
        text = f"{a} met {b} at noon, and {p} waved."
        rows.append({"ID": f"0{suffix}", "Text": text, "Pronoun": p,
                     "Pronoun-offset": text.rindex(f" {p} ") + 1, "A": a, "A-offset": 0,
                     "A-coref": True, "B": b, "B-offset": text.index(b), "B-coref": False, "URL": ""})
    return rows


@dataclass
class Inputs:
    """Inputs shared by the cases, made once (:func:`make_inputs`)."""
    root: Path
    instances: Path          # a valid instances.parquet (extract of the sample book)
    dataset: Path            # a tiny GAP TSV evaluation dataset
    quadruples: Path         # a tiny quadruples.parquet
    conll: Path              # a tiny CoNLL file


def make_inputs(root: Path, instances: Path) -> Inputs:
    from pipeline.formats.gap_tsv import write_gap_tsv
    from tests.annotation.helpers import make_quadruple, write_quadruples

    root.mkdir(parents=True, exist_ok=True)
    dataset = root / "dataset.tsv"
    write_gap_tsv(gap_dataset_rows(), dataset)
    quadruples = root / "quadruples.parquet"
    write_quadruples(make_quadruple("1") + make_quadruple("2", "feminine"), quadruples)
    conll = root / "tiny.conll"
    conll.write_text(CONLL, encoding="utf-8")
    return Inputs(root, instances, dataset, quadruples, conll)


MEMORY_LIMIT = 2 << 30          # bytes of peak RSS an isolated case may reach


@dataclass
class Case:
    name: str
    build: Callable[[Inputs, Path], list[str] | Callable]  # (inputs, case dir) -> argv, or a callable
    expect: str = "error"                          # "error", "ok" or "skip"
    says: str = ""                                 # text expected in the output (skip: the reason)
    out: str | None = None                         # output dir (relative to the case dir) pre-filled
    patch: Callable | None = None                  # a context manager factory simulating the world
    tags: tuple = field(default_factory=tuple)
    category: str = "malformed input"              # issue 45's category (the summary counts by it)
    names: str = ""                                # a file name the error line must hold
    check: Callable | None = None                  # (case dir, output text) -> what is wrong, or None
    timeout: float = 120                           # seconds before the case is a hang
    isolated: bool = False                         # run in a child process, its peak RSS measured
    xfail: str = ""                                # a known open bug: why (a strict xfail)


# ----------------------------------------------------------------------- builders ----------

def _w(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _instances_like(inputs: Inputs, d: Path, mutate) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(inputs.instances)
    table = mutate(table, pa)
    path = d / "instances.parquet"
    pq.write_table(table, path)
    return path


def _string_offsets(table, pa):
    idx = table.schema.get_field_index("pronoun_offset")
    col = pa.array([str(v) for v in table.column("pronoun_offset").to_pylist()], pa.string())
    return table.set_column(idx, "pronoun_offset", col)


def _generate(inputs, d, *more):
    return ["generate", "--instances", str(inputs.instances), "--out", str(d / "out"), *more]


def _wordlist(text):
    def build(inputs, d):
        return _generate(inputs, d, "--gendered-words", str(_w(d / "words.tsv", text)))
    return build


def _evaluate_system(make):
    def build(inputs, d):
        return ["evaluate", "--dataset", str(inputs.dataset), "--out", str(d / "out"),
                "--resamples", "10", "--system", f"s={make(d)}"]
    return build


def _deep_json(d):
    depth = 200_000
    return _w(d / "deep.jsonl", '{"doc_key": "0", "clusters": ' + "[" * depth + "]" * depth + "}\n")


def _huge_subtoken_map(d):
    obj = {"doc_key": "0", "sentences": [["[CLS]", "Dar", "##cy", "met", "[SEP]"]],
           "subtoken_map": [0, 0, 0, 10 ** 10, 10 ** 10], "predicted_clusters": [[[1, 2]]]}
    return _w(d / "subtok.jsonl", json.dumps(obj) + "\n")


def _system_tsv(d):
    return _w(d / "sys.tsv", "ID\tA-coref\tB-coref\n" + "".join(
        f"{r['ID']}\tTRUE\tFALSE\n" for r in gap_dataset_rows()))


def _zero_weights(inputs, d):
    from pipeline.formats.gap_tsv import read_gap_tsv

    rows, _ = read_gap_tsv(inputs.dataset)
    w = _w(d / "w.json", json.dumps({r["ID"]: 0 for r in rows}))
    system = _w(d / "sys.tsv", "ID\tA-coref\tB-coref\n" + "".join(
        f"{r['ID']}\tTRUE\tFALSE\n" for r in rows))
    return ["evaluate", "--dataset", str(inputs.dataset), "--out", str(d / "out"), "--resamples", "10",
            "--system", f"s={system}", "--weights", f"lp={w}"]


def _mturk_csv(inputs: Inputs, rows_per_worker: bool = True) -> str:
    """An MTurk results CSV answering every question of the tiny quadruples three times
    (one question a task), as text."""
    import csv
    import html

    from pipeline.annotation.core.questions import question_from_row
    from pipeline.formats.tables import read_table

    rows = read_table(inputs.quadruples).to_pylist()
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["HITId", "AssignmentId", "WorkerId", "AssignmentStatus", "Input.q1_id", "Input.q1_text",
                "Answer.q1_spans", "Answer.q1_none", "Answer.q1_contradiction"])
    k = 0
    for r in rows:
        q = question_from_row(r)
        start = r["a_offset"]
        span = [[start, start + len(r["a"]), r["a"]]]
        for worker in ("W1Zoë", "W2", "W3"):
            k += 1
            w.writerow([f"H{r['id']}", f"A{k}", worker, "Approved", html.escape(q.id), html.escape(q.text),
                        json.dumps(span), "false", ""])
    return buf.getvalue()


def _import(results_name: str, content):
    def build(inputs, d):
        data = content(inputs) if callable(content) else content
        path = _w(d / results_name, data)
        return ["annotate-import", "--results", str(path), "--quadruples", str(inputs.quadruples),
                "--out", str(d / "out")]
    return build


def _deep_spans_csv(inputs):
    import csv

    rows = list(csv.reader(io.StringIO(_mturk_csv(inputs))))
    rows[1][rows[0].index("Answer.q1_spans")] = "[" * 50_000 + "]" * 50_000
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return buf.getvalue()


def _null_offset_dataset(inputs, d):
    import pyarrow.parquet as pq

    table = pq.read_table(inputs.quadruples).to_pylist()
    table[0]["pronoun_offset"] = None
    from tests.annotation.helpers import write_quadruples

    write_quadruples(table, d / "q.parquet")
    return ["weights", "--dataset", str(d / "q.parquet"), "--out", str(d / "w.json")]


def _import_empty_db(inputs, d):
    from pipeline.formats.files import sha256_file
    from pipeline.annotation.formats.store import open_store

    db = d / "answers.sqlite"
    open_store(db, inputs.quadruples, sha256_file(inputs.quadruples), 3)
    return ["annotate-import", "--results", str(db), "--quadruples", str(inputs.quadruples),
            "--out", str(d / "out")]


@contextlib.contextmanager
def _no_serving():
    """Serving would block: return at once (a case that reaches it is accepted silently)."""
    import pipeline.web.serving as serving

    orig = serving.serve_until_stopped
    serving.serve_until_stopped = lambda server: None
    try:
        yield
    finally:
        serving.serve_until_stopped = orig


def _failing_writes(err: int):
    """Every rename of a finished output fails with ``err`` (a read-only file system: EROFS;
    a full disk: ENOSPC) -- what root cannot provoke with chmod."""
    @contextlib.contextmanager
    def patch():
        real = os.replace

        def replace(src, dst, *a, **k):
            raise OSError(err, os.strerror(err), str(dst))
        os.replace = replace
        try:
            yield
        finally:
            os.replace = real
    return patch


CASES: list[Case] = [
    # --- 5. one-line errors
    Case("evaluate --system s=DIR", _evaluate_system(lambda d: (d / "sysdir").mkdir() or d / "sysdir")),
    Case("cda --conll DIR", lambda i, d: ["cda", "--conll", str((d / "c").mkdir() or d / "c"), "--mode",
                                          "acda", "--out", str(d / "out.conll"), "--no-progress"]),
    Case("JSON lines nested 200,000 deep", _evaluate_system(_deep_json)),
    Case("subtoken_map entry 10^10", _evaluate_system(_huge_subtoken_map)),
    Case("GAP text longer than spaCy's max_length", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "long.tsv", GAP_HEADER + GAP_ROW.format(id="1").replace(
            "and Tom.", "and Tom." + " x" * 600_000))), "--out", str(d / "out")]),
    Case("string offsets in an instances Parquet", lambda i, d: [
        "generate", "--instances", str(_instances_like(i, d, _string_offsets)), "--out", str(d / "out")]),
    Case("annotate-import: results CSV of random bytes", _import("results.csv", bytes(range(256)) * 40)),
    Case("annotate-serve --port -1", lambda i, d: ["annotate-serve", "--quadruples", str(i.quadruples),
                                                   "--db", str(d / "db.sqlite"), "--port", "-1"],
         patch=_no_serving),
    Case("annotate-serve --port 99999", lambda i, d: ["annotate-serve", "--quadruples", str(i.quadruples),
                                                      "--db", str(d / "db.sqlite"), "--port", "99999"],
         patch=_no_serving),
    Case("generate into a read-only file system", _generate, out="out", patch=_failing_writes(errno.EROFS)),
    Case("generate onto a full disk", _generate, out="out", patch=_failing_writes(errno.ENOSPC)),
    Case("annotate-import onto a full disk", _import("results.csv", _mturk_csv), out="out",
         patch=_failing_writes(errno.ENOSPC)),
    Case("evaluate onto a read-only file system", _evaluate_system(_system_tsv), out="out",
         patch=_failing_writes(errno.EROFS)),
    Case("annotate-import: answer spans nested 50,000 deep", _import("results.csv", _deep_spans_csv)),
    Case("weights: a dataset row without its pronoun offset", _null_offset_dataset),
    # encodings that the world has: read, and say which
    Case("annotate-import: results CSV in cp1252 (Excel)",
         _import("results.csv", lambda i: _mturk_csv(i).encode("cp1252")), expect="ok", says="cp1252"),
    Case("annotate-import: results CSV in UTF-16 with BOM",
         _import("results.csv", lambda i: _mturk_csv(i).encode("utf-16")), expect="ok", says="UTF-16"),
    # --- 6. refuse what cannot be right
    Case("generate --gap-tsv with duplicate IDs", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "dup.tsv", GAP_HEADER + GAP_ROW.format(id="1")
                                        + GAP_ROW.format(id="1"))), "--out", str(d / "out")]),
    Case("generate --gap-tsv header only", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "empty.tsv", GAP_HEADER)), "--out", str(d / "out")]),
    Case("generate --instances with zero rows", lambda i, d: [
        "generate", "--instances", str(_instances_like(i, d, lambda t, pa: t.slice(0, 0))),
        "--out", str(d / "out")]),
    Case("label on an empty CoNLL file", lambda i, d: [
        "label", "--instances", str(i.instances), "--coref", str(_w(d / "empty.conll", "")),
        "--out", str(d / "out")]),
    Case("cda: a NUL byte inside a token", lambda i, d: [
        "cda", "--conll", str(_w(d / "nul.conll", CONLL.replace("waved", "wa\x00ved"))), "--mode", "acda",
        "--out", str(d / "out.conll"), "--no-progress"]),
    Case("word list: empty", _wordlist("")),
    Case("word list: comments only", _wordlist("# nothing here\n")),
    Case("word list: a word mapped to itself", _wordlist("actor\tactor\n")),
    Case("word list: unknown direction", _wordlist("# direction: sideways\nactor\tactress\n")),
    Case("word list: unknown category", _wordlist("masculine\tfeminine\tcategory\nactor\tactress\tocupation\n")),
    Case("word list: a NUL byte", _wordlist("act\x00or\tactress\n")),
    Case("evaluate --weights all zero", _zero_weights),
    # --- issue 45, item 5: the field's formats
    Case("GAP TSV offset written 1_23", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "g.tsv", GAP_HEADER + GAP_ROW.format(id="1").replace("\t31\t", "\t3_1\t"))),
        "--out", str(d / "out")]),
    Case("GAP TSV offset in Arabic-Indic digits", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "g.tsv", GAP_HEADER + GAP_ROW.format(id="1").replace(
            "\t31\t", "\t\u0663\u0661\t"))), "--out", str(d / "out")]),
    Case("GAP TSV Pronoun-offset inside a word", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "g.tsv", GAP_HEADER + "1\tCatherine met Ann, and her sister smiled.\ther\t"
                                        "3\tCatherine\t0\tTRUE\tAnn\t14\tFALSE\t\n")), "--out", str(d / "out")]),
    Case("GAP TSV gold with A and B both coreferent", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "g.tsv", GAP_HEADER + GAP_ROW.format(id="1").replace(
            "TRUE\tCleo\t8\tFALSE", "TRUE\tCleo\t8\tTRUE"))), "--out", str(d / "out")]),
    Case("GAP TSV with a NUL byte in a field", lambda i, d: [
        "generate", "--gap-tsv", str(_w(d / "g.tsv", GAP_HEADER + GAP_ROW.format(id="1").replace("\t\n", "\tu\x00rl\n"))),
        "--out", str(d / "out")]),
    Case("cda: every CoNLL document given twice", lambda i, d: [
        "cda", "--conll", str(_w(d / "dup.conll", CONLL + CONLL)), "--mode", "acda",
        "--out", str(d / "out.conll"), "--no-progress"]),
    Case("cda --cast: Thomas and thomas of opposite genders", lambda i, d: [
        "cda", "--conll", str(i.conll), "--mode", "acda", "--out", str(d / "out.conll"), "--no-progress",
        "--cast", str(_w(d / "cast.tsv", "tiny\tThomas\tmasculine\ntiny\tthomas\tfeminine\n"))]),
    Case("cda --cast: a book entry against a '*' entry", lambda i, d: [
        "cda", "--conll", str(i.conll), "--mode", "acda", "--out", str(d / "out.conll"), "--no-progress",
        "--cast", str(_w(d / "cast.tsv", "*\tMary\tmasculine\ntiny\tMary\tfeminine\n"))]),
    Case("annotate-import with zero answers (CSV)", _import(
        "results.csv", "HITId,AssignmentId,WorkerId,Input.q1_id,Answer.q1_spans,Answer.q1_none,"
                       "Answer.q1_contradiction\n")),
    Case("annotate-import with zero answers (SQLite)", _import_empty_db),
]


# ----------------------------------------------------------------------- running -----------

@dataclass
class Outcome:
    case: str
    verdict: str          # pass | traceback | silent | multi-line | unnamed | changed | refused | hang | memory | wrong
    code: int | None
    detail: str
    rss: int = 0          # peak RSS of the child (bytes) of an isolated case


class _Hang(BaseException):
    """Raised by the alarm of a case that ran past its timeout."""


@contextlib.contextmanager
def _hang_guard(seconds: float):
    """SIGALRM after ``seconds`` (main thread only; elsewhere no guard)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum, frame):
        raise _Hang()
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _snapshot(d: Path) -> dict:
    if not d.exists():
        return {}
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def run_case(case: Case, inputs: Inputs, d: Path) -> Outcome:
    if case.isolated and not _CHILD:
        return _run_isolated(case, inputs, d)
    from pipeline.cli import main
    from pipeline.errors import InputError

    d.mkdir(parents=True, exist_ok=True)
    before = None
    if case.out:
        out = d / case.out
        out.mkdir(parents=True, exist_ok=True)
        (out / "quadruples.parquet").write_bytes(b"previous run")
        (out / "summary.json").write_text('{"previous": true}')
        before = _snapshot(out)
    err, stdout = io.StringIO(), io.StringIO()
    code, tb = None, ""
    patch = case.patch() if case.patch else contextlib.nullcontext()
    try:
        with _hang_guard(case.timeout):
            argv = case.build(inputs, d)
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(stdout), patch:
                if callable(argv):
                    try:
                        stdout.write(f"{argv()}\n")
                        code = 0
                    except InputError as exc:
                        err.write(f"error: {exc}\n")
                        code = 2
                else:
                    code = main(argv)
    except _Hang:
        return Outcome(case.name, "hang", None, f"no answer in {case.timeout:g} s")
    except SystemExit as exc:            # a usage error (click), --help
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:                # noqa: BLE001 -- what the probe counts
        tb = traceback.format_exc(limit=-3)
    lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("error:")]
    text = err.getvalue() + stdout.getvalue()
    if tb:
        return Outcome(case.name, "traceback", None, " | ".join(tb.strip().splitlines()[-4:]))
    if case.expect in ("ok", "skip"):
        if code != 0:
            return Outcome(case.name, "refused", code, (lines or [text.strip()[-200:]])[0])
        if case.says not in text:
            return Outcome(case.name, "silent" if case.expect == "skip" else "wrong", code,
                           f"{case.says!r} not in the output: {text.strip()[-300:]}")
        problem = case.check(d, text) if case.check else None
        if problem:
            return Outcome(case.name, "wrong", code, problem)
        return Outcome(case.name, "pass", code, (lines or [case.says])[0][:200])
    if code == 0:
        return Outcome(case.name, "silent", code, "exit 0: " + text.strip()[-200:])
    if code != 2 or len(lines) != 1 or "Traceback" in err.getvalue():
        return Outcome(case.name, "multi-line" if code == 2 else "wrong", code, err.getvalue()[-300:])
    if case.names and case.names not in lines[0]:
        return Outcome(case.name, "unnamed", code, f"{case.names!r} not named: {lines[0][:300]}")
    if case.says and case.says not in lines[0]:
        return Outcome(case.name, "wrong", code, f"{case.says!r} not said: {lines[0][:300]}")
    if before is not None and _snapshot(d / case.out) != before:
        return Outcome(case.name, "changed", code, "previous outputs changed")
    return Outcome(case.name, "pass", code, lines[0][:200])


_CHILD = False           # True in the child process of an isolated case


def _run_isolated(case: Case, inputs: Inputs, d: Path) -> Outcome:
    """The case in a child process (``python -m tests.chaos.malformed --child``), its outcome and
    its peak RSS (the child's ``VmHWM``; if it died without saying, ``ru_maxrss`` from
    ``os.wait4``, which also counts the pages it shared with this process before its exec);
    past :data:`MEMORY_LIMIT`: ``memory``; past the timeout: ``hang`` (the child is killed)."""
    import subprocess
    import time

    d.mkdir(parents=True, exist_ok=True)
    spec = json.dumps({"case": case.name, "dir": str(d),
                       "inputs": {k: str(v) for k, v in vars(inputs).items()}})
    root = Path(__file__).resolve().parents[2]
    log = d / "child.out"
    with open(log, "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "tests.chaos.malformed", "--child", spec], cwd=root,
                                env=dict(os.environ, TQDM_DISABLE="1"), stdout=f, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + case.timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            proc.returncode = -9
            return Outcome(case.name, "hang", None, f"no answer in {case.timeout:g} s (child killed)")
        time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    rss = usage.ru_maxrss * 1024      # counts the parent's pages too (vfork before exec): a bound only
    text = log.read_text(errors="replace")
    last = [ln for ln in text.splitlines() if ln.startswith("{\"verdict\"")]
    if not last:
        return Outcome(case.name, "memory" if rss > MEMORY_LIMIT else "wrong", proc.returncode,
                       f"child ended {proc.returncode} without an outcome: {text[-300:]}", rss)
    got = json.loads(last[-1])
    rss = got["hwm"] or rss
    if rss > MEMORY_LIMIT:
        return Outcome(case.name, "memory", got["code"], f"peak RSS {rss:,} bytes", rss)
    return Outcome(case.name, got["verdict"], got["code"], got["detail"], rss)


def _child(spec: str) -> int:
    global _CHILD
    _CHILD = True
    args = json.loads(spec)
    inputs = Inputs(**{k: Path(v) for k, v in args["inputs"].items()})
    [case] = [c for c in all_cases() if c.name == args["case"]]
    outcome = run_case(case, inputs, Path(args["dir"]))
    print(json.dumps({"verdict": outcome.verdict, "code": outcome.code, "detail": outcome.detail,
                      "hwm": _peak_rss()}), flush=True)
    return 0


def _peak_rss() -> int:
    """This process's peak RSS in bytes (``VmHWM``: of its own address space, since the exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def all_cases() -> list[Case]:
    """This module's cases and the probes of :mod:`tests.chaos.probes`."""
    from tests.chaos.probes import PROBES

    return CASES + PROBES


def sample_instances(root: Path) -> Path:
    """instances.parquet of the shipped sample book (extract, this process)."""
    from pipeline.cli import main
    from pipeline.formats.resources import resource

    out = root / "sample-extract"
    if not (out / "instances.parquet").exists():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(["extract", "--corpus", str(resource("sample")), "--out", str(out)])
        assert code == 0, "extract of the sample failed"
    return out / "instances.parquet"


def main(argv: list[str] | None = None) -> int:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="chaos-") as tmp:
        root = Path(tmp)
        inputs = make_inputs(root / "inputs", sample_instances(root))
        wanted = [c for c in all_cases() if not argv or any(a in c.name for a in argv)]
        outcomes = [run_case(c, inputs, root / f"case{k}") for k, c in enumerate(wanted)]
    counts: dict[str, int] = {}
    for c, o in zip(wanted, outcomes):
        verdict = ("xpass" if o.verdict == "pass" else "xfail") if c.xfail else o.verdict   # known open bugs
        counts[verdict] = counts.get(verdict, 0) + 1
        print(f"{verdict:<10} {o.case}: {o.detail}")
    print(f"\n{len(outcomes)} malformed-input cases: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())))
    return 0 if counts.get("pass", 0) + counts.get("xfail", 0) == len(outcomes) else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.exit(_child(sys.argv[2]))
    sys.exit(main(sys.argv[1:]))
