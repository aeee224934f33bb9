"""Annotator pseudonyms (pipeline.annotation.core.pseudonyms): a keyed hash, stable for one salt."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.annotation.core.pseudonyms import pseudonym, pseudonymise


@dataclass(frozen=True)
class A:
    annotator: str
    item: str


def test_pseudonym_is_hmac_sha256_of_the_id():
    want = hmac.new(b"s", "Zoë".encode(), hashlib.sha256).hexdigest()[:12]
    assert pseudonym("s", "Zoë") == "a-" + want


HEX = st.text(alphabet="0123456789abcdef", min_size=1, max_size=32)     # salts are hex digits


@pytest.mark.slow
@given(HEX, HEX, st.text(min_size=1))
def test_same_salt_same_pseudonym_other_salt_other(salt, other, annotator):
    assert pseudonym(salt, annotator) == pseudonym(salt, annotator)
    if salt != other:
        # 48 bits: a collision here would be a bug, not chance
        assert pseudonym(salt, annotator) != pseudonym(other, annotator)


def test_pseudonymise_replaces_ids_and_returns_the_key():
    answers = [A("w1", "7"), A("w2", "7"), A("w1", "8")]
    out, key = pseudonymise(answers, "salt")
    assert [a.item for a in out] == ["7", "7", "8"]
    assert out[0].annotator == out[2].annotator != out[1].annotator
    assert key == {out[0].annotator: "w1", out[1].annotator: "w2"}
    assert all(a.annotator.startswith("a-") for a in out)
