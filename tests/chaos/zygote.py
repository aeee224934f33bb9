"""A warm interpreter that forks command runs for the chaos tests (a helper module, not a test
module). ``python -m tests.chaos.zygote`` imports :mod:`pipeline.cli` and the libraries the
commands import (spaCy and its model, pyarrow, scipy, datasets, pandas), says ``ready`` and reads
JSON lines on its standard input:

* ``{"warm": ARGV}``: run the command once in this process, into a throwaway output, its output
  dropped: its lazy loads (name lists, word lists, the persons layer's tables) are then in the
  state every later fork starts from (not with ``--workers``: see :func:`_warm_run`);
* ``{"argv": ARGV, "log": FILE, "kill_after": SECONDS or null, "timeout": SECONDS, "signal":
  N}``: fork a child that becomes a new session (its own process group, as
  ``start_new_session=True``), sends its standard output and error to FILE and runs
  ``pipeline.cli.main(ARGV)`` as ``python -m pipeline ARGV`` would (exit status, atexit
  handlers); send the group ``signal`` (SIGKILL unless said) after ``kill_after`` seconds, and
  SIGKILL at ``timeout`` (a hang); once the child is reaped, answer ``{"code": EXIT STATUS
  (negative: the signal that ended it), "seconds": WALL, "hang": BOOL}``.

Why: a ``python -m pipeline`` process spends 2-5 s of CPU importing spaCy, scipy, datasets and
loading name lists before a tiny input's work of a few tenths of a second; forked from here, a
run is its work alone. A kill at a moment drawn within a clean run's duration then falls in
the command's work (reading, writing, publishing) instead of mostly in its imports. Nothing of a
run survives into the next: each is a fresh fork of the same warm state.

:class:`Zygote` is the test side (one request at a time)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# pyarrow's default allocator, jemalloc, runs a background thread; a fork taken while it holds its
# mutex leaves the child waiting on it forever (seen: a forked `cda` run hung in futex_wait until
# the 300 s hang guard). The system allocator has no such thread. Set before pyarrow is imported.
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

ROOT = Path(__file__).resolve().parents[2]
WARM = ("pipeline.cli", "spacy", "pyarrow.parquet", "pyarrow.dataset", "pandas", "scipy.stats", "datasets")


def _quiet_tqdm() -> None:
    """tqdm's default lock is a process-shared semaphore: a forked run killed while it held it (a
    progress bar being made) left this process waiting on it forever at its next bar (seen: a
    clean-clone CI hung in the zygote's ``SemLock.acquire`` under ``tqdm.__new__``). A lock of
    this process alone, and no monitor thread that could hold it across a fork."""
    import threading

    import tqdm

    tqdm.tqdm.monitor_interval = 0
    tqdm.tqdm.set_lock(threading.RLock())


def _warm() -> None:
    import importlib

    _quiet_tqdm()

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


def _killpg(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


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
        sig = int(req.get("signal", signal.SIGKILL))
        status, hang, sent = None, False, False
        while True:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
                break
            elapsed = time.monotonic() - start
            if kill_after is not None and not sent and elapsed >= kill_after:
                _killpg(pid, sig)              # the group, as the tests' killpg of a Popen'ed run
                sent = True
                if sig == signal.SIGKILL:
                    break
            if elapsed >= timeout:
                hang = True
                break
            time.sleep(0.005)
        if status is None or (sig == signal.SIGKILL and kill_after is not None):
            _killpg(pid, signal.SIGKILL)       # a hang; or what is left of a killed run's group
        if status is None:
            _, status = os.waitpid(pid, 0)
        print(json.dumps({"code": os.waitstatus_to_exitcode(status), "seconds": time.monotonic() - start,
                          "hang": hang}), flush=True)
    return 0


class Zygote:
    """The test side: ``run(argv, log, kill_after=None)`` -> (exit status, seconds)."""

    def __init__(self, env: dict | None = None):
        """Starts the zygote; its imports go on while the caller does other work (the first
        request waits for its ``ready``)."""
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.chaos.zygote"], cwd=ROOT, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env or dict(os.environ, TQDM_DISABLE="1", PYTHONHASHSEED="0"))
        self.ready = False

    def _wait_ready(self) -> None:
        if not self.ready:
            line = self.proc.stdout.readline().strip()
            if line != "ready":
                self.close()
                raise AssertionError(f"the zygote did not start: {line!r}")
            self.ready = True

    def warm(self, argv: list[str]) -> int:
        """A run of ARGV inside the zygote (into a throwaway output): its lazy loads warmed."""
        self._wait_ready()
        self.proc.stdin.write(json.dumps({"warm": [str(a) for a in argv]}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"the zygote ended ({self.proc.poll()})")
        return json.loads(line)["code"]

    def run(self, argv: list[str], log: Path, kill_after: float | None = None,
            timeout: float = 300, signal_: int = signal.SIGKILL) -> tuple[int, float]:
        """Run ARGV in a fork (standard output and error into LOG); after ``kill_after`` seconds
        send ``signal_`` to its process group (SIGKILL: and end the wait there); a run past
        ``timeout`` is SIGKILLed and an AssertionError (a hang)."""
        self._wait_ready()
        self.proc.stdin.write(json.dumps({"argv": [str(a) for a in argv], "log": str(log),
                                          "kill_after": kill_after, "timeout": timeout,
                                          "signal": int(signal_)}) + "\n")
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
