"""A warm interpreter that forks command runs for the chaos tests (a helper module, not a test
module): ``python -m tests.chaos.zygote`` imports :mod:`pipeline.cli`, the libraries the
commands import (spaCy and its model, pyarrow, scipy, datasets, pandas) and says ``ready``; on a
line ``{"warm": ARGV}`` it runs that command once in itself (a throwaway output: the command's
lazy loads, such as name lists, warmed for every fork); then, for each JSON line ``{"argv": [...], "log": FILE, "kill_after": SECONDS or null, "timeout":
SECONDS}`` on its standard input, it forks a child that becomes a new session (its own process
group, as ``start_new_session=True``), sends its standard output and error to ``log`` and runs
``pipeline.cli.main(argv)`` as ``python -m pipeline ARGV`` would (exit status, atexit handlers);
the zygote sends the group SIGKILL after ``kill_after`` seconds (or at ``timeout``, a hang) and
answers one JSON line ``{"code": EXIT STATUS (-9: killed), "seconds": WALL, "hang": BOOL}``.

Why: a ``python -m pipeline`` process spends 2-5 s of CPU importing spaCy, scipy, datasets
before a tiny input's work of a few tenths of a second; forked from here, a run is its work
alone. A kill at a moment drawn within a clean run's duration then falls in the command's work
(reading, writing, publishing) instead of mostly in its imports. Nothing of a run survives into
the next: each is a fresh fork of the same warm, never-used state.

:class:`Zygote` is the test side (one request at a time)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WARM = ("pipeline.cli", "spacy", "pyarrow.parquet", "pyarrow.dataset", "pandas", "scipy.stats", "datasets")


def _warm() -> None:
    import importlib

    for name in WARM:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    from pipeline.nlp import load as nlp_load

    try:
        nlp_load.load()                    # the default model, as the commands load it (lru_cache)
    except Exception:                      # noqa: BLE001 -- a command will say it
        pass


def _child(argv: list[str], log: str) -> None:
    """In the forked child: never returns."""
    code = 1
    try:
        os.setsid()
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        os.close(null)
        from pipeline.cli import main

        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if not isinstance(exc.code, (int, type(None))):
                print(exc.code, file=sys.stderr)
        except BaseException:                                   # noqa: BLE001 -- as the interpreter would
            import traceback

            traceback.print_exc()
            code = 1
        import atexit

        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code if isinstance(code, int) else 1)


def _warm_run(argv: list[str]) -> int:
    """One run of a command in this process, its output dropped: the lazy loads of its first
    run (name lists, word lists, the persons layer's tables...) are then in the state every fork
    starts from. Refused for a pool of workers (``--workers``): a forkserver started here would
    be shared by the forks, outside their process groups."""
    import contextlib
    import io

    from pipeline.cli import main

    assert "--workers" not in argv, argv
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    assert server is None or getattr(server, "_forkserver_pid", None) is None, "a forkserver in the zygote"
    return code


def _serve() -> int:
    _warm()
    print("ready", flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        if "warm" in req:
            print(json.dumps({"code": _warm_run(req["warm"])}), flush=True)
            continue
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(req["argv"], req["log"])
        kill_after, timeout = req.get("kill_after"), float(req.get("timeout", 300))
        status, hang = None, False
        while True:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
                break
            elapsed = time.monotonic() - start
            if kill_after is not None and elapsed >= kill_after:
                break
            if elapsed >= timeout:
                hang = True
                break
            time.sleep(0.005)
        try:                                   # the group, as the tests' killpg of a Popen'ed run
            if status is None or kill_after is not None:
                os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if status is None:
            _, status = os.waitpid(pid, 0)
        print(json.dumps({"code": os.waitstatus_to_exitcode(status), "seconds": time.monotonic() - start,
                          "hang": hang}), flush=True)
    return 0


class Zygote:
    """The test side: ``run(argv, log, kill_after=None)`` -> (exit status, seconds)."""

    def __init__(self, env: dict | None = None):
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.chaos.zygote"], cwd=ROOT, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env or dict(os.environ, TQDM_DISABLE="1", PYTHONHASHSEED="0"))
        line = self.proc.stdout.readline().strip()
        if line != "ready":
            self.close()
            raise AssertionError(f"the zygote did not start: {line!r}")

    def warm(self, argv: list[str]) -> int:
        """A run of ARGV inside the zygote (into a throwaway output): its lazy loads warmed."""
        self.proc.stdin.write(json.dumps({"warm": [str(a) for a in argv]}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"the zygote ended ({self.proc.poll()})")
        return json.loads(line)["code"]

    def run(self, argv: list[str], log: Path, kill_after: float | None = None,
            timeout: float = 300) -> tuple[int, float]:
        self.proc.stdin.write(json.dumps({"argv": [str(a) for a in argv], "log": str(log),
                                          "kill_after": kill_after, "timeout": timeout}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"the zygote ended ({self.proc.poll()})")
        got = json.loads(line)
        if got["hang"]:
            raise AssertionError(f"{' '.join(argv[:1])} still running after {timeout:g} s: a hang")
        return got["code"], got["seconds"]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


if __name__ == "__main__":
    raise SystemExit(_serve())
