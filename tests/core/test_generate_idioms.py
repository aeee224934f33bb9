"""Pronoun case in idioms and italics in a swapped variant, end to end (issue 42): the
person layer corrects the tags (:func:`pipeline.lang.gendered_words.pronoun_case`), the
instance records them, the quadruple flips by them."""

from __future__ import annotations

import pytest

from tests.core.generate_helpers import build_instance
from tests.core.test_generate import F, M, swap_1_of_four


@pytest.mark.parametrize("text,pronoun,swapped", [
    ("Frank saw John with Emma and Anne; to do her justice, she smiled.", "her",
     "Emma saw Anne with Frank and John; to do him justice, he smiled."),
    ("Frank saw John with Emma and Anne, as she said _her_ poor boy had to go.", "she",
     "Emma saw Anne with Frank and John, as he said _his_ poor girl had to go."),
    ("Emma saw Anne with Frank and John, and found among his the handwriting of a girl.", "his",
     "Frank saw John with Emma and Anne, and found among hers the handwriting of a boy."),
    # a possessive stays one
    ("Frank saw John with Emma and Anne, and took her hand.", "her",
     "Emma saw Anne with Frank and John, and took his hand."),
    # the object of a verb of perception before an -ing form (read, seed 20261127)
    ("Frank saw John with Emma and Anne, and heard her singing in the garden.", "her",
     "Emma saw Anne with Frank and John, and heard him singing in the garden."),
    # not before a noun: "her flying machine" is hers
    ("Frank saw John with Emma and Anne, and saw her flying machine.", "her",
     "Emma saw Anne with Frank and John, and saw his flying machine."),
    # an -ly adjective the tagger reads as an adverb flips (Sense and Sensibility: the re-check
    # dropped "her sisterly regard" -> "his sisterly regard")
    ("Emma saw Anne with Frank and John. Her admiration and regard, even her sisterly regard, was all his own.",
     "Her", "Frank saw John with Emma and Anne. His admiration and regard, even his brotherly regard, was all her own."),
    # a gendered word in a phrase that names no person stays (read, seed 20261128)
    ("Frank saw John with Emma and Anne, and her contact with mother earth.", "her",
     "Emma saw Anne with Frank and John, and his contact with mother earth."),
    # "to say one's say"
    ("Frank saw John with Emma and Anne, before she had said her say.", "she",
     "Emma saw Anne with Frank and John, before he had said his say."),
    # "an old maid" is a spinster: "an old bachelor", not "an old valet" (eighth session); her maid is a servant
    ("Frank saw John with Emma and Anne; she would die an old maid, she said.", "she",
     "Emma saw Anne with Frank and John; he would die an old bachelor, he said."),
    # "to her" before an adverb and no noun is the object (read, seed 20261182: "It seemed to
    # her most unnatural" -> "to his most unnatural"); before a noun, hers
    ("Frank saw John with Emma and Anne; it seemed to her most unnatural that he had gone.", "her",
     "Emma saw Anne with Frank and John; it seemed to him most unnatural that she had gone."),
    ("Frank saw John with Emma and Anne; she gave it to her most intimate friend.", "she",
     "Emma saw Anne with Frank and John; he gave it to his most intimate friend."),
    # "her" before another's possessive is an object (read, seed 20261183: "to show her Linton's
    # will" -> "to show his Zillah's will")
    ("Frank saw John with Emma and Anne; she went up once, to show her Frank's will.", "she",
     "Emma saw Anne with Frank and John; he went up once, to show him Emma's will."),
    # "pass her" before a bare noun phrase is hers (read, seed 20261181: "Isabella passed her
    # weary hours" -> "Jennings passed him weary hours"); before a determiner an object
    ("Frank saw John with Emma and Anne; she passed her weary hours alone.", "she",
     "Emma saw Anne with Frank and John; he passed his weary hours alone."),
    ("Frank saw John with Emma and Anne; he passed her the salt, and she smiled.", "she",
     "Emma saw Anne with Frank and John; she passed him the salt, and he smiled."),
    # "dame" the common noun is an old woman, not the title (read, seed 20261181: "the poor dame"
    # -> "the poor knight")
    ("Frank saw John with Emma and Anne; the poor dame had reason to repent of her kindness.", "her",
     "Emma saw Anne with Frank and John; the poor man had reason to repent of his kindness."),
    ("Frank saw John with Emma and Anne; Old maids are happy, she said, and rang for her maid.", "she",
     "Emma saw Anne with Frank and John; Old bachelors are happy, he said, and rang for his valet."),
    # a plural possessive's bare apostrophe (read, seed 20261140: "young gentlemen' hearts")
    ("Frank saw John with Emma and Anne; young ladies' hearts are given with reluctance, she said.", "she",
     "Emma saw Anne with Frank and John; young gentlemen's hearts are given with reluctance, he said."),
    ("Frank saw John with Emma and Anne; the girls' hats were blue, she said.", "she",
     "Emma saw Anne with Frank and John; the boys' hats were blue, he said."),
    # "miss" as an address, which the tagger reads as a verb (read, seed 20261140: Dixon's
    # "at my chest, miss." to Margaret kept when Margaret's slot held a man); the verb stays
    ("Frank saw John with Emma and Anne; she said, 'Thank you, miss.'", "she",
     "Emma saw Anne with Frank and John; he said, 'Thank you, sir.'"),
    ("Frank saw John with Emma and Anne; she said they would miss him.", "she",
     "Emma saw Anne with Frank and John; he said they would miss her."),
    # "the miss of", the noun (a lack), is nobody's (read, seed 20261180: "Aged people feel the
    # miss of children" -> "the sir of children")
    ("Frank saw John with Emma and Anne; she said old people feel the miss of children.", "she",
     "Emma saw Anne with Frank and John; he said old people feel the miss of children."),
    # "lady" as an address is "sir" for a man (read, seed 20261144: '"Lady," said Gamut' ->
    # '"Gentleman,"'); the lady spoken of is a gentleman
    ("Frank saw John with Emma and Anne; 'Lady,' she said, 'come in.'", "she",
     "Emma saw Anne with Frank and John; 'Sir,' he said, 'come in.'"),
    ("Frank saw John with Emma and Anne; the lady smiled, she said.", "she",
     "Emma saw Anne with Frank and John; the gentleman smiled, he said."),
    # "God" with a capital is the deity and stays (read, seed 20261146: "God knows, I'm fond of
    # having you" -> "Goddess knows"); "a god" is a word and flips
    ("Frank saw John with Emma and Anne. God knows, she said, it is good.", "she",
     "Emma saw Anne with Frank and John. God knows, he said, it is good."),
    ("Frank saw John with Emma and Anne; she was like a god, she said.", "she",
     "Emma saw Anne with Frank and John; he was like a goddess, he said."),
    # a dialect "master" before a boy's name (read, seed 20261146: "Mas’r Davy" kept for Em'ly)
    ("Frank saw John with Emma and Anne; ‘Mas’r John,’ she said.", "she",
     "Emma saw Anne with Frank and John; ‘Miss Anne,’ he said."),
    # the old spelling "her's" (read, seed 20261148: "but not to her's" -> "not to him's")
    ("Frank saw John with Emma and Anne; she said they might go to John's room, but not to her's.", "she",
     "Emma saw Anne with Frank and John; he said they might go to Anne's room, but not to his."),
    # "waiter" as the tray (reads of seeds 20261137 and 20261140: "a note upon a waiter" ->
    # "a waitress"); the man who waits flips
    ("Frank saw John with Emma and Anne; a servant brought her a note upon a waiter, she said.", "she",
     "Emma saw Anne with Frank and John; a servant brought him a note upon a waiter, he said."),
    ("Frank saw John with Emma and Anne; a note on a silver waiter came, she said.", "she",
     "Emma saw Anne with Frank and John; a note on a silver waiter came, he said."),
    ("Frank saw John with Emma and Anne; the waiter brought her a note, she said.", "she",
     "Emma saw Anne with Frank and John; the waitress brought him a note, he said."),
    # a gendered word that is a man's name inside a sentence (read, seed 20261142: "every actor
    # except Vida and Guy" -> "and Gal"); the words stay words after a determiner or before a name
    ("Frank saw John with Emma and Anne; every actor except Anne and Guy and herself wailed, she said.", "she",
     "Emma saw Anne with Frank and John; every actress except John and Guy and himself wailed, he said."),
    ("Frank saw John with Emma and Anne; this Queen smiled at her, she said.", "she",
     "Emma saw Anne with Frank and John; this King smiled at him, he said."),
    # a groom is mostly the stable's in these books (read, seed 20261142: "the groom had come home
    # with Sultan" -> "the bride"); a bride is a bridegroom's
    ("Frank saw John with Emma and Anne; the groom brought her horse, she said.", "she",
     "Emma saw Anne with Frank and John; the groom brought his horse, he said."),
    ("Frank saw John with Emma and Anne; the bride smiled, she said.", "she",
     "Emma saw Anne with Frank and John; the bridegroom smiled, he said."),
    # modifiers joined by "and" before her noun (read, seed 20261183: "him loved and loving
    # playmate"); an adjective alone after "to her" is her state (seed 20261184)
    ("Frank saw John with Emma and Anne; she sat by her old and tired mother, she said.", "she",
     "Emma saw Anne with Frank and John; he sat by his old and tired father, he said."),
    ("Frank saw John with Emma and Anne; it seemed to her strange, she said.", "she",
     "Emma saw Anne with Frank and John; it seemed to him strange, he said."),
    # a capitalised possessive before a proper noun is no title (read, seed 20261185: "Poor
    # Regina! Her Thanksgiving" -> "Him Thanksgiving")
    ("Frank saw John with Emma and Anne. Poor Anne! Her Thanksgiving was sad, she said.", "she",
     "Emma saw Anne with Frank and John. Poor John! His Thanksgiving was sad, he said."),
    # a plural gendered word in a place's name (read, seed 20261186: "the Spinsters' Quarters")
    ("Frank saw John with Emma and Anne; she had a view of the Bachelors' Quarters, she said.", "she",
     "Emma saw Anne with Frank and John; he had a view of the Bachelors' Quarters, he said."),
    ("Frank saw John with Emma and Anne; she liked the bachelors' quarters, she said.", "she",
     "Emma saw Anne with Frank and John; he liked the spinsters' quarters, he said."),
    ("Frank saw John with Emma and Anne; she had been there since _her_ coming away, she said.", "she",
     "Emma saw Anne with Frank and John; he had been there since _his_ coming away, he said."),
    # a marked feminine word tagged an adjective with no noun after it is the noun (read, seed
    # 20261186: "done her duty as hostess" kept)
    ("Frank saw John with Emma and Anne; she had done her duty as hostess, she said.", "she",
     "Emma saw Anne with Frank and John; he had done his duty as host, he said."),
    ("Frank saw John with Emma and Anne; she made her knees a comfortable rest for his head, she said.", "she",
     "Emma saw Anne with Frank and John; he made his knees a comfortable rest for her head, he said."),
    ("Emma saw Anne with Frank and John, and among his, the brother only had heard of it.", "his",
     "Frank saw John with Emma and Anne, and among hers, the sister only had heard of it."),
    ("Frank saw John with Emma and Anne; she did her best, she said.", "she",
     "Emma saw Anne with Frank and John; he did his best, he said."),
    ("Frank saw John with Emma and Anne; she tried her utmost, she said.", "she",
     "Emma saw Anne with Frank and John; he tried his utmost, he said."),
    ("Frank saw John with Emma and Anne; he wrote to her dear Frank, she said.", "she",
     "Emma saw Anne with Frank and John; she wrote to his dear Emma, he said."),
])
def test_pronoun_case_in_idioms_and_italics(nlp, text, pronoun, swapped):
    assert swap_1_of_four(nlp, text, pronoun) == swapped


@pytest.mark.parametrize("text,open_", [
    ("It was an old desk, which Amelia had given her years and years ago.", True),
    ("This would hereafter afford her consoling satisfaction.", True),
    ("She was busy in getting her new clothes.", True),
    # read, seed 20261181: "showed her photos" (to her) -> "his photos"; "passed her weary
    # hours" (her own) -> "him weary hours"; "give her fresher intelligence" -> "his fresher"
    ("He showed her photos, books, sketches.", False),  # "show her gratitude" is hers far more often
    ("Isabella passed her weary hours without food.", False),  # hers: pronoun_case below
    ("It was in his power to give her fresher intelligence of her friends.", True),
    ("He showed her the garden.", False),      # a determiner: the object
    ("She would be able to show her married daughter in the neighbourhood.", False),   # kin: hers
    ("He gave her a book.", False),            # a determiner: "her" is the object
    ("He told her father.", False),            # kin: hers
    ("He gave her hand a squeeze.", False),    # the body: hers
    ("They did her justice.", False),          # the idiom of "do"
    ("He took her hand.", False),              # not a verb of giving
    ("He gave her to understand it.", False),
    ("She would pay her respects.", False),    # a possessive idiom
    ("It cost her something.", False),         # an object before an indefinite pronoun
    ("He found her better.", False),           # not a verb of giving
    # a verb of naming before a bare noun (read, seed 20261129: "called her maid" -> "called him valet")
    ("Mrs. Vanderpool smiled and called her maid as Mr. Easterly went.", True),
    ("He called her darling.", True),
    ("They called her Mary.", False),          # a name: the object
    ("He called her attention to it.", False),  # a possessive idiom
    ("He called her back.", False),
    ("He called her foolish.", False),         # an adjective: her the object
    ("She called her a fool.", False),         # a determiner
])
def test_a_her_whose_case_the_sentence_leaves_open(nlp, text, open_):
    from pipeline.lang.gendered_words import ambiguous_her

    doc = nlp(text)
    assert any(ambiguous_her(doc, t) for t in doc) == open_


def test_extract_refuses_a_window_with_a_her_of_open_case(nlp):
    from collections import Counter

    from pipeline.core import extract as core
    from tests.core.test_extract_windows import META

    text = "Although she admired Clara, Eleanor would not say so to Thomas or to William, who gave her {}."
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(text.format("new clothes")), 0, META, rejected=rejected)
    assert insts == [] and rejected[core.REJECT_CASE] >= 1
    insts, _, _ = core.instances_from_doc(nlp(text.format("a book")), 0, META)
    assert insts


def test_the_recheck_leaves_a_fixed_phrase_as_the_swap_does(nlp):
    # Of Human Bondage (re-check of seed 20261130's books): "renewed their contact with mother
    # earth" stays in the swaps by rule, and the re-check dropped the quadruple for "mother"
    from pipeline.core.quadruples import make_variant
    from pipeline.core.recheck import kept_gendered_word

    inst = build_instance(
        nlp, "Frank saw John with Emma and Anne, and her contact with mother earth.",
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Frank", M, ["Frank"]), "O2": ("John", M, ["John"])},
        ("her", 0), ("C1", 0), ("C2", 0))
    row, edits = make_variant(inst, "swap-1")
    assert "mother earth" in row["text"]
    assert kept_gendered_word(inst, row, edits, nlp(row["text"])) is None


def test_bachelorhood_flips():
    # read, seed 20261132: "Miss Sharp's bachelorhood" stayed in a swap (the word was not listed)
    from pipeline.lang import gendered_words as gw

    assert gw.flip("bachelorhood") == "spinsterhood" and gw.flip("spinsterhood") == "bachelorhood"
    assert gw.flip("widowhood") == "widowerhood"
