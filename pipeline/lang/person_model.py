"""The learned book-level person decision: is a form (a capitalised word as a book writes it) a
person in this book, and which gender.

Inputs are the counts :mod:`pipeline.lang.book_evidence` already gathers for the form (place,
person, titled by gender, pronoun and apposition votes, alone, animal, motion), the book's
lower-case / capitalised / mid-sentence counts of it, gender-guesser's label, wordfreq's Zipf
frequency and whether it is a well-known place (:func:`features`). Two logistic regressions
over them (``person``: a person or not; ``gender``: feminine rather than masculine, for a
person) are trained on the development half of LitBank's entities by
``make train-persons`` (``python -m pipeline.perf.persons --train``) and shipped as
``resources/person_model.json``: a format version, the feature list, and per model the
standardisation, coefficients and intercept (no pickle). Inference here is numpy only.

A missing model file, a file of another version or one whose feature list is not this code's
raises :class:`pipeline.errors.InputError` naming the training command.

May import: :mod:`pipeline.errors`, :mod:`pipeline.formats.resources`, :mod:`pipeline.lang.names`,
:mod:`pipeline.lang.frequency`, :mod:`pipeline.lang.places`, :mod:`pipeline.lang.pronouns`, numpy, the standard library.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np

from pipeline.errors import InputError
from pipeline.lang.frequency import zipf as _zipf
from pipeline.lang.names import guess
from pipeline.lang.places import known_place
from pipeline.lang.pronouns import FEMININE, MASCULINE

FORMAT = "counter-gap person model"
VERSION = 1
FILE = "person_model.json"
TRAIN_COMMAND = "make train-persons (python -m pipeline.perf.persons --train --out resources/person_model.json)"
GUESSER_LABELS = ("male", "female", "mostly_male", "mostly_female", "andy")

FEATURES = (
    "place", "motion", "person", "animal", "titled_m", "titled_f", "pronoun_m", "pronoun_f",
    "alone_m", "alone_f", "apposition_m", "apposition_f", "titled_both", "capital", "lower_share", "mid_share",
    "zipf", "known_place", "all_caps", "length",
    *(f"guesser_{label}" for label in GUESSER_LABELS),
)


@functools.lru_cache(maxsize=100_000)
def _static(form: str) -> tuple[float, ...]:
    """The features of ``form`` that do not depend on the book."""
    label = guess(form)[1]
    cased = form[:1] + form[1:].lower() if form.isupper() else form
    return (_zipf(form), float(known_place(cased)), float(form.isupper() and len(form) > 1),
            float(min(len(form), 12)), *(float(label == g) for g in GUESSER_LABELS))


def features(evidence, form: str) -> list[float]:
    """The feature vector of ``form`` in the book of ``evidence`` (a
    :class:`pipeline.lang.book_evidence.BookEvidence`), in the order of :data:`FEATURES`;
    counts enter as log(1 + n)."""
    ev = evidence.forms.get(form)

    def c(n) -> float:
        return math.log1p(n)

    if ev is None:
        counts = [0.0] * 13
    else:
        counts = [c(ev.place), c(ev.motion), c(ev.person), c(ev.animal),
                  c(ev.titled[MASCULINE]), c(ev.titled[FEMININE]),
                  c(ev.pronouns[MASCULINE]), c(ev.pronouns[FEMININE]),
                  c(ev.alone[MASCULINE]), c(ev.alone[FEMININE]),
                  c(ev.appositions[MASCULINE]), c(ev.appositions[FEMININE]),
                  c(min(ev.titled[MASCULINE], ev.titled[FEMININE]))]
    cap, low, mid = evidence.capital[form], evidence.lower[form.lower()], evidence.mid[form]
    book = [c(cap), low / (low + cap + 1), mid / (cap + 1)]
    return counts + book + list(_static(form))


class Linear:
    """A standardised logistic regression: P = sigmoid(((x - mean) / scale) . coef + intercept)."""

    def __init__(self, spec: dict, n: int):
        try:
            self.mean = np.asarray(spec["mean"], dtype=float)
            self.scale = np.asarray(spec["scale"], dtype=float)
            self.coef = np.asarray(spec["coef"], dtype=float)
            self.intercept = float(spec["intercept"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a model lacks {exc}") from exc
        if not (self.mean.shape == self.scale.shape == self.coef.shape == (n,)):
            raise ValueError(f"a model's vectors are not of the {n} features")

    def proba(self, x) -> np.ndarray:
        z = ((np.asarray(x, dtype=float) - self.mean) / self.scale) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))


class PersonModel:
    """The two decisions and their thresholds, read from the model file's dict."""

    def __init__(self, spec: dict, source: str = FILE):
        if not isinstance(spec, dict) or spec.get("format") != FORMAT or spec.get("version") != VERSION:
            found = spec.get("version") if isinstance(spec, dict) else None
            raise InputError(f"person model of another version ({found!r}; this code reads {VERSION}): "
                             f"retrain it with {TRAIN_COMMAND}", source)
        if tuple(spec.get("features", ())) != FEATURES:
            raise InputError(f"person model with another feature list: retrain it with {TRAIN_COMMAND}", source)
        try:
            self.person = Linear(spec["person"], len(FEATURES))
            self.gender = Linear(spec["gender"], len(FEATURES))
        except (KeyError, ValueError) as exc:
            raise InputError(f"person model unreadable ({exc}): retrain it with {TRAIN_COMMAND}", source) from exc
        self.spec = spec
        self.thresholds = dict(spec.get("thresholds", {}))

    def scores(self, evidence, form: str) -> tuple[float, float]:
        """(P(person), P(feminine | person)) of ``form`` in the book of ``evidence``."""
        x = features(evidence, form)
        return float(self.person.proba(x)), float(self.gender.proba(x))


def read_model(source=None) -> PersonModel:
    """The model of ``source`` (a path; default: the shipped ``resources/person_model.json``)."""
    if source is None:
        from pipeline.formats.resources import resource

        node, name = resource(FILE), f"resources/{FILE}"
    else:
        node, name = Path(source), str(source)
    try:
        text = node.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"person model missing or unreadable ({type(exc).__name__}): train it with "
                         f"{TRAIN_COMMAND}", name) from exc
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"person model is no JSON ({exc.msg}): retrain it with {TRAIN_COMMAND}", name) from exc
    return PersonModel(spec, name)


@functools.lru_cache(maxsize=1)
def shipped_model() -> PersonModel:
    """The shipped model, read once per process."""
    return read_model()


class BookScores:
    """A model bound to one book's evidence, its scores cached per form."""

    def __init__(self, model: PersonModel, evidence):
        self.model, self.evidence, self._cache = model, evidence, {}

    def __call__(self, form: str) -> tuple[float, float]:
        got = self._cache.get(form)
        if got is None:
            got = self._cache[form] = self.model.scores(self.evidence, form)
        return got

    def person(self, form: str) -> float:
        return self(form)[0]

    def gender(self, form: str) -> tuple[str, float]:
        """(gender, its probability) of ``form`` taken as a person."""
        p = self(form)[1]
        return (FEMININE, p) if p >= 0.5 else (MASCULINE, 1.0 - p)
