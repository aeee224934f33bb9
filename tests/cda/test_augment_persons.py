"""CDA replaces persons only: the pure core with hand-given PERSON tokens, the text
rebuilt for the person detection and the mapping of its entities back to the file's tokens."""

from __future__ import annotations

from pipeline.cda.core.augment import NameIndex, augment_words, augment_words_detail, detokenize, span_tokens, \
    tokens_in_spans

NAMES = NameIndex({"Walter", "Elliot", "March", "June", "August", "Kent", "Easter", "London", "Anne"})
MAP = {"Walter": "Wilma", "Wilma": "Walter", "March": "Marcia", "Marcia": "March", "June": "Julian",
       "Julian": "June", "August": "Augusta", "Augusta": "August", "Kent": "Kendra", "Kendra": "Kent",
       "Anne": "Andrew", "Andrew": "Anne"}
MAP_NAMES = NameIndex(MAP)


def words_tags(text: str):
    pairs = [w.rsplit("/", 1) for w in text.split()]
    return [w for w, _ in pairs], [t for _, t in pairs]


BORN = "Walter/NNP Elliot/NNP ,/, born/VBN March/NNP 1/CD ,/, 1760/CD ./."


def test_a_date_in_the_name_list_stays_when_it_is_in_no_person_span():
    words, tags = words_tags(BORN)
    persons = span_tokens([(0, 1)])                       # "Walter Elliot"
    new, c = augment_words(words, tags, "acda", NAMES, persons=persons)
    assert new == ["E1", "E2", ",", "born", "March", "1", ",", "1760", "."] and c.names == 2
    new, c = augment_words(words, tags, "ncda", MAP_NAMES, MAP, persons=persons)
    assert new[:5] == ["Wilma", "Elliot", ",", "born", "March"] and c.names == 1
    # the earlier rule (persons=None) swapped the month: "born Marcia 1, 1760"
    old, _ = augment_words(words, tags, "ncda", MAP_NAMES, MAP)
    assert old[4] == "Marcia"


def test_the_same_word_as_a_person_is_replaced():
    words, tags = words_tags("March/NNP came/VBD in/RP ./. Aunt/NNP March/NNP came/VBD in/RP ./.")
    new, c = augment_words(words, tags, "acda", NAMES, persons=span_tokens([(4, 5)]))
    assert new[0] == "March"                               # the month ("March came in like a lion")
    assert new[5] == "E1" and c.names == 1                 # the person ("Aunt March came in")
    assert new[4] != "Aunt" or c.gendered == 0             # the title flips as a gendered word does


def test_places_and_months_outside_person_spans_stay_in_both_modes():
    words, tags = words_tags("in/IN Kent/NNP ,/, Kent/NNP said/VBD ,/, in/IN June/NNP and/CC August/NNP "
                             "at/IN London/NNP ,/, June/NNP smiled/VBD")
    persons = span_tokens([(3, 3), (13, 13)])              # the second Kent, the last June
    acda, c = augment_words(words, tags, "acda", NAMES, persons=persons)
    assert acda == ["in", "Kent", ",", "E1", "said", ",", "in", "June", "and", "August", "at", "London", ",",
                    "E2", "smiled"] and c.names == 2
    ncda, _, replaced = augment_words_detail(words, tags, "ncda", MAP_NAMES, MAP, persons=persons)
    assert replaced == [3, 13]
    assert ncda[1] == "Kent" and ncda[3] == "Kendra" and ncda[7] == "June" and ncda[9] == "August"
    assert ncda[13] == "Julian"
    # the earlier rule: every NNP in the list, London included in a-CDA
    old, c = augment_words(words, tags, "acda", NAMES)
    assert old[11].startswith("E") and old[1].startswith("E") and c.names == 6


def test_gendered_words_flip_inside_and_outside_person_spans():
    words, tags = words_tags("He/PRP met/VBD Mr./NNP Elliot/NNP and/CC the/DT king/NN ./.")
    new, c = augment_words(words, tags, "acda", NAMES, persons=set())
    assert new[0] == "She" and new[6] == "queen" and new[3] == "Elliot"   # no person: no name replaced
    new, _ = augment_words(words, tags, "acda", NAMES, persons=span_tokens([(2, 3)]))
    assert new[3] == "E1" and new[2] != "Mr."


def test_inside_a_person_span_the_tag_does_not_matter():
    """Predicted tags may call a name NN ("Kitty"); the PERSON span is the evidence."""
    words, tags = words_tags("Anne/NN smiled/VBD")
    assert augment_words(words, tags, "acda", NAMES, persons={0})[0] == ["E1", "smiled"]
    assert augment_words(words, tags, "acda", NAMES)[0] == ["Anne", "smiled"]


def test_function_words_inside_a_person_span_stay():
    names = NameIndex({"The", "Douglas"})               # gender-guesser lists "The" (?F)
    words, tags = words_tags("The/DT Widow/NNP Douglas/NNP took/VBD me/PRP")
    new, c = augment_words(words, tags, "acda", names, persons={0, 1, 2})
    assert new[0] == "The" and new[2] == "E1" and c.names == 1


def test_detokenize_rebuilds_text_and_offsets():
    words = ['"', "Walter", "Elliot", ",", "born", "March", "1", ",", "1760", ".", '"',
             "Mr.", "Darcy", "'s", "house", "(", "in", "Kent", ")", "was", "n't", "big", "."]
    text, offsets = detokenize(words, [(0, 11), (11, 23)])
    assert text == '"Walter Elliot, born March 1, 1760."\nMr. Darcy\'s house (in Kent) wasn\'t big.'
    assert [text[s:e] for s, e in offsets] == words


def test_detokenize_keeps_one_line_per_sentence_and_skips_empty_sentences():
    text, offsets = detokenize(["Kent", "said", ".", "In", "Kent", "."], [(0, 3), (3, 3), (3, 6)])
    assert text == "Kent said.\nIn Kent."
    assert offsets[4] == (text.rindex("Kent"), text.rindex("Kent") + 4)


def test_tokens_in_spans_maps_character_spans_back_to_tokens():
    words = ["Mr.", "Darcy", "'s", "house", "in", "Kent"]
    text, offsets = detokenize(words, [(0, 6)])
    assert text == "Mr. Darcy's house in Kent"
    # a pipeline that read "Mr. Darcy" as one PERSON and nothing else
    assert tokens_in_spans(offsets, [(0, 9)]) == {0, 1}
    # an entity that covers part of a token still marks it; an empty span list marks none
    assert tokens_in_spans(offsets, [(5, 7)]) == {1}
    assert tokens_in_spans(offsets, []) == set()
    assert tokens_in_spans(offsets, [(0, 9), (text.index("Kent"), len(text))]) == {0, 1, 5}
