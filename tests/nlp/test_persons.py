"""The person layer (pipeline/nlp/persons.py): hand-written sentences for each name rule,
positive and negative, through the real pipeline of ``nlp.load`` (NER + the layer)."""

from __future__ import annotations

import pytest
from spacy.tokens import Doc, Span

from pipeline.lang.names import group_persons, mention_from_span
from pipeline.nlp import persons


def _persons(nlp, text: str) -> list[str]:
    return [e.text for e in nlp(text).ents if e.label_ == "PERSON"]


def test_layer_is_in_the_loaded_pipeline(nlp):
    assert nlp.pipe_names[-1] == persons.PERSON_LAYER
    assert nlp.pipe_names.index("ner") < nlp.pipe_names.index(persons.PERSON_LAYER)


@pytest.mark.parametrize("text,name", [
    ("Mrs. Grumbit and Kitty saw Fanny with Franz.", "Kitty"),          # NER: ORG / none
    ("Mrs. Grumbit and Kitty saw Fanny with Franz.", "Fanny"),
    ("Mrs. Grumbit and Kitty saw Fanny with Franz.", "Franz"),
    ("Mrs. Grumbit and Kitty saw Fanny with Franz.", "Mrs. Grumbit"),   # title + unknown surname
    ("He went to Polly and Stepan Arkadyevitch.", "Polly"),
    ("Then Una, Cecily and Felicity ran down the lane.", "Una"),       # NER glues "Una, Cecily" (ORG)
    ("Then Una, Cecily and Felicity ran down the lane.", "Cecily"),
])
def test_first_names_the_ner_misses(nlp, text, name):
    assert name in _persons(nlp, text)


def test_russian_patronymic_joins_the_first_name(nlp):
    doc = nlp("He went to Polly and Stepan Arkadyevitch.")
    assert "Stepan Arkadyevitch" in [e.text for e in doc.ents if e.label_ == "PERSON"]
    m = next(mention_from_span(e) for e in doc.ents if e.text == "Stepan Arkadyevitch")
    assert (m.name, m.gender) == ("Stepan Arkadyevitch", "masculine")


def test_title_without_period(nlp):
    doc = nlp("I asked Mr Bennet about it.")
    ents = [e for e in doc.ents if e.label_ == "PERSON"]
    assert [e.text for e in ents] == ["Mr Bennet"]
    m = mention_from_span(ents[0])
    assert (m.title, m.name, m.gender, m.gender_source) == ("Mr", "Bennet", "masculine", "title")


@pytest.mark.parametrize("text,name,gender", [
    ("Amory will go to him one day, and Monsignor Darcy will understand him.", "Monsignor Darcy", "masculine"),
    ("The greatest man in the village was Squire Cass, who lived in the red house.", "Squire Cass", "masculine"),
    ("Citoyenne Grospierre came by the gate.", "Citoyenne Grospierre", "feminine"),
])
def test_forms_of_address_give_the_gender(nlp, text, name, gender):
    got = [(m.text, m.gender, m.gender_source) for m in map(mention_from_span, nlp(text).ents) if m]
    assert (name, gender, "title") in got


def test_a_form_of_address_alone_is_no_name(nlp):
    # "the Squire" / "the cardinal": no capitalised name after the title, so no person
    doc = nlp("The Squire rode out, and the cardinal's man followed.")
    assert [m.text for m in map(mention_from_span, doc.ents) if m and m.title] == []


def test_all_caps_names(nlp):
    assert {"JOHN SMITH", "MRS. WESTON"} <= set(_persons(nlp, "It was then that JOHN SMITH met MRS. WESTON."))


def test_will_as_a_verb_is_not_a_name(nlp):
    assert "Will" not in _persons(nlp, "Will you come with me tomorrow?")
    assert persons.first_name_tier(nlp("Will you come with me tomorrow?")[0]) is None


def test_rose_as_a_flower_is_not_a_name(nlp):
    doc = nlp("She picked a Rose from the garden and gave it to her mother.")
    assert "Rose" not in [e.text for e in doc.ents if e.label_ == "PERSON"]
    assert persons.first_name_tier(doc[3]) is None
    assert not any(c.text == "Rose" for c in persons.candidates(doc))


def test_common_words_at_a_sentence_start(nlp):
    for text in ("Hope is a good thing in the end.", "Mark my words, it will rain."):
        doc = nlp(text)
        assert not persons.candidates(doc), text
    # a common first name at a sentence start is a name when a surname follows
    doc = nlp("John Smith opened the door.")
    assert [c.text for c in persons.candidates(doc)] == ["John Smith"]


def test_month_stays_a_date(nlp):
    doc = nlp("They married in May of that year.")
    assert "May" not in [e.text for e in doc.ents if e.label_ == "PERSON"]


def test_name_inside_a_place(nlp):
    doc = nlp("She moved to Prince Edward Island with her aunt.")
    assert not [e for e in doc.ents if e.label_ == "PERSON"]
    assert not persons.candidates(doc)
    doc = nlp("They were married at Saint Mary's Church in the spring.")
    assert not [e for e in doc.ents if e.label_ == "PERSON"]


def test_place_guard_on_hand_built_doc(nlp):
    # no NER here: the rule alone must reject the run that ends in a place head word
    words = ["He", "lived", "in", "Mary", "Street", "with", "Polly", "."]
    doc = Doc(nlp.vocab, words=words, tags=["PRP", "VBD", "IN", "NNP", "NNP", "IN", "NNP", "."],
              sent_starts=[True] + [False] * 7)
    assert [c.text for c in persons.candidates(doc)] == ["Polly"]


def test_layer_keeps_ner_entities_it_does_not_cover(nlp):
    words = ["The", "History", "of", "Polly", "was", "read", "."]
    doc = Doc(nlp.vocab, words=words, tags=["DT", "NNP", "IN", "NNP", "VBD", "VBN", "."],
              sent_starts=[True] + [False] * 6)
    doc.ents = [Span(doc, 0, 4, label="WORK_OF_ART")]
    persons.add_persons(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("The History of Polly", "WORK_OF_ART")]
    doc.ents = [Span(doc, 3, 4, label="ORG")]
    persons.add_persons(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("Polly", "PERSON")]


def test_ner_person_growing_into_the_full_name(nlp):
    words = ["Then", "Stepan", "Arkadyevitch", "smiled", "."]
    doc = Doc(nlp.vocab, words=words, tags=["RB", "NNP", "NNP", "VBD", "."], sent_starts=[True] + [False] * 4)
    doc.ents = [Span(doc, 1, 2, label="PERSON")]
    persons.add_persons(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("Stepan Arkadyevitch", "PERSON")]


def test_a_window_with_missed_names_now_has_four_persons(nlp):
    text = ("Polly told Kitty that Tom had seen Franz at the gate, and she laughed.")
    doc = nlp(text)
    ms = [m for m in (mention_from_span(e) for e in doc.ents if e.label_ == "PERSON") if m]
    people, ok = group_persons(ms)
    assert ok
    assert sorted((p.name, p.gender) for p in people) == [
        ("Franz", "masculine"), ("Kitty", "feminine"), ("Polly", "feminine"), ("Tom", "masculine")]


def test_prune_marks_cover_the_layer(nlp):
    """Pass 0 of prune marks every name the layer can add (same names in both strategies)."""
    from pipeline.nlp.prune import name_marks

    for text in ("MRS. WESTON met Mr Bennet, Kitty, Franz and Stepan Arkadyevitch.",
                 "Natásha and Sónya ran to meet Borís, and Squire Cass waved to Citoyenne Grospierre."):
        marks = name_marks(nlp.make_doc(text))
        marked = {i for i, _, _ in marks}
        doc = nlp(text)
        assert sum(e.label_ == "PERSON" for e in doc.ents) >= 5
        for e in doc.ents:
            if e.label_ == "PERSON":
                assert e.start in marked, e.text
                m = mention_from_span(e)
                assert m.gender in {g for i, _, g in marks if i == e.start}, e.text


@pytest.mark.slow
def test_strategies_agree_on_the_sample(nlp, root):
    """Instances are identical between --strategy full and --strategy prune on the shipped
    sample (with the person layer in both)."""
    from pipeline.formats.books import read_book
    from pipeline.nlp.prune import parsed_docs
    from pipeline.core.extract import BookMeta, chunk_paragraphs, instances_from_doc

    sample = root / "resources" / "sample"
    books = sorted(p for p in sample.rglob("*") if p.suffix in (".txt", ".epub"))
    assert books
    for path in books:
        book = read_book(path, sample)
        chunks = chunk_paragraphs(book.paragraphs)
        meta = BookMeta(book.book_id, book.title, book.author)
        got = {}
        for strategy in ("full", "prune"):
            keys = set()
            for _, _, parts in parsed_docs(nlp, chunks, strategy):
                for off, doc, only in parts:
                    for inst in instances_from_doc(doc, off, meta, only)[0]:
                        keys.add((inst["instance_id"], inst["a"], inst["b"], inst["text"]))
            got[strategy] = keys
        assert got["full"] == got["prune"], path.name


def _instance_keys(nlp, book, chunks, strategy):
    from pipeline.core.extract import BookMeta, instances_from_doc
    from pipeline.nlp.prune import parsed_docs

    meta = BookMeta(book.book_id, book.title, book.author)
    keys = set()
    for _, _, parts in parsed_docs(nlp, chunks, strategy):
        for off, doc, only in parts:
            for inst in instances_from_doc(doc, off, meta, only)[0]:
                keys.add((inst["instance_id"], inst["a"], inst["b"], inst["text"]))
    return keys


@pytest.mark.slow
def test_strategies_agree_on_a_shared_book(nlp, shared_dir):
    """A few paragraphs of Little Men (Nat, Demi, Franz, Emil: names the small NER misses):
    the same instances in both strategies, and some of them need the person layer."""
    from pipeline.core.extract import chunk_paragraphs
    from pipeline.formats.books import read_book

    corpus = shared_dir / "corpus" / "gutenberg"
    if not (corpus / "2788.txt").exists():
        pytest.skip("Little Men (2788) is not in the shared corpus")
    book = read_book(corpus / "2788.txt", corpus)
    paras = book.paragraphs[300:360]
    chunks = chunk_paragraphs(paras)
    full = _instance_keys(nlp, book, chunks, "full")
    assert full == _instance_keys(nlp, book, chunks, "prune")
    with nlp.select_pipes(disable=[persons.PERSON_LAYER]):
        without = _instance_keys(nlp, book, chunks, "full")
    assert full - without, "the layer finds no new instance in these paragraphs"


def test_text_in_capitals_is_not_a_name(nlp):
    doc = nlp("TO FREDDY AND JOHNNY, THE LITTLE MEN TO WHOM SHE OWES THE BEST HOURS OF HER LIFE.")
    assert not persons.candidates(doc)
    assert [c.text for c in persons.candidates(nlp("The note was signed by JOHN SMITH yesterday."))] == ["JOHN SMITH"]


def test_headings_in_capitals_hold_no_names(nlp):
    for text in ("LITTLE MEN: LIFE AT PLUMFIELD WITH JO'S BOYS", "Contents CHAPTER I. NAT CHAPTER II. THE BOYS"):
        assert not persons.candidates(nlp(text)), text


@pytest.mark.parametrize("text,word,kept", [
    # words the NER glued to a name (issue 42): a verb after it, a preposition before it
    ('I was silent.  Robert Leaven resumed-- "I went to see her."', "Robert Leaven resumed--", "Robert Leaven"),
    ("Concerning Montoni she said nothing.", "Concerning Montoni", "Montoni"),
    ("Annette suddenly screamed at the door.", "Annette suddenly", "Annette"),
    # a possessive ends the person, and no person begins with one ("the Colonel’s Diamond")
    ("The wicked Colonel’s Diamond was gone.", "’s Diamond", "Diamond"),
    ("I saw Rachel’s Diamond there.", "Rachel Diamond", "Rachel’s"),     # first and last token
    # name particles and a couple stay whole
    ("He saw Vincent van Gogh there.", "Vincent van Gogh", "Vincent van Gogh"),
    ("He admired Alexander the Great there.", "Alexander the Great", "Alexander the Great"),
    ("Mr. and Mrs. Weston came in.", "Mr. and Mrs. Weston", "Mr. and Mrs. Weston"),
    ("Will Smith came in.", "Will Smith", "Will Smith"),
])
def test_words_glued_to_a_name_are_trimmed(nlp, text, word, kept):
    from spacy.tokens import Span

    from pipeline.nlp.persons import add_persons

    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name != "person_layer":
            doc = proc(doc)
    words = word.split()
    i = next(i for i in range(len(doc)) if doc[i].text == words[0])
    j = next(j for j in range(i, len(doc)) if doc[j].text == words[-1]) + 1
    doc.ents = [Span(doc, i, j, label="PERSON")]
    doc = add_persons(doc)
    assert kept in [e.text for e in doc.ents if e.label_ == "PERSON"], [(e.text, e.label_) for e in doc.ents]
    assert word == kept or word not in [e.text for e in doc.ents]


def test_a_possessive_before_a_place_word_keeps_the_place(nlp):
    """"Bartlett's Buildings" (NER: one PERSON) is a place, not "Bartlett's" and a building:
    the possessive cut spares a run whose next word is a place head word."""
    from spacy.tokens import Span

    from pipeline.nlp.persons import add_persons

    doc = nlp.make_doc("They lodged in Bartlett's Buildings, Holborn, with Lucy.")
    for name, proc in nlp.pipeline:
        if name != "person_layer":
            doc = proc(doc)
    i = next(i for i in range(len(doc)) if doc[i].text == "Bartlett")
    doc.ents = [Span(doc, i, i + 3, label="PERSON")]
    doc = add_persons(doc)
    assert not [e for e in doc.ents if e.label_ == "PERSON" and "Bartlett" in e.text]
    assert [e.label_ for e in doc.ents if e.text == "Bartlett's Buildings"] == ["FAC"]


@pytest.mark.parametrize("text,name", [
    # the small NER reads "Henry van" and "Luyden": surname particles join the two (read 20261184)
    ("Between them appeared Mr. Henry van der Luyden, tall and spare.", "Henry van der Luyden"),
    ("It was Mr. Henry van der Luyden who came.", "Henry van der Luyden"),
])
def test_surname_particles_join_the_ner_halves_of_one_name(nlp, text, name):
    found = _persons(nlp, text)
    assert name in found, found
    assert "Luyden" not in found and "Henry" not in found


@pytest.mark.parametrize("text,names", [
    ("Tom and Mary came in.", ["Tom", "Mary"]),          # "and" is no particle
    ("Walter of Henry's house came.", None),             # "of" is no surname particle
])
def test_other_words_between_names_do_not_join_them(nlp, text, names):
    found = _persons(nlp, text)
    if names:
        assert all(n in found for n in names), found
    assert not any(" and " in f or " of " in f for f in found), found


def test_the_particles_of_a_titled_surname_belong_to_the_mention(nlp):
    """"Mr. van der Luyden" when the NER's span is only "Luyden" (or "der Luyden"): every
    particle and the title before them are the mention's."""
    from spacy.tokens import Span

    doc = nlp("Mr. van der Luyden greeted her.")
    i = next(t.i for t in doc if t.text == "Luyden")
    m = mention_from_span(Span(doc, i, i + 1, label="PERSON"))
    assert m is not None and m.text == "Mr. van der Luyden" and m.title.startswith("Mr")
