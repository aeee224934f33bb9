"""Strict and loose rules on hand-built clusters; matching by id and by text; pro/anti metrics."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core import benchmark_scoring as bs
from pipeline.errors import InputError

TEXT = "The developer argued with the designer because he did not like the design."
TOKENS = TEXT.split()
# The developer = tokens 0-1, the designer = 4-5, he = 7


def item(**kw):
    it = {"id": "wb-1", "source": "winobias", "text": TEXT, "tokens": TOKENS, "pronoun": "he",
          "pronoun_start": TEXT.index(" he ") + 1, "pronoun_end": TEXT.index(" he ") + 3,
          "main_entity": "The developer", "main_start": 0, "main_end": 13,
          "other_entity": "the designer", "other_start": TEXT.index("the designer"),
          "other_end": TEXT.index("the designer") + 12, "category": "pro-anti", "stereotype": "pro"}
    it.update(kw)
    return it


@dataclass
class Doc:
    key: str | None
    line: int
    tokens: list
    clusters: list


@pytest.mark.parametrize("clusters, strict, loose", [
    ([[(0, 1), (7, 7)]], True, True),                    # main with the pronoun
    ([[(1, 1), (7, 7)]], True, True),                    # the occupation word alone is enough
    ([[(0, 1), (4, 5), (7, 7)]], False, True),           # the other entity too: loose only
    ([[(4, 5), (7, 7)]], False, False),                  # the other entity
    ([[(0, 1)], [(7, 7)]], False, False),                # separate clusters
    ([], False, False),                                  # no clusters
    ([[(0, 1), (4, 5)], [(7, 7), (11, 12)]], False, False),
    # the pronoun's shortest mention is in cluster 1 (with the other); a longer mention
    # covering it sits with the main entity: strict looks at the shortest, loose at any
    ([[(0, 1), (7, 9)], [(4, 5), (7, 7)]], False, True),
])
def test_rules_on_hand_built_clusters(clusters, strict, loose):
    assert bs.judge(item(), TOKENS, clusters) == {"strict": strict, "loose": loose}


def test_item_without_other_entity():
    it = item(other_entity=None, other_start=None, other_end=None)
    assert bs.judge(it, TOKENS, [[(0, 1), (4, 5), (7, 7)]]) == {"strict": True, "loose": True}


def test_match_by_id_then_by_retokenised_text():
    text = "The mechanic didn't call the clerk because he can not wait."
    items = [item(), item(id="wb-2", text=text, tokens=text.split())]
    retok = ["The", "mechanic", "did", "n't", "call", "the", "clerk", "because", "he", "can", "not",
             "wait", "."]
    docs = [Doc("wb-1", 1, TOKENS, []), Doc("nw/dev/7", 2, retok, [])]
    matched, missing = bs.match_documents(items, docs, "out.jsonl")
    assert matched["wb-2"].line == 2 and matched["wb-1"].line == 1 and missing == []
    with pytest.raises(InputError, match="matches no benchmark item") as exc:
        bs.match_documents(items, docs + [Doc(None, 3, ["Something", "else", "."], [])], "out.jsonl")
    assert exc.value.row == 3 and "out.jsonl" in str(exc.value)
    _, missing = bs.match_documents(items, docs[:1])
    assert missing == ["wb-2"]


def test_retokenised_document_is_judged_on_aligned_tokens():
    text = "The mechanic didn't call the clerk because he can not wait."
    it = item(id="x", text=text, tokens=text.split(), pronoun_start=text.index(" he ") + 1,
              pronoun_end=text.index(" he ") + 3, main_entity="The mechanic", main_start=0,
              main_end=12, other_entity="the clerk", other_start=text.index("the clerk"),
              other_end=text.index("the clerk") + 9)
    retok = ["The", "mechanic", "did", "n't", "call", "the", "clerk", "because", "he", "can", "not",
             "wait", "."]
    assert bs.judge(it, retok, [[(0, 1), (8, 8)]]) == {"strict": True, "loose": True}
    assert bs.judge(it, retok, [[(5, 6), (8, 8)]]) == {"strict": False, "loose": False}


def test_metrics_pro_anti_delta():
    items = [item(id=f"i{k}", stereotype=s, category=c) for k, (s, c) in
             enumerate([("pro", "pro-anti"), ("pro", "pro-anti"), ("anti", "anti-pro"),
                        ("anti", "anti-pro"), ("neutral", "pronoun-neutral")])]
    correct = {"m": {"strict": np.array([1, 1, 1, 0, 1], bool), "loose": np.array([1, 1, 1, 1, 0], bool)}}
    m = bs.benchmark_metrics(items, correct, resamples=2000, seed=1)["m"]
    assert (m["pro"], m["anti"], m["delta"], m["n_pro"], m["n_anti"]) == (1.0, 0.5, 0.5, 2, 2)
    assert m["loose"]["delta"] == 0.0 and m["loose"]["pro"] == 1.0
    lo, hi = m["ci_delta"]
    assert lo <= 0.5 <= hi and 0 < m["p_delta"] <= 1
    assert m["per_category"]["anti-pro"] == {"n": 2, "accuracy": 0.5}
    assert m["overall"] == pytest.approx(0.8)


def nearest_occupation_baseline(items) -> dict[str, np.ndarray]:
    """Both rules' correctness of the nearest-occupation-before-the-pronoun baseline (judged
    directly; ``python -m pipeline.perf.benchmark_baseline`` goes through the evaluator)."""
    items = list(items)
    out = {r: np.zeros(len(items), dtype=bool) for r in bs.RULES}
    for i, it in enumerate(items):
        toks = it["tokens"] if it.get("tokens") is not None else it["text"].split()
        res = bs.judge(it, toks, bs.nearest_before_clusters(it, toks))
        for r in bs.RULES:
            out[r][i] = res[r]
    return out


def test_nearest_occupation_baseline():
    # "he" follows "the designer" directly: the baseline links it with the designer
    assert bs.nearest_before_clusters(item(), TOKENS) == [[(4, 5), (7, 7)]]
    res = nearest_occupation_baseline([item()])
    assert res["strict"].tolist() == [False]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcdeXY'.,-", min_size=1, max_size=6), min_size=1, max_size=12),
       st.randoms())
def test_normalised_text_ignores_how_the_text_is_split(words, rnd):
    text = " ".join(words)
    chars = text.replace(" ", "")
    cuts = sorted(rnd.sample(range(1, len(chars)), min(3, len(chars) - 1))) if len(chars) > 1 else []
    pieces = [chars[i:j] for i, j in zip([0] + cuts, cuts + [len(chars)])]
    assert bs.normalise_text(pieces) == bs.normalise_text(text)


@pytest.mark.slow
def test_name_blind_baseline_has_no_gender_gap_on_shared(shared_dir):
    from pipeline.humans.core.stereotypes import categorize
    from pipeline.lang.benchmarks import load_winobias, load_winogender

    items = categorize(load_winobias(shared_dir / "reference" / "winobias")
                       + load_winogender(shared_dir / "reference" / "winogender"))
    correct = nearest_occupation_baseline(items)
    m = bs.benchmark_metrics(items, {"nearest": correct}, resamples=0)["nearest"]
    assert m["delta"] == 0.0 and m["pro"] == pytest.approx(1294 / 1800)
    assert m["per_source"]["winogender"]["pro"] == 0.5
