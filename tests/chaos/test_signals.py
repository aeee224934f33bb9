"""Issue 45's probes of signals and concurrent runs, as real processes: SIGTERM or SIGINT (Ctrl-C)
in the middle of extract, generate, cda and annotate-import, then a rerun (each run a fork of
the warm interpreter of :mod:`tests.chaos.zygote`, in its own process group);
and two runs of extract, of cda into one output file and of annotate-import into one folder,
started together.

After a signal: the process ends (no hang) without a traceback (SIGINT: exit 130 and one
line, or death by SIGINT after that line; SIGTERM: the default action, or the command's own
clean exit), and the rerun exits 0
with ``run.json`` listing exactly the files present (the seeded kills' check) and no staging
directory, journal or temporary file left. Two runs together: each exits 0 or is refused
with one line naming the other run, at least one succeeds, and what is on disk is one run's
whole set. Subprocesses carry timeouts that only guard against a hang."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.chaos import malformed

pytestmark = pytest.mark.chaos
ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, TQDM_DISABLE="1", PYTHONHASHSEED="0")


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    from pipeline.formats.resources import resource
    from tests.chaos.test_resume_input import BOOK

    root = tmp_path_factory.mktemp("signals")
    corpus = root / "corpus"
    corpus.mkdir()
    shutil.copy(resource("sample") / "the-orchard-at-hollins-end.txt", corpus / "orchard.txt")
    (corpus / "other.txt").write_text(BOOK, encoding="utf-8")
    inputs = malformed.make_inputs(root / "in", malformed.sample_instances(root / "in"))
    results = root / "results.csv"
    results.write_text(malformed._mturk_csv(inputs), encoding="utf-8")
    return root, corpus, inputs, results


def _argv(name: str, work, out: Path) -> list[str]:
    root, corpus, inputs, results = work
    return {
        "extract": ["extract", "--corpus", str(corpus), "--out", str(out)],
        "extract-w2": ["extract", "--corpus", str(corpus), "--out", str(out), "--workers", "2"],
        "generate": ["generate", "--instances", str(inputs.instances), "--out", str(out)],
        "cda": ["cda", "--conll", str(inputs.conll), "--mode", "acda", "--out", str(out / "out.conll"), "--no-progress"],
        "annotate-import": ["annotate-import", "--results", str(results), "--quadruples", str(inputs.quadruples),
                            "--out", str(out)],
    }[name]


def _leftovers(folder: Path) -> list[str]:
    """Staging directories, journals and temporaries left in ``folder``, but a staging directory
    without its ``.owner`` file: a signal between its creation and its owner file leaves one for
    a day (the strict xfail below; the moment is a few instructions wide, a test of signals at
    fixed delays lands there now and then)."""
    from pipeline.formats.files import OWNER

    return sorted(p.name for p in folder.rglob("*")
                  if p.name.startswith((".publishing", ".tmp-"))
                  or (p.name.startswith(".staging-") and (p / OWNER).exists()))


def _record_matches(out: Path, name: str) -> None:
    from tests.chaos.test_seeded_kills import Clean, _check_record

    target = out / "out.conll" if name == "cda" else out
    _check_record(Clean([], target, target, 0.0))


# (command, signal, moment as a share of the command's clean run): the moments fall inside each
# command's work; a run already over is a valid case too (extract --workers 2 under SIGTERM:
# test_chaos.py::test_sigterm_stops_the_pool_cleanly; its kills: the seeded set)
SIGNALS = [("extract", signal.SIGTERM, 0.6), ("generate", signal.SIGINT, 0.5), ("cda", signal.SIGTERM, 0.5),
           ("annotate-import", signal.SIGINT, 0.4)]


@pytest.fixture(scope="module")
def clean_seconds(work, zygote, tmp_path_factory):
    """Each signalled command run once in the zygote (its lazy loads warmed), then once as a
    fork into a throwaway output: how long a clean run takes."""
    root = tmp_path_factory.mktemp("signals-clean")
    seconds = {}
    for name, _, _ in SIGNALS:
        (root / f"warm-{name}").mkdir()
        (root / f"clean-{name}").mkdir()
        assert zygote.warm(_argv(name, work, root / f"warm-{name}")) == 0, name
        code, seconds[name] = zygote.run(_argv(name, work, root / f"clean-{name}"), root / f"{name}.log")
        assert code == 0, (root / f"{name}.log").read_text()[-2000:]
    return seconds


@pytest.mark.parametrize("name,sig,share", SIGNALS, ids=[f"{n}-{s.name}" for n, s, _ in SIGNALS])
def test_a_signal_mid_run_ends_cleanly_and_the_rerun_completes(work, zygote, clean_seconds, tmp_path, name, sig,
                                                               share):
    """The run is a fork of the warm zygote (tests/chaos/zygote.py) in its own process group,
    signalled as a terminal's Ctrl-C or a service stop signals the group, at SHARE of a clean
    run's duration (in the command's work, not in its imports)."""
    out = tmp_path / "out"
    out.mkdir()
    argv = _argv(name, work, out)
    delay = share * clean_seconds[name]
    code, _ = zygote.run(argv, tmp_path / "signalled.log", kill_after=delay, signal_=sig, timeout=delay + 120)
    err = (tmp_path / "signalled.log").read_text(errors="replace")
    assert "Traceback" not in err, err[-2000:]
    if sig == signal.SIGINT and code != 0:
        # 130, or the command's own death by SIGINT after its one line (what a shell expects of Ctrl-C)
        assert code in (130, -signal.SIGINT), (code, err[-500:])
        assert sum(1 for line in err.splitlines() if line.startswith(("error", "interrupted"))) <= 1, err[-1000:]
    else:
        assert code in (0, 1, 2, 130, 143, -signal.SIGTERM), (code, err[-500:])
    code, _ = zygote.run(argv, tmp_path / "rerun.log")
    assert code == 0, (tmp_path / "rerun.log").read_text(errors="replace")[-2000:]
    assert not _leftovers(out), _leftovers(out)
    _record_matches(out, name)


CONCURRENT = ["extract", "cda", "annotate-import"]


@pytest.mark.parametrize("name", CONCURRENT)
def test_two_runs_started_together_leave_one_whole_set(work, tmp_path, name):
    out = tmp_path / "out"
    out.mkdir()
    argv = _argv(name, work, out)
    procs = [subprocess.Popen([sys.executable, "-m", "pipeline", *argv], cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = []
    for p in procs:
        _, err = p.communicate(timeout=300)
        results.append((p.returncode, err))
    for code, err in results:
        assert "Traceback" not in err, err[-2000:]
        assert code in (0, 2), (code, err[-1000:])
        if code == 2:
            lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
            assert len(lines) == 1 and ("another run" in lines[0] or "pid" in lines[0]), err[-1000:]
    assert any(code == 0 for code, _ in results), results
    time.sleep(0.1)
    assert not _leftovers(out), _leftovers(out)
    _record_matches(out, name)


def test_a_sigint_before_the_owner_file_leaves_no_staging_for_a_day(tmp_path, monkeypatch):
    """Seen once in test_a_signal_mid_run_ends_cleanly_and_the_rerun_completes[annotate-import-SIGINT]
    (a .staging-PID-* left after the rerun); here the interrupt is put at that moment."""
    from pipeline.formats import files

    real = os.open

    def interrupted(path, *a, **k):
        if str(path).endswith(files.OWNER):
            raise KeyboardInterrupt
        return real(path, *a, **k)
    out = tmp_path / "out"
    monkeypatch.setattr(os, "open", interrupted)
    with pytest.raises(KeyboardInterrupt):
        with files.staged_outputs(out) as stage:
            (stage / "a.txt").write_text("never published")
    monkeypatch.setattr(os, "open", real)
    files.remove_stale_stages(out)                     # what the next run does first
    assert not list(out.glob(files.STAGING_PREFIX + "*"))


def test_an_ownerless_stage_of_a_dead_process_is_removed_at_once(tmp_path):
    """A kill -9 between mkdtemp and the owner file (nothing can clean up): the next run removes
    the stage when the pid in its name is dead, not a day later; a live pid's is kept."""
    import subprocess
    import sys

    from pipeline.formats import files

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    out = tmp_path / "out"
    out.mkdir()
    dead = out / f"{files.STAGING_PREFIX}{child.pid}-abc"
    dead.mkdir()
    alive = out / f"{files.STAGING_PREFIX}{os.getppid()}-abc"
    alive.mkdir()
    files.remove_stale_stages(out)
    assert not dead.exists() and alive.exists()
