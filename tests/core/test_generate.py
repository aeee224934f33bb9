"""Generate core: hand-written instances for every substitution rule. Expected texts below
are written by hand."""

from __future__ import annotations

import pytest

from pipeline.core.instances import check_instance
from pipeline.core.quadruples import check_offsets, make_variant, quadruple
from tests.core.generate_helpers import build_instance, by_variant, names_of

F, M = "feminine", "masculine"


def texts(inst, name_forms="person"):
    rows, _ = quadruple(inst, "q", name_forms=name_forms)
    for r in rows:
        check_offsets(r)
    return {k: v["text"] for k, v in by_variant(rows).items()}, by_variant(rows)


def test_titles_swap_as_whole_mentions(nlp):
    inst = build_instance(
        nlp, "Mrs. Goddard met Mr. Knightley and Harriet. Tom said that she was late.",
        {"C1": ("Goddard", F, ["Mrs. Goddard"]), "C2": ("Harriet", F, ["Harriet"]),
         "O1": ("Knightley", M, ["Mr. Knightley"]), "O2": ("Tom", M, ["Tom"])},
        ("she", 0), ("C1", 0), ("C2", 0))
    t, rows = texts(inst)
    assert t["original"] == inst["text"]
    assert t["control"] == "Harriet met Tom and Mrs. Goddard. Mr. Knightley said that she was late."
    assert t["swap-1"] == "Mr. Knightley met Mrs. Goddard and Tom. Harriet said that he was late."
    assert t["swap-2"] == "Tom met Harriet and Mr. Knightley. Mrs. Goddard said that he was late."
    # the mention titles travel with the names
    c1 = next(n for n in rows["swap-1"]["names"] if n["role"] == "C1")
    assert c1["name"] == "Knightley" and c1["gender"] == M and c1["mentions"][0]["title"] == "Mr."


def test_possessives_are_kept(nlp):
    inst = build_instance(
        nlp, "Tom's sister met Frank's aunt, Maria and Lucy. He was glad.",
        {"C1": ("Tom", M, ["Tom"]), "C2": ("Frank", M, ["Frank"]),
         "O1": ("Maria", F, ["Maria"]), "O2": ("Lucy", F, ["Lucy"])},
        ("He", 0), ("C1", 0), ("C2", 0))
    t, _ = texts(inst)
    assert t["control"] == "Frank's sister met Tom's aunt, Lucy and Maria. He was glad."
    assert t["swap-1"] == "Maria's brother met Lucy's uncle, Tom and Frank. She was glad."


def test_pronoun_cases_and_capitalisation(nlp):
    text = ("Emma saw Anne with Frank and John. She gave her book to him, and he thanked her; "
            "the book was hers, and John blamed himself. HE WAS SORRY.")
    inst = build_instance(
        nlp, text,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Frank", M, ["Frank"]), "O2": ("John", M, ["John"])},
        ("She", 0), ("C1", 0), ("C2", 0))
    t, rows = texts(inst)
    assert t["swap-1"] == ("Frank saw John with Emma and Anne. He gave his book to her, and she thanked him; "
                           "the book was his, and Anne blamed herself. SHE WAS SORRY.")
    assert rows["swap-1"]["pronoun"] == "He" and rows["swap-1"]["pronoun_gender"] == M
    assert rows["control"]["pronoun"] == "She" and rows["control"]["pronoun_gender"] == F
    assert {r["original_gender"] for r in rows.values()} == {F}


def test_independent_his_becomes_hers(nlp):
    inst = build_instance(
        nlp, "Tom met Frank, Emma and Anne. The horse was his, and he rode it.",
        {"C1": ("Tom", M, ["Tom"]), "C2": ("Frank", M, ["Frank"]),
         "O1": ("Emma", F, ["Emma"]), "O2": ("Anne", F, ["Anne"])},
        ("he", 0), ("C1", 0), ("C2", 0))
    t, _ = texts(inst)
    assert t["swap-1"] == "Emma met Anne, Tom and Frank. The horse was hers, and she rode it."


def test_surname_that_is_a_gendered_word_is_not_flipped(nlp):
    inst = build_instance(
        nlp, "Mr. King told the king that Emma and Anne had seen Tom. She laughed.",
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("King", M, ["Mr. King"]), "O2": ("Tom", M, ["Tom"])},
        ("She", 0), ("C1", 0), ("C2", 0))
    t, rows = texts(inst)
    assert t["swap-1"] == "Emma told the queen that Mr. King and Tom had seen Anne. He laughed."
    assert t["swap-2"] == "Anne told the queen that Tom and Mr. King had seen Emma. He laughed."
    assert t["control"] == "Tom told the king that Anne and Emma had seen Mr. King. She laughed."


def test_a_and_b_stay_at_their_positions(nlp):
    text = "Emma called Anne. Frank and John came, and Anne said that she would go."
    inst = build_instance(
        nlp, text,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Frank", M, ["Frank"]), "O2": ("John", M, ["John"])},
        ("she", 0), ("C1", 0), ("C2", 1))
    _, rows = texts(inst)
    o = rows["original"]
    assert (o["a"], o["a_offset"], o["b"], o["b_offset"]) == ("Emma", 0, "Anne", text.index("Anne said"))
    c = rows["control"]
    assert c["text"] == "Anne called Emma. John and Frank came, and Emma said that she would go."
    assert (c["a"], c["a_offset"]) == ("Anne", 0)
    assert (c["b"], c["b_offset"]) == ("Emma", c["text"].index("Emma said"))
    s1 = rows["swap-1"]
    assert s1["text"] == "Frank called John. Emma and Anne came, and John said that he would go."
    assert (s1["a"], s1["b"]) == ("Frank", "John")
    assert s1["b_offset"] == s1["text"].index("John said")
    s2 = rows["swap-2"]
    assert (s2["a"], s2["b"]) == ("John", "Frank")
    # roles are slots: C1 holds the name now at the original C1's positions
    assert names_of(c)["C1"] == ["Anne"] and names_of(s1)["C1"] == ["Frank"] and names_of(s2)["C1"] == ["John"]
    assert names_of(s1)["O2"] == ["Anne"]
    assert {r["id"] for r in rows.values()} == {"q", "q-control", "q-swap-1", "q-swap-2"}


def test_name_forms_follow_the_mention_shape(nlp):
    """name_forms="shape": the replacement takes the shape of the mention it replaces."""
    text = ("Harriet Smith met Emma Woodhouse, Mr. Elton and Robert Martin. "
            "Later Harriet told Emma that Robert had left, and she cried.")
    inst = build_instance(
        nlp, text,
        {"C1": ("Harriet Smith", F, ["Harriet Smith", "Harriet"]), "C2": ("Emma Woodhouse", F, ["Emma Woodhouse", "Emma"]),
         "O1": ("Elton", M, ["Mr. Elton"]), "O2": ("Robert Martin", M, ["Robert Martin", "Robert"])},
        ("she", 0), ("C1", 1), ("C2", 1))
    t, rows = texts(inst, "shape")
    assert t["control"] == ("Emma Woodhouse met Harriet Smith, Robert Martin and Mr. Elton. "
                            "Later Emma told Harriet that Mr. Elton had left, and she cried.")
    # Harriet (first name) becomes Mr. Elton (never named without his title)
    assert t["swap-1"] == ("Mr. Elton met Robert Martin, Harriet Smith and Emma Woodhouse. "
                           "Later Mr. Elton told Robert that Emma had left, and he cried.")
    # persons written in the same shapes come back unchanged under control twice; Robert's
    # first-name mention went through "Mr. Elton" and comes back as his full name (documented)
    back, _ = make_variant(make_variant(inst, "control", name_forms="shape")[0], "control", name_forms="shape")
    assert names_of(back)["C1"] == names_of(rows["original"])["C1"]
    assert names_of(back)["C2"] == names_of(rows["original"])["C2"]
    assert back["text"] == text.replace("that Robert had", "that Robert Martin had")


def test_gendered_nouns_articles_and_entities(nlp):
    text = "An earl met Emma, Anne, Tom and Frank at Prince Edward Island. She called her uncle an actor."
    inst = build_instance(
        nlp, text,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Frank", M, ["Frank"])},
        ("She", 0), ("C1", 0), ("C2", 0))
    # mark "Prince Edward Island" as a place, whatever the small model thinks
    start = text.index("Prince")
    for i, s in enumerate(inst["token_starts"]):
        if start <= s < start + len("Prince Edward Island"):
            inst["token_ents"][i] = ("B-GPE" if s == start else "I-GPE")
    t, _ = texts(inst)
    assert t["swap-1"] == "A countess met Tom, Frank, Emma and Anne at Prince Edward Island. He called his aunt an actress."


def test_original_variant_is_the_input(nlp):
    inst = build_instance(
        nlp, "Emma and Anne met Tom and Frank. She smiled at him.",
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Frank", M, ["Frank"])},
        ("She", 0), ("C1", 0), ("C2", 0))
    rec, edits = make_variant(inst, "original")
    assert edits == [] and rec["text"] == inst["text"] and rec["names"] == inst["names"]
    assert rec["tokens"] == inst["tokens"] and rec["token_starts"] == inst["token_starts"]


@pytest.mark.parametrize("breakage, message", [
    (lambda i: i.update(pronoun_offset=i["pronoun_offset"] + 1), "pronoun"),
    (lambda i: i["names"].pop(), "roles"),
    (lambda i: i["names"][0]["mentions"][0].update(start=3), "mention"),
    (lambda i: i.update(a_name="O1"), "a_name"),
    (lambda i: i.update(pronoun_gender="masculine"), "must be"),
    (lambda i: i.pop("tokens"), "missing"),
])
def test_check_instance_rejects_broken_records(nlp, breakage, message):
    inst = build_instance(
        nlp, "Emma and Anne met Tom and Frank. She smiled at him.",
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Frank", M, ["Frank"])},
        ("She", 0), ("C1", 0), ("C2", 0))
    check_instance(inst)
    breakage(inst)
    with pytest.raises(ValueError, match=message):
        check_instance(inst)


# ------------------------------------------------------------ mentions extract missed ----

MISSED = "Emma met Anne, Tom and Frank. Anne laughed, and Emma told her that she was wrong."


def missed_first_mentions(nlp) -> dict:
    """An instance of :data:`MISSED` whose first "Emma" and first "Anne" extract missed (say NER
    labelled them otherwise), roles as extract would have seen them: Anne's kept mention comes
    before Emma's, so Anne is C1."""
    inst = build_instance(
        nlp, MISSED,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Frank", M, ["Frank"])},
        ("she", 0), ("C1", 1), ("C2", 1))
    inst["names"][1]["mentions"].pop(0)
    inst["names"][0]["mentions"].pop(0)
    inst["names"][0]["role"], inst["names"][1]["role"] = "C2", "C1"
    return inst


def test_complete_mentions_adds_missed_names(nlp):
    from pipeline.core.instances import complete_mentions

    text = MISSED
    inst = missed_first_mentions(nlp)
    i = inst["token_starts"].index(text.index("Anne"))
    inst["token_ents"][i] = "B-ORG"
    inst["a"], inst["a_offset"] = "Emma", text.index("Emma told")     # A = the later "Emma"
    inst["b"], inst["b_offset"] = "Anne", text.index("Anne laughed")  # B = the later "Anne"
    inst["a_name"], inst["b_name"] = "C2", "C1"
    check_instance(inst)
    done, added = complete_mentions(inst)
    assert added == 2
    check_instance(done)
    assert names_of(done) == {"C1": ["Emma", "Emma"], "C2": ["Anne", "Anne"], "O1": ["Tom"], "O2": ["Frank"]}
    assert (done["a_name"], done["b_name"]) == ("C1", "C2")        # relabelled with the roles
    t, _ = texts(done)
    assert t["swap-1"] == "Tom met Frank, Emma and Anne. Frank laughed, and Tom told him that he was wrong."


def test_complete_mentions_relabels_when_a_or_b_is_none_of_the_four(nlp):
    """A GAP row whose A is not one of the four persons has no ``a_name``: the roles are still
    relabelled, and ``a_name`` stays None (it used to raise KeyError: None)."""
    from pipeline.core.instances import complete_mentions

    inst = missed_first_mentions(nlp)
    inst["a_name"], inst["b_name"] = None, "C1"
    done, added = complete_mentions(inst)
    assert added == 2
    assert names_of(done)["C1"] == ["Emma", "Emma"]
    assert (done["a_name"], done["b_name"]) == (None, "C2")

def test_complete_mentions_ignores_common_words_and_other_entities(nlp):
    from pipeline.core.instances import complete_mentions

    text = "Will met Grace, Tom and Frank at Grace Church. Will you come? asked Grace, and he smiled."
    inst = build_instance(
        nlp, text,
        {"C1": ("Tom", M, ["Tom"]), "C2": ("Frank", M, ["Frank"]),
         "O1": ("Will", M, ["Will"]), "O2": ("Grace", F, ["Grace"])},
        ("he", 0), ("C1", 0), ("C2", 0))
    # (genders do not matter to the completion) keep only the first mention of each name;
    # mark "Grace Church" as a building and the second "Will" as a modal
    for n in inst["names"]:
        n["mentions"] = n["mentions"][:1]
    start = text.index("Grace Church")
    for k, s in enumerate(inst["token_starts"]):
        if start <= s < start + len("Grace Church"):
            inst["token_ents"][k] = "B-FAC" if s == start else "I-FAC"
    k = inst["token_starts"].index(text.index("Will you"))
    inst["token_tags"][k] = "MD"
    done, added = complete_mentions(inst)
    got = {(m["start"], m["text"]) for n in done["names"] for m in n["mentions"]}
    assert (text.index("Grace Church"), "Grace") not in got
    assert (text.index("Will you"), "Will") not in got
    assert (text.index("Grace, and"), "Grace") in got
    assert added == 1


def test_complete_mentions_skips_a_name_after_an_article(nlp):
    from pipeline.core.instances import complete_mentions

    text = "Anne met Harrison, Tom and Mary. They walked to the Harrison place, and Anne said she was tired."
    inst = build_instance(
        nlp, text,
        {"C1": ("Anne", F, ["Anne"]), "C2": ("Mary", F, ["Mary"]),
         "O1": ("Harrison", M, ["Harrison"]), "O2": ("Tom", M, ["Tom"])},
        ("she", 0), ("C1", 1), ("C2", 0))
    for n in inst["names"]:
        n["mentions"] = [m for m in n["mentions"] if m["start"] != text.index("Harrison place")]
    done, added = complete_mentions(inst)
    got = {(m["start"], m["text"]) for n in done["names"] for m in n["mentions"]}
    assert (text.index("Harrison place"), "Harrison") not in got        # the name of a place
    assert (text.index("Harrison,"), "Harrison") in got


def test_lord_before_no_name_is_the_deity_and_stays(nlp):
    text = "Anne met Emma, Tom and Frank. Lord help them, Tom said, and my Lord Frank smiled at her."
    inst = build_instance(
        nlp, text,
        {"C1": ("Anne", F, ["Anne"]), "C2": ("Emma", F, ["Emma"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Frank", M, ["Frank"])},
        ("her", 0), ("C1", 0), ("C2", 0))
    t, _ = texts(inst)
    assert t["swap-1"].count("Lord help them") == 1          # the deity: no one's title
    assert "Lady Emma" in t["swap-1"] or "Lady Anne" in t["swap-1"]     # a title before a name flips


def test_animal_words_are_no_persons_and_stay(nlp):
    text = "Anne met Emma, Tom and Frank. Three cheers and a tiger, Tom said, and Frank sold her cows to Emma."
    inst = build_instance(
        nlp, text,
        {"C1": ("Anne", F, ["Anne"]), "C2": ("Emma", F, ["Emma"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Frank", M, ["Frank"])},
        ("her", 0), ("C1", 0), ("C2", 0))
    t, _ = texts(inst)
    assert "a tiger" in t["swap-1"] and "cows" in t["swap-1"]
    assert "tigress" not in t["swap-1"] and "bulls" not in t["swap-1"]
    assert " his cows" in t["swap-1"]                       # the owner's pronoun still flips


def test_titles_of_other_people_and_gerund_subjects(nlp):
    text = ("Mrs Smith met Anne, Mr Elliot and Charles at the house of Lady Russell, and the Miss "
            "Musgroves came too. Anne did not like his staying away, and she said so.")
    inst = build_instance(
        nlp, text,
        {"C1": ("Smith", F, ["Mrs Smith"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Elliot", M, ["Mr Elliot"]), "O2": ("Charles", M, ["Charles"])},
        ("she", 0), ("C1", 0), ("C2", 1))
    t, _ = texts(inst)
    assert t["swap-1"] == ("Mr Elliot met Charles, Mrs Smith and Anne at the house of Lord Russell, and the Mr "
                           "Musgroves came too. Charles did not like her staying away, and he said so.")


def test_each_person_is_written_in_one_form(nlp):
    """name_forms="person" (the default, Counter-GAP's convention): every mention is replaced
    by the other person's shortest form in the context, title included; never a built form."""
    text = ("Harriet Smith met Emma, Mr. Elton and Robert Martin. Later Harriet told Emma that "
            "Robert had left, and she cried. MR. ELTON laughed.")
    inst = build_instance(
        nlp, text,
        {"C1": ("Harriet Smith", F, ["Harriet Smith", "Harriet"]), "C2": ("Emma", F, ["Emma"]),
         "O1": ("Elton", M, ["Mr. Elton", "MR. ELTON"]), "O2": ("Robert Martin", M, ["Robert Martin", "Robert"])},
        ("she", 0), ("C1", 1), ("C2", 1))
    t, rows = texts(inst)
    assert t["control"] == ("Emma met Harriet, Robert and Mr. Elton. Later Emma told Harriet that "
                            "Mr. Elton had left, and she cried. ROBERT laughed.")
    assert t["swap-1"] == ("Mr. Elton met Robert, Harriet and Emma. Later Mr. Elton told Robert that "
                           "Emma had left, and he cried. HARRIET laughed.")
    for v in ("control", "swap-1", "swap-2"):
        assert not any(e.constructed for e in quadruple(inst, "q")[1][v])
    # the A/B fields follow: B was "Emma" (C2's second mention), now Harriet's one form
    assert (rows["control"]["a"], rows["control"]["b"]) == ("Emma", "Harriet")


def test_her_before_a_predicative_adjective_is_an_object(nlp):
    text = "Edward met Thomas, Lucy and Elinor, and he had no scruple in believing her capable of it."
    inst = build_instance(
        nlp, text,
        {"C1": ("Edward", M, ["Edward"]), "C2": ("Thomas", M, ["Thomas"]),
         "O1": ("Lucy", F, ["Lucy"]), "O2": ("Elinor", F, ["Elinor"])},
        ("he", 0), ("C1", 0), ("C2", 0))
    t, _ = texts(inst)
    assert t["swap-1"] == "Lucy met Elinor, Edward and Thomas, and she had no scruple in believing him capable of it."


def test_a_person_in_capitals_is_written_in_capitals_only_there(nlp):
    text = "JOHN met Anne, Emma and John Smith's friend Tom. Later John told Anne that he was late."
    inst = build_instance(
        nlp, text,
        {"C1": ("John Smith", M, ["John Smith", "JOHN", "John"]), "C2": ("Tom", M, ["Tom"]),
         "O1": ("Anne", F, ["Anne"]), "O2": ("Emma", F, ["Emma"])},
        ("he", 0), ("C1", 2), ("C2", 0))
    t, _ = texts(inst)
    assert t["control"] == "TOM met Emma, Anne and Tom's friend John. Later Tom told Emma that he was late."


def test_a_person_written_only_in_capitals_is_written_as_running_text_elsewhere(nlp):
    # Charlotte Temple: a chapter's first word in capitals, "CHARLOTTE had now been left ...";
    # in the control variant "a letter from Mrs. Beauchamp" had become "a letter from CHARLOTTE"
    text = "CHARLOTTE met Belcour, Montraville and Mrs. Beauchamp, and she had a letter from Mrs. Beauchamp."
    inst = build_instance(
        nlp, text,
        {"C1": ("Charlotte", F, ["CHARLOTTE"]), "C2": ("Mrs. Beauchamp", F, ["Mrs. Beauchamp", "Mrs. Beauchamp"]),
         "O1": ("Belcour", M, ["Belcour"]), "O2": ("Montraville", M, ["Montraville"])},
        ("she", 0), ("C1", 0), ("C2", 0))
    t, _ = texts(inst)
    assert t["control"] == ("MRS. BEAUCHAMP met Montraville, Belcour and Charlotte, and she had a letter from "
                            "Charlotte.")
    assert t["swap-1"] == "BELCOUR met Charlotte, Mrs. Beauchamp and Montraville, and he had a letter from Montraville."


def test_her_stepmother_and_the_governess(nlp):
    text = "Polly met Fanny, Tom and Ned, and she went home with her stepmother and the governess."
    inst = build_instance(
        nlp, text,
        {"C1": ("Polly", F, ["Polly"]), "C2": ("Fanny", F, ["Fanny"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Ned", M, ["Ned"])},
        ("she", 0), ("C1", 0), ("C2", 0))
    t, _ = texts(inst)
    assert t["swap-1"] == "Tom met Ned, Polly and Fanny, and he went home with his stepfather and the tutor."


def test_gendered_words_glued_by_a_dash_flip(nlp):
    # "meal.--She" and "herself.--Her" were single tokens of en_core_web_sm's tokenizer; the
    # project's tokenizer splits the stop and the dash off (pipeline.nlp.load.STOP_DASH_INFIXES):
    # the words flip either way
    text = ("Emma saw Anne with Frank and John at the meal.--She was glad. "
            "Anne blamed herself.--Her book was lost. She smiled. I have a note of hers.--Do you?")
    inst = build_instance(
        nlp, text,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Frank", M, ["Frank"]), "O2": ("John", M, ["John"])},
        ("She", 1), ("C1", 0), ("C2", 0))
    joined = " ".join(inst["tokens"])
    assert "meal . -- She" in joined and "herself . -- Her" in joined, inst["tokens"]
    t, _ = texts(inst)
    assert t["swap-1"] == ("Frank saw John with Emma and Anne at the meal.--He was glad. "
                           "John blamed himself.--His book was lost. He smiled. I have a note of his.--Do you?")
    assert t["control"] == ("Anne saw Emma with John and Frank at the meal.--She was glad. "
                            "Emma blamed herself.--Her book was lost. She smiled. I have a note of hers.--Do you?")


def test_a_gendered_word_glued_to_a_name_flips_and_the_name_is_rewritten(nlp):
    text = "Emma saw Anne with Frank and John. Frank laughed at Emma.--She was glad. She smiled. A note of his.--Do see."
    inst = build_instance(
        nlp, text,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Frank", M, ["Frank"]), "O2": ("John", M, ["John"])},
        ("She", 1), ("C1", 0), ("C2", 0))
    assert "Emma . -- She" in " ".join(inst["tokens"]), inst["tokens"]
    t, _ = texts(inst)
    assert t["swap-1"] == ("Frank saw John with Emma and Anne. Emma laughed at Frank.--He was glad. He smiled. "
                           "A note of hers.--Do see.")


@pytest.mark.parametrize("text,pronoun,swapped", [
    # a possessive before a gerund is a determiner: "his being" -> "her being", never "hers"
    ("Emma saw Anne with Frank and John after his being supposed to be out.", "his",
     "Frank saw John with Emma and Anne after her being supposed to be out."),
    # a determiner never stands before a determiner: "her his wife" -> "him her husband"
    ("Frank saw John with Emma and Anne, resolved to make her his wife.", "her",
     "Emma saw Anne with Frank and John, resolved to make him her husband."),
    # an un-...-ed adjective as the object: "by her unexamined" -> "by him unexamined"
    ("Frank saw John with Emma and Anne, and the letters were swept away by her unexamined.", "her",
     "Emma saw Anne with Frank and John, and the letters were swept away by him unexamined."),
    # across adverbs before a gerund, and an adjective standing as a noun
    ("Frank saw John with Emma and Anne, glad in her no longer avoiding Tom.", "her",
     "Emma saw Anne with Frank and John, glad in his no longer avoiding Tom."),
    ("Frank saw John with Emma and Anne. I do not think Emma has her equal.", "her",
     "Emma saw Anne with Frank and John. I do not think Frank has his equal."),
    # and the determiner uses stay determiners
    ("Frank saw John with Emma and Anne, and took her own unopened letters.", "her",
     "Emma saw Anne with Frank and John, and took his own unopened letters."),
])
def test_pronoun_case_before_gerunds_determiners_and_participles(nlp, text, pronoun, swapped):
    assert swap_1_of_four(nlp, text, pronoun) == swapped


def test_a_bare_apostrophe_after_a_name_in_s_gets_its_s_back(nlp):
    inst = build_instance(
        nlp, "Emma said that Charles' wife had squelched Anne and Frank. He laughed.",
        {"C1": ("Charles", M, ["Charles"]), "C2": ("Frank", M, ["Frank"]),
         "O1": ("Emma", F, ["Emma"]), "O2": ("Anne", F, ["Anne"])},
        ("He", 0), ("C1", 0), ("C2", 0))
    t, rows = texts(inst)
    assert t["swap-1"] == "Charles said that Emma's husband had squelched Frank and Anne. She laughed."
    assert t["control"] == "Anne said that Frank's wife had squelched Emma and Charles. He laughed."
    for r in rows.values():
        check_offsets(r)


# ------------------------------------------------------- aliases swapped consistently ------

def _alias_instance(nlp):
    """Lucilla is Miss Marjoribanks and Jos is Mr. Joseph (docs/persons.md, "Aliases")."""
    text = ("Lucilla looked at Jos. Miss Marjoribanks then told Barbara that Mr. Joseph and "
            "Mr. Cavendish had come, and Miss Lake said she was glad.")
    return build_instance(
        nlp, text,
        {"C1": ("Lucilla", F, ["Lucilla", "Miss Marjoribanks"]), "C2": ("Barbara", F, ["Barbara", "Miss Lake"]),
         "O1": ("Jos", M, ["Jos", "Mr. Joseph"]), "O2": ("Cavendish", M, ["Mr. Cavendish"])},
        ("she", 0), ("C1", 1), ("C2", 1))


def test_every_alias_of_a_person_becomes_the_one_replacement(nlp):
    """name_forms="person": all the forms of a person (Lucilla, Miss Marjoribanks) are written as
    the one person put in her place, so no variant shows one of her names beside another's."""
    t, _ = texts(_alias_instance(nlp))
    assert t["control"] == ("Barbara looked at Mr. Cavendish. Barbara then told Lucilla that Mr. Cavendish "
                            "and Jos had come, and Lucilla said she was glad.")
    assert t["swap-1"] == ("Jos looked at Lucilla. Jos then told Mr. Cavendish that Lucilla and "
                           "Barbara had come, and Mr. Cavendish said he was glad.")
    for v, text in t.items():
        if v != "original":
            assert "Marjoribanks" not in text and "Joseph" not in text and "Lake" not in text


def test_aliases_take_their_shape_in_the_replacement(nlp):
    """name_forms="shape": a given name becomes the replacement's given name, a titled surname
    the replacement's titled surname ("Miss Marjoribanks" <-> "Miss Lake"), a pet form the
    replacement's given name ("Jos" <-> "Cavendish", who has none: his one form)."""
    t, _ = texts(_alias_instance(nlp), "shape")
    assert t["control"] == ("Barbara looked at Mr. Cavendish. Miss Lake then told Lucilla that Mr. Cavendish "
                            "and Mr. Joseph had come, and Miss Marjoribanks said she was glad.")


def test_a_gendered_word_that_is_a_whole_entity_flips(nlp):
    """A nationality noun the NER labels as an entity by itself ("the little Frenchman") flips
    with the swap; a gendered word inside a longer name ("Prince Edward Island") stays."""
    from pipeline.core.quadruples import quadruple
    from tests.core.generate_helpers import build_instance, by_variant

    persons = {"C1": ("Tom", "masculine", ["Tom"]), "C2": ("Frank", "masculine", ["Frank"]),
               "O1": ("Emma", "feminine", ["Emma"]), "O2": ("Anne", "feminine", ["Anne"])}
    text = "Tom met Frank, Emma and Anne. The little Frenchman smiled, and he said that Prince Edward Island was cold."
    inst = build_instance(nlp, text, persons, ("he", 0), ("C1", 0), ("C2", 0))
    k = inst["tokens"].index("Frenchman")
    inst["token_ents"][k] = "B-NORP"                # as the NER may label it
    rows, _ = quadruple(inst, "q")
    swap = by_variant(rows)["swap-1"]["text"]
    assert "The little Frenchwoman smiled, and she said that Prince Edward Island was cold." in swap


def swap_1_of_four(nlp, text: str, pronoun: str) -> str:
    """The swap-1 text of ``text`` with Emma and Anne (C1, C2: the pronoun's first occurrence
    refers to one of them) and Frank and John (O1, O2)."""
    inst = build_instance(
        nlp, text,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Frank", M, ["Frank"]), "O2": ("John", M, ["John"])},
        (pronoun, 0), ("C1", 0), ("C2", 0))
    return texts(inst)[0]["swap-1"]
