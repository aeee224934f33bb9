"""The annotation import's private files (pipeline.annotation.formats.annotator_key): the salt and the key."""

from __future__ import annotations

import stat

import pytest

from pipeline.errors import InputError
from pipeline.annotation.formats import annotator_key as key


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_salt_is_made_once_private_and_then_reused(tmp_path):
    path = tmp_path / "results.csv.salt"
    salt = key.salt_file(path)
    assert len(salt) == 32 and int(salt, 16) >= 0
    assert mode(path) == 0o600
    assert key.salt_file(path) == salt                   # the same file: the same pseudonyms


def test_an_empty_salt_file_is_refused(tmp_path):
    path = tmp_path / "salt"
    path.write_text("\n")
    with pytest.raises(InputError, match="empty salt file"):
        key.salt_file(path)


def test_key_is_a_sorted_private_csv_outside_the_published_directory(tmp_path):
    out = tmp_path / "out"
    path = tmp_path / "ids.csv"
    key.write_annotator_ids(path, {"a-2": "zoe", "a-1": "WORKER 1"}, out)
    assert path.read_text().splitlines() == ["pseudonym,annotator", "a-1,WORKER 1", "a-2,zoe"]
    assert mode(path) == 0o600
    with pytest.raises(InputError, match="outside --out"):
        key.write_annotator_ids(out / "ids.csv", {}, out)
    assert not (out / "ids.csv").exists()
