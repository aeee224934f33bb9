"""Processes for the chaos tests, run as ``python -m tests.chaos.helpers MODE ...`` from the
project root (a helper module, not a test module):

* ``stage-and-sleep OUT SECONDS``: open a staged publish into OUT, write a file into it,
  print ``staging``, sleep (a live run in the middle of its work);
* ``generate-and-die ARGS...``: ``python -m pipeline generate ARGS...``, SIGKILLed by itself
  right after the first output file of its publish was renamed into place (the worst moment:
  one new file beside old ones);
* ``lock-file-and-sleep FILE SECONDS``: hold FILE's output lock (a ``cda``/``weights`` run
  writing FILE), print ``locked``, sleep;
* ``pool-sleep``: :func:`pipeline.engines.run_books` with two workers on books that sleep for
  a minute (a parent to kill);
* ``progress``: two books in a pool of two, each reporting progress per "chunk" and then
  sleeping; prints one JSON line per words-bar update as ``{"t": seconds, "n": words}``.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path


def sleepy_book(x: int) -> int:
    time.sleep(60)
    return x


def chunky_book(x: int) -> int:
    from pipeline.engines import report_progress

    for _ in range(3):
        report_progress(100)
        time.sleep(0.4)
    time.sleep(1.5)
    return x


def main(argv: list[str]) -> int:
    mode = argv[0]
    if mode == "stage-and-sleep":
        from pipeline.formats.files import staged_outputs

        with staged_outputs(argv[1]) as stage:
            (stage / "late.txt").write_text("from the sleeping run")
            print("staging", flush=True)
            time.sleep(float(argv[2]))
        return 0
    if mode == "lock-file-and-sleep":
        from pipeline.formats.files import output_file_lock

        with output_file_lock(argv[1]):
            print("locked", flush=True)
            time.sleep(float(argv[2]))
        return 0
    if mode == "generate-and-die":
        from pipeline.cli import main as cli_main


        real = os.replace

        def replace(src, dst, *a, **k):
            real(src, dst, *a, **k)
            if (Path(str(src)).parent.name.startswith(".staging-")
                    and not Path(str(dst)).parent.name.startswith(".staging-")):
                os.kill(os.getpid(), signal.SIGKILL)      # one file of the set is in place
        os.replace = replace
        return cli_main(["generate", *argv[1:]])
    if mode == "pool-sleep":
        from pipeline import engines
        from tests.chaos import helpers

        engines.run_books([(1,), (2,)], helpers.sleepy_book, lambda t, r: 0, workers=2)
        return 0
    if mode == "progress":
        import json

        from pipeline import engines
        from tests.chaos import helpers

        t0 = time.perf_counter()

        class Bar:
            def __init__(self, *a, desc="", **k):
                self.desc = desc

            def update(self, n):
                if self.desc == "words":
                    print(json.dumps({"t": round(time.perf_counter() - t0, 2), "n": n}), flush=True)

            def close(self):
                pass

        engines.tqdm = Bar
        engines.run_books([(1,), (2,)], helpers.chunky_book, lambda t, r: 300, workers=2)
        print(json.dumps({"t": round(time.perf_counter() - t0, 2), "end": True}), flush=True)
        return 0
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    from tests.chaos import helpers

    raise SystemExit(helpers.main(sys.argv[1:]))
