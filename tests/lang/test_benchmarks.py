"""Benchmark loaders: WinoBias lines, Winogender, a hand-made BUG-style CSV (Latin-1), SoWinoBias;
the category counts on ../shared."""

from __future__ import annotations

import pytest

from pipeline.humans.core.stereotypes import categorize, count_categories
from pipeline.errors import InputError
from pipeline.formats import benchmarks as bf
from pipeline.lang import benchmarks as b

BUG_CSV = (
    "sentence_text,profession,g,g_first_index,profession_first_index,stereotype,corpus,data_index,distance,num_of_pronouns\n"
    "The nurse said that she would come back later .,nurse,she,4,1,1,wikipedia,11,3,1\n"
    "Caf\xe9 owner : the surgeon thinks she is right .,surgeon,she,6,4,-1,pubmed,12,2,1\n"
    "He told the secretary that the plan was fine .,secretary,He,0,3,0,covid19,13,3,1\n"
)


def write_winobias(tmp_path, pro_lines, anti_lines=()):
    (tmp_path / "male_occupations.txt").write_text("developer\nmechanic\nconstruction worker\nCEO")
    (tmp_path / "female_occupations.txt").write_text("designer\nclerk\nnurse\n")
    (tmp_path / "pro_stereotyped_type1.txt.dev").write_text("\n".join(pro_lines) + "\n")
    if anti_lines:
        (tmp_path / "anti_stereotyped_type1.txt.dev").write_text("\n".join(anti_lines) + "\n")


def test_winobias_line(tmp_path):
    write_winobias(tmp_path, [
        "1 [The developer] argued with the designer because [he] did not like the design.",
        "2 The developer argued with [the designer] because [her] idea cannot be implemented.",
        "3 [The construction worker] called the clerk because [he] forgot [his] key.",
    ], ["1 [The developer] argued with the designer because [she] did not like the design."])
    items = categorize(b.load_winobias(tmp_path))
    one = items[-3]
    assert one["id"] == "winobias-pro-type1-dev-0001" and one["split"] == "dev"
    assert one["text"] == "The developer argued with the designer because he did not like the design."
    assert one["text"][one["pronoun_start"]:one["pronoun_end"]] == "he"
    assert (one["main_entity"], one["other_entity"]) == ("The developer", "the designer")
    assert (one["main_stereotype"], one["other_stereotype"]) == ("masculine", "feminine")
    assert (one["category"], one["stereotype"]) == ("pro-anti", "pro")
    two = items[-2]
    assert two["pronoun"] == "her" and two["main_occupation"] == "designer" and two["category"] == "pro-anti"
    three = items[-1]
    assert three["main_occupation"] == "construction worker" and three["pronoun"] == "he"
    anti = items[0]
    assert anti["id"] == "winobias-anti-type1-dev-0001" and anti["category"] == "anti-pro"


def test_winobias_bad_line(tmp_path):
    write_winobias(tmp_path, ["1 [The developer] argued.", "2 no brackets here."])
    with pytest.raises(InputError, match="expected two bracketed") as exc:
        b.load_winobias(tmp_path)
    assert exc.value.row == 1


def test_bug_csv_latin1(tmp_path):
    p = tmp_path / "bug.csv"
    p.write_bytes(BUG_CSV.encode("latin-1"))
    items = categorize(b.load_bug(p))
    nurse, surgeon, secretary = items
    assert nurse["text"][nurse["pronoun_start"]:nurse["pronoun_end"]] == "she"
    assert nurse["main_entity"] == "The nurse" and nurse["pronoun_gender"] == "feminine"
    assert (nurse["category"], nurse["stereotype"]) == ("pro-neutral", "pro")
    assert surgeon["text"].startswith("Café") and surgeon["main_entity"] == "the surgeon"
    assert (surgeon["main_stereotype"], surgeon["stereotype"]) == ("masculine", "anti")
    assert secretary["pronoun_gender"] == "masculine" and secretary["stereotype"] == "neutral"
    assert secretary["main_start"] > secretary["pronoun_start"]
    assert nurse["id"] == "bug-wikipedia-11"


def test_bug_bad_rows(tmp_path):
    p = tmp_path / "bug.csv"
    p.write_text(BUG_CSV.replace("she,4,1,1,", "she,4,1,7,", 1))
    with pytest.raises(InputError, match="stereotype must be 1, -1 or 0") as exc:
        b.load_bug(p)
    assert exc.value.row == 2
    p.write_text(BUG_CSV.replace("she,4,1,1,", "she,3,1,1,", 1))
    with pytest.raises(InputError, match="is not a pronoun"):
        b.load_bug(p)
    p.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="not a BUG file"):
        b.load_bug(p)


def test_other_layout_is_not_a_benchmark(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "x.parquet"
    pq.write_table(pa.table({"id": ["a"], "text": ["b"]}), p)
    assert not bf.is_benchmark_file(p)
    with pytest.raises(InputError, match="not a benchmark table"):
        bf.read_benchmark(p)


def test_sowinobias_parquet(tmp_path):
    from pipeline.formats.schemas import SOWINOBIAS
    from pipeline.formats.tables import write_records

    text = "The guard liked the nurse because they were gentle."
    row = {"id": "sowino-pro-00001", "pair_id": "sowino-00001", "set": "pro", "polarity": "positive",
           "text": text, "pronoun": "they", "pronoun_offset": text.index("they"), "a": "guard",
           "a_offset": 4, "a_coref": False, "b": "nurse", "b_offset": text.index("nurse"),
           "b_coref": True, "a_stereotype": "male", "b_stereotype": "female", "verb": "liked",
           "adjective": "gentle"}
    write_records([row], tmp_path / "s.parquet", SOWINOBIAS, fill_missing=True)
    (it,) = categorize(b.load_sowinobias(tmp_path / "s.parquet"))
    assert it["main_entity"] == "the nurse" and it["other_entity"] == "The guard"
    assert (it["category"], it["stereotype"], it["pronoun_gender"]) == ("pronoun-neutral", "pro", "neutral")


@pytest.mark.slow
def test_category_counts_on_shared(shared_dir):
    wb = b.load_winobias(shared_dir / "reference" / "winobias")
    wg = b.load_winogender(shared_dir / "reference" / "winogender")
    assert (len(wb), len(wg)) == (3168, 720)
    counts = count_categories(it["category"] for it in categorize(wb + wg))
    # The paper lists anti-pro 1,586 and pro-anti 1,582 (3,168 in all); the files as
    # distributed label every pro line pro-anti and every anti line anti-pro, both by the
    # file name and by the occupation lists: 1,584 each (see docs/benchmarks.md).
    assert counts == {"anti-pro": 1584, "pro-anti": 1584, "pronoun-neutral": 240,
                      "anti-neutral": 108, "pro-neutral": 108, "neutral-anti": 108,
                      "neutral-pro": 108, "neutral-neutral": 48}
    for it in wb:
        assert it["id"].split("-")[1] == it["category"].split("-")[0]
        assert it["text"][it["pronoun_start"]:it["pronoun_end"]] == it["pronoun"]
        assert it["text"][it["main_start"]:it["main_end"]] == it["main_entity"]
        assert it["other_entity"] is not None
