"""Non-persons and gender against the text, read on unseen books (issue 42), each rule with
positive and negative hand-written sentences: things named like persons ("the Colonel's
unlucky Diamond"), headings ("CHAPTER LIV"), interjections ("Hark at that child!"), allusions
("a sort of infantine Guy Fawkes", "or Don Juan be popular") and a predicate nominal that
gives a gender ("Joyce was the Frizinghall policeman")."""

from __future__ import annotations

import pytest

from pipeline.core.cast import allusion, doc_mentions
from pipeline.lang.book_evidence import book_evidence
from tests.core.test_cast import person_doc


def mention(doc, evidence=None):
    found = doc_mentions(doc, evidence)
    return found[0] if found else None


# a book that names the Diamond as a thing, and one that titles a man called Diamond
BOOK_THING = ("The Diamond was gone. Where is the Diamond? The Colonel's Diamond was yellow. "
              "She locked the Diamond in her cabinet. They spoke of the Diamond all night. "
              "That infernal Indian Diamond was a curse. I saw the Diamond at last. ") * 2
BOOK_PERSON = ("Mr. Diamond said that he would come. Mr. Diamond was late. \"Yes,\" said Diamond. "
               "Diamond said nothing. Mr. Diamond took his hat. The Diamond family was old. ") * 2


@pytest.mark.parametrize("text,word,book,person", [
    ("I thought of the Colonel's unlucky Diamond again.", "Diamond", BOOK_THING, False),
    ("That infernal Indian Diamond was gone.", "Indian Diamond", BOOK_THING, False),
    ("Diamond lay in the cabinet.", "Diamond", BOOK_THING, False),
    # a book that titles him and makes him speak: a person
    ("Diamond came in and sat down.", "Diamond", BOOK_PERSON, True),
    ("I thought of the old unlucky Diamond again.", "Diamond", BOOK_PERSON, True),
    # a first name before the word: "William the Conqueror" in a book that names "the Conqueror"
    ("He came with William the Conqueror.", "William the Conqueror",
     "The Conqueror came. I saw the Conqueror. Visit the Conqueror. The Conqueror won. ", True),
    # a family after "the" is persons (the singular capitalised in the book)
    ("The Ambersons came in.", "Ambersons",
     "The Ambersons were rich. I saw the Ambersons. Visit the Ambersons. George Amberson smiled. ", True),
])
def test_a_form_the_book_names_like_a_thing_is_no_person(nlp, text, word, book, person):
    doc = person_doc(nlp, text, word)
    assert (mention(doc, book_evidence(book, "b")) is not None) is person


@pytest.mark.parametrize("text,word,person", [
    ("She went away.\n\nCHAPTER LIV\n\nThe rain fell.", "LIV", False),      # gender-guesser: Liv
    ("BOOK II\n\nThe rain fell.", "II", False),
    ("Chapter Fourth\n\nThe rain fell.", "Fourth", False),
    ("She gave the book to LIV yesterday, and left.", "LIV", False),         # a numeral anyway
    # a name in a chapter's title line
    ("He left.\n\nCHAPTER 39. WICKFIELD AND HEEP\n\nI went home.", "HEEP", False),
    ("He left.\n\nCHAPTER 28. Mr. MICAWBER’S GAUNTLET\n\nI went home.", "Mr. MICAWBER", False),
    ("He read the first chapter. Heep came in.", "Heep", True),
    ("Book the First. Tom came in.", "Tom", True),
    ("King Louis XIV was there.", "Louis XIV", True),
    # a chapter's number and title (read, seed 20261181, The House of the Seven Gables)
    ("It was a family feud.\n\nIX Clifford and Phoebe\n\nThe sun rose.", "IX Clifford", False),
    ("She gave the book to LIVIA, and left.", "LIVIA", True),
])
def test_headings_and_roman_numerals_are_no_persons(nlp, text, word, person):
    assert (mention(person_doc(nlp, text, word)) is not None) is person


@pytest.mark.parametrize("text,word,person", [
    # God in another language's exclamation (read, seed 20261145: Evelina's "O! Mon Dieu!" a
    # woman of the window, gender-guesser's "Mon")
    ('"O! Mon Dieu!" cried Madame Duval.', "Mon Dieu", False),
    ('"Mein Gott!" said the old man.', "Mein Gott", False),
    ('"Dieudonne!" cried Madame Duval.', "Dieudonne", True),
    ('"Monsieur Dupont!" cried Madame Duval.', "Monsieur Dupont", True),
    # movements, charters and colleges named like persons (reads of seeds 20261138, 20261142, 20261147)
    ("She quoted a controversy with him in regard to Christian Science, socks and buttons.", "Christian Science", False),
    ("They talked of Magna Charta all evening.", "Magna Charta", False),
    ("She had been at Bryn Mawr for two years.", "Bryn Mawr", False),
    ("Christian Smith came in.", "Christian Smith", True),
])
def test_foreign_exclamations_and_named_things_are_no_persons(nlp, text, word, person):
    assert (mention(person_doc(nlp, text, word)) is not None) is person


@pytest.mark.parametrize("text,word,book,person", [
    ('"Hark at that child!" cried Mrs Durbeyfield.', "Hark", "", False),
    ("Hark! the bells are ringing.", "Hark", "", False),
    # a book whose Hark is a man who speaks
    ("Hark came in.", "Hark", "Hark said no. Hark said yes. Mr. Hark smiled. Mr. Hark left. ", True),
])
def test_interjections_are_no_persons(nlp, text, word, book, person):
    evidence = book_evidence(book, "b") if book else None
    assert (mention(person_doc(nlp, text, word), evidence) is not None) is person


BOOK_ALLUSION = "Men brag of their amours. Tom said so. Mary laughed. " * 30


BOOK_HAWDON = "Hawdon came and he sat. Hawdon said he would. Mr. Hawdon left. Hawdon wrote and he signed. " * 2


@pytest.mark.parametrize("text,word,book,alluded", [
    ("He gave me credit for being a sort of infantine Guy Fawkes.", "Guy Fawkes", None, True),
    ("He was like a young Hercules.", "Hercules", None, True),
    ("She had a kind of Cinderella charm.", "Cinderella", None, True),
    # a listed name the book never shows as a person
    ("How should schoolboys brag, or Don Juan be popular?", "Don Juan", BOOK_ALLUSION, True),
    # the devil's names (read, seed 20261142: "I'd as soon have seen Old Nick as that man")
    ("I'd as soon have seen Old Nick as that man.", "Nick", None, True),
    ("He saw old Nick at the gate.", "Nick", None, False),
    # read, seed 20261142: a history lesson's "anything about King John"
    ("Tell us that you do not know anything about King John.", "King John", BOOK_ALLUSION, True),
    # reads of seeds 20261136 and 20261141: Napoleon's marshal in a picture
    ("The brooding eyebrows of the Emperor, Murat's fierce mustaches, were all worked out.", "Murat",
     BOOK_ALLUSION, True),
    # read, seed 20261147: a swimmer of the 1910s in This Side of Paradise
    ("Some one mentioned that Annette Kellerman had been there one day.", "Annette Kellerman", BOOK_ALLUSION, True),
    # read, seed 20261145: "laughing over Mrs. Piozzi's recollections of Johnson"
    ("Mrs. Piozzi's recollections of Johnson made her laugh.", "Mrs. Piozzi", BOOK_ALLUSION, True),
    # read, seed 20261190: an author of the canon named in full, never shown as a person
    ("The post broke in upon the periods of Henry Fielding.", "Henry Fielding", BOOK_ALLUSION, True),
    # ... and one it does ("Guy Fawkes said"), or a plain name after a kin word
    ("He met Guy Fawkes at the gate.", "Guy Fawkes",
     BOOK_ALLUSION + "Guy Fawkes said no. Guy Fawkes said yes. Mr. Fawkes left. Mr. Fawkes came. ", False),
    ("She went with a brother John.", "John", None, False),
    ("He did not know what sort of girl Stepan Arkadyevitch had in his mind.", "Stepan Arkadyevitch", None, False),
    ("She was a sort of girl Mary would like.", "Mary", None, False),
    ("She wrote a letter to John.", "John", None, False),
    # a ruler's style: a regnal number or an epithet after "the" (read, seed 20261127)
    ("She wanted to have three husbands, like Henry VIII.", "Henry VIII", None, True),
    ("It was the time of Louis XIV.", "Louis XIV", None, True),
    ("She said that Ludwig the Courageous of Hessen wanted three wives.", "Ludwig", None, True),
    ("It was Charles the Second who came.", "Charles the Second", None, True),
    # ... not a name before "the" and a lower-case word, nor a king who speaks
    ("Henry the footman came in.", "Henry", None, False),
    ("She saw Elizabeth the next day.", "Elizabeth", None, False),
    ('"No," said Louis XIII.', "Louis XIII", None, False),
    # a figure of the Bible or of myth the book never shows (read, seed 20261129)
    ("She would scourge the offending Adam out of him.", "Adam", BOOK_ALLUSION, True),
    ("It shook the foundations of Paul and Silas's prison.", "Paul", BOOK_ALLUSION, True),
    # ... but a character of that name whom the book shows: a speaker, titled
    ("She would scourge the offending Adam out of him.", "Adam",
     BOOK_ALLUSION + '"Yes," said Adam. Adam said no. Adam took his hat. Adam said yes. ', False),
    ("Then Paul came in.", "Paul", BOOK_ALLUSION + "Mr. Paul came. Mr. Paul left. ", False),
    ("Then Paul came in.", "Paul", None, False),        # no book: a short text's silence proves nothing
    # ... nor one the book writes with a surname ("old Adam's gift" in a book of Adam Patch)
    ("She was pleased by old Adam's gift.", "Adam", BOOK_ALLUSION + "The house of Adam Patch was large. Mr. Patch was old. " * 3, False),
    # a name talked of as a name (read, seed 20261128: the narrator's nickname, made-up and assumed names)
    ("He more than once called me Daisy; which brought Miss Dartle out again.", "Daisy", None, True),
    ("You will call yourself John Jones, or George Potts, or some such name.", "George Potts", None, True),
    ("You will call yourself John Jones, or George Potts, or some such name.", "John Jones", None, True),
    ("She wore a wedding-ring and called herself Mrs. Carey.", "Mrs. Carey", None, True),
    ("They named him Oliver.", "Oliver", None, True),
    # the parser's second object of a verb of naming (Little Women: "Jo called him 'Mr. Toodles'")
    ("John laughed at him, and Jo called him 'Mr. Toodles'. He was possessed with a mania.", "Mr. Toodles", None, True),
    # a famous name with a title the book writes once (An Old-fashioned Girl: "as nice a poet as Mr. Shakespeare")
    ("I think that Will is going to be as nice a poet as Mr. Shakespeare.", "Mr. Shakespeare", BOOK_ALLUSION, True),
    ("I think that Will is going to be as nice a poet as Mr. Shakespeare.", "Mr. Shakespeare",
     BOOK_ALLUSION + "Mr. Shakespeare came. Mr. Shakespeare left. ", False),
    # a rank that is part of the famous name, however often the book writes it, and the figures
    # of Arthurian legend (read, seed 20261169, Anne of Green Gables: "the fair lily maid and
    # Lancelot and Guinevere and King Arthur had become very real people to them")
    ("At least the lily maid and King Arthur had become very real people to them.", "King Arthur",
     BOOK_ALLUSION + "Ruby, you must be King Arthur. ", True),
    ("At least Lancelot and Guinevere and King Arthur had become very real people to them.", "Lancelot",
     BOOK_ALLUSION, True),
    ("At least the lily maid and Guinevere had become very real people to them.", "Guinevere",
     BOOK_ALLUSION, True),
    # ... and a title without which the name is nobody famous, however often the book writes it
    # (read, seed 20261176, Vanity Fair: "or how should schoolboys brag of their amours, or Don
    # Juan be popular?", the book's fourth of five "Don Juan")
    ("Or how should schoolboys brag of their amours, or Don Juan be popular?", "Don Juan",
     BOOK_ALLUSION + "He looked like Don Juan. The tender parts of Don Juan moved her. ", True),
    ("He read to Lord Byron that night.", "Lord Byron", BOOK_ALLUSION + "Lord Byron came. Lord Byron sat. ", True),
    # ... not one the book shows speaking
    ("He read to Lord Byron that night.", "Lord Byron", BOOK_ALLUSION + '"No," said Lord Byron. Lord Byron said so. ',
     False),
    # an oath (read, seed 20261177, The Mysteries of Udolpho: "Holy St. Mark! I hear the oars")
    ("Holy St. Mark! I hear the oars on the canal.", "St. Mark", None, True),
    ("Holy Peter, he is here!", "Peter", None, True),
    ("The holy man met Peter.", "Peter", None, False),
    # a saint: the title spelled out (read, seed 20261180, Ulysses: "the Blessed Virgin and then
    # Saint Joseph"); "St." is a surname's too ("St. John Rivers", "Emily St. Aubert")
    ("She prayed to the Blessed Virgin and then Saint Joseph.", "Joseph", None, True),
    ("She prayed to the Blessed Virgin and then Saint Joseph.", "Saint Joseph", None, True),
    ("what the great saint Bernard said in his famous prayer", "Bernard", None, True),   # read, seed 20261183
    ("She walked with St. John along the moor.", "St. John", None, False),
    # a song's title, all a quotation holds, in a book that writes it rarely (Jack and Jill:
    # singing “Pretty Bobby Shafto”)
    ("She burst out singing “Pretty Bobby Shafto” at the top of her voice.", "Bobby Shafto", BOOK_ALLUSION, True),
    ("The fine lady left her horse to dance with “Bobby Shafto” then.", "Bobby Shafto", BOOK_ALLUSION, True),
    # a signature in quotes, its given name common (Jack and Jill: Jill's letter signed “Jane Pecq”)
    ("He read the note signed “Tom Pecq” and laughed.", "Tom Pecq", BOOK_ALLUSION, True),
    # ... not a character's name quoted for its sound, which the book writes often (Far from the
    # Madding Crowd: "communed with her own heart concerning "Troy""), nor without a book
    ('She had only communed with her own heart concerning "Troy".', "Troy",
     BOOK_ALLUSION + "Troy came. Troy left. Troy sat. Troy stood. Troy ran. Troy laughed. ", False),
    ("She burst out singing “Pretty Bobby Shafto” at the top of her voice.", "Bobby Shafto", None, False),
    # a name used as a kind (read, seed 20261182, Ulysses: "None of your spoilt beauties, Flora
    # MacFlimsy sort, was Cissy Caffrey")
    ("None of your spoilt beauties, Flora MacFlimsy sort, was Cissy.", "Flora MacFlimsy", None, True),
    ("Flora MacFlimsy sorted the letters.", "Flora MacFlimsy", None, False),
    ("Then Flora MacFlimsy sort of smiled.", "Flora MacFlimsy", None, False),      # the adverb
    # a personification: a title before a word the book writes in lower case (Tess: "the vulpine
    # slyness of Dame Nature")
    ("Yet such is the vulpine slyness of Dame Nature that she was hoodwinked.", "Dame Nature",
     BOOK_ALLUSION + "The nature of things. Human nature. A kind nature. In nature. By nature. ", True),
    ("Yet such is the slyness of Lady Grey that she was hoodwinked.", "Lady Grey",
     BOOK_ALLUSION + "Lady Grey came. Lady Grey sat. Lady Grey left. A grey coat. ", False),
    # ... nor a vocative, whose punctuation is inside the quotes
    ("“Ned!” she cried, and ran.", "Ned", BOOK_ALLUSION, False),
    # ... not a king of that name the book shows speaking
    ("At least the lily maid and King Arthur had become very real people to them.", "King Arthur",
     BOOK_ALLUSION + '"No," said King Arthur. King Arthur said so. ', False),
    # the author of a quoted work (read, seed 20261186, Night and Day: "the “History of England”
    # by Lord Macaulay"); not a character after "by" without the quotation
    ("She asked where she should find the “History of England” by Lord Macaulay.", "Lord Macaulay", None, True),
    ("She was taken in by Lord Macaulay at dinner.", "Lord Macaulay", None, False),
    ("He called Mary at once.", "Mary", None, False),
    ("He called on Mrs. Weston yesterday.", "Mrs. Weston", None, False),
    ("Emma called Harriet a fool.", "Harriet", None, False),
    ("The princess called Levin to her side.", "Levin", None, False),
    # a name talked of as a word, a name used as a kind (read, seed 20261130)
    ("Don’t let her come here, Doady!’ which was a corruption of David.", "David", None, True),
    ("Bess is short for Elizabeth.", "Elizabeth", None, True),
    ("If either of you have any inclination to pull caps for the title of Miss Belmont, do it.", "Miss Belmont", None, True),
    ("It was not that he looked on Lizzie Murphy, herself no Lillian Russell, as an authority.",
     "Lillian Russell", None, True),
    ("He spoke of David.", "David", None, False),
    ("No Emma came.", "Emma", None, False),
    # what a name is, said with "be" (read, seeds 20261163 and 20261165: Esther's real name,
    # grouped with the man Hawdon)
    ("In Miss Barbary stating Miss Summerson's real name to be Hawdon, there is a case.", "Hawdon", None, True),
    ("He said that her real name was Hawdon.", "Hawdon", BOOK_HAWDON, True),
    # ... not a person's own name ("his name was Jonas Blake": the swap renames both), nor a
    # name that is the subject, nor "be" with another subject
    ("He said that his real name was Hawdon.", "Hawdon", BOOK_HAWDON, False),
    ("My name is Pip, and I live here.", "Pip", None, False),
    ("I knew that his name was Jonas Blake, a student.", "Jonas Blake", None, False),
    ("Hawdon was a name she never heard.", "Hawdon", None, False),
    ("The man was Hawdon, and he was dead.", "Hawdon", None, False),
    ("She gave the name to Hawdon, who was a lawyer.", "Hawdon", None, False),
])
def test_allusions_are_persons_but_no_characters(nlp, text, word, book, alluded):
    evidence = book_evidence(book, "b") if book else None
    doc = person_doc(nlp, text, word)
    m = mention(doc, evidence)
    assert m is not None                # a person still: LitBank's gold counts allusions
    assert (allusion(doc, m, evidence) is not None) is alluded


def test_a_window_with_an_allusion_among_its_persons_is_refused(nlp):
    from collections import Counter

    from pipeline.core import extract as core

    text = "Although she admired Clara, Eleanor would not say so to Thomas or to a sort of infantine Guy Fawkes."
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(text), 0, core.BookMeta("t", "T", "A"), rejected=rejected)
    assert insts == [] and rejected[core.REJECT_ALLUSION] == 1
    text = "Although she admired Clara, Eleanor would not say so to Thomas or to that infantine Guy Fawkes."
    insts, _, _ = core.instances_from_doc(nlp(text), 0, core.BookMeta("t", "T", "A"))
    assert len(insts) == 1


BOOK_JOYCE = ("Joyce was the Frizinghall policeman, who had been left by the Superintendent. "
              "The house was quiet. ") * 2


@pytest.mark.parametrize("book,gender", [
    (BOOK_JOYCE, "masculine"),
    (BOOK_JOYCE + "Mr. Joyce came in. ", "masculine"),
    # a title of gender-guesser's gender keeps it
    (BOOK_JOYCE + "Miss Joyce came in. ", "feminine"),
    # no predicate nominal: gender-guesser's Joyce
    ("Joyce came to the house. The house was quiet. " * 2, "feminine"),
    # described as a man once but her own pronouns say otherwise
    (BOOK_JOYCE + "Joyce came in and she sat down. Joyce left; she was tired. Joyce smiled as she spoke. ",
     "feminine"),
])
def test_a_predicate_nominal_gives_the_gender(nlp, book, gender):
    doc = person_doc(nlp, "Joyce came in at last.", "Joyce")
    m = mention(doc, book_evidence(book, "b"))
    assert m is not None and m.gender == gender, m
    ev = book_evidence("Joyce was the Frizinghall policeman.", "b").forms["Joyce"]
    assert ev.appositions["masculine"] == 1


@pytest.mark.parametrize("text,gender,source", [
    # en_core_web_sm's tokenizer glued the title to the word before it ("table.--Mrs." "Elton");
    # the project's splits the stop and the dash off, so the title is the mention's own
    ("Dinner was on table.--Mrs. Elton, before she could be spoken to, was ready.", "feminine", "title"),
    ("He came in.--Mr. Elton smiled at her.", "masculine", "title"),
    # no title before it: gender-guesser's
    ("Dinner was on table. Elton, before she could be spoken to, was ready.", "masculine",
     "gender-guesser:male"),
])
def test_a_title_glued_to_the_word_before_gives_the_gender(nlp, text, gender, source):
    m = mention(person_doc(nlp, text, "Elton"))
    assert m is not None and (m.gender, m.gender_source) == (gender, source)


def test_an_apposition_noun_before_a_name_belongs_to_that_name():
    # "Liza-Lu, the boy Abraham, and ...": the boy is Abraham, not Liza-Lu
    e = book_evidence("Liza-Lu, the boy Abraham, and the younger children had gone. "
                      "Joyce was the Frizinghall policeman, who came. Jo, a tall girl, laughed. ", "b")
    found = {k: dict(v.appositions) for k, v in e.forms.items() if sum(v.appositions.values())}
    assert found == {"Joyce": {"masculine": 1}, "Jo": {"feminine": 1}}


@pytest.mark.parametrize("book,animal", [
    ("I met her little dog, who was called Jip. Jip barked madly all the time. ", True),
    ("Jip barked at me again. ", True),
    # a person who speaks is none
    ("Jip said nothing. Jip laughed. Mr. Jip came in. ", False),
])
def test_a_name_the_book_shows_barking_is_an_animal(nlp, book, animal):
    e = book_evidence(book, "b")
    assert e.is_animal("Jip") is animal
    m = mention(person_doc(nlp, "Jip ran to the door.", "Jip"), e)
    assert (m is None) is animal


@pytest.mark.parametrize("text,word,person", [
    ("He would be the pride of all the generations of Osborne.", "Osborne", False),
    ("It was the end of the line of Stuart.", "Stuart", False),
    ("He became the favourite visitor at the house of Agnes.", "Agnes", True),
    ("He was the son of Osborne and the pride of the town.", "Osborne", True),
    ("She spoke of Osborne with pride.", "Osborne", True),
])
def test_a_name_after_a_family_noun_and_of_is_a_family(nlp, text, word, person):
    assert (mention(person_doc(nlp, text, word)) is not None) is person


BOOK_MACKENZIE = ("Mr Mackenzie smiled. Mr Mackenzie came in. Mrs Mackenzie laughed. "
                  "Mrs Mackenzie was there. The house was quiet. ") * 2     # titled 4 and 4


@pytest.mark.parametrize("book,gender", [
    # a family's surname, titled both ways: the bare surname is the head's, whatever
    # gender-guesser's girl "Mackenzie" (read, seed 20261127: "Mackenzie asked about Flossie"
    # made a woman)
    (BOOK_MACKENZIE, "masculine"),
    (BOOK_MACKENZIE + "Mrs Mackenzie left. Mrs Mackenzie rode. Mrs Mackenzie came. " * 3, "masculine"),
    # the bare uses' own pronouns decide
    (BOOK_MACKENZIE + "Mackenzie came and he sat. Mackenzie left; he was tired. Mackenzie said he would. ",
     "masculine"),
    # one title only: the titles decide
    ("Mr Mackenzie smiled. Mr Mackenzie came in. The house was quiet. " * 2, "masculine"),
    # no title at all: gender-guesser's
    ("Mackenzie came to the house. The house was quiet. " * 2, "feminine"),
])
def test_a_family_surname_titled_both_ways_is_the_heads(nlp, book, gender):
    doc = person_doc(nlp, "Mackenzie asked about the garden.", "Mackenzie")
    m = mention(doc, book_evidence(book, "b"))
    assert m is not None and m.gender == gender, m


@pytest.mark.parametrize("men,head", [(1, False), (3, True)])
def test_one_mr_against_a_dozen_miss_is_no_family_head(nlp, men, head):
    """Read, seed 20261159: one "Mr. Sharp" (her father) against 147 "Miss Sharp" made Becky's
    bare "Sharp" a man by the family-head rule; the masculine titles must be a tenth of the
    feminine ones (``FAMILY_HEAD_SHARE``)."""
    book = ("Miss Sharp smiled. Miss Sharp came in. Miss Sharp sat down. " * 4
            + "Mr. Sharp had died. The house was quiet. " * men)
    m = mention(person_doc(nlp, "Sharp asked about the garden.", "Sharp"), book_evidence(book, "b"))
    assert m is not None and (m.gender_source == "book:family head") is head, m


@pytest.mark.parametrize("title,head", [("Dr.", True), ("Doc", True), ("Dr", True), ("Nurse", False), ("", False)])
def test_a_title_of_the_professions_makes_a_family_head(nlp, title, head):
    """Read, seed 20261162: *Main Street* titles its doctor "Dr. Kennicott" and "Doc Kennicott"
    (19 times) and "Mr." once, his wife "Mrs. Kennicott" 36 times; the bare "Kennicott" (the
    doctor, "Kennicott's rival gasped") was left ungendered and joined Mrs. Kennicott in the
    windows. A title of the professions counts as a man's for the family head (the period's
    convention, as for "Dr. Kennicott" itself); "Nurse" is no profession's title of a man."""
    from pipeline.lang.book_evidence import mark_genders

    book = ("Mrs. Kennicott smiled. Mrs. Kennicott came in. Mrs. Kennicott sat down. " * 4
            + (f"{title} Kennicott drove off. The house was quiet. " * 3 if title else "The house was quiet. "))
    evidence = book_evidence(book, "b")
    assert evidence.family_head("Kennicott") is head
    m = mention(person_doc(nlp, "Kennicott asked about the garden.", "Kennicott"), evidence)
    assert m is not None and (m.gender == "masculine") is head, m
    assert ("masculine" in mark_genders("Kennicott", evidence)) is head      # pass 0 asks the same


def test_a_sentence_ending_after_doctor_is_no_title():
    """"...sent for the Doctor. Kennicott came": "Doctor." ends a sentence, no title of the next
    word; "Dr." before a name is one."""
    book = "They sent for the Doctor. Kennicott came at once. " * 3
    assert book_evidence(book, "b").forms.get("Kennicott") is None or book_evidence(book, "b").forms["Kennicott"].professions == 0
    assert book_evidence("They sent for Dr. Kennicott at once. " * 3, "b").forms["Kennicott"].professions == 3


BOOK_GOOD = ("Captain Good said yes. Captain Good smiled at Sir Henry. Alphonse said no. Alphonse cried. "
             "The house was quiet and the garden was long. ") * 3


def test_a_person_of_the_book_inside_another_entity_is_a_fifth_person(nlp):
    # read, seed 20261127: "Sir Henry whispered on to Good and Alphonse" (an ORG to the NER)
    from collections import Counter

    from pipeline.core import extract as core

    text = ("Although she admired Clara, Eleanor would not say so to Thomas or to William, "
            "who whispered on to Good and Alphonse.")
    doc = nlp(text)
    assert {t.ent_type_ for t in doc if t.text in ("Good", "Alphonse")} == {"ORG"}
    meta = core.BookMeta("t", "T", "A")
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(doc, 0, meta, evidence=book_evidence(BOOK_GOOD, "b"), rejected=rejected)
    assert insts == [] and rejected[core.REJECT_BOOK_PERSON] == 1
    # a book that never shows them as persons: the window stands
    quiet = "The house was quiet and the garden was long. " * 6
    insts, _, _ = core.instances_from_doc(doc, 0, meta, evidence=book_evidence(quiet, "b"))
    assert len(insts) == 1


@pytest.mark.parametrize("tail,reason", [
    # read, seed 20261128: "Mother was sitting at the fire with Dante", a fifth woman
    ("and Mother smiled.", "REJECT_KIN_NAME"),
    # not a name: a determiner or possessive before the kin word, a lower-case title, a title
    # before a name (Aunt March is a titled fifth person, refused as such)
    ("and her mother smiled.", None),
    ("and the Mother of the house smiled.", None),
    ("and the doctor smiled.", None),
])
def test_a_kin_word_or_a_title_used_as_a_name_is_a_fifth_person(nlp, tail, reason):
    from collections import Counter

    from pipeline.core import extract as core

    text = "Although she admired Clara, Eleanor would not say so to Thomas or to William, " + tail
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(text), 0, core.BookMeta("t", "T", "A"), rejected=rejected)
    if reason is None:
        assert insts, rejected
    else:
        assert insts == [] and rejected[getattr(core, reason)] == 1, rejected



_SHE_FOUR = "Although she admired Clara, Eleanor would not say so to Thomas or to William"


@pytest.mark.parametrize("text,reason,refused", [
    # read, seed 20261193 (Tom Jones): "the captain" for Captain Blifil, unmarked beside his name,
    # stayed "the captain" when his name moved to another's place
    ("Captain Blifil would not say so to Clara, and Eleanor told William; the captain laughed at her.", "REJECT_RANK", True),
    ("Colonel Brandon would not say so to Clara, and Eleanor told William; the colonel laughed at her.", "REJECT_RANK", True),
    # no one of the four bears it: a common noun, as "the sailor" is
    ("Mr. Blifil would not say so to Clara, and Eleanor told William; the captain laughed at her.", "REJECT_RANK", False),
    ("Captain Blifil would not say so to Clara, and Eleanor told William; the sailor laughed at her.", "REJECT_RANK", False),
    # before a name or "of": a title, not a person standing alone
    ("Captain Blifil would not say so to Clara, and Eleanor told William; the captain of the ship laughed at her.",
     "REJECT_RANK", False),
    # (Tom Jones) "the squire stripped him" stayed "the squire" while his pronouns flipped; the
    # squire has no counterpart, in either case, beside any pronoun
    (_SHE_FOUR + ", and the squire laughed at him.", "REJECT_RANK", True),
    ("Although he admired Thomas, William would not say so to Clara or to Eleanor, and the Squire laughed.", "REJECT_RANK", True),
    (_SHE_FOUR + ", and the squire's dog barked.", "REJECT_RANK", True),
    # a title before a name is no rank standing for a person
    (_SHE_FOUR[:-len(" or to William")] + " or to William Squire.", "REJECT_RANK", False),
    # (Miss Marjoribanks) "the engagement between Lydia[1] and John", the tokenizer's "Lydia[1":
    # a fifth person nobody counted
    (_SHE_FOUR + ", and she said so to Lydia[1] at once.", "REJECT_GLUED", True),
    (_SHE_FOUR + ", and she laughed at Ned[2] and left.", "REJECT_GLUED", True),
    (_SHE_FOUR + ", and she said so at once.[1]", "REJECT_GLUED", False),
    (_SHE_FOUR + ", and she said so at once.", "REJECT_GLUED", False),
])
def test_the_window_rules_of_the_read_of_seed_20261193(nlp, text, reason, refused):
    from collections import Counter

    from pipeline.core import extract as core

    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(text), 0, core.BookMeta("t", "T", "A"), rejected=rejected)
    assert (insts == [] and rejected[getattr(core, reason)] >= 1) is refused, rejected
    if not refused:
        assert insts, rejected


@pytest.mark.parametrize("text,refused", [
    # read, seed 20261128: "said the Doctor" (Doctor Strong, none of the four) beside a "him":
    # a fifth man the pronoun may mean
    ("Although he admired Thomas, William would not say so to Clara or to Eleanor, and the Doctor smiled.", True),
    # with "she" the unnamed doctor's own pronouns flip with the rest (test_extract_fifth_person)
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William, and the Doctor smiled.", False),
    # a title in no actor's role: "far from dreading a rebuke from the Archbishop" (Pride and
    # Prejudice, a published original)
    ("Although he admired Thomas, William would not say so to Clara or to Eleanor, fearing a rebuke from "
     "the Archbishop.", False),
])
def test_an_unnamed_title_beside_a_he_is_a_fifth_person(nlp, text, refused):
    from collections import Counter

    from pipeline.core import extract as core

    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(text), 0, core.BookMeta("t", "T", "A"), rejected=rejected)
    assert (insts == [] and rejected[core.REJECT_RANK] == 1) is refused, rejected


@pytest.mark.parametrize("text,word,person", [
    # read, seed 20261128: "for in Prince Edward island you are supposed to nod"
    ("For in Prince Edward island you are supposed to nod.", "Prince Edward", False),
    ("They walked to the Harley street door.", "Harley", False),
    # a name before a lower-case noun that is no place, or not after a place preposition
    ("She gave Edward street directions.", "Edward", True),
    ("In Prince Edward she saw a friend.", "Prince Edward", True),
])
def test_a_name_before_a_lower_case_place_noun_is_a_place(nlp, text, word, person):
    assert (mention(person_doc(nlp, text, word)) is not None) is person


def test_a_kin_word_one_of_the_four_bears_as_a_title_is_that_person(nlp):
    from collections import Counter

    from pipeline.core import extract as core

    text = 'Although she admired Aunt Clara, Eleanor would not say so to Thomas or to William: "Aunt?"'
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(text), 0, core.BookMeta("t", "T", "A"), rejected=rejected)
    assert insts and not rejected[core.REJECT_KIN_NAME], rejected


BOOK_ARCHER = ("Mr. Archer smiled. Mr. Archer sat. Newland said he would go. Newland said he was tired. "
               "Newland laughed and he went out. The house was quiet and the garden was long. ") * 3


@pytest.mark.parametrize("book,person", [
    # the NER makes "Newland Archer's" a GPE; the book shows both words to be a person
    (BOOK_ARCHER, True),
    # a book that shows neither: the entity stays a place
    ("The house was quiet and the garden was long. " * 10, False),
])
def test_a_full_name_the_ner_put_in_another_entity_is_a_person(nlp, book, person):
    from pipeline.core.extract import person_mentions

    doc = nlp("It played a part as important in Newland Archer's New York as the totem terrors.")
    assert any(e.text.startswith("Newland Archer") and e.label_ != "PERSON" for e in doc.ents)
    got = [m.text for m in person_mentions(doc, book_evidence(book, "b"))]
    assert ("Newland Archer" in got) is person, got


def test_a_titled_surname_the_ner_put_in_an_org_is_a_person(nlp):
    from pipeline.core.extract import person_mentions

    book = ("Dr. Marjoribanks smiled. Dr. Marjoribanks sat. Lucilla Marjoribanks came home. "
            "Miss Marjoribanks was nineteen. The house was quiet and the garden was long. ") * 3
    doc = nlp("Lucilla had caused the fire to be lighted in the library where Dr Marjoribanks always sat in the "
              "evenings; for Dr Marjoribanks was not a man who had any great confidence.")
    assert any(e.label_ == "ORG" and "Marjoribanks" in e.text for e in doc.ents)    # the NER's mistake
    got = [m.text for m in person_mentions(doc, book_evidence(book, "b"))]
    assert got.count("Dr Marjoribanks") == 2, got


@pytest.mark.parametrize("word,gender", [
    # an ungendered title of the professions, the book silent on its gender: the period's man
    ("Dr Merridew", "masculine"), ("Professor Merridew", "masculine"), ("Judge Merridew", "masculine"),
    # not a nurse or a cousin
    ("Nurse Merridew", "ungendered"), ("Cousin Merridew", "ungendered"),
])
def test_a_professions_title_the_book_says_nothing_of_is_a_mans(nlp, word, gender):
    book = f"{word} came in. {word} sat down. The house was quiet. " * 4
    m = mention(person_doc(nlp, f"Then {word} looked at the fire.", word), book_evidence(book, "b"))
    assert m is not None and m.gender == gender, m


def test_a_professions_title_yields_to_the_books_pronouns(nlp):
    book = ("Dr Merridew came and she sat. Dr Merridew left; she was tired. Dr Merridew said she would. "
            "The house was quiet. ") * 2
    m = mention(person_doc(nlp, "Then Dr Merridew looked at the fire.", "Dr Merridew"), book_evidence(book, "b"))
    assert m is not None and m.gender == "feminine", m


BOOK_PALL = ("Sir Andrew lived in Pall Mall. The house in Pall Mall was large. Marguerite smiled. "
             "Marguerite said she would come. The old man walked slowly. ") * 3


@pytest.mark.parametrize("text,word,person", [
    # read, seed 20261128: "the house in Pall Mall" made "Mall" a woman (swap-1: "in Pall Sir
    # Andrew Ffoulkes")
    ("He went to the house in Pall Mall that night.", "Mall", False),
    # a first name, a title or a lower-case word before the name: a person
    ("He went to the house with Marguerite Mall that night.", "Mall", True),
    ("He sat in Old Mall's chair.", "Mall", True),
])
def test_the_second_word_of_a_place_is_no_person(nlp, text, word, person):
    m = mention(person_doc(nlp, text, word), book_evidence(BOOK_PALL, "b"))
    assert (m is not None) is person, m


@pytest.mark.parametrize("text,word,person", [
    # read, seed 20261147 (Udolpho): "La Vallee", Emily's home, a man of the window
    ("The waves, as they passed towards La Vallee, were calm.", "La Vallee", False),
    # ... but a person whose name starts with the article, whom the book shows
    ("Then La Rue said nothing.", "La Rue", True),
])
def test_a_place_named_with_a_foreign_article(nlp, text, word, person):
    book = ("They went to La Vallee. She longed to reach La Vallee. He lived at La Vallee. "
            "She was born in La Vallee. La Rue said no. La Rue said yes. Emily smiled. ") * 2
    assert (mention(person_doc(nlp, text, word), book_evidence(book, "b")) is not None) is person


def test_a_place_whose_first_word_the_book_also_writes_in_lower_case(nlp):
    # read, seed 20261142 (The Scarlet Pimpernel): "Pall" once capitalised, "pall" twice in lower
    # case, so "Pall" is no proper word of the book; "Mall" is nobody in it, so "the house in Pall
    # Mall" is still a place (the possessive case, "in Old Mall's chair", is the test above)
    book = ("A pall of smoke hung low. The pall lifted. Marguerite smiled. Marguerite said she would come. ") * 2
    assert mention(person_doc(nlp, "She had herself carried to the house in Pall Mall where he lived.", "Mall"),
                   book_evidence(book, "b")) is None


@pytest.mark.parametrize("book,animal", [
    # The Man of the Forest (read, seed 20261130): Tom is Dale's cougar
    ("“Oh! So that's Tom--the pet lion!” exclaimed Bo. Tom, the cougar, put in an appearance then. ", True),
    ("Tom, the tame cougar, trotted along in the rear. ", True),
    # a metaphor of a person's standing is no animal: lions are not listed
    ("Tom, the literary lion, came to dinner. Tom, the lion of the season, smiled. ", False),
    # a possessive name as the owner (reads of seeds 20261142, 20261145, 20261146: The Scarlet
    # Pimpernel's Sultan, "the groom had come home with Sultan", a man of the window)
    ("A groom held two horses; one of these was Tom, Sir Percy's favourite and swiftest horse, saddled. "
     "The groom came home with Tom. ", True),
    ("Tom, Sir Percy's favourite and oldest friend, came in. ", False),
])
def test_a_name_the_book_calls_a_wild_animal_is_an_animal(nlp, book, animal):
    assert book_evidence(book, "b").is_animal("Tom") is animal


BOOK_BAGNET = ("Matthew Bagnet came in. Mr. Bagnet said yes. Mr. Bagnet said no. Matthew Bagnet left. "
               "The house was quiet. ") * 2


@pytest.mark.parametrize("book,gender", [
    # Bleak House (reads of seeds 20261128 and 20261130): "Mat" is Matthew Bagnet, gender-guesser's woman
    (BOOK_BAGNET, "masculine"),
    # a book that never writes the formal name with a surname: gender-guesser's
    ("Mr. Bagnet said yes. Mr. Bagnet said no. The house was quiet. " * 2, "feminine"),
])
def test_a_pet_form_takes_the_gender_of_the_formal_name_the_book_ties_it_to(nlp, book, gender):
    doc = person_doc(nlp, "It does her credit, Mat!", "Mat")
    m = mention(doc, book_evidence(book, "b"))
    assert m is not None and m.gender == gender, m


def test_pet_forms_of_joseph_are_all_his():
    # the table held "joseph" twice, the second entry ("jos") dropping "joe joey"
    from pipeline.lang.names import one_given_name

    assert one_given_name("joe", "joseph") and one_given_name("jos", "joseph") and one_given_name("mat", "matthew")


# read, seed 20261131: classes of the third read of the session, each positive and negative

def test_a_heroine_who_purrs_once_is_no_animal():
    # Main Street: "Carol purred, “I was so sorry”" once, against her many speeches
    book = "Carol said no. Carol said yes. Carol said so. Carol said it. Carol purred at him. " * 2
    assert not book_evidence(book, "b").is_animal("Carol")
    assert book_evidence("Jip barked madly. Jip barked again. Jip said nothing. ", "b").is_animal("Jip")


@pytest.mark.parametrize("book,gender", [
    # Tom Sawyer: "Mrs. Thatcher" (Becky's mother) titles the family; the Judge keeps the convention
    ("Mrs. Thatcher smiled. Mrs. Thatcher wept. Becky Thatcher ran. " * 2, "masculine"),
    # the Judge's own pronouns still win
    ("Judge Thatcher came and she sat. Judge Thatcher left; she was tired. Judge Thatcher said she would. " * 2,
     "feminine"),
])
def test_a_title_of_the_professions_takes_nothing_from_the_familys_other_titles(nlp, book, gender):
    doc = person_doc(nlp, "Judge Thatcher's house was on the way.", "Judge Thatcher")
    m = mention(doc, book_evidence(book, "b"))
    assert m is not None and m.gender == gender, m


@pytest.mark.parametrize("text,word,alluded", [
    ("He changed his name to Vandeleur and fled to England.", "Vandeleur", True),
    ("She took the name of Mrs. Smith.", "Mrs. Smith", True),
    ("He gave his hat to Jones.", "Jones", False),
    ("Charles Lamb said nothing.", "Charles Lamb", False),          # no book: nothing proved
])
def test_assumed_names(nlp, text, word, alluded):
    doc = person_doc(nlp, text, word)
    m = mention(doc)
    assert m is not None and (allusion(doc, m) is not None) is alluded


@pytest.mark.parametrize("book,person", [
    # Charlotte Temple: "the syren Hope again took possession of her bosom"
    ("The house was quiet. The garden was long. " * 3, False),
    # a girl called Hope whom the book shows speaking
    ("Hope said no. Hope said yes. \"Come,\" said Hope. " * 2, True),
])
def test_a_personified_virtue_is_no_person(nlp, book, person):
    doc = person_doc(nlp, "Yet after a few hours the syren Hope again took possession of her bosom.", "Hope")
    assert (mention(doc, book_evidence(book, "b")) is not None) is person


def test_literary_figures_the_book_never_shows_are_allusions(nlp):
    book = "The house was quiet. The garden was long. " * 30
    doc = person_doc(nlp, "As no one listened to her she sat back and looked like Lady Macbeth.", "Lady Macbeth")
    m = mention(doc, book_evidence(book, "b"))
    assert m is not None and allusion(doc, m, book_evidence(book, "b")) is not None


def test_an_unnamed_baronet_is_a_rank_no_swap_flips(nlp):
    from collections import Counter

    from pipeline.core import extract as core

    text = ("Although she admired Clara, Eleanor would not say so to Thomas, and the Baronet passed the "
            "evening with William and him.")
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(text), 0, core.BookMeta("t", "T", "A"), rejected=rejected)
    assert insts == [] and rejected[core.REJECT_RANK] >= 1


# read, seed 20261132

@pytest.mark.parametrize("text,word,found", [
    # a sentence-opening adverb the NER glued to the name after it
    ("Helen thought so. Whereupon Bo turned her back to Riggs.", "Whereupon Bo", ["Bo"]),
    # ... at a paragraph's start: the paragraph's space token belongs to the sentence before
    # (read, seed 20261156: "Whereupon Bo" was a man of the window beside Bo)
    ("Helen thought so.\n\nWhereupon Bo turned her back to Riggs.", "Whereupon Bo", ["Bo"]),
    ('Helen thought so.\n\n"Whereupon Bo turned her back to Riggs."', "Whereupon Bo", ["Bo"]),
    # a given name before it stays
    ("Helen thought so. Jane Bo turned her back to Riggs.", "Jane Bo", ["Jane Bo"]),
    ("Helen thought so.\n\nJane Bo turned her back to Riggs.", "Jane Bo", ["Jane Bo"]),
    # mid-sentence it is no opening word
    ("Helen thought so, and Whereupon Bo turned her back to Riggs.", "Whereupon Bo", ["Whereupon Bo"]),
])
def test_a_sentence_opening_word_glued_to_a_name_is_dropped(nlp, text, word, found):
    book = ("Whereupon they left. Whereupon it rained. Whereupon she smiled. Bo said yes. Then Bo went home. "
            "Jane Bo came. The house was quiet. ") * 2
    doc = person_doc(nlp, text, word)
    assert [m.text for m in doc_mentions(doc, book_evidence(book, "b")) if m.text != "Helen"] == found


@pytest.mark.parametrize("text,word,person", [
    ("Mr. Smee has forgotten where Russell Square is now.", "Russell Square", False),
    ("She lived in Parley Street for years.", "Parley Street", False),
    ("Then Russell Street came in and sat down.", "Russell", True),        # a surname alone
    # an institution (read, seed 20261181, Howards End: "a great row at Hilton Tennis Club")
    ("There had been a great row at Hilton Tennis Club last week.", "Hilton Tennis Club", False),
    ("He stayed at the Grand Hotel with Tom Banks.", "Tom Banks", True),
])
def test_a_name_ending_in_a_street_word_is_a_place(nlp, text, word, person):
    doc = person_doc(nlp, text, word)
    assert (mention(doc) is not None) is person


def test_an_ape_the_book_calls_one_is_an_animal():
    assert book_evidence("Kala, the great ape, took the child. Kala ran. ", "b").is_animal("Kala")
    assert not book_evidence("Kala said yes. Kala said no. Kala said so. Kala went home. ", "b").is_animal("Kala")


@pytest.mark.parametrize("text", [
    "Rusty would be the nicest cat in the world if he had no ears. Rusty slept. ",
    "Diablo was the only horse in the field that was not afraid. Diablo ran. ",
    "Bess has been a good mare in her way. Bess ran. ",
])
def test_a_name_the_book_calls_an_animal_after_a_modal_or_perfect_copula_is_an_animal(text):
    # Anne of the Island: the cats Rusty and Joseph had become the two men of a window
    assert book_evidence(text, "b", model=None).is_animal(text.split()[0])


def test_a_girl_the_book_once_calls_a_horse_in_a_game_is_no_animal():
    book = "Nan was the best horse in the team. " + '"Come," said Nan. "No," said Nan. "Yes," said Nan. Nan said so. '
    assert not book_evidence(book, "b", model=None).is_animal("Nan")
    # a person's "dog" after a copula, with nothing after it that says an animal: no use
    assert not book_evidence("Tom is a lucky dog to have it. Tom ran. ", "b", model=None).forms.get("Tom", None) \
        or not book_evidence("Tom is a lucky dog to have it. Tom ran. ", "b", model=None).forms["Tom"].animal


# read, seed 20261149: names a whole book writes once, untitled and never shown as persons
FILLER = "The house was quiet and the garden was long. " * 2300        # over ONCE_MIN_WORDS words


@pytest.mark.parametrize("text,word,extra,alluded", [
    ("Even at twenty-two he would pass hours reading one of Scott's novels.", "Scott", "", True),
    ("He quoted the lines from the poem about Belinda's diamonds.", "Belinda", "", True),
    ("He would sing about Jack's delight being his lovely Nan, towards the end of it.", "Nan", "", True),
    # titled, speaking, written twice: a character, however minor
    ("He knew that Madame Bobinot was writing dunning letters every week.", "Madame Bobinot", "", False),
    ("He would sing about Jack's delight being his lovely Nan, towards the end of it.", "Nan",
     '"Yes," said Nan. ', False),
    ("He would sing about Jack's delight being his lovely Nan, towards the end of it.", "Nan",
     "Then Nan went home. ", False),
])
def test_a_name_the_whole_book_writes_once_is_an_allusion(nlp, text, word, extra, alluded):
    evidence = book_evidence(FILLER + extra + text, "b")
    doc = person_doc(nlp, text, word)
    m = mention(doc, evidence)
    assert m is not None
    assert (allusion(doc, m, evidence) is not None) is alluded


def test_a_name_written_once_is_no_allusion_in_a_short_text_or_without_a_book(nlp):
    text = "Even at twenty-two he would pass hours reading one of Scott's novels."
    doc = person_doc(nlp, text, "Scott")
    short = book_evidence("The house was quiet. " * 30 + text, "b")
    assert allusion(doc, mention(doc, short), short) is None
    assert allusion(doc, mention(doc), None) is None


# read, seed 20261149: a gendered noun of the word list that the book writes as a given name
@pytest.mark.parametrize("book,person", [
    ("Guy Pollock came in. Then Guy Pollock said no. He met Mr. Pollock. The house was quiet. " * 2, True),
    ("The guy came in. He met a guy. The house was quiet. " * 2, False),
    ("Guy Pollock came in. He met Mr. Pollock. The house was quiet. ", False),     # one full name: not enough
])
def test_a_gendered_noun_the_book_writes_before_a_surname_is_a_given_name(nlp, book, person):
    doc = person_doc(nlp, "If Will were as literate as Guy, I think I could endure it.", "Guy")
    evidence = book_evidence(book, "b")
    assert any(m.text == "Guy" for m in doc_mentions(doc, evidence)) is person


def test_the_story_girl_stays_a_nickname_beside_a_given_name_rule(nlp):
    doc = person_doc(nlp, "Then the Story Girl told us a tale.", "Story Girl")
    assert mention(doc, book_evidence("Guy Pollock came. Guy Pollock left. " * 2, "b")) is None


# read, seed 20261152: a two-word town the place list does not know, named as a person by the NER
@pytest.mark.parametrize("book,person", [
    ("She lived in Gopher Prairie. Life in Gopher Prairie was slow. The house was quiet. " * 2, False),
    # written once after a place preposition: not enough
    ("She lived in Gopher Prairie. The house was quiet. ", True),
    # a given name first: a person ("in Dave Dyer" is no town)
    ("She lived in Gopher Prairie. Life in Gopher Prairie was slow. Dave Dyer came. " * 2, True),
    # a word the book titles: a person's name ("Mr. Prairie")
    ("She lived in Gopher Prairie. Life in Gopher Prairie was slow. Mr. Prairie came. " * 2, True),
])
def test_two_words_the_book_writes_after_a_place_preposition_are_a_place(nlp, book, person):
    text = "It merely bound him to Gopher Prairie, to the tailor and the barber."
    word = "Gopher Prairie"
    if "Dave Dyer came" in book:
        text, word = "It merely bound him to Dave Dyer, to the tailor and the barber.", "Dave Dyer"
        book = book.replace("Gopher Prairie", "Dave Dyer")
    doc = person_doc(nlp, text, word)
    assert (mention(doc, book_evidence(book, "b")) is not None) is person
    assert mention(doc) is not None             # no book: a short text's silence proves nothing


# read, seed 20261159: a place named with a possessive ("Queen's Crawley", the family's estate),
# of which the NER took only the family's name
CRAWLEY = "\"Yes,\" said Crawley. Mr. Crawley smiled. \"No,\" said Crawley. Mr. Crawley came. "


@pytest.mark.parametrize("book,person", [
    ("They lived at Queen's Crawley. Life at Queen's Crawley was slow. " + CRAWLEY, False),
    # written once after a place preposition: not enough
    ("They lived at Queen's Crawley. " + CRAWLEY, True),
    # the owner is a person of the book: "Pitt's Crawley" is a man of Pitt's
    ("They lived at Pitt's Crawley. Life at Pitt's Crawley was slow. \"No,\" said Pitt. \"Yes,\" said Pitt. " + CRAWLEY, True),
])
def test_a_name_after_a_place_owner_the_book_goes_to_is_a_place(nlp, book, person):
    owner = "Pitt" if "said Pitt" in book else "Queen"
    doc = person_doc(nlp, f"He was the heir of {owner}'s Crawley, and he knew it.", "Crawley")
    assert (mention(doc, book_evidence(book, "b")) is not None) is person
    assert mention(doc) is not None             # no book: nothing shows the place


# read, seed 20261152: a surname the place list also knows ("Milton", a town)
@pytest.mark.parametrize("book,person", [
    (FILLER + "She could have been patient with John Milton. She read John Milton at night. ", True),
    # the book goes there: a place
    (FILLER + "She could have been patient with John Milton. They lived in Milton for years. " * 2, False),
    # no full name: the town, as before (a book of BOOK_WORDS words and more)
    (FILLER + "She could have been patient with him. ", False),
])
def test_a_surname_of_a_full_name_the_book_never_goes_to_is_no_place(nlp, book, person):
    doc = person_doc(nlp, "And even Milton, looking for his portrait in a spoon, must submit to it.", "Milton")
    assert (mention(doc, book_evidence(book, "b")) is not None) is person


# read, seed 20261153: a role the book writes only in capitals
@pytest.mark.parametrize("book,alluded", [
    ("ELSA was her first part. She sang ELSA in Dresden. The house was quiet. " * 2, True),
    # the book also writes the name in title case: a character shouted at
    ("ELSA was her first part. Elsa came in. The house was quiet. " * 2, False),
])
def test_a_name_the_book_writes_only_in_capitals_is_a_role(nlp, book, alluded):
    text = "You see, Archie, ELSA isn't a part that's particularly suited to her voice."
    doc = person_doc(nlp, text, "ELSA")
    evidence = book_evidence(book + text, "b")
    m = mention(doc, evidence)
    assert m is not None
    assert (allusion(doc, m, evidence) is not None) is alluded
    assert allusion(doc, m, None) is None         # no book: nothing to compare


# read, seeds 20261148 and 20261154: Pilot, Mr. Rochester's dog, a man of the window
@pytest.mark.parametrize("book,animal", [
    ("His old dog, Pilot, lay on one side. Pilot followed me. ", True),
    ("The dog Pilot, a great black beast, lay there. ", True),
    ("The doctor, Pilot, lay there. Pilot said no. ", False),
    ("His old friend, Pilot, lay on one side. Pilot followed me. ", False),
])
def test_an_owners_animal_named_after_a_comma_is_an_animal(book, animal):
    assert book_evidence(book, "b").is_animal("Pilot") is animal


@pytest.mark.parametrize("text,word,cut", [
    ("Helen thought so. Whereupon Bo turned her back to Riggs.", "Whereupon Bo", ["Whereupon"]),
    ("Helen thought so. Jane Bo turned her back to Riggs.", "Jane Bo", []),
])
def test_the_word_cut_off_a_name_is_no_fifth_person(nlp, text, word, cut):
    """The opening word cut off a PERSON entity is handed back with the entities found to be no
    person, so the window rules do not count it as a PERSON word outside the four persons
    ("Whereupon Bo", "Old Sedley": windows refused for the word just cut off, ninth session)."""
    book = ("Whereupon they left. Whereupon it rained. Whereupon she smiled. Bo said yes. Then Bo went home. "
            "Jane Bo came. The house was quiet. ") * 2
    doc = person_doc(nlp, text, word)
    dropped: set[int] = set()
    doc_mentions(doc, book_evidence(book, "b"), dropped=dropped)
    assert [doc[i].text for i in sorted(dropped)] == cut


BOOK_BENBOW = ("My father kept the Admiral Benbow inn. We went back to the Admiral Benbow. "
               "The door of the Admiral Benbow closed. A signboard of Admiral Benbow hung there. "
               "The Emperor Napoleon came. Napoleon said so. The Emperor Napoleon rode. "
               "The Frau Professor came. The Frau Professor sat. The Frau Professor smiled. "
               "Captain Smollett came. The Captain Smollett of old. Captain Smollett said so. ") * 2


@pytest.mark.parametrize("text,word,thing", [
    # an inn named after a person (Treasure Island: "the Admiral Benbow" 18 times of 19)
    ("We rode back to the Admiral Benbow at dusk.", "Admiral Benbow", True),
    ("We rode back to the old Benbow at dusk.", "Benbow", True),
    # a rank after "the" is a person's ("the Emperor Napoleon"), and so is a title the surname
    # is itself ("the Frau Professor"), and a name titled after "the" less often
    ("Then the Emperor Napoleon rode past.", "Emperor Napoleon", False),
    ("Then Napoleon rode past.", "Napoleon", False),
    ("Then the Frau Professor rode past.", "Frau Professor", False),
    ("Then Captain Smollett rode past.", "Captain Smollett", False),
])
def test_a_titled_name_the_book_writes_after_the_is_a_things(nlp, text, word, thing):
    from pipeline.core.cast import not_a_person

    ev = book_evidence(BOOK_BENBOW, "b", model=None)
    doc = person_doc(nlp, text, word)
    m = mention(doc, None)
    assert m is not None
    why = not_a_person(doc, m, ev)
    assert (why is not None and "the Admiral Benbow" in why) is thing, why
