"""The person rules of core/cast.py on hand-written sentences, positive and negative.

Each sentence is parsed by the real pipeline; the PERSON entity under test is set by hand so
that the test checks the rule, not the small NER's guess."""

from __future__ import annotations

import pytest

from pipeline.core.cast import cast_rows, doc_mentions
from pipeline.lang.book_evidence import book_evidence


def person_doc(nlp, text: str, word: str, nth: int = 0):
    """``text`` parsed, with the ``nth`` occurrence of ``word`` (one or more tokens) as the
    only PERSON entity."""
    from spacy.tokens import Span

    doc = nlp(text)
    words = word.split()
    hits = [i for i in range(len(doc) - len(words) + 1)
            if [t.text for t in doc[i:i + len(words)]] == words]
    i = hits[nth]
    doc.ents = [Span(doc, i, i + len(words), label="PERSON")]
    return doc


def names(doc, evidence=None):
    return [m.text for m in doc_mentions(doc, evidence)]


BOOK_KENT = ("They lived in Kent for years. She was in Kent again in May. "
             "The roads in Kent were bad. ")


@pytest.mark.parametrize("text,word,evidence_text,person", [
    # places: the sentence, and the book
    ("Since her being in Kent, she had changed.", "Kent", BOOK_KENT, False),
    ("Kent said that he would come.", "Kent", BOOK_KENT, True),
    ("Kent was green and pleasant.", "Kent", BOOK_KENT, False),
    ("Kent was tall and he smiled.", "Kent", "Mr. Kent came. Mr. Kent said so. ", True),
    # dates, months, feasts
    ("Walter Elliot, born March 1, 1760, married.", "March", "", False),
    ("March came in and sat down.", "March", "Mrs. March smiled. Mr. March said so. ", True),
    ("They met in March and parted.", "March", "Mrs. March smiled. Mr. March said so. ", False),
    ("His ordination at Easter was near.", "Easter", "", False),
    ("She was born June 1, 1785.", "June", "", False),
    # saints
    ("He had been presented at St. James's.", "St. James", "", False),
    ("St. John said nothing to her.", "St. John", "", True),
    # articles, powers, headings, estates
    ("They spoke of the Moonstone all night.", "Moonstone", "", False),
    ("Mr. Moon spoke of it all night.", "Mr. Moon", "", True),
    ("Heaven knows what she meant.", "Heaven", "", False),
    ("Sir Walter lived at Kellynch Hall with his daughters.", "Kellynch Hall", "", False),
    ("They walked down Stagfoot Lane to the farm.", "Stagfoot", "", False),
    ("John Lane came in with his daughters.", "John", "", True),
    ("John Hall lived there with his daughters.", "John Hall", "", True),
    ("Doctor Armstrong came to see her.", "Doctor Armstrong", "", True),
    # animals the book names: the cat, the horse; people called geese or dogs stay persons
    ("Dinah will miss me very much to-night.", "Dinah", "(Dinah was the cat.) ", False),
    ("Dinah will miss me very much to-night.", "Dinah", "Dinah, a tall girl, was the cook. ", True),
    ("Charlie ran off down the lane.", "Charlie", "Dan rode his good horse Charlie. ", False),
    ("Charlie ran off down the lane.", "Charlie", "Dan rode his good horse with Charlie. ", True),
    ("Ellen laughed at them.", "Ellen", "You are a goose, Ellen. ", True),
    ("Sapt kicked him sharply.", "Sapt", "Colonel Sapt came. Colonel Sapt, the disrespectful old dog, swore. ", True),
    ("Ginger talked all day.", "Ginger", "Mr. Harrison kept a parrot called Ginger. ", False),
    ("Polly talked all day.", "Polly", "Polly's old cage will be just the thing. ", False),
    # a name modifying the noun after it is a house or a family's ways
    ("In the afternoon she walked down to the old Irving place.", "Irving", "", False),
    ("In the afternoon Irving walked down to the old place.", "Irving", "", True),
    ("There he found Polly giving Maud lessons in cookery.", "Maud", "", True),
    ("Between incumbencies of Finn maids from the North Woods, Carol did her own work.", "Finn", "", False),
    ("She sat between Finn and the boys all evening.", "Finn", "", True),
    ("The boys went to Finn with the letters.", "Finn", "", True),
    # a gendered common noun in a nickname is no name a swap can move
    ("Then said the Story Girl, laughing.", "Girl", "", False),
    ("Then said the Story Girl, laughing.", "Story Girl", "", False),
    ("Then said Girlie, laughing.", "Girlie", "", True),
    ("Polly talked all day.", "Polly", "Polly's old collar was torn. ", True),
    # a name after an indefinite article is one of a family, no one person
    ("He was in love with an Elliot, it seemed.", "Elliot", "", False),
    ("He was in love with Elliot, it seemed.", "Elliot", "", True),
    # a well-known place its own sentence shows, in a text too short for the book's evidence
    ("He lived afterwards at York, and married.", "York", "A short text. ", False),
    ("She smiled at Florence and went out.", "Florence", "A short text. ", True),
    ("Of his summons to Odessa nothing was said.", "Odessa", "A short text. ", False),
    ("He said to Florence that it was late.", "Florence", "A short text. ", True),
    ("A STRANGER FROM SOUTH CAROLINA came in.", "CAROLINA", "A short text. ", False),
    ("The Opera houses of Paris and Vienna were full.", "Vienna", "A short text. ", False),
    ("Tom and Vienna were full of fun.", "Vienna", "A short text. ", True),
    ("He lived afterwards at York, and married.", "York", "Mr. York came. Mr. York said so. ", True),
    # a well-known place as a whole, or glued to the next word by the NER
    ("A STRANGER FROM SOUTH CAROLINA Time touches all things.", "CAROLINA Time", "A short text. ", False),
    ("They had sailed for New York last May.", "New York", "A short text. ", False),
    ("We call it Merry England, and held farms.", "Merry England", "They were merry. ", False),
    ("We call it Merry England, and held farms.", "Merry", "They were merry. ", False),
    ("Merry came home, and she sang.", "Merry", "A short text. ", True),
    ("Jack London wrote it down.", "Jack London", "A short text. ", True),
    # works and ships in italics; names of inns, ships and booths after "the"
    ("She could play the Minuet in _Samson_ on one.", "Samson", "A short text. ", False),
    ("Samson took up the gate and went.", "Samson", "A short text. ", True),
    ("He came from the _Golden Hind_ with news.", "Hind", "A short text. ", False),
    ("He had been at the Royal George, he said.", "George", "A short text. ", False),
    ("He gazed outside the Lion Wallace booth.", "Lion Wallace", "A short text. ", False),
    ("He spoke to the Reverend George at last.", "George", "A short text. ", True),
    ("He saw the Emperor Napoleon ride by.", "Napoleon", "A short text. ", True),
    ("Royal George came in and sat down.", "George", "A short text. ", True),
    # a street or building word after a capitalised word; a word quoted as a word
    ("It was Number 305 Park Lane, W.", "Lane", "A short text. ", False),
    ("Mr. Lane came in at once.", "Mr. Lane", "A short text. ", True),
    ("The guard shouts out the word 'Victoria,' and stops.", "Victoria", "A short text. ", False),
    ("The guard shouts for Victoria, and stops.", "Victoria", "A short text. ", True),
    # dialect, oaths, calling an animal, places of scripture
    ("\"Dat's a fac', suh,\" he said.", "Dat", "A short text. ", False),
    ("\"Marry, I trow not,\" he said.", "Marry", "A short text. ", False),
    # a boy taunted as a girl (reads of seeds 20261136, 20261137, 20261141: "His feelings are not
    # like yours, Miss Traddles" put Miss Traddles, a woman, beside Traddles); a sister named
    # often, or a woman with a full name of the family, stays a person
    ("His feelings are not like yours, Miss Traddles.", "Miss Traddles",
     "Traddles came in, and he sat down. " * 9, False),
    ("His feelings are not like yours, Miss Traddles.", "Miss Traddles",
     "Traddles came in, and he sat down. " * 9 + "Miss Traddles said so. ", True),
    ("His feelings are not like yours, Miss Traddles.", "Miss Traddles",
     "Traddles came in, and he sat down. " * 9 + "Sophy Traddles came. Sophy Traddles sang. Mr. Traddles left. ", True),
    ("His feelings are not like yours, Miss Traddles.", "Miss Traddles", "Traddles came in, and he sat. ", True),
    # a house named after a family the book titles, whose second word is nobody (read, seed
    # 20261142: "my journey to Howard Grove" as C2, a man); a Mr. Grove makes it a man
    ("It preceded my journey to Howard Grove, when I wept.", "Howard Grove",
     "Lady Howard came. Lady Howard smiled. We went to Howard Grove. Howard Grove was fair. At Howard Grove all slept. ",
     False),
    ("It preceded my journey to Howard Grove, when I wept.", "Howard Grove",
     "Lady Howard came. Lady Howard smiled. Howard Grove said so. Mr. Grove said it. Howard Grove laughed. ", True),
    # ... and where the NER took only the family's word (read, seed 20261148: "a boy who was just
    # coming with it to [[Howard]] Grove" grouped with Lady Howard)
    ("It preceded my journey to Howard Grove, when I wept.", "Howard",
     "Lady Howard came. Lady Howard smiled. We went to Howard Grove. Howard Grove was fair. At Howard Grove all slept. ",
     False),
    ("Lady Howard said so to Grove.", "Howard",
     "Lady Howard came. Lady Howard smiled. We went to Howard Grove. Howard Grove was fair. At Howard Grove all slept. ",
     True),
    # letters after a name (read, seed 20261140: "To Sir John Belmont, Bart." -> "Bart" as C2)
    ("It was addressed to Sir John Belmont, Bart, at the Wells.", "Bart", "A short text. ", False),
    ("Bart came in and sat down.", "Bart", "A short text. ", True),
    ("She held out her arms, crying, \"Kitty, kitty, kitty,\" softly.", "Kitty", "A short text. ", False),
    ("She held out her arms, crying, \"Kitty, come here,\" softly.", "Kitty", "A short text. ", True),
    # a laugh echoed in lower case (run of the eighteenth session: "_Hee! hee! hee!_" cackled old
    # Gagool, as she flitted: "Hee" a woman)
    ("\"Hee! hee! hee!\" cackled Gagool, as she flitted about.", "Hee", "A short text. ", False),
    ("\"Hee! Come here!\" cried Gagool.", "Hee", "A short text. ", True),
    ("Their souls were again in Eden at last.", "Eden", "A short text. ", False),
    ("Eden sat down at the desk.", "Eden", "Martin Eden came. Eden said so. Eden said it. ", True),
    # a well-known place the text puts after "to" and a verb of motion, and never shows as a person
    ("And what is Victoria now that you are there?", "Victoria", "You must come to Victoria. ", False),
    ("And what is Victoria now that you are there?", "Victoria",
     "You must come to Victoria. Victoria said so. Victoria's hand shook. ", True),
    ("And what is Victoria now that you are there?", "Victoria", "You must write to Victoria. ", True),
    ("We call it Merry England, and held farms.", "Merry England", "A short text. ", False),
    # a title before a plural surname the book also writes in the singular: a family
    ("It was the intimate knowledge of the Miss Steeles as to Norland.", "Miss Steeles",
     "Miss Steele came in. Lucy Steele said so. ", False),
    ("It was the intimate knowledge of Miss Steeles as to Norland.", "Miss Steeles",
     "Miss Steele came in. Lucy Steele said so. ", True),
    ("It was the intimate knowledge of the Mr. Jones as to Norland.", "Mr. Jones",
     "Mr. Jones came in. ", True),
    # "was at" a place
    ("I was at Trinity, and I found her there.", "Trinity", "A short text. ", False),
    ("I was at Trinity's side when she fell.", "Trinity", "A short text. ", True),
    ("She smiled at Trinity and went.", "Trinity", "A short text. ", True),
    # a word the book capitalises only at sentence starts
    ("He saw it all. Grit in a sensitive instrument would not be more disturbing.", "Grit",
     "There was no grit in it. ", False),
    ("He saw it all. Grit said that it would not be more disturbing.", "Grit", "A short text. ", True),
    ("He saw it all. Grit came in; then Grit sat down.", "Grit", "A short text. ", True),
])
def test_person_or_not(nlp, text, word, evidence_text, person):
    doc = person_doc(nlp, text, word)
    ev = book_evidence(evidence_text + text, "b") if evidence_text else None
    assert bool(names(doc, ev)) is person, (text, word)


def test_gender_from_the_book(nlp):
    book = ("Mr. Holmes lit his pipe. Mr. Holmes was silent. Holmes said nothing, and he smiled. "
            "Jo, a tall girl, ran in. Jo looked up and she laughed. Jo sat down and she sighed. "
            + "Demi ran out, and he laughed. " * 10)
    ev = book_evidence(book, "b")
    doc = person_doc(nlp, "Holmes looked at the fire.", "Holmes")
    m = doc_mentions(doc, ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:titles")
    doc = person_doc(nlp, "Jo looked at the fire.", "Jo")
    assert doc_mentions(doc, ev)[0].gender == "feminine"
    doc = person_doc(nlp, "Demi looked at the fire.", "Demi")
    m = doc_mentions(doc, ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:pronouns")   # the book beats gender-guesser
    # without the book: Holmes and Jo have no gender, Demi is gender-guesser's
    assert doc_mentions(person_doc(nlp, "Holmes looked at the fire.", "Holmes"))[0].gender == "ungendered"
    assert doc_mentions(person_doc(nlp, "Demi looked at the fire.", "Demi"))[0].gender == "feminine"


def test_a_surname_titled_both_ways_is_the_family_heads(nlp):
    # a bare family surname is the man's (the folds chose it: gender right 95.2 % -> 95.9 %)
    ev = book_evidence("Mr. Musgrove came. Mrs. Musgrove sat. Mr. Musgrove left. Mrs. Musgrove cried. " * 3, "b")
    doc = person_doc(nlp, "Musgrove looked at the fire.", "Musgrove")
    m = doc_mentions(doc, ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:family head")
    # ... unless its own pronouns say otherwise
    ev = book_evidence("Mr. Musgrove came. Mrs. Musgrove sat. Mr. Musgrove left. Mrs. Musgrove cried. " * 3
                       + "Musgrove came and she sat. Musgrove left; she was tired. Musgrove said she would. ", "b")
    assert doc_mentions(person_doc(nlp, "Musgrove looked at the fire.", "Musgrove"), ev)[0].gender == "feminine"


def test_a_person_the_ner_missed_is_added_from_the_book(nlp):
    from spacy.tokens import Span

    book = ("Tuppence said nothing. Tuppence laughed. Miss Tuppence smiled. Miss Tuppence cried. "
            "Tuppence sat down and she sighed. ") * 2
    ev = book_evidence(book, "b")
    doc = nlp("After a while Tuppence stood up.")
    doc.ents = []
    got = doc_mentions(doc, ev)
    assert [(m.text, m.gender) for m in got] == [("Tuppence", "feminine")]
    assert doc_mentions(doc, None) == []
    # ... but never inside a date or another entity of its own
    doc = nlp("After a while Tuppence stood up.")
    i = [t.text for t in doc].index("Tuppence")
    doc.ents = [Span(doc, i, i + 1, label="DATE")]
    assert doc_mentions(doc, ev) == []
    # ... nor inside a longer entity of another kind, but an entity the NER ran on over white
    # space and punctuation only is the name's (a letter's signature "Helen" and its blank line,
    # one ORG, in Howards End)
    doc = nlp("Will write again Thursday.\n\nTuppence\n\nDearest Meg, I am here.")
    i = [t.text for t in doc].index("Tuppence")
    doc.ents = [Span(doc, i, i + 2, label="ORG")]
    assert [m.text for m in doc_mentions(doc, ev)] == ["Tuppence"]
    doc = nlp("We sang for Tuppence Hall and all.")
    i = [t.text for t in doc].index("Tuppence")
    doc.ents = [Span(doc, i, i + 2, label="ORG")]
    assert doc_mentions(doc, ev) == []
    # ... and so is one run on over a possessive ending ("had had Cromwell's chances", an ORG)
    doc = nlp("He would have had Tuppence's chances.")
    i = [t.text for t in doc].index("Tuppence")
    doc.ents = [Span(doc, i, i + 2, label="ORG")]
    assert [m.text for m in doc_mentions(doc, ev)] == ["Tuppence"]


@pytest.mark.parametrize("text,found", [
    # a well-known person's name by itself inside a sentence, whatever the NER made of it
    # (The Masque of the Red Death: "had out-Heroded Herod"; resources/allusion_names.txt and
    # real_people.txt)
    ("The figure had out-Heroded Herod, and gone beyond the bounds.", ["Herod"]),
    ("They spoke of Herod at dinner.", ["Herod"]),
    # ... not first in a sentence, nor before another capitalised word
    ("Herod was spoken of at dinner.", []),
    ("They walked down to Herod Road at noon.", []),
])
def test_a_well_known_persons_name_inside_a_sentence_is_a_person(nlp, text, found):
    ev = book_evidence((text + " The house was quiet. ") * 3 + "The house was quiet. " * 50, "b", model=None)
    doc = nlp(text)
    doc.ents = [e for e in doc.ents if e.label_ != "PERSON"]
    assert [m.text for m in doc_mentions(doc, ev) if m.text in ("Shakespeare", "Herod")] == found


def test_overrides_come_first(nlp):
    ev = book_evidence("Nothing here.", "b", {"b": {"Demi": "masculine", "Pinky": "not-a-person"}})
    assert doc_mentions(person_doc(nlp, "Demi looked at the fire.", "Demi"), ev)[0].gender == "masculine"
    assert doc_mentions(person_doc(nlp, "Pinky looked at the fire.", "Pinky"), ev) == []
    other = book_evidence("Nothing here.", "other-book", {"b": {"Demi": "masculine"}})
    assert doc_mentions(person_doc(nlp, "Demi looked at the fire.", "Demi"), other)[0].gender == "feminine"


def test_cast_rows_group_forms_into_persons():
    def r(start, text, name, gender, source="gender-guesser:male", title=""):
        return {"book_id": "b", "start": start, "end": start + len(text), "text": text, "name": name,
                "title": title, "gender": gender, "gender_source": source}

    rows, cast = cast_rows("b", [r(0, "Harriet Smith", "Harriet Smith", "feminine"), r(20, "Harriet", "Harriet", "feminine"),
                                 r(40, "Mr. Knightley", "Knightley", "masculine", "title", "Mr."),
                                 r(60, "Knightley", "Knightley", "unknown", "gender-guesser:unknown")])
    assert [c["name"] for c in cast] == ["Harriet Smith", "Knightley"]
    assert [c["mentions"] for c in cast] == [2, 2]
    assert cast[1]["gender"] == "masculine" and cast[1]["forms"] == ["Knightley", "Mr. Knightley"]
    assert [x["person"] for x in rows] == ["P0001", "P0001", "P0002", "P0002"]
    assert cast_rows("b", []) == ([], [])


def test_an_ungendered_mention_takes_the_gender_of_its_full_name_just_before():
    from pipeline.core.cast import resolve_in_context
    from pipeline.lang.names import NameMention

    def m(start, name, gender):
        return NameMention(start, start + len(name), name, "", name, gender, "x")

    ms = resolve_in_context([m(0, "John Durbeyfield", "masculine"), m(100, "Durbeyfield", "ungendered"),
                             m(5000, "Durbeyfield", "ungendered")])
    assert [x.gender for x in ms] == ["masculine", "masculine", "ungendered"]     # too far: none
    ms = resolve_in_context([m(0, "John Durbeyfield", "masculine"), m(50, "Joan Durbeyfield", "feminine"),
                             m(100, "Durbeyfield", "ungendered")])
    assert ms[2].gender == "ungendered"                                              # two candidates


def test_common_words_and_initials_are_no_persons(nlp):
    ev = book_evidence("Beauty is truth. The beauty of it. R. I. P. was carved. Mr. Brown said so. "
                       "Brown said nothing. Brown laughed and he went out.", "b")
    assert names(person_doc(nlp, "Beauty was everywhere that day.", "Beauty"), ev) == []
    assert names(person_doc(nlp, "They carved R. I. P. on it.", "R. I. P."), ev) == []
    assert names(person_doc(nlp, "Then Brown came in.", "Brown"), ev) == ["Brown"]   # the book shows a person


def test_a_house_whose_first_word_is_a_listed_girls_name(nlp):
    # gender-guesser lists "Windy" as a girl's name; the book never shows a Windy
    ev = book_evidence("They walked to Windy Corner. Windy Corner was quiet. Lucy said so.", "b")
    assert names(person_doc(nlp, "They drove back to Windy Corner that night.", "Windy Corner"), ev) == []
    ev = book_evidence("John said so. John laughed, and he left. John Hall came.", "b")
    assert names(person_doc(nlp, "John Hall lived there with his daughters.", "John Hall"), ev) == ["John Hall"]


def test_a_known_place_no_one_in_the_book_is_called(nlp):
    ev = book_evidence("They went to York by coach. It was a long way. " + "The rain fell on the fields. " * 4000, "b")
    assert names(person_doc(nlp, "The coach for York left at noon.", "York"), ev) == []
    ev = book_evidence("Mr. York came in. York said nothing, and he sat down.", "b")
    assert names(person_doc(nlp, "The coach for York left at noon.", "York"), ev) == ["York"]


def test_the_bare_surname_of_a_family_takes_its_own_pronouns(nlp):
    family = "Mr. Durbeyfield came. Mrs. Durbeyfield sat. Mr. Durbeyfield left. Mrs. Durbeyfield cried. "
    # the bare surname's own pronouns decide; a full name ("Tess Durbeyfield") or a titled
    # one ("Mrs. Durbeyfield ... she") casts no vote for the bare form
    ev = book_evidence(family + "Durbeyfield rose, and he went out. " * 3
                       + "Tess Durbeyfield sat, and she wept. " * 5 + "Mrs. Durbeyfield sat, and she wept. " * 5, "b")
    doc = person_doc(nlp, "Durbeyfield looked at the fire.", "Durbeyfield")
    m = doc_mentions(doc, ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:pronouns")
    # a mention with a title of its own is not the family's bare form: no vote of the bare
    # surname's reaches it (a doctor is a man by the period's convention, not by those votes)
    doc = person_doc(nlp, "Dr. Durbeyfield looked at the fire.", "Dr. Durbeyfield")
    m = doc_mentions(doc, ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "title (the period's convention)")
    # no vote of its own: the family's head (a full name's "she" still casts none)
    ev = book_evidence(family + "Tess Durbeyfield sat, and she wept. " * 5, "b")
    m = doc_mentions(person_doc(nlp, "Durbeyfield looked at the fire.", "Durbeyfield"), ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:family head")


def test_a_title_ending_a_sentence_is_no_title_of_the_next_word():
    ev = book_evidence("He bowed to the Duchess. Newland turned. She smiled at the Lady. Newland left.", "b")
    assert not ev.forms.get("Newland") or not sum(ev.forms["Newland"].titled.values())
    ev = book_evidence("Mr. Newland came. Mrs. Newland sat.", "b")
    assert dict(ev.forms["Newland"].titled) == {"masculine": 1, "feminine": 1}


def test_a_given_name_used_with_mrs_for_his_wife_keeps_his_own_pronouns():
    # "Mrs. Newland" is his wife; Newland's own pronouns, many and one-sided, win
    ev = book_evidence("Mrs. Newland came. Mrs. Newland sat. " + "Newland rose, and he went out. " * 4, "b")
    assert ev.gender("Newland") == ("masculine", "book:pronouns")
    # few pronoun votes do not beat the titles
    ev = book_evidence("Mrs. Newland came. Mrs. Newland sat. Mrs. Newland left. " + "Newland rose, and he went out. " * 2, "b")
    assert ev.gender("Newland") == ("feminine", "book:titles")


def test_a_bare_surname_of_its_own_strong_pronouns_is_not_the_titled_wifes():
    # read, seed 20261169 (North and South): only his wife is titled ("Mrs. Boucher" 14 times);
    # the bare "Boucher", with "he" after it 7 times in 8, is the man ("this Boucher-man" was a woman)
    book = "Mrs. Boucher came. Mrs. Boucher sat. Mrs. Boucher cried. Mrs. Boucher left. " * 2
    ev = book_evidence(book + "Boucher rose, and he went out. " * 3, "b")
    assert ev.gender("Boucher") == ("masculine", "book:pronouns")
    assert ev.gender("Boucher", bare=False) == ("feminine", "book:titles")     # "Mrs. Boucher" herself
    # split votes, or too few, leave the titles' gender
    ev = book_evidence(book + "Boucher rose, and he went out. " * 2 + "Boucher rose, and she went out. ", "b")
    assert ev.gender("Boucher") == ("feminine", "book:titles")
    ev = book_evidence(book + "Boucher rose, and he went out. " * 2, "b")
    assert ev.gender("Boucher") == ("feminine", "book:titles")


def test_pronoun_votes_need_no_other_name_between():
    # another name after the pronoun does not stop the vote ...
    ev = book_evidence("Demi said that he would go to Daisy. " * 3, "b")
    assert ev.forms["Demi"].pronouns == {"masculine": 3}
    # ... another name between the run and the pronoun does
    ev = book_evidence("Demi looked at Daisy and she laughed. " * 3, "b")
    assert "Demi" not in ev.forms or not sum(ev.forms["Demi"].pronouns.values())
    # the speaker of a quote is not the name inside it
    ev = book_evidence('"Demi," she said. ' * 3, "b")
    assert "Demi" not in ev.forms or not sum(ev.forms["Demi"].pronouns.values())


def test_many_votes_for_a_name_no_list_knows_decide_at_a_lower_share():
    # The Quest of the Silver Fleece (pool, read): "Bles" has his own "he" after his name and
    # Zora's "she" after it too; 7 of 10 votes are enough for a name gender-guesser does not know
    book = "Bles rose, and he went out. " * 7 + "Bles came; she laughed. " * 3
    ev = book_evidence(book, "b", model=None)
    assert dict(ev.forms["Bles"].pronouns) == {"masculine": 7, "feminine": 3}
    assert ev.gender("Bles") == ("masculine", "book:pronouns")
    # too few votes for that share: none
    ev = book_evidence("Bles rose, and he went out. " * 5 + "Bles came; she laughed. " * 3, "b", model=None)
    assert ev.gender("Bles") is None
    # (the rules alone: the learned gender may speak where they do not)
    # a name the lists know keeps the stricter share (gender-guesser speaks for it elsewhere)
    ev = book_evidence("Carl rose, and he went out. " * 7 + "Carl came; she laughed. " * 3, "b", model=None)
    assert ev.gender("Carl") is None
    # a surname the book titles (a family's: "Dr Marjoribanks", "Miss Marjoribanks") does not
    # take it from its bare uses
    titled = "Mr. Bles came in. Mr. Bles sat down. Miss Bles left. Miss Bles sang. "
    ev = book_evidence(titled + "Bles rose, and he went out. " * 3 + "Bles came; she laughed. " * 7, "b", model=None)
    assert ev.gender("Bles", titles=False) is None


def test_a_name_in_capitals_is_what_the_book_shows_of_it_otherwise():
    # "TOMMY, old thing!" (The Secret Adversary), "WILKINS MICAWBER" signing a letter
    book = "Tommy said so. Tommy laughed, and he went out. " * 3 + "Lena Kyle said so. She was tall. " * 3
    ev = book_evidence(book + "“TOMMY, old thing!” she cried. “LENA KYLE!”", "b", model=None)
    assert ev.cased("TOMMY") == "Tommy" and ev.cased("LENA KYLE") == "Lena Kyle"
    assert ev.is_person("TOMMY") and ev.gender("TOMMY") == ev.gender("Tommy") == ("masculine", "book:pronouns")
    # a word the book writes only in capitals, a roman numeral, a heading's word: no person
    ev = book_evidence(book + "CHAPTER LIV. THE DIAMOND\n\nELSA: Go.", "b", model=None)
    for form in ("CHAPTER", "LIV", "DIAMOND", "ELSA"):
        assert ev.cased(form) == form and not ev.is_person(form), form
    # a cast file's word on the capitals stands
    ev = book_evidence(book + "TOMMY", "b", {"b": {"TOMMY": "not-a-person"}}, model=None)
    assert ev.cased("TOMMY") == "TOMMY" and not ev.is_person("TOMMY")


def test_a_name_in_capitals_the_ner_calls_an_organisation_is_the_books_person(nlp):
    book = "Tommy said so. Tommy laughed, and he went out. " * 3
    text = "“TOMMY, old thing!” cried Tuppence."
    ev = book_evidence(book + text, "b")
    doc = nlp(text)
    from spacy.tokens import Span
    doc.ents = [Span(doc, t.i, t.i + 1, label="ORG") if t.text == "TOMMY" else Span(doc, t.i, t.i + 1, label="PERSON")
                for t in doc if t.text in ("TOMMY", "Tuppence")]
    found = {m.text: m.gender for m in doc_mentions(doc, ev)}
    assert found.get("TOMMY") == "masculine"
    assert "TOMMY" not in {m.text for m in doc_mentions(doc, book_evidence("Tuppence said so. " * 3 + text, "b"))}


DURBEYFIELDS = ("Mr Durbeyfield came in. Mr Durbeyfield sat. Mrs Durbeyfield laughed. Mr Durbeyfield said so. "
                + "Durbeyfield rose, and he went out. " * 3 + "Tess said so. Tess laughed. ")


def test_an_initial_before_a_familys_surname_says_no_gender(nlp):
    # Tess of the d'Urbervilles: Joan signs "J. DURBEYFIELD"; the bare "Durbeyfield" is John's
    text = "Your mother,\n\nJ. Durbeyfield\n\nIt was such a relief to Tess."
    doc = person_doc(nlp, text, "J. Durbeyfield")
    m = doc_mentions(doc, book_evidence(DURBEYFIELDS + text, "b"))[0]
    assert (m.text, m.gender) == ("J. Durbeyfield", "ungendered")
    # the bare surname keeps the family head's gender; a surname titled one way keeps its titles'
    doc = person_doc(nlp, "It was such a relief to Durbeyfield.", "Durbeyfield")
    assert doc_mentions(doc, book_evidence(DURBEYFIELDS, "b"))[0].gender == "masculine"
    book = "Mr. Holmes came. Mr. Holmes sat. Mr. Holmes left. "
    doc = person_doc(nlp, "It was signed S. Holmes, and that was all.", "S. Holmes")
    assert doc_mentions(doc, book_evidence(book + "It was signed S. Holmes.", "b"))[0].gender == "masculine"


def test_a_person_the_ner_missed_keeps_the_initial_before_it(nlp):
    from spacy.tokens import Span

    text = "Your mother,\n\nJ. DURBEYFIELD\n\nIt was such a relief to Tess."
    doc = nlp(text)
    doc.ents = [Span(doc, t.i, t.i + 1, label="PERSON") for t in doc if t.text == "Tess"]
    found = {m.text: m.gender for m in doc_mentions(doc, book_evidence(DURBEYFIELDS + text, "b"))}
    assert found == {"J. DURBEYFIELD": "ungendered", "Tess": "feminine"}


def test_a_kin_noun_right_before_a_name_says_its_gender():
    # The Awakening's "Her son Tonie had" (gender-guesser: mostly female): the book says a son,
    # weighed as an apposition ("Tonie, a fisherman")
    book = "Her son Tonie had gone. " + "Tonie came, and he laughed. "
    ev = book_evidence(book, "b", model=None)
    assert ev.forms["Tonie"].appositions == {"masculine": 1}
    assert ev.gender("Tonie") == ("masculine", "book:appositions")
    assert book_evidence("Her friend Tonie had gone. Tonie came, and he laughed. ", "b", model=None).gender("Tonie") is None
    ev = book_evidence("His sister Mary came. Her little brother Percy was ill. My brother Gardiner's drawing. "
                       "My brother Mr. Suckling came. Her son John Smith came.", "b", model=None)
    assert ev.forms["Mary"].appositions == {"feminine": 1} and ev.forms["Percy"].appositions == {"masculine": 1}
    for form in ("Gardiner's", "Gardiner", "Mr", "John", "Smith"):
        assert form not in ev.forms or not sum(ev.forms[form].appositions.values()), form


def test_a_bare_name_titled_one_way_throughout_the_book_beats_gender_guesser(nlp):
    ev = book_evidence("Mrs. Griffin came in. Mrs. Griffin sat down. Mrs. Griffin left.", "b")
    m = doc_mentions(person_doc(nlp, "Griffin looked at the fire.", "Griffin"), ev)[0]
    assert (m.gender, m.gender_source) == ("feminine", "book:titles")
    # a first name keeps gender-guesser's gender: "John Griffin" is John's
    doc = person_doc(nlp, "John Griffin looked at the fire.", "John Griffin")
    assert doc_mentions(doc, ev)[0].gender == "masculine"
    # without the book, gender-guesser's
    assert doc_mentions(person_doc(nlp, "Griffin looked at the fire.", "Griffin"))[0].gender == "masculine"


def test_a_sentence_starting_with_he_or_she_votes_for_the_only_name_just_before():
    ev = book_evidence("Ogilvy was an astronomer. He lived alone. " * 3, "b")
    assert ev.gender("Ogilvy") == ("masculine", "book:pronouns")
    # two names before, a quote, or a title: no vote
    for text in ("Ogilvy met Daisy. She laughed. ", '"Come here, Ogilvy." He laughed. ',
                 "Mrs. Ogilvy came in. She laughed. "):
        ev = book_evidence(text * 3, "b")
        assert "Ogilvy" not in ev.forms or not sum(ev.forms["Ogilvy"].pronouns.values()), text


def test_mrs_before_a_husbands_given_name_does_not_make_him_feminine(nlp):
    ev = book_evidence("Mrs Charles came in. Mrs Charles sat down. " + "Charles rose, and he went out. " * 3, "b")
    m = doc_mentions(person_doc(nlp, "Charles looked at the fire.", "Charles"), ev)[0]
    assert m.gender == "masculine"


def test_a_place_ner_glued_to_the_name_after_it_is_cut_off(nlp):
    book = "They lived in Moscow for years. She was in Moscow again in May. The streets in Moscow were bad. "
    text = "When she returned to Moscow Pierre was handed a letter."
    doc = person_doc(nlp, text, "Moscow Pierre")
    assert names(doc, book_evidence(book + text, "b")) == ["Pierre"]
    # a first word the book also shows as a person stays ("Mr. Moscow said so")
    assert names(doc, book_evidence(book + "Mr. Moscow said so. " + text, "b")) == ["Moscow Pierre"]
    assert names(doc) == ["Moscow Pierre"]          # no book: nothing to go on


@pytest.mark.parametrize("text,word,gender", [
    ("Paul went to see his grandmother Irving at the farm.", "Irving", "ungendered"),   # Irving: a man's name
    ("She met her aunt Pontifex there.", "Pontifex", "feminine"),                      # a surname: the kin word
    ("Her brother John came in.", "John", "masculine"),
    ("He told his mother Tom was coming.", "Tom", "ungendered"),                       # in doubt: not used
    ("He told Tom the news.", "Tom", "masculine"),
    ("It was the mother Tom saw.", "Tom", "masculine"),                                # no possessive before
    ("She met her aunt Mr. Pontifex there.", "Mr. Pontifex", "masculine"),              # a title decides
    # a noun of a person's sex after "the" too (North and South: "the widow Boucher", whose
    # bare surname is her husband's in the book)
    ("They went to pay their call on the widow Pontifex.", "Pontifex", "feminine"),
    ("They went to pay their call on the widow Tom.", "Tom", "ungendered"),
    ("Liza came with the boy Abraham.", "Abraham", "masculine"),
    ("She met the lass Pontifex there.", "Pontifex", "feminine"),
])
def test_a_kin_word_between_a_possessive_and_a_name(nlp, text, word, gender):
    ms = doc_mentions(person_doc(nlp, text, word))
    assert [m.gender for m in ms] == [gender]


@pytest.mark.parametrize("text,word,book,gender", [
    # a lower-case foreign form of address before a name (read, seed 20261176: "Pardon me,
    # mademoiselle St. Aubert", Emily, whose father is the book's St. Aubert)
    ("'Pardon me, pardon me, mademoiselle Aubert, I know not what I utter.'", "Aubert",
     "Aubert said he would. Aubert smiled, and he left. " * 3, "ungendered"),
    ("'Pardon me, mademoiselle Pontifex,' he said.", "Pontifex", None, "feminine"),
    ("'Good day, signor Emilia,' she said.", "Emilia", None, "ungendered"),
    ("'Good day, monsieur Dupont,' she said.", "Dupont", None, "masculine"),
    # ... capitalised, it is the name's title, as before; a gendered word of the name's own
    ("'Good day, Monsieur Dupont,' she said.", "Monsieur Dupont", None, "masculine"),
    ("He said good day to Aubert.", "Aubert", "Aubert said he would. Aubert smiled, and he left. " * 3, "masculine"),
])
def test_a_lower_case_form_of_address_before_a_name(nlp, text, word, book, gender):
    ms = doc_mentions(person_doc(nlp, text, word), book_evidence(book, "b") if book else None)
    assert [m.gender for m in ms] == [gender]


def test_a_well_known_place_the_book_mostly_uses_as_one_is_cut_off_despite_a_stray_title(nlp):
    """War and Peace titles "Moscow" once and gives it a few pronoun votes, but uses it as a
    place over two hundred times: "returned to Moscow Pierre" is Pierre."""
    book = "They lived in Moscow for years. " * 12 + "\"No,\" Moscow said. "
    text = "When she returned to Moscow Pierre was handed a letter."
    doc = person_doc(nlp, text, "Moscow Pierre")
    assert names(doc, book_evidence(book + text, "b")) == ["Pierre"]
    few = "They lived in Moscow for years. " * 3 + "\"No,\" Moscow said. "
    assert names(doc, book_evidence(few + text, "b")) == ["Moscow Pierre"]      # not mostly a place


def test_an_entity_of_two_coordinated_names_is_two_persons(nlp):
    # the small NER makes "Anna's and Vronsky" one PERSON entity in some contexts
    doc = person_doc(nlp, "He came, notwithstanding Anna's and Vronsky's invitations.", "Anna 's and Vronsky")
    assert names(doc) == ["Anna", "Vronsky"]
    doc = person_doc(nlp, "Then Anna and Vronsky left the room.", "Anna and Vronsky")
    assert names(doc) == ["Anna", "Vronsky"]


def test_a_couple_under_one_surname_is_not_cut(nlp):
    # a title alone before "and" is no name: the couple stays one entity for the window rules
    doc = person_doc(nlp, "Then Mr. and Mrs. Weston left the room.", "Mr. and Mrs. Weston")
    assert names(doc) == ["Mr. and Mrs. Weston"]


def test_few_unanimous_votes_outweigh_gender_guessers_list(nlp):
    # reads of seeds 20261139 and 20261143: Tana, a manservant ("Tana in his white coat" twice,
    # never "she"), kept gender-guesser's feminine in the windows although the book said masculine
    two = book_evidence("Tana came in his white coat. Tana grinned. Later Tana came back in his apron. ", "b")
    m = doc_mentions(person_doc(nlp, "Tana looked at the fire.", "Tana"), two)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:pronouns")
    one = book_evidence("Tana came in his white coat. Tana grinned. ", "b")
    m = doc_mentions(person_doc(nlp, "Tana looked at the fire.", "Tana"), one)[0]
    assert m.gender == "feminine"                       # one vote: the name list stands


@pytest.mark.parametrize("name,book_gender", [("Marian", "feminine"), ("Joe", "masculine")])
def test_the_book_beats_a_contested_name_list_gender(nlp, name, book_gender):
    # read, seed 20261180 (Tess): Marian, male worldwide to gender-guesser and female in Great
    # Britain, a milkmaid the book's votes call a woman 4 to 1, was a man in her windows; Joe,
    # male everywhere, keeps his gender against the same votes (Anne of Avonlea's Joe Sloane,
    # 4 to 1 "feminine" by the women near him)
    book = (f"{name} alone, thanks to her bottle of liquor, stood the strain. {name} took up her pail. "
            f"{name} lifted her skirts. {name} shook her head. {name} saw his hat. ")
    m = doc_mentions(person_doc(nlp, f"{name} looked at the fire.", name), book_evidence(book, "b"))[0]
    assert m.gender == book_gender


BOOK_FAMILIES = ("Mr. Gaverick came. Lady Gaverick smiled. John Cole said so. Mr. Cole left. "
                 "The Heights were green. The Heights stood high. ") * 3


@pytest.mark.parametrize("text,word,family", [
    # the plural of a surname the book titles, or writes after a given name, after "the"
    ("She was a distant connection of the Gavericks.", "Gavericks", True),
    ("They had supper with the Coles that night.", "Coles", True),
    # ... not a place's plural the book never titles, nor without "the", nor a singular
    ("They walked up to the Heights at noon.", "Heights", False),
    ("She wrote to Gavericks at once.", "Gavericks", False),
    ("She saw the Gaverick at once.", "Gaverick", False),
])
def test_a_familys_plural_is_a_person_without_a_gender(nlp, text, word, family):
    from spacy.tokens import Span

    from pipeline.core.cast import FAMILY_SOURCE
    from pipeline.lang.pronouns import UNGENDERED

    ev = book_evidence(BOOK_FAMILIES, "b", model=None)
    for label in ("PERSON", "ORG", None):       # whatever the NER made of it
        doc = nlp(text)
        i = [t.text for t in doc].index(word)
        doc.ents = [Span(doc, i, i + 1, label=label)] if label else []
        got = [m for m in doc_mentions(doc, ev) if m.text == word]
        if family:
            assert [(m.gender, m.gender_source) for m in got] == [(UNGENDERED, FAMILY_SOURCE)], label
        else:
            assert all(m.gender_source != FAMILY_SOURCE for m in got), label
        assert not [m for m in doc_mentions(doc, None) if m.gender_source == FAMILY_SOURCE]   # no book


def test_a_speech_verb_after_an_article_is_no_person_use_and_th_is_the():
    # read, seed 20261169 (North and South): "than th' Union says is our due" made the trade
    # union a man of the book, and of five windows
    ev = book_evidence("Not a man will go in for less wage than th' Union says is our due. " * 3, "b", model=None)
    assert ev.forms["Union"].person == 0 and ev.forms["Union"].determined == 3
    assert not ev.is_person("Union")
    ev = book_evidence("Then the Union says no. The Union's hand is strong. " * 3, "b", model=None)
    assert ev.forms["Union"].person == 0
    # the name itself speaking is a person's use, as before
    ev = book_evidence("Then Unwin says no. Unwin's hand is strong. " * 3, "b", model=None)
    assert ev.forms["Unwin"].person == 6
    # the dialect's article keeps every offset of the book
    from pipeline.lang.book_evidence import _DIALECT_THE, _the
    text = "He's i' th' Union, and Th' Union's men said so."
    assert _DIALECT_THE.sub(_the, text) == "He's i' the Union, and The Union's men said so."


@pytest.mark.parametrize("text,forms,word,listed", [
    # read, seed 20261177 (The Mysteries of Udolpho): "he had dismissed Jacques, Francis, and
    # Mary" -- a city of Turkmenistan to the gazetteer, a servant in a list of servants
    ("He had dismissed Jacques, Francis, and\nMary, and detained only Theresa.", ["Jacques", "Francis", "Mary"],
     "Mary", True),
    ("Mary and Theresa came.", ["Mary", "Theresa"], "Mary", True),
    # ... not beside a place, nor alone
    ("They went to York and Mary.", ["York", "Mary"], "Mary", False),
    ("They went to Mary at noon.", ["Mary"], "Mary", False),
])
def test_a_name_listed_with_persons_is_no_known_place(nlp, text, forms, word, listed):
    from spacy.tokens import Span

    from pipeline.core.cast import _listed_with_persons
    from pipeline.lang.names import mention_from_span

    doc = nlp(text)
    spans = []
    for form in forms:
        i = next(t.i for t in doc if t.text == form)
        spans.append(Span(doc, i, i + 1, label="PERSON"))
    doc.ents = spans
    span = next(s for s in doc.ents if s.text == word)
    assert _listed_with_persons(doc, mention_from_span(span)) is listed


@pytest.mark.parametrize("text,ents,kept", [
    # read, seed 20261180 (The Picture of Dorian Gray): "occupied by Mr. Erskine of Treadley, an
    # old gentleman" made Treadley a man of the window
    ("The post on her left was occupied by Mr. Erskine of Treadley, an old gentleman.", ["Erskine", "Treadley"],
     ["Mr. Erskine"]),
    ("He spoke of Sir Walter Elliot of Kellynch, and left.", ["Walter Elliot", "Kellynch"], ["Sir Walter Elliot"]),
    # ... not after an untitled name ("the friend of Tom"), nor a titled one after "of"
    ("He was a friend of Tom of Harry's age.", ["Tom", "Harry"], ["Tom", "Harry"]),
    ("It was the wife of Mr. Erskine of Mrs. Grey.", ["Erskine", "Grey"], ["Mr. Erskine", "Mrs. Grey"]),
    # ... nor after a rank alone: a peerage's name, which the window rules refuse
    ("She saw the Marquis of William's carriage.", ["Marquis", "William"], ["William"]),
])
def test_a_name_after_a_titled_persons_name_and_of_is_a_seat(nlp, text, ents, kept):
    from spacy.tokens import Span

    doc = nlp(text)
    spans = []
    for e in ents:
        words = e.split()
        i = next(t.i for t in doc if [x.text for x in doc[t.i:t.i + len(words)]] == words)
        spans.append(Span(doc, i, i + len(words), label="PERSON"))
    doc.ents = spans
    assert [m.text for m in doc_mentions(doc)] == kept


@pytest.mark.parametrize("votes,gender", [
    # 3 "she" to 2 "he": too few to decide, but against a name gender-guesser calls only
    # mostly male: no gender (read, seed 20261184: Edy Boardman of *Ulysses*, a girl, a man)
    ("Edy shook her head. Edy lifted her skirts. Edy took her pail. Edy saw his hat. Edy took his cane. ",
     "ungendered"),
    # votes that agree with the guess, or a tie, leave it
    ("Edy shook his head. Edy lifted his cane. Edy took her pail. ", "masculine"),
    ("Edy shook his head. Edy took her pail. ", "masculine"),
])
def test_a_weak_name_guess_against_the_books_leaning_votes_is_undecided(nlp, votes, gender):
    m = doc_mentions(person_doc(nlp, "Edy looked at the fire.", "Edy"), book_evidence(votes * 2, "b"))[0]
    assert m.gender == gender


def test_a_sure_name_guess_keeps_its_gender_against_leaning_votes(nlp):
    book = "Jan shook her head. Jan lifted her skirts. Jan took her pail. Jan saw his hat. Jan took his cane. "
    m = doc_mentions(person_doc(nlp, "Jan looked at the fire.", "Jan"), book_evidence(book * 2, "b"))[0]
    assert m.gender == "masculine"          # gender-guesser: male, not mostly
