"""The gendered word list and flip(): hand-written cases and checks of the whole list."""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.lang import gendered_words as gw
from pipeline.lang.pronouns import FEMININE, MASCULINE, opposite


@pytest.mark.parametrize("word, tag, expected", [
    ("he", None, "she"), ("she", None, "he"),
    ("her", "PRP", "him"), ("her", "PRP$", "his"), ("him", "PRP", "her"),
    ("his", "PRP$", "her"), ("his", "PRP", "hers"), ("hers", "PRP", "his"),
    ("hers", "NNS", "his"),                      # the tagger's usual mistake does not matter
    ("himself", "PRP", "herself"), ("herself", "PRP", "himself"),
])
def test_pronouns(word, tag, expected):
    assert gw.flip(word, tag) == expected


@pytest.mark.parametrize("word, expected", [
    ("He", "She"), ("HE", "SHE"), ("Mr.", "Mrs."), ("MRS.", "MR."), ("Gentlemen", "Ladies"),
    ("HIMSELF", "HERSELF"), ("Uncle", "Aunt"),
])
def test_case_is_kept(word, expected):
    assert gw.flip(word) == expected


def test_her_his_by_tag_keeps_case():
    assert gw.flip("Her", "PRP$") == "His"
    assert gw.flip("Her", "PRP") == "Him"
    assert gw.flip("HIS", "PRP") == "HERS"


@pytest.mark.parametrize("word, expected", [
    ("man's", "woman's"), ("boys'", "girls'"), ("Father's", "Mother's"), ("woman’s", "man’s"),
    ("king’s", "queen’s"), ("Miss.", "Sir."), ("sir.", "madam."),
])
def test_possessives_and_final_period(word, expected):
    assert gw.flip(word) == expected


def test_tag_gate_for_non_pronouns():
    assert gw.flip("count", "VB") is None          # "he would count the money"
    assert gw.flip("miss", "VBP") is None
    assert gw.flip("Count", "NNP") == "Countess"
    assert gw.flip("count") == "countess"          # no tag: always flipped
    assert gw.flip("her", "VB") == "him"           # pronouns are never gated


def test_marked_feminine_is_one_directional():
    assert gw.flip("authoress") == "author"
    assert gw.flip("author") is None
    assert gw.gender_of("author") is None
    assert gw.gender_of("authoress") == FEMININE


def test_maiden_flips_as_a_noun_only():
    # read, seed 20261138: "the nobler-minded maiden" kept when Cora's slot held a man
    assert gw.flip("maiden", "NN") == "youth"
    assert gw.flip("Maidens", "NNS") == "Youths"
    assert gw.flip("damsel", "NN") == "youth"
    assert gw.flip("maiden", "JJ") is None          # "her maiden name", "a maiden aunt"
    assert gw.flip("youth", "NN") is None           # "in his youth": one-directional
    assert gw.flip("authoress", "JJ") is None
    # read, seed 20261140: "by the side of that nymph" (Volumnia) kept for a man
    assert gw.flip("nymph", "NN") == "youth" and gw.flip("mermaid", "NN") == "merman"


def test_first_pair_decides():
    assert gw.flip("lady") == "gentleman"
    assert gw.flip("lord") == "lady"
    assert gw.flip("miss") == "sir"


def test_pronoun_tag_uses_dependency():
    assert gw.pronoun_tag("his", "PRP$", "pobj") == "PRP"     # "a friend of his"
    assert gw.pronoun_tag("His", "PRP$", "nsubj") == "PRP"    # "His was the better one"
    assert gw.pronoun_tag("her", "PRP", "poss") == "PRP$"
    assert gw.pronoun_tag("her", "PRP", "dative") == "PRP"
    assert gw.pronoun_tag("her", "PRP$", None) == "PRP$"
    assert gw.pronoun_tag("man", "NN", "poss") == "NN"


def test_unlisted_words():
    for w in ("table", "the", "said", "person", "child", "", "Emma"):
        assert gw.flip(w) is None and gw.gender_of(w) is None


# ------------------------------------------------------------------ the list itself ------

def test_list_size_and_categories():
    rows = gw.pairs()
    assert len(rows) >= 300
    cats = Counter(c for _, _, c in rows)
    for needed in ("pronoun", "kinship", "title", "occupation", "general", "possessive"):
        assert cats[needed] > 0, needed
    plurals = sum(1 for m, f, _ in rows if m.endswith(("s", "men")) and f.endswith(("s", "men")))
    assert plurals >= 80


def test_list_rows_are_well_formed():
    rows = gw.pairs()
    assert len(set(rows)) == len(rows), "duplicate rows"
    for m, f, c in rows:
        assert m and f and m != f and c
        assert m == m.strip().lower() and f == f.strip().lower()
        assert "\t" not in m + f


def test_no_word_is_both_genders():
    masc = {m for m, _, c in gw.pairs() if c != gw.MARKED_FEMININE}
    fem = {f for _, f, _ in gw.pairs()}
    assert not (masc & fem)


def test_every_listed_word_flips_to_the_opposite_gender():
    for m, f, c in gw.pairs():
        words = [f] if c == gw.MARKED_FEMININE else [m, f]
        for w in words:
            g = gw.gender_of(w)
            assert g in (MASCULINE, FEMININE), w
            for tag in (None, "NN", "PRP", "PRP$"):
                out = gw.flip(w, tag)
                assert out is not None, (w, tag)
                want = None if c == gw.MARKED_FEMININE else opposite(g)
                assert gw.gender_of(out) == want, (w, tag, out)


def test_flip_of_flip_has_the_original_gender():
    for m, f, c in gw.pairs():
        if c == gw.MARKED_FEMININE:
            continue
        for w in (m, f):
            assert gw.gender_of(gw.flip(gw.flip(w))) == gw.gender_of(w), w


def test_a_gendered_noun_the_tagger_calls_a_verb_flips_when_no_verb_has_its_form():
    # read, seed 20261177 (Middlemarch): "the time she should have to spend as bridesmaid at
    # Lowick", "bridesmaid" tagged VBN, kept in the swap beside Mr. Tucker
    assert gw.builtin().is_gendered_use("bridesmaid", "VBN")
    assert gw.builtin().is_gendered_use("boys", "VBZ")
    assert not gw.builtin().is_gendered_use("miss", "VB")           # "I miss you"
    assert not gw.builtin().is_gendered_use("count", "VB")          # "count the money"
    assert not gw.builtin().is_gendered_use("mothering", "VBG")


@pytest.mark.parametrize("text,word,nth,flipped", [
    # idioms of "do": "her" is an object (issue 42)
    ("Elizabeth, to do her justice, had gone.", "her", 0, "him"),
    ("It does her credit.", "her", 0, "him"),
    ("It did her good to walk.", "her", 0, "him"),
    ("She did her good work.", "her", 0, "his"),
    ("He took her hand.", "her", 0, "his"),
    # italics marks: decided from the word after them
    ("Make her the leader, while _her_ poor boy had to go.", "her", 1, "his"),
    ("It was _her_ fault.", "her", 0, "his"),
    ("He saw _her_ and left.", "her", 0, "him"),
    ("I told _her_ the truth.", "her", 0, "him"),
    ("The book is _his_.", "his", 0, "hers"),
    # a determiner the parser labelled a subject ("marked" read as a verb)
    ("He had rarely seen her shy or dry, her marked thin-lipped smile, intense without brightness.", "her", 1, "his"),
    ("He had rarely seen her shy or dry, her marked thin-lipped smile, intense without brightness.", "her", 0, "him"),
    ("It made her very happy.", "her", 0, "him"),
    # a verb of making, "her" and a bare verb before a clause or "to": an object (read, seed
    # 20261193: "made his regret that he had said so much")
    ("As she spoke, she felt that Captain Wentworth was looking at her, the consciousness of which vexed and "
     "embarrassed her, and made her regret that she had said so much, simple as it was.", "her", 2, "him"),
    ("He made her promise to write every week.", "her", 0, "him"),
    ("She made her way to the door.", "her", 0, "his"),
    ("He made her fortune that year.", "her", 0, "his"),
    # "his back": a determiner before the noun the parser read as an adverb (read, seed
    # 20261193: "nearly turning hers back to them all")
    ('Two minutes after her entering the room, Captain Wentworth said--\n\n"We will write the letter we were '
     'talking of, Harville, now, if you will give me materials."\n\nMaterials were at hand, on a separate table; '
     'he went to it, and nearly turning his back to them all, was engrossed by writing.', "his", 0, "her"),
    ("He turned his back on her.", "his", 0, "her"),
    # an independent "his" before a determiner: never "her the"
    ("I found among his the handwriting of his wife.", "his", 0, "hers"),
    ("I found among his the handwriting of his wife.", "his", 1, "her"),
    # locative inversion: the name at the clause's end is the subject, "her" an object
    # (read, seed 20261138: "After her hobbled old Sykes" swapped to "After his hobbled")
    ("The meeting was in the big room. After her hobbled old Sykes. Rob hurried in.", "her", 0, "him"),
    ("Behind her loomed Mr. Smith; he was angry.", "her", 0, "him"),
    ("Behind her stood Elizabeth Bennet, pale.", "her", 0, "him"),
    ("She wrote after her beloved Edward.", "her", 0, "his"),
    ("After her marriage she left.", "her", 0, "his"),
    ("After her crooked smile, Mr. Jones left.", "her", 0, "his"),
    # a verb of taking someone somewhere before the adverb "home" (read, seed 20261142:
    # "accompany her home" -> "accompany his home")
    ("My intention was to join Mrs. Mirvan, and accompany her home.", "her", 0, "him"),
    ("He saw her home and left.", "her", 0, "him"),
    ("He visited her home in the country.", "her", 0, "his"),
    ("They reached her home.", "her", 0, "his"),
    # (read, seed 20261144: "ordered her servant to attend her home" -> "attend his home")
    ("She had ordered her servant to attend her home.", "her", 1, "him"),
    # "her every": a determiner, but an object after a verb of giving and before a time
    # (read, seed 20261144: "which still thrilled her every nerve" -> "thrilled him every nerve")
    ("The subject still thrilled her every nerve with horror.", "her", 0, "his"),
    ("He watched her every movement.", "her", 0, "his"),
    ("She hung on her every word.", "her", 0, "his"),
    ("They wished her every happiness.", "her", 0, "him"),
    ("He offered her every comfort.", "her", 0, "him"),
    ("I saw her every day at the window.", "her", 0, "him"),
    # a thing in -ing (read, seed 20261146: "laying her knitting down" -> "laying him knitting down")
    ('"If it were so," returned Mrs. Garth, laying her knitting down beside her.', "her", 0, "his"),
    ("She put her sewing aside.", "her", 0, "his"),
    ("He heard her singing in the garden.", "her", 0, "him"),
    # an "adjective" the parser makes the object is a noun (read, seed 20261147: "Emily touched
    # her lute" -> "touched him lute"); a complement keeps "her" an object
    ("Emily touched her lute with that fine melancholy expression.", "her", 0, "his"),
    ("He set her free.", "her", 0, "him"),
    ("She kept her ready for the journey.", "her", 0, "him"),
    ("He made her happy.", "her", 0, "him"),
    # a noun as the state of a verb of making (read, seed 20261153: "had made her fat" -> "his fat")
    ("Advancing years and the bearing of many children had made her fat and blousy.", "her", 0, "him"),
    ("The years had made her fat.", "her", 0, "him"),
    ("She had made her fortune in the city.", "her", 0, "his"),
    ("He made her way easier.", "her", 0, "his"),
    ("They left her money to the church.", "her", 0, "his"),
    # a farewell bidden: "her" the one spoken to (the pool's scan of seed 20261147's code)
    ("I will at least write and bid her adieu; I will.", "her", 0, "him"),
    ("He bade her farewell.", "her", 0, "him"),
    ("She wished her good-night.", "her", 0, "him"),
    ("He bade her sister farewell.", "her", 0, "his"),
    # a verb that is no noun after "her": a bare infinitive, "her" its subject (read, seed 20261175:
    # "who had never known her perform so well" -> "known his perform")
    ("It was to the wonder of Amelia, who had never known her perform so well.", "her", 0, "him"),
    ("He had known her suffer.", "her", 0, "him"),
    ("The child made her weep.", "her", 0, "him"),
    ("Thea had one friend in the person of her addle-pated aunt.", "her", 0, "his"),
    ("He took her perfume.", "her", 0, "his"),
    ("They watched her dance.", "her", 0, "his"),       # a noun too: the tagger decides
    # "wont", split "wo" "nt" like a "won't" without its apostrophe (read, seed 20261175: "as
    # was her wont" -> "as was him wont")
    ("Bessy was rocking herself violently backwards and forwards, as was her wont (Margaret knew by "
     "this time) when she was agitated.", "her", 0, "his"),
    ("It was his wont to walk by the river.", "his", 0, "her"),
])
def test_her_and_his_in_idioms_and_italics(nlp, text, word, nth, flipped):
    doc = nlp(text)
    tok = [t for t in doc if t.lower_ == word][nth]
    assert gw.flip(tok.text, gw.pronoun_tag(tok.text, tok.tag_, tok.dep_)) == flipped, (tok.tag_, tok.dep_)


@pytest.mark.parametrize("word,opposite", [
    # French and Italian forms of address to a young woman (read, seed 20261127: "'No,
    # ma'amselle,' to Emily" kept when a man held her slot)
    ("ma'amselle", "monsieur"), ("Mademoiselle", "Monsieur"), ("signorina", "signorino"),
    # the first pair listed still decides the masculine word's opposite
    ("monsieur", "madame"), ("Signor", "Signora"),
])
def test_forms_of_address_to_young_women_flip(word, opposite):
    from pipeline.lang.gendered_words import flip

    assert flip(word) == opposite


def test_remembered_lookups_answer_as_a_fresh_list(monkeypatch):
    """A WordList remembers each word's lookup (its tables never change once built): every
    answer equals a fresh list's, asked twice, and after the memory starts afresh."""
    words = ["her", "His", "Miss.", "man's", "BOYS'", "Lady", "count", "table", "king’s", "Mr.", "tigress", ""]
    fresh = gw.load([])
    listed = gw.WordList.from_tables([("t", {w: v for w, v in [("man", ("woman", MASCULINE, "noun")),
                                                               ("boy", ("girl", MASCULINE, "noun"))]}, True)])

    def answers(wl):
        return [(wl.is_listed(w), wl.gender_of(w), wl.category_of(w), wl.flip(w), wl.flip(w, "VB"),
                 wl.flip_title(w), wl.is_gendered_use(w, "NN")) for w in words]

    for wl in (fresh, listed):
        first = answers(wl)
        assert answers(wl) == first
        wl._bases.clear()
        assert answers(wl) == first
    monkeypatch.setattr(gw, "_MAX_REMEMBERED", 3)
    small = gw.WordList.from_tables([("t", {"man": ("woman", MASCULINE, "noun")}, True)])
    reference = gw.WordList.from_tables([("t", {"man": ("woman", MASCULINE, "noun")}, True)])
    got = answers(small)
    assert len(small._bases) <= 3
    monkeypatch.setattr(gw, "_MAX_REMEMBERED", 10**6)
    assert got == answers(reference)


# ------------------------------------------- pronoun case on the tagger's own readings ------
# (read, seed 20261184: in the book's chunk the tagger read these "her" as determiners; a Doc
# built with those tags tests the rule whatever the tagger says of the sentence alone)

def _tagged(words_tags):
    import spacy
    from spacy.tokens import Doc

    words = [w for w, _ in words_tags]
    tags = [t for _, t in words_tags]
    deps = ["poss" if t == "PRP$" else "dep" for t in tags]
    return Doc(spacy.blank("en").vocab, words=words, tags=tags, deps=deps, heads=list(range(len(words))))


@pytest.mark.parametrize("words_tags,case", [
    # after a verb of giving, a name alone is the thing given: "her" the one it is given to
    ([("a", "DT"), ("glance", "NN"), ("showed", "VBD"), ("her", "PRP$"), ("Darcy", "NNP"), (",", ","),
      ("with", "IN"), ("a", "DT"), ("smile", "NN")], "PRP"),
    ([("he", "PRP"), ("told", "VBD"), ("her", "PRP$"), ("Mr.", "NNP"), ("Collins", "NNP"), ("was", "VBD"),
      ("ill", "JJ")], "PRP"),
    # a proper noun before her noun is its modifier: hers
    ([("she", "PRP"), ("showed", "VBD"), ("her", "PRP$"), ("Paris", "NNP"), ("bonnet", "NN"), (".", ".")], "PRP$"),
    ([("she", "PRP"), ("gave", "VBD"), ("her", "PRP$"), ("Sunday", "NNP"), ("gown", "NN"), ("away", "RB")], "PRP$"),
    # a verb of judging, an adjective and no noun: her state, "her" an object
    ([("she", "PRP"), ("believed", "VBD"), ("her", "PRP$"), ("partial", "JJ"), (",", ","), ("to", "TO"),
      ("make", "VB")], "PRP"),
    ([("it", "PRP"), ("may", "MD"), ("make", "VB"), ("her", "PRP$"), ("less", "JJR"), ("particular--", "NN")], "PRP"),
    ([("he", "PRP"), ("thought", "VBD"), ("her", "PRP$"), ("very", "RB"), ("clever", "JJ"), (".", ".")], "PRP"),
    # ... but an adjective before a noun, and the adjectives that stand for a noun, are hers
    ([("he", "PRP"), ("thought", "VBD"), ("her", "PRP$"), ("kind", "JJ"), ("thoughts", "NNS"), (".", ".")], "PRP$"),
    ([("she", "PRP"), ("made", "VBD"), ("her", "PRP$"), ("own", "JJ"), (".", ".")], "PRP$"),
    ([("she", "PRP"), ("found", "VBD"), ("her", "PRP$"), ("best", "JJS"), ("and", "CC"), ("left", "VBD")], "PRP$"),
    ([("she", "PRP"), ("kept", "VBD"), ("her", "PRP$"), ("head", "NN"), (".", ".")], "PRP$"),
])
def test_her_case_after_verbs_of_giving_and_judging(words_tags, case):
    from pipeline.lang.gendered_words import pronoun_case

    doc = _tagged(words_tags)
    pronoun_case(doc)
    her = next(t for t in doc if t.lower_ == "her")
    assert her.tag_ == case, [(t.text, t.tag_) for t in doc]


def test_italic_her_before_a_gerund_is_a_possessive():
    # Pride and Prejudice (read, seed 20261186): "since _her_ coming away", the marks tagged NN
    # and DT and "her" NFP by the book's parse -> "_him_ coming"
    from pipeline.lang.gendered_words import pronoun_case

    doc = _tagged([("since", "IN"), ("_", "NN"), ("her", "NFP"), ("_", "DT"), ("coming", "VBG"), ("away", "RB")])
    pronoun_case(doc)
    assert doc[2].tag_ == "PRP$"
    doc = _tagged([("saw", "VBD"), ("_", "NN"), ("her", "NFP"), ("_", "DT"), ("coming", "VBG"), (".", ".")])
    pronoun_case(doc)
    assert doc[2].tag_ != "PRP$"            # a verb of seeing: the object


def test_a_marked_feminine_adjective_without_a_noun_after_it_is_the_noun():
    from pipeline.lang.gendered_words import noun_use_tag

    assert noun_use_tag("hostess", "JJ", ",") == "NN"
    assert noun_use_tag("maiden", "JJ", "NN") == "JJ"         # "her maiden name"
    assert noun_use_tag("hostess", "NN", ",") == "NN"
    assert noun_use_tag("kind", "JJ", ",") == "JJ"            # no gendered word


def test_her_before_a_noun_the_parser_makes_a_subject_is_its_possessive():
    # Night and Day (read, seed 20261187): "She made her knees a comfortable rest" -> "him knees"
    import spacy
    from spacy.tokens import Doc

    from pipeline.lang.gendered_words import pronoun_case

    words = ["she", "made", "her", "knees", "a", "comfortable", "rest"]
    doc = Doc(spacy.blank("en").vocab, words=words, tags=["PRP", "VBD", "PRP", "NNS", "DT", "JJ", "NN"],
              deps=["nsubj", "ROOT", "nsubj", "nsubj", "det", "amod", "ccomp"], heads=[1, 1, 6, 6, 6, 6, 1])
    pronoun_case(doc)
    assert doc[2].tag_ == "PRP$"
    # the noun an object: "gave her flowers" is left to the open-case rule
    doc = Doc(spacy.blank("en").vocab, words=["he", "gave", "her", "flowers"], tags=["PRP", "VBD", "PRP", "NNS"],
              deps=["nsubj", "ROOT", "dative", "dobj"], heads=[1, 1, 1, 1])
    pronoun_case(doc)
    assert doc[2].tag_ == "PRP"


def test_an_independent_his_before_punctuation_is_hers():
    # Persuasion (read, seed 20261187): "among his, the brother only" -> "among her, the sister"
    from pipeline.lang.gendered_words import pronoun_case

    doc = _tagged([("among", "IN"), ("his", "PRP$"), (",", ","), ("the", "DT"), ("brother", "NN")])
    pronoun_case(doc)
    assert doc[1].tag_ == "PRP"
    doc = _tagged([("among", "IN"), ("his", "PRP$"), ("friends", "NNS"), (",", ",")])
    pronoun_case(doc)
    assert doc[1].tag_ == "PRP$"
