"""The chaos set's figures, printed at the end of any run that holds its tests (``make chaos``
runs ``tests/chaos`` alone, in one pytest run with PYTHONHASHSEED=0): every test is a probe,
counted by issue 45's category and by verdict; the table-driven cases
(``test_chaos.py::test_malformed_input``: :mod:`tests.chaos.malformed` and
:mod:`tests.chaos.probes`) by the verdict :func:`tests.chaos.malformed.run_case` gave (pass,
traceback, silent, multi-line, unnamed, changed, refused, hang, memory, wrong; xfail for a
known open bug), the other tests as passed / failed / xfail; the peak memory of this process
and of its children (``resource.getrusage``), against the 2 GB bound; and the tests by file."""

from __future__ import annotations

import os
import re
import resource
from collections import Counter, defaultdict

import pytest

_VERDICT = re.compile(r"AssertionError: (traceback|silent|multi-line|unnamed|changed|refused|hang|memory|wrong): ")
_malformed: Counter = Counter()
_files: dict[str, Counter] = defaultdict(Counter)
_categories: dict[str, Counter] = defaultdict(Counter)
_rss: list[int] = []
_figures: list[str] = []         # the web load test's line

# the category of the tests of each file (test_chaos.py's other tests: by name, below)
FILE_CATEGORY = {
    "test_seeded_kills.py": "seeded kill -9 (33 kills, 1 temporaries test)",
    "test_web_hardening.py": "web apps",
    "test_web_load.py": "web apps",
    "test_not_ours.py": "locks, --overwrite, --out (not ours)",
    "test_bounds.py": "unbounded inputs",
    "test_archive_batches.py": "hostile archives",
    "test_refusals.py": "field formats (GAP, CoNLL, cast, word lists, vectors)",
    "test_audit.py": "field formats (GAP, CoNLL, cast, word lists, vectors)",
    "test_resume_input.py": "resume and publish",
    "test_publish_record.py": "resume and publish",
    "test_errors_name_files.py": "read-only and full disks",
    "test_signals.py": "signals, kills, concurrent runs",
}
_CHAOS_NAMES = [(re.compile(r"host|body|token|annotators|votes|mturk"), "web apps"),
                (re.compile(r"progress|per_chunk"), "progress"),
                (re.compile(r"."), "signals, kills, concurrent runs")]


def _category(nodeid: str) -> str:
    path, _, test = nodeid.partition("::")
    name = path.rsplit("/", 1)[-1]
    if test.startswith("test_malformed_input["):
        case = test[len("test_malformed_input["):-1]
        return _case_categories().get(case, "malformed input")
    if name in FILE_CATEGORY:
        return FILE_CATEGORY[name]
    return next(cat for pattern, cat in _CHAOS_NAMES if pattern.search(test))


_CASE_CATEGORIES: dict = {}


_ZYGOTE: list = []


def _start_zygote():
    from tests.chaos.zygote import Zygote

    if not _ZYGOTE:
        _ZYGOTE.append(Zygote(env=dict(os.environ, TQDM_DISABLE="1", PYTHONHASHSEED="0")))
    return _ZYGOTE[0]


def pytest_collection_finish(session):
    """Start the zygote as soon as a collected test will need it: its imports (several seconds)
    then overlap the tests that run before."""
    if any("zygote" in getattr(item, "fixturenames", ()) for item in session.items):
        _start_zygote()


def pytest_sessionfinish(session):
    while _ZYGOTE:
        _ZYGOTE.pop().close()


@pytest.fixture(scope="session")
def zygote():
    """The warm interpreter that forks the seeded kills' and the signal tests' runs
    (:mod:`tests.chaos.zygote`), one for the session (started at collection)."""
    return _start_zygote()


def _case_categories() -> dict:
    if not _CASE_CATEGORIES:
        from tests.chaos.malformed import all_cases

        _CASE_CATEGORIES.update({c.name: c.category for c in all_cases()})
    return _CASE_CATEGORIES


def pytest_runtest_logreport(report):
    if "tests/chaos/" not in report.nodeid.replace("\\", "/"):
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        xfail = hasattr(report, "wasxfail")
        outcome = "xfail" if xfail else "passed" if report.passed else "skipped" if report.skipped else "failed"
        _files[report.nodeid.split("::", 1)[0]][outcome] += 1
        verdict = {"passed": "pass"}.get(outcome, outcome)
        if "::test_malformed_input[" in report.nodeid:
            found = _VERDICT.search(report.longreprtext or "") if report.failed else None
            verdict = found.group(1) if found else verdict
            _malformed[verdict] += 1
        _categories[_category(report.nodeid)][verdict] += 1
        _rss.extend(v for k, v in report.user_properties if k == "rss")
        _figures.extend(v for k, v in report.user_properties if k == "web_load")


def _mb(n: int) -> str:
    return f"{n / (1 << 20):,.0f} MB"


def pytest_terminal_summary(terminalreporter):
    if not _files:
        return
    write = terminalreporter.write_line
    terminalreporter.section("chaos set")
    every: Counter = Counter()
    for c in _categories.values():
        every.update(c)
    write(f"{sum(every.values())} probes in {len(_categories)} categories: "
          + ", ".join(f"{v} {n}" for v, n in sorted(every.items())))
    for cat in sorted(_categories):
        c = _categories[cat]
        write(f"  {cat}: {sum(c.values())} (" + ", ".join(f"{v} {n}" for v, n in sorted(c.items())) + ")")
    if _malformed:
        write(f"{sum(_malformed.values())} table-driven cases (malformed.py, probes.py): "
              + ", ".join(f"{v} {n}" for v, n in sorted(_malformed.items())))
    bad = Counter({k: every.get(k, 0) + 0 for k in ("traceback", "silent", "hang", "memory")})
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    over = sum(1 for r in _rss if r > 2 << 30) + (own > 2 << 30) + (children > 2 << 30)
    write(f"tracebacks {bad['traceback']}, silent acceptances {bad['silent']}, hangs {bad['hang']}, "
          f"memory over 2 GB {bad['memory'] + over}")
    write(f"peak RSS: this process {_mb(own)}, its largest child {_mb(children)}"
          + (f", the largest isolated probe {_mb(max(_rss))} ({len(_rss)} isolated)" if _rss else ""))
    for line in _figures:
        write(f"web load: {line}")
    total: Counter = Counter()
    for name in sorted(_files):
        total.update(_files[name])
        write(f"  {name}: " + ", ".join(f"{k} {n}" for k, n in sorted(_files[name].items())))
    write(f"{sum(total.values())} chaos tests in {len(_files)} files: "
          + ", ".join(f"{k} {n}" for k, n in sorted(total.items())))
