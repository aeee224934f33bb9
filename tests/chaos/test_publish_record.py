"""Issue 45, item 2: ``run.json`` is part of the publish of the files it describes. generate
killed (SIGKILL) between the renames of its publish used to leave the previous run's record
beside the next run's files (1 of the 33 seeded kills)."""

from __future__ import annotations

import signal

import pytest

from pipeline.cli import main
from pipeline.formats.files import read_json
from pipeline.formats.run_record import describe
from tests.chaos import malformed
from tests.chaos.test_chaos import helper

pytestmark = pytest.mark.chaos


def outputs_agree(out) -> bool:
    record = read_json(out / "run.json")
    return record["outputs"] == (describe(out).get("entries") or record["outputs"])


def test_a_kill_between_the_renames_leaves_no_record_of_the_other_generation(tmp_path):
    instances = malformed.sample_instances(tmp_path)
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(instances), "--out", str(out), "--no-title-period"]) == 0
    assert (out / "run.json").exists() and outputs_agree(out)
    proc = helper("generate-and-die", "--instances", str(instances), "--out", str(out))
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL, err[-500:]     # exit 2 "other code": the tree changed meanwhile
    assert not (out / "run.json").exists()          # the old record went before the first rename
    assert main(["generate", "--instances", str(instances), "--out", str(out)]) == 0
    assert outputs_agree(out) and read_json(out / "run.json")["arguments"].get("no_title_period") is False


def test_replacing_an_output_file_drops_its_sidecar_record(tmp_path):
    from pipeline.formats.files import write_text

    target = tmp_path / "weights.json"
    write_text(target, "{}")
    (tmp_path / "weights.json.run.json").write_text("{}")
    write_text(target, '{"a": 1}')
    assert not (tmp_path / "weights.json.run.json").exists()
