"""formats.persons_output: the persons run's manifest and partition markers, written atomically,
read back or refused in one line naming the file."""

from __future__ import annotations

import json

import pytest

from pipeline.errors import InputError
from pipeline.formats import files
from pipeline.formats.persons_output import read_done, read_persons_manifest, write_done, write_persons_manifest

ROW = {"book_id": "story", "path": "story.txt", "status": "ok", "skip_reason": "", "n_words": 201,
       "n_mentions": 24, "n_persons": 3, "seconds": 0.5}


def test_written_atomically_and_read_back(tmp_path, monkeypatch):
    written = []
    real = files.atomic_path

    def spy(target):
        written.append(target)
        return real(target)

    monkeypatch.setattr(files, "atomic_path", spy)
    settings = {"kind": "persons", "model": "en_core_web_sm-3.8.0", "components": ["ner"]}
    write_persons_manifest(tmp_path / "manifest.json", settings)
    write_done(tmp_path / "p" / "books.json", [ROW])
    assert written == [tmp_path / "manifest.json", tmp_path / "p" / "books.json"]
    assert (tmp_path / "manifest.json").read_text() == json.dumps(settings, indent=2) + "\n"   # as before
    assert read_persons_manifest(tmp_path / "manifest.json") == settings
    assert read_done(tmp_path / "p" / "books.json") == [ROW]
    write_done(tmp_path / "empty.json", [])
    assert read_done(tmp_path / "empty.json") == []


@pytest.mark.parametrize("text, reason", [
    ('[{"book_id": "st', "unreadable partition marker: not readable JSON"),
    ("", "unreadable partition marker: not readable JSON"),
    ('{"rows": []}', "partition marker is not a list of book rows"),
    ("[1]", "partition marker row 1: 1 is not a book row (an object)"),
    ("[{}]", "partition marker row 1: no 'book_id'"),
    (json.dumps([ROW, {**ROW, "n_words": "many"}]), "partition marker row 2: 'n_words' is \"many\", not int"),
    (json.dumps([{**ROW, "n_persons": True}]), "partition marker row 1: 'n_persons' is true, not int"),
    (json.dumps([{**ROW, "status": None}]), "partition marker row 1: 'status' is null, not str"),
    (json.dumps([{**ROW, "seconds": float("nan")}]), "partition marker row 1: 'seconds' is not a finite number"),
])
def test_a_cut_or_garbled_marker_is_refused_in_one_line(tmp_path, text, reason):
    marker = tmp_path / "books.json"
    marker.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_done(marker)
    assert str(exc.value).startswith(f"{marker}: {reason}") and "\n" not in str(exc.value)


def test_a_missing_marker_or_manifest_is_refused(tmp_path):
    with pytest.raises(InputError, match="unreadable partition marker: file not found"):
        read_done(tmp_path / "books.json")
    with pytest.raises(InputError, match="unreadable manifest: file not found"):
        read_persons_manifest(tmp_path / "manifest.json")


@pytest.mark.parametrize("data, reason", [
    (b'{"kind": "pers', "unreadable manifest: not readable JSON"),
    (b'{"kind": "\xff"}', "unreadable manifest: not readable JSON"),
    (b"[]", "the manifest of another command, not of a persons run"),
    (b'{"kind": 3}', "the manifest of another command, not of a persons run"),
    (b'{"command": "extract"}', "the manifest of extract run, not of a persons run"),
])
def test_a_cut_or_garbled_manifest_is_refused_in_one_line(tmp_path, data, reason):
    manifest = tmp_path / "manifest.json"
    manifest.write_bytes(data)
    with pytest.raises(InputError) as exc:
        read_persons_manifest(manifest)
    assert str(exc.value).startswith(f"{manifest}: {reason}") and "\n" not in str(exc.value)
