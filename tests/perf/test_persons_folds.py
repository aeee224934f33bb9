"""Leave-books-out folds and the training of the person model (pipeline/perf/persons.py,
pipeline/core/person_training.py) on hand-made books; the real run on ../shared is skipped
when it is absent."""

from collections import Counter

import pytest

from pipeline.core import person_training as pt
from pipeline.core.person_eval import GoldSpan
from pipeline.lang import person_model as pm
from pipeline.lang.book_evidence import BookEvidence, FormEvidence
from pipeline.perf.persons import fold_of

BOOKS = [f"{n}_book_{n}" for n in (105, 11, 1342, 2600, 45, 514, 6, 77, 8, 9999, 3, 12)]


def test_the_fold_split_is_deterministic_balanced_and_leaves_books_out():
    folds = fold_of(BOOKS, 5)
    assert folds == fold_of(list(reversed(BOOKS)), 5)        # order of the input does not matter
    assert set(folds) == set(BOOKS)                          # every book in exactly one fold
    sizes = Counter(folds.values())
    assert set(sizes) == set(range(5)) and max(sizes.values()) - min(sizes.values()) <= 1
    assert fold_of(BOOKS, 1) == {b: 0 for b in BOOKS}


def _book(i: int):
    """A fake book: persons with titles and pronoun votes, places after prepositions."""
    persons = {f"Per{i}a": "feminine", f"Per{i}b": "masculine", f"Per{i}c": "feminine", f"Per{i}d": "masculine"}
    places = [f"Plac{i}a", f"Plac{i}b", f"Plac{i}c"]
    forms, capital, mid = {}, Counter(), Counter()
    for k, (form, g) in enumerate(persons.items()):
        forms[form] = FormEvidence(person=3 + k, titled=Counter({g: 2}), pronouns=Counter({g: 4 + k}))
        capital[form], mid[form] = 30 + k, 20
    for k, form in enumerate(places):
        forms[form] = FormEvidence(place=5 + k, motion=2)
        capital[form], mid[form] = 12 + k, 10
    ev = BookEvidence(f"b{i}", forms, capital=capital, mid=mid)
    labels = [pt.FormLabel(f, True, g, 3) for f, g in persons.items()] + [pt.FormLabel(f, False, None, 2) for f in places]
    return ev, labels


def test_training_on_a_tiny_fixture_learns_the_obvious_split():
    spec = pt.fit([_book(i) for i in range(6)], books=["a", "b"])
    assert spec["version"] == pm.VERSION and spec["features"] == list(pm.FEATURES)
    assert spec["trained_on"]["person_rows"] == 42 and spec["trained_on"]["gender_rows"] == 24
    model = pm.PersonModel(spec)
    ev, _ = _book(99)
    for form in ("Per99a", "Per99b"):
        assert model.scores(ev, form)[0] > 0.8
    assert model.scores(ev, "Plac99a")[0] < 0.2
    assert model.scores(ev, "Per99a")[1] > 0.8             # feminine
    assert model.scores(ev, "Per99b")[1] < 0.2             # masculine
    import json
    assert json.loads(json.dumps(spec)) == spec           # plain JSON, no pickle


def test_labels_come_from_gold_named_persons_in_the_opening():
    text = "Emma went to Highbury. She met Harriet there. The Vicar came; Emma smiled."
    e1 = text.index("Emma")
    h = text.index("Harriet")
    e2 = text.rindex("Emma")
    vicar = text.index("Vicar")
    she = text.index("She")
    gold = [GoldSpan(e1, e1 + 4, "Emma", "PER", "PROP", "E"), GoldSpan(e2, e2 + 4, "Emma", "PER", "PROP", "E"),
            GoldSpan(she, she + 3, "She", "PER", "PRON", "E"),
            GoldSpan(h, h + 7, "Harriet", "PER", "PROP", "H"),
            GoldSpan(vicar - 4, vicar + 5, "The Vicar", "PER", "NOM", "V")]
    labels = {lab.form: lab for lab in pt.form_labels(text, 0, len(text), gold)}
    assert labels["Emma"].person and labels["Emma"].gender == "feminine" and labels["Emma"].n == 2
    assert labels["Harriet"].person and labels["Harriet"].gender is None     # no pronoun in its cluster
    assert not labels["Highbury"].person
    assert "Vicar" not in labels and "She" not in labels and "The" not in labels


@pytest.mark.slow
@pytest.mark.shared
def test_folds_on_two_books_of_shared(shared_dir, tmp_path):
    from pipeline.perf import persons

    entities = shared_dir / "reference" / "litbank-entities"
    corpus = shared_dir / "corpus" / "litbank"
    if not entities.is_dir() or not corpus.is_dir():
        pytest.skip("LitBank entities or texts absent")
    cases, _ = persons.prepare(entities, corpus, books=["105", "1064"], cache=tmp_path)
    assert {c.doc_id.split("_")[0] for c in cases} == {"105", "1064"}
    before = persons.score_cases(cases)[0]
    cached, _ = persons.prepare(entities, corpus, books=["105", "1064"], cache=tmp_path)
    after = persons.score_cases(cached)[0]
    assert (before.predicted, before.found, before.gender_right) == (after.predicted, after.found, after.gender_right)
