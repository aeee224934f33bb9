"""Training the learned person decision (:mod:`pipeline.lang.person_model`) from gold entities.

Records in, records out. A *form* of a book (a capitalised word as written, no title, no
function word) gets its labels from the annotated opening: each of its occurrences there is a
person when it lies inside a gold named-person mention (``PER``/``PROP``), no person when it
lies inside no ``PER`` mention at all (occurrences inside a ``PER`` description or pronoun are
left out), and the form is a person when most of its labelled occurrences are; a person form
has a gender when every gold cluster its bare occurrences name (no title right before it:
"Durbeyfield", not "Mrs Durbeyfield", the decision being asked of bare forms) has the same
clear pronoun gender (:func:`pipeline.core.person_eval.cluster_genders`). The features are the book's evidence
(:func:`pipeline.lang.person_model.features`). :func:`fit` trains the two logistic regressions
with scikit-learn and returns the model file's dict.

May import: :mod:`pipeline.core.person_eval`, :mod:`pipeline.lang.person_model`,
:mod:`pipeline.lang.book_evidence`, :mod:`pipeline.lang.names`, :mod:`pipeline.lang.pronouns`,
numpy, scikit-learn (inside :func:`fit`), the standard library.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from pipeline.core.person_eval import cluster_genders
from pipeline.lang.book_evidence import FUNCTION_WORDS
from pipeline.lang.names import title_gender
from pipeline.lang.person_model import FEATURES, FORMAT, VERSION, features
from pipeline.lang.pronouns import FEMININE, MASCULINE

_FORM = re.compile(r"\b[A-Z][A-Za-z]+(?:[-'’][A-Za-z]+)*")
_BEFORE = re.compile(r"\b([A-Z][A-Za-z]*)\.?\s+$")
C = 1.0                 # inverse regularisation strength of both regressions
DEFAULT_THRESHOLDS = {"person": 0.0, "gender": 0.0, "veto": 0.0}    # 0: the model decides nothing


@dataclass
class FormLabel:
    form: str
    person: bool
    gender: str | None          # masculine / feminine / None (unknown or mixed)
    n: int                      # labelled occurrences in the opening


def form_labels(text: str, lo: int, hi: int, gold: list) -> list[FormLabel]:
    """The labelled forms of the opening ``text[lo:hi]`` given its gold spans
    (:class:`pipeline.core.person_eval.GoldSpan`, offsets into ``text``)."""
    per = [g for g in gold if g.type == "PER"]
    genders = cluster_genders(gold)
    votes: dict[str, list[int]] = {}
    gvotes: dict[str, Counter] = {}
    for m in _FORM.finditer(text, lo, hi):
        form, s, e = m.group(0), m.start(), m.end()
        if form.lower() in FUNCTION_WORDS or title_gender(form):
            continue
        hits = [g for g in per if g.start < e and s < g.end]
        v = votes.setdefault(form, [0, 0])
        if not hits:
            v[1] += 1
            continue
        named = [g for g in hits if g.category == "PROP"]
        if not named:
            continue
        v[0] += 1
        before = _BEFORE.search(text, max(0, s - 12), s)
        if before and title_gender(before.group(1)):
            continue                        # "Mrs Durbeyfield": says nothing of the bare form
        for g in named:
            gvotes.setdefault(form, Counter())[genders.get(g.entity)] += 1
    out = []
    for form, (pos, neg) in votes.items():
        if pos + neg == 0:
            continue
        person = pos > neg
        gender = None
        if person:
            c = gvotes.get(form, Counter())
            if len(c) == 1 and next(iter(c)) in (MASCULINE, FEMININE):
                gender = next(iter(c))
        out.append(FormLabel(form, person, gender, pos + neg))
    return out


def rows(cases) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(X, y) for the person decision and (X, y) for the gender one (1 = feminine) from
    ``cases``: pairs of a book's evidence and its :class:`FormLabel` list."""
    xp, yp, xg, yg = [], [], [], []
    for evidence, labels in cases:
        for lab in labels:
            x = features(evidence, lab.form)
            xp.append(x)
            yp.append(int(lab.person))
            if lab.person and lab.gender:
                xg.append(x)
                yg.append(int(lab.gender == FEMININE))
    n = len(FEATURES)
    return (np.asarray(xp, dtype=float).reshape(-1, n), np.asarray(yp, dtype=int),
            np.asarray(xg, dtype=float).reshape(-1, n), np.asarray(yg, dtype=int))


def _linear(x: np.ndarray, y: np.ndarray) -> dict:
    from sklearn.linear_model import LogisticRegression

    if len(set(y.tolist())) < 2:
        raise ValueError("training needs both classes")
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    clf = LogisticRegression(C=C, max_iter=2000)
    clf.fit((x - mean) / scale, y)
    return {"mean": [round(float(v), 6) for v in mean], "scale": [round(float(v), 6) for v in scale],
            "coef": [round(float(v), 6) for v in clf.coef_[0]], "intercept": round(float(clf.intercept_[0]), 6)}


def fit(cases, thresholds: dict | None = None, books: list[str] | None = None) -> dict:
    """The model file's dict trained on ``cases`` (see :func:`rows`)."""
    xp, yp, xg, yg = rows(cases)
    return {"format": FORMAT, "version": VERSION, "features": list(FEATURES),
            "person": _linear(xp, yp), "gender": _linear(xg, yg),
            "thresholds": dict(DEFAULT_THRESHOLDS if thresholds is None else thresholds),
            "trained_on": {"books": sorted(books or []), "person_rows": int(len(yp)),
                           "persons": int(yp.sum()), "gender_rows": int(len(yg)), "feminine": int(yg.sum())}}
