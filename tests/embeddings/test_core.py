"""Embedding diagnostics: WEAT by hand, a planted gender direction, GIPE by hand."""

from __future__ import annotations

import numpy as np
import pytest
from gensim.models import KeyedVectors

from pipeline.embeddings import core as E
from pipeline.errors import InputError


def kv_from(words: dict[str, list[float]]) -> KeyedVectors:
    kv = KeyedVectors(vector_size=len(next(iter(words.values()))))
    kv.add_vectors(list(words), np.array(list(words.values()), dtype=np.float32))
    return kv


def weat_s(t: np.ndarray, a1: np.ndarray, a2: np.ndarray) -> float:
    """s(t, A1, A2) for one unit target vector and unit attribute matrices, by the formula."""
    return float(np.mean(a1 @ t) - np.mean(a2 @ t))


def test_weat_by_hand_on_two_dimensional_vectors():
    T = np.array([[1.0, 0.0], [0.0, 1.0]])
    a1 = np.array([[1.0, 0.0]])
    a2 = np.array([[0.6, 0.8]])
    # s(t1) = 1 - 0.6 = 0.4; s(t2) = 0 - 0.8 = -0.8; S = -0.2
    assert weat_s(T[0], a1, a2) == pytest.approx(0.4)
    assert weat_s(T[1], a1, a2) == pytest.approx(-0.8)
    r = E.weat(T, a1, a2)
    assert r.S == pytest.approx(-0.2) == pytest.approx(np.mean([weat_s(t, a1, a2) for t in T]))
    # two partitions: the observed (-0.2) and the swapped one (+0.2), both >= -0.2
    assert r.exact and r.partitions == 2 and r.p == pytest.approx(1.0)
    r2 = E.weat(T, a2, a1)
    assert r2.S == pytest.approx(0.2) and r2.p == pytest.approx(0.5)


def test_weat_draws_are_seeded_when_partitions_are_many():
    rng = np.random.default_rng(1)
    T, a1, a2 = (E.unit_rows(rng.normal(size=(n, 5))) for n in (4, 12, 12))
    r1 = E.weat(T, a1, a2, draws=500, seed=3)
    r2 = E.weat(T, a1, a2, draws=500, seed=3)
    assert not r1.exact and r1.partitions == 500 and r1.p == r2.p


def test_gipe_by_hand():
    kv = kv_from({"w": [0.6, 0.8, 0.0], "v": [0.6, 0.0, 0.8], "v2": [0.0, 0.6, 0.8]})
    g = np.array([1.0, 0.0, 0.0])
    # beta(w, v) = (0.36 - 0) / 0.36 = 1; beta(w, v2) = (0.48 - 0.6) / 0.48 = -0.25
    assert E.indirect_bias(np.array([0.6, 0.8, 0.0]), np.array([0.6, 0.0, 0.8]), g) == pytest.approx(1.0)
    assert E.indirect_bias(np.array([0.6, 0.8, 0.0]), np.array([0.0, 0.6, 0.8]), g) == pytest.approx(-0.25)
    one = E.gipe(kv, ["w"], g, ["w", "v", "v2"], n_neighbours=2, theta=0.05)
    assert one["gipe"] == pytest.approx(0.5)          # eta(w) = 1 of 2 neighbours
    # eta(v2) = 0: beta(v2, w) = -0.25, beta(v2, v) = (0.64 - 0.8) / 0.64 = -0.25
    both = E.gipe(kv, ["w", "v2"], g, ["w", "v", "v2"], n_neighbours=2, theta=0.05)
    assert both["gipe"] == pytest.approx(0.25)
    weighted = E.gipe(kv, ["w", "v2"], g, ["w", "v", "v2"], n_neighbours=2, theta=0.05,
                      weights={"w": 3.0, "v2": 1.0})
    assert weighted["gipe"] == pytest.approx((3 * 0.5 + 1 * 0.0) / 4)


DEFS = [("she", "he"), ("her", "his"), ("woman", "man"), ("girl", "boy"), ("mother", "father")]


def planted(seed: int = 0, dim: int = 16, n_words: int = 300) -> tuple[KeyedVectors, E.WordLists]:
    """Gender lives on axis 0 only; every other axis is isotropic noise."""
    rng = np.random.default_rng(seed)
    words = {}

    def add(name, sign, strength, noise=0.3):
        v = rng.normal(size=dim) * noise
        v[0] = sign * strength + rng.normal() * 0.05
        words[name] = v

    for f, m in DEFS:   # a pair shares its meaning; only the gender differs
        shared = rng.normal(size=dim) * 0.3
        add(f, +1, 1.0, noise=0.01)
        words[f][1:] += shared[1:]
        add(m, -1, 1.0, noise=0.01)
        words[m][1:] += shared[1:]
    fem_occ = [f"focc{i}" for i in range(20)]
    male_occ = [f"mocc{i}" for i in range(20)]
    adjs = [f"adj{i}" for i in range(30)]
    for w in fem_occ + adjs:
        add(w, +1, 0.6)
    for w in male_occ:
        add(w, -1, 0.6)
    for i in range(n_words):
        add(f"fem{chr(97 + i % 26)}{chr(97 + i // 26)}x", +1, 0.5)
        add(f"mas{chr(97 + i % 26)}{chr(97 + i // 26)}x", -1, 0.5)
    for i in range(100):
        add(f"neu{chr(97 + i % 26)}{chr(97 + i // 26)}x", +1, 0.0)
    kv = kv_from({k: list(v) for k, v in words.items()})
    lists = E.WordLists(adjectives=adjs, female_occupations=fem_occ, male_occupations=male_occ,
                        definitional=DEFS, exclude=set())
    return kv, lists


@pytest.mark.slow
def test_planted_direction_is_found_and_measured_then_removed_by_hard_debiasing():
    kv, lists = planted()
    g = E.gender_direction(kv, lists.definitional, "pca")
    assert g[0] > 0.999      # the planted axis, feminine positive
    keep = {w for pair in lists.definitional for w in pair}
    debiased = E.project_out(kv, g, keep)
    opts = E.Options(n_cluster=200, n_svm=400, draws=2000, vocab_limit=10_000, gipe_vocab=200,
                     gipe_neighbours=20)
    res = E.diagnose({"original": kv, "debiased": debiased}, "original", lists, opts)
    o, d = res["embeddings"]["original"], res["embeddings"]["debiased"]
    assert o["weat_adj_occ"]["S"] > 0.2 and o["weat_adj_occ"]["p"] < 0.01
    assert o["weat_adj_def"]["S"] > 0.2 and o["weat_adj_def"]["p"] < 0.01
    assert o["cluster_accuracy"] > 0.95 and o["v_measure"] > 0.7
    assert o["linear_svm_accuracy"] > 0.95 and o["rbf_svm_accuracy"] > 0.95
    # after hard debiasing the gender information of the neutral words is gone
    assert abs(d["weat_adj_occ"]["S"]) < 0.05 and d["weat_adj_occ"]["p"] > 0.05
    assert d["cluster_accuracy"] < 0.65
    assert d["linear_svm_accuracy"] < 0.65 and d["rbf_svm_accuracy"] < 0.65
    assert d["gipe_neutral"] <= o["gipe_neutral"]
    assert res["most_biased"]["n"] == 400


def test_he_she_direction_and_missing_pairs():
    kv, lists = planted()
    g = E.gender_direction(kv, lists.definitional, "he-she")
    assert g[0] > 0.8
    with pytest.raises(InputError, match="no definitional pair"):
        E.gender_direction(kv, [("queen", "king")], "pca")


def test_different_dimensions_are_bad_input():
    kv, lists = planted()
    small = kv_from({"she": [1.0, 0.0], "he": [-1.0, 0.0]})
    with pytest.raises(InputError, match="different dimensions"):
        E.diagnose({"a": kv, "b": small}, "a", lists, E.Options())


def test_word_list_with_every_word_missing_is_bad_input():
    kv, lists = planted()
    lists.adjectives = ["nosuchword", "another"]
    with pytest.raises(InputError, match="targets: none of its words"):
        E.diagnose({"a": kv}, "a", lists, E.Options(n_cluster=50, n_svm=50, gipe_vocab=20, gipe_neighbours=5))
