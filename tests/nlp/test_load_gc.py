"""The loaded pipeline is kept out of the cyclic collector's way (pipeline/nlp/load.py): its
objects are frozen once loaded, in a fresh process, so that full collections set off by a
book's records do not walk them."""

from __future__ import annotations

import subprocess
import sys


def test_loading_the_pipeline_freezes_its_objects_out_of_the_collector():
    code = ("import gc\n"
            "before = gc.get_freeze_count()\n"
            "from pipeline.nlp import load\n"
            "nlp = load.load()\n"
            "assert before == 0, before\n"
            "assert gc.get_freeze_count() > 50_000, gc.get_freeze_count()\n"
            "print(gc.get_freeze_count())\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    assert int(res.stdout.split()[-1]) > 50_000
