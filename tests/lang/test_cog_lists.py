"""The study's released sentence lists (cog-wino, cog-bug), hand-made in their layouts; Winogender's
answer column; the Table 4 rule and the sentence-by-sentence comparison (../shared: the counts)."""

from __future__ import annotations

import pytest

from pipeline.core.benchmark_scoring import normalise_text
from pipeline.humans.core.stereotypes import (apply_category_rule, categorize, compare_categories,
                                       count_categories, table4_winobias_category)
from pipeline.errors import InputError
from pipeline.lang import benchmarks as b
from pipeline.vocab import FEMININE, MASCULINE

WINO_HEADER = ("\tmain_entity_occupation\tmain_entity_index\tgender\tother_entity_occupation\t"
               "other_entity_index\tpronoun\tsentence\tlength\tperplexity_pronoun\tstereotyped\t"
               "main_entity_question\tother_entity_question\tfiller_question\tfiller_answer\ttype\n")


def wino_row(index, main, mi, gender, other, oi, pronoun, sentence, typ, stereotyped="pro-stereotype"):
    return (f"{index}\t{main}\t{mi}\t{gender}\t{other}\t{oi}\t{pronoun}\t{sentence}\t"
            f"{len(sentence.split())}\t3.2\t{stereotyped}\tWhat is the gender of the {main}?\t"
            f"What is the gender of the {other}?\tWho argued?\t{other}\t{typ}\n")


COG_WINO = WINO_HEADER + "".join([
    wino_row(0, "developer", 1, "male", "designer", 4, "he",
             "The developer argued with the designer because he did not like the design.", "pro-anti"),
    # capitalised gender, type with a trailing space, index pointing one token off (found by search)
    wino_row(7, "designer", 4, "Female", "developer", 1, "her",
             "The developer argued with the designer because her idea cannot be implemented.",
             "pro-anti ", "pro-stereotype"),
    # Winogender: "someone" is the other entity; a neutral pronoun
    wino_row(12, "technician", 1, "neutral", "someone", 3, "they",
             "The technician told someone that they had completed the repair.", "pronoun-neutral",
             "neutral"),
    # no other entity (pandas writes nan)
    wino_row(13, "nurse", 1, "male", "nan", "nan", "he", "The nurse said he was tired.", "anti-neutral",
             "anti-stereotype"),
])

COG_BUG = (
    "uid,predicted gender,correct,sentence_text,profession,g,g_first_index,profession_first_index,"
    "stereotype,corpus,data_index,distance,num_of_pronouns\n"
    "u1,female,True,The 50-year-old nurse yelled; she was tired .,nurse,she,4,2,1,wikipedia,11,2,1\n"
    "u2,male,False,The patient said that the surgeon thinks she is right .,surgeon,she,7,5,-1,pubmed,12,2,1\n"
)


def test_cog_wino_list(tmp_path):
    p = tmp_path / "wino.tsv"
    p.write_text(COG_WINO)
    items = {it["id"]: it for it in categorize(b.load_cog_wino(p))}
    assert list(items) == ["cog-wino-0", "cog-wino-7", "cog-wino-12", "cog-wino-13"]
    one = items["cog-wino-0"]
    assert (one["main_entity"], one["other_entity"], one["pronoun"]) == ("The developer", "the designer", "he")
    assert (one["category"], one["stereotype"], one["source"]) == ("pro-anti", "pro", "cog-wino")
    assert (one["main_stereotype"], one["other_stereotype"]) == (MASCULINE, FEMININE)
    two = items["cog-wino-7"]
    assert two["main_entity"] == "the designer" and two["pronoun_gender"] == FEMININE
    assert two["category"] == "pro-anti"
    wg = items["cog-wino-12"]
    assert (wg["category"], wg["other_entity"], wg["stereotype"]) == ("pronoun-neutral", "someone", "neutral")
    alone = items["cog-wino-13"]
    assert alone["other_entity"] is None and alone["category"] == "anti-neutral"
    for it in items.values():
        assert it["text"][it["pronoun_start"]:it["pronoun_end"]] == it["pronoun"]
        assert it["text"][it["main_start"]:it["main_end"]] == it["main_entity"]


@pytest.mark.parametrize("edit, message", [
    (lambda s: s.replace("\ttype\n", "\tkind\n"), "missing column(s) type"),
    (lambda s: s.replace("pro-anti ", "pro-ante"), "row 3: type must be one of"),
    (lambda s: s.replace("\tanti-neutral\n", "\tpronoun-neutral\n"), "row 5: type pronoun-neutral does not fit"),
    (lambda s: s.replace("\tnurse\t1\t", "\tjanitor\t1\t"), "row 5: main_entity_occupation 'janitor' is not"),
])
def test_cog_wino_strict(tmp_path, edit, message):
    p = tmp_path / "wino.tsv"
    p.write_text(edit(COG_WINO))
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")) as exc:
        b.load_cog_wino(p)
    assert len(str(exc.value).splitlines()) == 1


def test_cog_bug_list(tmp_path):
    p = tmp_path / "bug.csv"
    p.write_text(COG_BUG)
    one, two = categorize(b.load_cog_bug(p))
    assert (one["id"], one["source"], one["main_entity"], one["pronoun"]) == ("cog-bug-u1", "cog-bug",
                                                                              "nurse", "she")
    assert one["text"][one["main_start"]:one["main_end"]] == "nurse"
    assert (one["category"], two["category"], two["stereotype"]) == ("pro-neutral", "anti-neutral", "anti")
    assert two["main_entity"] == "the surgeon"
    tsv = tmp_path / "bug.tsv"
    tsv.write_text(COG_BUG.replace(",", "\t"))
    assert [it["id"] for it in b.load_cog_bug(tsv)] == ["cog-bug-u1", "cog-bug-u2"]
    p.write_text(COG_BUG.replace("uid,", "id,"))
    with pytest.raises(InputError, match="missing column"):
        b.load_cog_bug(p)


def write_winogender(d):
    d.mkdir()
    (d / "templates.tsv").write_text(
        "occupation(0)\tother-participant(1)\tanswer\tsentence\n"
        "technician\tcustomer\t1\tThe $OCCUPATION told the $PARTICIPANT that $NOM_PRONOUN could pay with cash.\n"
        "technician\tcustomer\t0\tThe $OCCUPATION told the $PARTICIPANT that $NOM_PRONOUN had completed the repair.\n")
    (d / "occupations-stats.tsv").write_text(
        "occupation\tbergsma_pct_female\tbls_pct_female\tbls_year\ntechnician\t9.42\t40.34\t2015\n")
    (d / "all_sentences.tsv").write_text(
        "sentid\tsentence\n"
        "technician.customer.1.male.txt\tThe technician told the customer that he could pay with cash.\n"
        "technician.customer.0.female.txt\tThe technician told the customer that she had completed the repair.\n")


def test_winogender_answer_0_is_the_occupation(tmp_path):
    write_winogender(tmp_path / "wg")
    pay, repair = categorize(b.load_winogender(tmp_path / "wg"))
    # answer 1: the customer could pay (the participant is the main entity)
    assert (pay["main_entity"], pay["other_entity"], pay["category"]) == ("the customer", "The technician",
                                                                           "neutral-pro")
    # answer 0: the technician completed the repair; technician is masculine (40 % women)
    assert (repair["main_entity"], repair["other_entity"], repair["category"]) == ("The technician",
                                                                                   "the customer",
                                                                                   "anti-neutral")


def test_table4_rule():
    lists = {"physician": MASCULINE, "housekeeper": FEMININE}
    assert table4_winobias_category("The physician", MASCULINE, lists) == "pro-anti"
    assert table4_winobias_category("the housekeeper", MASCULINE, lists) == "anti-pro"
    # not looked up: "a " is not removed, nor a space: counted as anti whatever the pronoun
    assert table4_winobias_category("a housekeeper", FEMININE, lists) == "anti-pro"
    assert table4_winobias_category(" physician", MASCULINE, lists) == "anti-pro"


def test_compare_categories():
    ours = [{"id": "a", "text": "The cook met the nurse.", "category": "pro-anti"},
            {"id": "b", "text": "The nurse met the cook .", "category": "anti-pro"},
            {"id": "c", "text": "Only ours.", "category": "pro-anti"}]
    study = [{"id": "s2", "text": "The nurse met the cook.", "category": "pro-anti"},
             {"id": "s1", "text": "the cook met the nurse.", "category": "pro-anti"},
             {"id": "s3", "text": "Only theirs.", "category": "anti-pro"}]
    c = compare_categories(ours, study, normalise_text)
    assert (c["n_matched"], c["n_agree"], c["n_only_ours"], c["n_only_study"]) == (2, 1, 1, 1)
    assert c["confusion"] == {"anti-pro -> pro-anti": 1}
    assert [(r["id"], r["study_id"], r["agree"]) for r in c["rows"]] == [
        ("a", "s1", True), ("b", "s2", False), ("c", "", False), ("", "s3", False)]


@pytest.mark.slow
def test_table4_counts_on_shared(shared_dir):
    ref = shared_dir / "reference"
    items = b.load_winobias(ref / "winobias") + b.load_winogender(ref / "winogender")
    lists = b.winobias_list_stereotypes(ref / "winobias")
    apply_category_rule(items, "table4", lists)
    assert count_categories(it["category"] for it in items) == {
        "anti-pro": 1586, "pro-anti": 1582, "pronoun-neutral": 240, "anti-neutral": 108,
        "pro-neutral": 108, "neutral-anti": 108, "neutral-pro": 108, "neutral-neutral": 48}
    moved = sorted(it["id"] for it in items
                   if it["source"] == "winobias" and it["category"].split("-")[0] != it["id"].split("-")[1])
    assert moved == ["winobias-pro-type2-dev-0176", "winobias-pro-type2-test-0323"]
    apply_category_rule(items, "table4-pair")
    assert count_categories(it["category"] for it in items)["anti-pro"] == 1586
    moved = sorted(it["id"] for it in items
                   if it["source"] == "winobias" and it["category"].split("-")[0] != it["id"].split("-")[1])
    assert moved == ["winobias-pro-type2-test-0382", "winobias-pro-type2-test-0384"]
    apply_category_rule(items, "entity")
    assert count_categories(it["category"] for it in items)["anti-pro"] == 1584
    assert count_categories(it["stereotype"] for it in items if it["source"] == "winobias") == {"anti": 1584,
                                                                                               "pro": 1584}
    # Winogender: answer 0 is the occupation
    repair = next(it for it in items if it["id"] == "winogender-technician-customer-0-male")
    assert (repair["main_entity"], repair["category"]) == ("The technician", "pro-neutral")
