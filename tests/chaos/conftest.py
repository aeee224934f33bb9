"""The chaos set's figures, printed at the end of any run that holds its tests (``make chaos``
runs ``tests/chaos`` alone, in one pytest run with PYTHONHASHSEED=0): the malformed-input
cases by verdict (as ``python -m tests.chaos.malformed`` prints them: pass, traceback, silent,
multi-line, changed, wrong) and the chaos tests by file and outcome."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

_VERDICT = re.compile(r"AssertionError: (traceback|silent|multi-line|changed|wrong): ")
_malformed: Counter = Counter()
_files: dict[str, Counter] = defaultdict(Counter)


def pytest_runtest_logreport(report):
    if "tests/chaos/" not in report.nodeid.replace("\\", "/"):
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        outcome = "passed" if report.passed else "skipped" if report.skipped else "failed"
        _files[report.nodeid.split("::", 1)[0]][outcome] += 1
        if "::test_malformed_input[" in report.nodeid:
            found = _VERDICT.search(report.longreprtext or "") if report.failed else None
            _malformed["pass" if report.passed else found.group(1) if found else outcome] += 1


def pytest_terminal_summary(terminalreporter):
    if not _files:
        return
    write = terminalreporter.write_line
    terminalreporter.section("chaos set")
    if _malformed:
        write(f"{sum(_malformed.values())} malformed-input cases: "
              + ", ".join(f"{v} {n}" for v, n in sorted(_malformed.items())))
    total: Counter = Counter()
    for name in sorted(_files):
        total.update(_files[name])
        write(f"  {name}: " + ", ".join(f"{k} {n}" for k, n in sorted(_files[name].items())))
    write(f"{sum(total.values())} chaos tests in {len(_files)} files: "
          + ", ".join(f"{k} {n}" for k, n in sorted(total.items())))
