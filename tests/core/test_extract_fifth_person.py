"""Extract refuses a window that holds a further person-like mention besides its four persons
(the clean-variant rules), and counts why. Sentences are parsed by spaCy; where a test needs
the NER to have missed a name, the entity is taken out of the parsed Doc by hand."""

from collections import Counter

import pytest
from spacy.tokens import Span

from pipeline.core import extract as core
from pipeline.core.extract import BookMeta, instances_from_doc
from tests.core.glued import glued_doc

BASE = "Although she admired Clara, Eleanor would not say so to Thomas or to William"
META = BookMeta("t", "T", "A")


def run(nlp, text, drop=(), label=None):
    """Instances and rejection counts of ``text``; the entities whose text is in ``drop`` are
    removed (an NER miss), or relabelled ``label`` when given."""
    doc = nlp(text)
    ents = []
    for e in doc.ents:
        if e.text in drop:
            if label:
                ents.append(Span(doc, e.start, e.end, label=label))
            continue
        ents.append(e)
    doc.ents = ents
    rejected = Counter()
    insts, _, _ = instances_from_doc(doc, 0, META, rejected=rejected)
    return insts, rejected


def test_the_four_persons_alone_give_the_instance(nlp):
    insts, rejected = run(nlp, BASE + ".")
    assert [(i["pronoun"], i["a"], i["b"]) for i in insts] == [("she", "Clara", "Eleanor")]
    assert not rejected


@pytest.mark.parametrize("tail,drop,reason", [
    (", nor to the Lucases.", (), core.REJECT_FAMILY),                       # a family (NNPS)
    (", nor to Sir Walter.", ("Sir Walter",), core.REJECT_TITLED),          # a titled name NER missed
    (", nor to Dr. Jones.", ("Jones", "Dr. Jones"), core.REJECT_TITLED),    # an ungendered title
    (", nor to Fanny.", ("Fanny",), core.REJECT_FIRST_NAME),                # a first name NER missed
    (", and Wickham laughed.", ("Wickham",), core.REJECT_PROPER),           # a surname as a subject
    (", nor to Mrs. Knightley or Doctor Knightley.", (), core.REJECT_TITLE_CLASH),
])
def test_a_fifth_person_like_mention_refuses_the_window(nlp, tail, drop, reason):
    text = BASE.replace("Clara", "Mrs. Knightley") if "Doctor Knightley" in tail else BASE
    text += tail.replace("Mrs. Knightley or ", "") if "Doctor Knightley" in tail else tail
    insts, rejected = run(nlp, text, drop)
    assert insts == []
    assert rejected == Counter({reason: 1})


@pytest.mark.parametrize("tail,drop", [
    (", nor at Longbourn.", ()),              # a place: object of "at"
    (", nor at Longbourn.", ("Longbourn",)),  # ... even where NER marks nothing
    (", nor at St. James's.", ()),            # "St. James's": a place (NER says PERSON "James")
    (", nor in Hertfordshire.", ()),          # a GPE entity
    (".  The Lord is kind.", ()),             # a title before a lower-case word; another sentence
])
def test_places_and_other_words_are_no_fifth_person(nlp, tail, drop):
    insts, rejected = run(nlp, BASE + tail, drop)
    assert [(i["pronoun"], i["a"], i["b"]) for i in insts] == [("she", "Clara", "Eleanor")]
    assert not rejected


@pytest.mark.parametrize("family,refused", [("Westons", False), ("Eltons", True)])
def test_the_family_of_one_of_the_four_is_no_fifth_person(nlp, family, refused):
    doc = nlp(BASE.replace("William", "Mr. Weston") + f", nor to the {family}.")
    doc[len(doc) - 2].tag_ = "NNPS"          # a plural proper noun, as the tagger often reads it
    doc.ents = [e for e in doc.ents if e.label_ == "PERSON"]     # and outside every entity
    rejected = Counter()
    insts, _, _ = instances_from_doc(doc, 0, META, rejected=rejected)
    assert len(insts) == (0 if refused else 1)
    assert rejected == (Counter({core.REJECT_FAMILY: 1}) if refused else Counter())


def test_a_title_shared_by_two_names_refuses_the_window(nlp):
    # "Captain and Mrs. Harville": Mrs. Harville is one of the four, Captain Harville is not
    text = "Although he admired Thomas, William would not say so to Clara or to {} Mrs. Harville."
    insts, rejected = run(nlp, text.format("Captain and"))
    assert insts == [] and rejected == Counter({core.REJECT_COUPLE: 1})
    insts, rejected = run(nlp, text.format("kind"))
    assert [(i["pronoun"], i["a"], i["b"]) for i in insts] == [("he", "Thomas", "William")] and not rejected


def test_a_title_inside_a_place_entity_is_no_person(nlp):
    insts, rejected = run(nlp, BASE + ", nor to Prince Edward Island.", ("Prince Edward Island", "Edward"), "GPE")
    assert len(insts) == 1 and not rejected


def test_a_longer_window_without_the_fifth_person_still_gives_the_instance(nlp):
    # the fifth person is in the sentence before: the one-sentence window is clean
    insts, rejected = run(nlp, "The Lucases came. " + BASE + ".")
    assert [(i["pronoun"], i["a"]) for i in insts] == [("she", "Clara")]
    assert not rejected


def test_rule_switch_and_person_like_report(nlp):
    doc = nlp(BASE + ", and Wickham laughed.")
    doc.ents = [e for e in doc.ents if e.text != "Wickham"]
    from pipeline.core.extract import group_persons, person_mentions

    mentions = person_mentions(doc)
    persons, _ = group_persons(mentions)
    found = core.person_like(doc, list(doc), mentions, persons)
    assert found == {core.REJECT_PROPER: "Wickham"}
    saved = set(core.PERSON_LIKE_RULES)
    try:
        core.PERSON_LIKE_RULES.discard(core.REJECT_PROPER)
        assert core.other_person(doc, list(doc), mentions, persons) is None
    finally:
        core.PERSON_LIKE_RULES.clear()
        core.PERSON_LIKE_RULES.update(saved)


def test_extract_chunks_counts_the_refused_pronouns(nlp):
    text = BASE + ", nor to the Lucases."
    doc = nlp(text)
    _, _, counts = core.extract_chunks([(0, doc, [(0, doc, None)])], META)
    assert counts["rejected"] == {core.REJECT_FAMILY: 1}


@pytest.mark.parametrize("text,refused", [
    # a father and a son under one name: "old Wickham" is not George Wickham
    ("Although she admired Clara, Eleanor would not say so to William or to Thomas Wickham, the son of old Wickham.",
     True),
    ("Although she admired Clara, Eleanor would not say so to William or to Mr. Darcy, the son of the late Mr. Darcy.",
     True),
    # the same person with and without the word: nothing to refuse
    ("Although she admired Clara, Eleanor would not say so to William or to Thomas Wickham, the son of Wickham.",
     False),
    ("Although she admired Clara, Eleanor would not say so to old Wickham or to Thomas.", False),
    # read, seed 20261139: "young Perkins" (the son) grouped with his mother, "Mrs. Perkins"
    ("Although she admired Mrs. Perkins, Eleanor would not say so to William, for young Perkins had hit Thomas.",
     True),
    ("Although she admired Clara, Eleanor would not say so to young Wickham or to Thomas.", False),
    # "little" is no other generation: "little Polly" is mostly Polly herself (tried after the
    # read of seed 20261181's "little Arthur", the son, beside Arthur, his father; it refused 21
    # windows of the 18 novels for that one)
    ("Although she admired Clara, Eleanor would not say so to Arthur, nor to William and little Arthur.", False),
])
def test_one_name_for_two_generations_refuses_the_window(nlp, text, refused):
    doc = nlp(text)
    rejected = Counter()
    core.instances_from_doc(doc, 0, META, rejected=rejected)
    assert (rejected.get(core.REJECT_GENERATIONS, 0) > 0) is refused, (text, rejected)


def check_refusal(doc, reason: str, refused: bool, evidence=None) -> None:
    """``doc``'s windows are refused for ``reason`` (``refused``), or give an instance."""
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(doc, 0, META, evidence=evidence, rejected=rejected)
    assert (rejected.get(reason, 0) > 0) is refused, (doc.text, rejected)
    if not refused:
        assert insts, rejected


def test_a_glued_title_leaves_no_window_of_its_name(nlp):
    # the parser cuts "thanks.--Mrs." | "Smith smiled.": a window never ends at that cut
    # (issue 42: windows start and end at real sentence starts), and the longer windows hold
    # the glued title, refused, or an ungendered Smith
    text = ("Although she admired Clara, Eleanor would not say so to Thomas or to William. "
            "He sent his thanks.--Mrs. Smith smiled.")
    insts, _, _ = core.instances_from_doc(nlp(text), 0, META)
    assert [i["pronoun"] for i in insts] == ["she"]


@pytest.mark.parametrize("text,refused", [
    # a tokenizer that leaves "thanks.--Clara" one token: a Clara no swap would reach
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He sent his thanks.--Clara smiled.",
     True),
    # a glued name that is none of the four, and a glued title
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He sent his thanks.--Margaret smiled.",
     True),
    # glued words that name nobody (gender-guesser calls "The" and "Just" names)
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He sent his thanks.--The end.",
     False),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He sent his thanks.--Just so.",
     False),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He sent his thanks.--But she smiled.",
     False),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He sent his thanks.--She smiled.",
     False),
])
def test_a_name_glued_to_a_word_by_a_dash_refuses_the_window(nlp, text, refused):
    doc = glued_doc(nlp, text)          # as a tokenizer that glues leaves it
    assert any("--" in t.text and t.text != "--" for t in doc), [t.text for t in doc]
    check_refusal(doc, core.REJECT_GLUED, refused)
    # the project's tokenizer splits the stop and the dash off: no glued name is left
    doc = nlp(text)
    assert not any("--" in t.text and t.text != "--" for t in doc), [t.text for t in doc]
    rejected = Counter()
    core.instances_from_doc(doc, 0, META, rejected=rejected)
    assert not rejected.get(core.REJECT_GLUED)


def test_a_name_after_a_stop_dash_is_one_of_the_four_or_a_fifth_person(nlp):
    """With the stop and the dash split off, "thanks.--Clara" is Clara, one of the four (the
    window holds), and "thanks.--Margaret" a fifth person (no 2 + 2 window for "she")."""
    lead = "Although she admired Clara, Eleanor would not say so to Thomas or to William. He sent his thanks.--"
    insts, _, _ = core.instances_from_doc(nlp(lead + "Clara smiled."), 0, META)
    assert "she" in [i["pronoun"] for i in insts]
    with_margaret = [i for i in core.instances_from_doc(nlp(lead + "Margaret smiled."), 0, META)[0]
                     if i["pronoun"] == "she"]
    assert all("Margaret" not in i["text"] for i in with_margaret)


@pytest.mark.parametrize("text,refused", [
    # a rank standing for an unnamed person who is none of the four: swapped whole with her
    # pronouns ("The princess ... her side" -> "The prince ... his side"), consistent (issue 42),
    # unless of the pronoun's gender ("He" beside "the Duke": it may be whom "He" means)
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He stood by the little princess.",
     False),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He bowed to the Duke.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. The princess, sitting on the "
     "other side, smiled.", False),
    # a title one of the four bears that no swap flips: "the Colonel" stays while he changes
    ("Although she admired Clara, Eleanor would not say so to Colonel Thomas or to William. She thanked the Colonel.",
     True),
    # an unnamed colonel is someone else, whose pronouns flip with the rest
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. She thanked the Colonel.",
     False),
    # the rank of one of the four persons: most likely that person, who flips with it, when a
    # person of the other gender bears the flipped rank ("the princess" beside Princess Mary and
    # Prince Andrew); else the flipped rank is nobody's in a swap (read, seed 20261177: "the
    # count's further addresses" beside Count Morano -> "the countess's", no countess there)
    ("Although she admired Princess Clara, Eleanor would not say so to Prince Thomas or to William. He bowed to the "
     "princess.", False),
    ("Although she admired Princess Clara, Eleanor would not say so to Thomas or to William. He bowed to the princess.",
     True),
    # a rank no swap flips, none of the four's: "the Chevalier's discernment" (Valancourt)
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. She praised the Chevalier's taste.",
     True),
    # a rank before a name or "of", a rank without "the", a common "count"
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He bowed to a duke.", False),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He lost the count of the days.",
     False),
])
def test_a_rank_used_as_a_name_refuses_the_window(nlp, text, refused):
    check_refusal(nlp(text), core.REJECT_RANK, refused)


def test_a_glued_first_name_counts_only_if_the_book_writes_it_as_a_name(nlp):
    from pipeline.lang.book_evidence import book_evidence

    text = ("Although she admired Clara, Eleanor would not say so to Thomas or to William. "
            "He sent his thanks.--Rose smiled.")
    book = text + " The rose was red. A rose grew there. She cut a rose. Rose petals fell. The rose died."
    check_refusal(glued_doc(nlp, text), core.REJECT_GLUED, False, book_evidence(book, "t"))
    book = text + " Rose came in. Then Rose left. Rose was tall. Rose and Clara talked."
    check_refusal(glued_doc(nlp, text), core.REJECT_GLUED, True, book_evidence(book, "t"))


@pytest.mark.parametrize("text,refused", [
    ("Although she admired Clara and the Story Girl, Eleanor would not say so to Thomas or to William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William or to the Story Girl.", True),
    # a gendered noun in lower case is no nickname
    ("Although she admired Clara and the girl, Eleanor would not say so to Thomas or to William.", False),
])
def test_a_nickname_made_of_a_gendered_noun_refuses_the_window(nlp, text, refused):
    check_refusal(nlp(text), core.REJECT_NICKNAME, refused)


@pytest.mark.parametrize("text,refused", [
    ("Although she admired Clara, Eleanor would not say so to Thomas or to the Emperor William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to a mere Mr. William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to the future Lord William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to the great William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to Emperor William.", False),
    # "any" and "another" make a kind too (An Old-fashioned Girl: "than any Senor Twankydillo")
    ("Although she admired Clara, Eleanor would rather learn of Thomas than of any Senor William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to another Mr. William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to any of William's friends.", False),
    # a lower-case foreign article (War and Peace: "M. le Général Rameau would occupy Prince
    # Andrew's study", swapped to "M. le Mademoiselle Bourienne")
    ("Although she admired Clara, Eleanor would not say so to Thomas or to M. le Général William.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to le Colonel William.", True),
    # a peerage's name after a rank and "of" (read, seed 20261176, Vanity Fair: "the Marquis of
    # Steyne's carriage-lamps" swapped to "the Marchioness of Rebecca's")
    ("Although she admired Clara, Eleanor saw the Marquis of William's carriage and Thomas.", True),
    ("Although she admired Clara, Eleanor spoke to Thomas and to Lord William of the Blues.", False),
    # an estate's holder (read, seed 20261177, Vanity Fair: "this was the lady of Crawley herself")
    ("Although she admired Clara, Eleanor said the lady of William was ill, and Thomas agreed.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to the friend of William.", False),
])
def test_a_name_after_an_article_refuses_the_window(nlp, text, refused):
    check_refusal(nlp(text), core.REJECT_ARTICLE, refused)


@pytest.mark.parametrize("word,width", [("St.", 2), ("William", 1)])
def test_a_peerage_of_a_saints_name_refuses_the_window(nlp, word, width):
    # The Age of Innocence: "the Duke of St. Austrey" swapped to "the Duchess of Louisa"; the
    # NER's person with "St." or without it
    text = "Although she admired Clara, Eleanor saw the Duke of St. William's carriage and Thomas."
    check_refusal(_relabel(nlp(text), word, "PERSON", width), core.REJECT_ARTICLE, True)
    plain = "Although she admired Clara, Eleanor saw St. William's carriage and Thomas."
    check_refusal(_relabel(nlp(plain), word, "PERSON", width), core.REJECT_ARTICLE, False)


def test_a_place_entity_coordinated_with_a_person_is_person_like(nlp):
    # the small NER makes "Beaumont" a GPE in "Beaumont and Fletcher were everywhere"
    text = "Although she admired Clara, Eleanor would not say so to Thomas or to Beaumont and William."
    doc = nlp(text)
    i = next(t.i for t in doc if t.text == "Beaumont")
    doc.ents = [e for e in doc.ents if e.text != "Beaumont"] + [Span(doc, i, i + 1, label="GPE")]
    check_refusal(doc, core.REJECT_PROPER, True)
    # a place beside a place is none
    doc = nlp("Although she admired Clara in Paris and Vienna, Eleanor would not say so to Thomas or to William.")
    check_refusal(doc, core.REJECT_PROPER, False)


def _relabel(doc, word: str, label: str, width: int = 1):
    i = next(t.i for t in doc if t.text == word)
    doc.ents = [e for e in doc.ents if not (e.start <= i < e.end)] + [Span(doc, i, i + width, label=label)]
    return doc


def test_a_person_the_ner_put_in_another_entity_is_person_like(nlp):
    base = "Although she admired Clara, Eleanor would not say so to Thomas or to William"
    # a first name in a person's role ("which Edward WOULD give her": an ORG of the NER)
    doc = _relabel(nlp(base + ", which Edward would give her."), "Edward", "ORG")
    check_refusal(doc, core.REJECT_FIRST_NAME, True)
    # a one-word organisation in a person's role ("in Tíkhon's face")
    doc = _relabel(nlp(base + ", as Tikhon's face showed."), "Tikhon", "ORG")
    check_refusal(doc, core.REJECT_PROPER, True)
    # a place in a place's role stays a place
    doc = _relabel(nlp(base + " in Oxford."), "Oxford", "GPE")
    check_refusal(doc, core.REJECT_PROPER, False)


def test_a_window_refused_for_an_ambiguous_name_is_listed(nlp):
    """A name that may be either of two persons of the book (old Mr. Osborne or his son George)
    refuses the window, and the refusal is recorded with the window's names."""
    from collections import Counter

    from pipeline.core import extract as core
    from pipeline.lang.book_evidence import book_evidence

    book = "Mr. George Osborne. George Osborne. John Osborne. Mr. Osborne. old Mr. Osborne. "
    text = "Mr. Osborne scowled at George. Amelia and Rebecca said that she was late."
    doc = nlp(text)
    meta = core.BookMeta("vf", "", "")
    rejected, refusals = Counter(), []
    insts, _, _ = core.instances_from_doc(doc, 0, meta, None, book_evidence(book + text, "vf"), rejected, None,
                                          refusals)
    assert insts == [] and rejected == Counter({core.REJECT_AMBIGUOUS_ALIAS: 1})
    assert refusals[0]["reason"] == core.REJECT_AMBIGUOUS_ALIAS and "Mr. Osborne" in refusals[0]["words"]
    assert refusals[0]["pronoun"] == "she"
    # without the book's two Osbornes, the same window is an instance
    insts, _, _ = core.instances_from_doc(doc, 0, meta, None, book_evidence(text, "vf"), Counter(), None, [])
    assert len(insts) == 1


def test_a_man_named_with_a_foreign_article_the_book_makes_speak_is_a_fifth_person(nlp):
    """Read, seed 20261150: "take leave of La Voisin and his family" (the NER: a facility) in a
    book that writes "replied La Voisin": a man of the story, so the window is refused."""
    from pipeline.lang.book_evidence import book_evidence

    text = ("Although she admired Clara, Eleanor would not say so to Thomas or to William. "
            "On the evening before, she went to take leave of La Voisin and his family.")
    book = text + ' "Yes," replied La Voisin. "No," said La Voisin. "Perhaps," answered La Voisin, smiling. ' * 2
    check_refusal(nlp(text), core.REJECT_BOOK_PERSON, True, book_evidence(book, "t"))
    book = text + " They walked towards La Voisin. The house at La Voisin was old. " * 2    # a place: no speech
    check_refusal(nlp(text), core.REJECT_BOOK_PERSON, False, book_evidence(book, "t"))


# read, seeds 20261149 and 20261152: one man's two names set against each other
BOOK_RAYMIE = ("Raymie Wutherspoon came in. Major Raymie Wutherspoon smiled. Raymie Wutherspoon said no. "
               "Major Wutherspoon left. Mr. Kennicott came. Raymie said that he was tired. ") * 3


def _with_persons(nlp, text, forms):
    from spacy.tokens import Span

    doc = nlp(text)
    spans, taken = [], set()
    for form in sorted(forms, key=len, reverse=True):
        words = form.split()
        for i in range(len(doc) - len(words) + 1):
            if [t.text for t in doc[i:i + len(words)]] == words and not taken & set(range(i, i + len(words))):
                spans.append(Span(doc, i, i + len(words), label="PERSON"))
                taken |= set(range(i, i + len(words)))
    doc.ents = sorted(spans, key=lambda s: s.start)
    return doc


@pytest.mark.parametrize("second,refused", [
    ("He was not Raymie; he was Major Wutherspoon; and Kennicott and Carol were grateful when he spoke.", True),
    ("Raymie was now Major Wutherspoon; and Kennicott and Carol were grateful when he spoke.", False),
])
def test_two_names_of_one_person_set_against_each_other_refuse_the_window(nlp, second, refused):
    from pipeline.lang.book_evidence import book_evidence

    text = "Carol saw Vida with Raymie and Kennicott. " + second
    doc = _with_persons(nlp, text, ["Carol", "Vida", "Raymie", "Kennicott", "Major Wutherspoon"])
    check_refusal(doc, core.REJECT_CONTRAST, refused, book_evidence(BOOK_RAYMIE + text, "t"))


# read, seeds 20261135, 20261138, 20261144, 20261150, 20261152: "Gladda meecher, siz Pett"
@pytest.mark.parametrize("book,refused", [
    ('"Gladda meecher, siz Pett," she said. "Siz Pett sent me." "Yes, siz Pett." ', True),
    # a rare word the book also writes before lower-case words is no title
    ('"Gladda meecher, siz Pett," she said. It was siz in the morning. ', False),
    # written once: not enough to tell
    ('"Gladda meecher," she said. ', False),
])
def test_a_name_after_a_title_of_dialect_refuses_the_window(nlp, book, refused):
    from pipeline.lang.book_evidence import book_evidence

    text = "Clara and Eleanor saw Thomas. Although she admired siz Pett, Eleanor would not say so to Thomas."
    doc = _with_persons(nlp, text, ["Clara", "Eleanor", "Thomas", "Pett"])
    check_refusal(doc, core.REJECT_DIALECT, refused, book_evidence(book * 2 + "Mr. Pett came. " * 2, "t"))


def test_a_rare_verb_before_names_is_no_title_of_dialect():
    from pipeline.lang.book_evidence import book_evidence

    ev = book_evidence('"No," drawled Terry. "Yes," drawled Jeff. ' * 2, "t")
    assert not ev.dialect_title("drawled")


# read, seeds 20261138, 20261140, 20261153, 20261160, 20261165 (Betty / Mrs. Athelny) and
# 20261161 (Emma / Mrs. Micawber): a wife married before the book, whose given name only her
# family speaks, beside her titled name
BOOK_BETTY = ('"Here\'s Mr. Carey, Betty," said Athelny. "My Betty is tired." "Come, Betty." '
              "Mrs. Athelny was a large woman. Athelny laughed and he sat. Athelny said he would. Sally came in. ") * 2
WINDOW_BETTY = ('"Here\'s Mr. Carey, Betty," said Athelny. "Fancy bringing him in here." '
                "Mrs. Athelny was a large woman, taller than her husband.")


@pytest.mark.parametrize("book,window,refused", [
    (BOOK_BETTY, WINDOW_BETTY, True),
    # ... single curly quotation marks, whose closing mark is also the apostrophe
    (BOOK_BETTY.replace('"', "\u2018", 1).replace("'", "\u2019"), WINDOW_BETTY, True),
    # a given name the narration uses too (Sally) is a person of her own
    (BOOK_BETTY + "Betty sat down. Betty smiled. Betty left. Betty came. " * 2, WINDOW_BETTY, False),
    # a given name the book writes with a surname is someone the book can name in full
    (BOOK_BETTY + ('"Betty Nixon is here," he said. Mr. Nixon came. ' * 2), WINDOW_BETTY, False),
    # the other woman unmarried: "Miss Athelny" is no wife
    (BOOK_BETTY.replace("Mrs.", "Miss"), WINDOW_BETTY.replace("Mrs.", "Miss"), False),
    # a pet form of a given name the book writes more often is that woman's (Lizzy, Elizabeth)
    (BOOK_BETTY + "Elizabeth sat down. " * 30, WINDOW_BETTY, False),
])
def test_a_given_name_only_spoken_beside_a_married_womans_title_refuses_the_window(nlp, book, window, refused):
    from pipeline.lang.book_evidence import book_evidence

    doc = _with_persons(nlp, window, ["Mr. Carey", "Betty", "Athelny", "Mrs. Athelny", "Miss Athelny"])
    check_refusal(doc, core.REJECT_SPOKEN, refused, book_evidence(book, "t", model=None))
    if refused:                         # no book: nothing is known to be spoken only
        rejected = Counter()
        core.instances_from_doc(doc, 0, META, evidence=None, rejected=rejected)
        assert core.REJECT_SPOKEN not in rejected


def test_speech_only_counts_given_names_written_inside_quotation_marks():
    from pipeline.lang.book_evidence import book_evidence

    ev = book_evidence(BOOK_BETTY, "t", model=None)
    assert ev.speech_only["Betty"] == 6
    assert not ev.speech_only["Sally"]                  # narrated
    assert not ev.speech_only["Athelny"]                # no given name
    # a speech running on to the paragraph's end (continued in the next) is still a speech
    ev = book_evidence('"Come, Betty, come.\n\n"Betty, sit." He sat. "Betty!" she cried.\n\n' * 2, "t", model=None)
    assert ev.speech_only["Betty"] == 6


# read, seed 20261169 (North and South, which quotes with straight single marks): Higgins's
# "'Miss Marget--Miss Hale--th' oud parson's daughter'" made Margaret two women of the window
BOOK_MARGET = ("'Measter,' said he, 'yo' know Margaret.' Margaret smiled. Margaret said so. "
               "Mr. Hale said that Margaret would go.\n") * 6 + "'Have yo' heerd aught of Miss Marget lately?'\n"


def test_a_book_quoting_with_straight_single_marks_has_speeches_too():
    from pipeline.lang.book_evidence import _speeches, book_evidence

    ev = book_evidence(BOOK_MARGET, "t", model=None)
    assert ev.spoken_spellings == {"Marget": "Margaret"}
    # the dialect's apostrophes close no speech; a stop, a comma or a dash before the mark does
    said = "'Have yo' heerd of th' oud parson's daughter, Margaret?' said he. Then Hale came.\n"
    assert _speeches(said * 3).sub("#", said) == "# said he. Then Hale came.\n"
    # "'tis" and "'em" open none
    told = "He said 'tis Margaret who came, and give 'em bread.\n"
    assert _speeches(said * 3).sub("#", told) == told
    # a book quoting with double marks: straight singles are apostrophes only
    ev = book_evidence(BOOK_MARGET.replace("'Measter,' said he, 'yo' know Margaret.'", '"Come," said he.'), "t", model=None)
    assert ev.spoken_spellings == {}


# read, seeds 20261143 to 20261166 (The Beautiful and Damned): Tana's "What Miz Pats want
# dinner?" is Mrs. Patch, Gloria, who stands beside her in the window
BOOK_PATCH = ("Mr. Patch came. Adam Patch said so. Patch said no. Mrs. Patch smiled. Patch's hand shook. " * 5
              + '"What Miz Pats want dinner?" he would say. "Yes, Mr. Pats," said Tana. ')


def test_spoken_spellings_are_rare_spoken_names_that_respell_a_frequent_one():
    from pipeline.lang.book_evidence import book_evidence

    ev = book_evidence(BOOK_PATCH, "t", model=None)
    assert ev.spoken_spellings == {"Pats": "Patch"}
    # written once in the narration too: a name of its own
    ev = book_evidence(BOOK_PATCH + "Pats came in. ", "t", model=None)
    assert "Pats" not in ev.spoken_spellings
    # a frequent name the book never shows as a person has no respellings
    ev = book_evidence("The Patch was green. " * 25 + '"What Miz Pats want?" he said. ', "t", model=None)
    assert ev.spoken_spellings == {}


WINDOW_TANA = ("It was the instinct of all servants to be fond of Anthony and to detest Gloria, and Tana was no "
               "exception. But he made plain his aversion by addressing Anthony: \"What Miz Pats want dinner?\" he would say.")


@pytest.mark.parametrize("window,refused", [
    (WINDOW_TANA, True),
    # after a given name the word is a full name of its own ("Ned Miller" beside the Mills)
    (WINDOW_TANA.replace("Miz Pats", "Ellen Pats"), False),
])
def test_a_rare_spoken_respelling_of_a_name_refuses_the_window(nlp, window, refused):
    from pipeline.lang.book_evidence import book_evidence

    book = BOOK_PATCH + ("Gloria said so. Muriel said so. Anthony said he would. Tana said he would. "
                         "Gloria smiled and she sat. Muriel sat and she smiled. Ellen said she would. ") * 3
    doc = _with_persons(nlp, window, ["Gloria", "Muriel", "Anthony", "Tana", "Miz Pats", "Ellen Pats"])
    check_refusal(doc, core.REJECT_RESPELT, refused, book_evidence(book, "t", model=None))


BOOK_COLES = ("Mr. Cole came. John Cole said so. Mr. Elton came. Mrs. Elton smiled. Clara said so. "
              "Eleanor said she would. Thomas said he would. William said he would. ") * 3


@pytest.mark.parametrize("tail,refused", [
    # a family the NER labels PERSON, none of the four's: a fifth person (Emma: "the Coles knew of it")
    (", nor to the Coles.", True),
    # ... the family of one of the four is no fifth ("the Eltons" beside Mr. Elton)
    (", nor to the Eltons.", False),
])
def test_a_familys_plural_in_a_window_is_a_fifth_person_unless_the_family_of_one_of_the_four(nlp, tail, refused):
    from pipeline.lang.book_evidence import book_evidence

    text = "Although she admired Clara, Eleanor would not say so to Thomas or to Mr. Elton" + tail
    family = tail.split()[-1].rstrip(".")
    doc = _with_persons(nlp, text, ["Clara", "Eleanor", "Thomas", "Mr. Elton", family])
    check_refusal(doc, core.REJECT_FAMILY, refused, book_evidence(BOOK_COLES, "t", model=None))


@pytest.mark.parametrize("label", ["ORG", None])
def test_a_titled_name_with_a_particle_or_inside_another_entity_is_a_fifth_person(nlp, label):
    """Read, seed 20261167 (The Scarlet Pimpernel): "this comely tirade of Lady Portarles' led
    the Comtesse de Tournay" beside Lord Grenville, M. Chauvelin and Marguerite Blakeney; French
    ranks are titles (resources/titles.tsv) and a particle may stand between a title and the name."""
    from pipeline.lang.names import title_gender

    assert (title_gender("Comtesse"), title_gender("Vicomte"), title_gender("Duchesse")) == ("feminine", "masculine", "feminine")
    doc = nlp(BASE + ", nor to the Comtesse de Tournay.")
    i = next(t.i for t in doc if t.text == "Comtesse")
    doc.ents = [e for e in doc.ents if e.end <= i - 1 and e.label_ == "PERSON"] + (
        [Span(doc, i, i + 3, label=label)] if label else [])
    rejected = Counter()
    insts, _, _ = instances_from_doc(doc, 0, META, rejected=rejected)
    assert insts == [] and rejected == Counter({core.REJECT_TITLED: 1})
    # a novel's title is no person (An Old-fashioned Girl: deep in “Lady Audley's Secret”)
    doc = nlp(BASE + ", nor to the Comtesse de Tournay.")
    doc.ents = [e for e in doc.ents if e.end <= i - 1 and e.label_ == "PERSON"] + [Span(doc, i, i + 3, label="WORK_OF_ART")]
    insts, _, _ = instances_from_doc(doc, 0, META)
    assert len(insts) == 1
    # a title before a lower-case word that is no particle names no one
    doc = nlp(BASE + ", nor to the Comtesse of the house.")
    doc.ents = [e for e in doc.ents if e.label_ == "PERSON"]
    insts, _, _ = instances_from_doc(doc, 0, META)
    assert len(insts) == 1


# read of seed 20261175 (The Man of the Forest): "Tom" is a tame cougar in most of the book and
# Tom Carmichael's given name; "If Tom doesn't come back" beside Carmichael kept Tom in every variant
BOOK_TOM = ("Tom, the tame cougar, followed Dale. Tom purred like a big cat. The cougar Tom slept. "
            "Tom Carmichael rode in. Tom Carmichael laughed. Mr. Carmichael said he would stay. Helen smiled. ") * 2
WINDOW_TOM = ("Helen thought she guessed Mary's secret; and once she ventured a hint concerning Mr. Carmichael's "
              "return. \"If Tom doesn't come back pretty soon I'll marry Milt Dale,\" retorted Mary.")


@pytest.mark.parametrize("book,window,refused", [
    (BOOK_TOM, WINDOW_TOM, True),
    # the man's given name written with his surname once only: the cougar, as before
    (BOOK_TOM.replace("Tom Carmichael laughed. ", "").replace("Tom Carmichael rode in. ", "", 1), WINDOW_TOM, False),
    # no person of that surname among the four: the cougar, as before
    (BOOK_TOM, WINDOW_TOM.replace("Mr. Carmichael's", "Mr. Roy's"), False),
])
def test_a_word_the_book_makes_no_person_but_a_given_name_of_one_of_the_four_refuses_the_window(
        nlp, book, window, refused):
    from pipeline.lang.book_evidence import book_evidence

    ev = book_evidence(book, "t", model=None)
    assert ev.is_animal("Tom")
    doc = _with_persons(nlp, window, ["Helen", "Mary", "Mr. Carmichael", "Mr. Roy", "Tom", "Milt Dale"])
    check_refusal(doc, core.REJECT_NOT_PERSON_NAME, refused, ev)


# read of seed 20261175 (David Copperfield): "Edward", whom only his wife and sister say, is Mr.
# Murdstone ("'Do you think it did Edward harm, Clara?' asked Mr. Murdstone": one man as two).
# The women's rule above, tried for men, refused 8 windows wrongly for this one (Charles beside
# Mr. Darcy is Bingley; Gil beside Mr. Phillips is Gilbert Blythe): men's given names are spoken
# more freely, so a man's spoken given name beside "Mr. S" stays a man of his own.
BOOK_EDWARD = ('"Edward, be calm," said Clara. "Edward is right," said she. "Come, Edward." '
               "Mr. Murdstone was a dark man. Mr. Murdstone said he would. Jane sat down. Clara smiled. ") * 2
WINDOW_EDWARD = ("'But do you think it did Edward good?' asked Clara. 'Do you think it did Edward harm, Jane?' "
                 "asked Mr. Murdstone, gravely. 'That is the point,' said his sister.")


def test_a_mans_given_name_only_spoken_beside_mr_is_a_man_of_his_own(nlp):
    from pipeline.lang.book_evidence import book_evidence

    ev = book_evidence(BOOK_EDWARD, "t", model=None)
    assert ev.speech_only["Edward"]
    doc = _with_persons(nlp, WINDOW_EDWARD, ["Edward", "Clara", "Jane", "Mr. Murdstone"])
    check_refusal(doc, core.REJECT_SPOKEN, False, ev)


# read of seed 20261176 (North and South): "The Boucher children, left motherless orphans,
# claimed what of Margaret's care she could bestow ... at the time of Boucher's death": the
# cast makes the first "Boucher" no person (a name before a noun), the swap left it while
# Margaret became "Boucher"
def test_a_word_of_one_of_the_four_the_cast_makes_no_person_refuses_the_window(nlp):
    text = ("The Boucher children claimed what of Margaret's care she could bestow, and she went to see Mary. "
            "The neighbour had struck Margaret at the time of Boucher's death, and Nicholas paid her.")
    doc = _with_persons(nlp, text, ["Boucher", "Margaret", "Mary", "Nicholas"])
    assert doc[1].text == "Boucher"
    # the first "Boucher" dropped by the cast (whatever its reason): a word of one of the four
    mentions = [m for m in core.doc_mentions(doc) if m.token_start != 1]
    persons, ok = core.group_persons(mentions)
    assert ok and len(persons) == 4
    assert core.other_person_word(doc, list(doc), mentions, persons, not_persons={1}) == (core.REJECT_UNMARKED, "Boucher")
    # ... not the first word of a place's name ("Howard Grove", Lady Howard's house)
    place = _with_persons(nlp, text.replace("The Boucher children", "Boucher Grove's children"),
                          ["Boucher", "Margaret", "Mary", "Nicholas"])
    assert place[0].text == "Boucher"
    ms = [m for m in core.doc_mentions(place) if m.token_start != 0]
    ps, _ = core.group_persons(ms)
    got = core.other_person_word(place, list(place), ms, ps, not_persons={0})
    assert got is None or got[0] != core.REJECT_UNMARKED
    # ... not when it is a word of none of the four
    others = [m for m in mentions if m.name != "Boucher"]
    persons, _ = core.group_persons(others)
    got = core.other_person_word(doc, list(doc), others, persons, not_persons={1})
    assert got is None or got[0] != core.REJECT_UNMARKED
