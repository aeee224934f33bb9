"""CoNLL-2012 reading/writing and a-CDA / n-CDA on hand-written documents."""

from __future__ import annotations

import inspect
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cda.core import augment as cda
from pipeline.formats import conll
from pipeline.lang.gendered_words import flip
from pipeline.cda.runs.cda import augment_file
from pipeline.cli import main
from pipeline.errors import InputError

# A hand-written OntoNotes-style document: right-aligned word/POS columns, one predicate
# column in the first sentence, none in the second, nested and multi-token mentions.
DOC1 = """\
#begin document (nw/test/00/test_0001); part 000
nw/test/00/test_0001   0    0         John   NNP   (TOP(S(NP*     -    -   -   Speaker#1   (PERSON)        (ARG0*   (0
nw/test/00/test_0001   0    1        Smith   NNP           *)     -    -   -   Speaker#1          *              *)  0)
nw/test/00/test_0001   0    2          met   VBD        (VP*    meet   01   1   Speaker#1          *            (V*)   -
nw/test/00/test_0001   0    3          her   PRP$      (NP(NP*    -    -   -   Speaker#1          *        (ARG1*   (2|(1)
nw/test/00/test_0001   0    4       mother    NN           *)     -    -   -   Speaker#1          *              *)  2)
nw/test/00/test_0001   0    5          and    CC           *      -    -   -   Speaker#1          *              *   -
nw/test/00/test_0001   0    6         told   VBD           *    tell   01   1   Speaker#1          *              *   -
nw/test/00/test_0001   0    7          her   PRP         (NP*)    -    -   -   Speaker#1          *              *   (1)
nw/test/00/test_0001   0    8            .     .          *))     -    -   -   Speaker#1          *              *   -

nw/test/00/test_0001   0    0          His  PRP$   (TOP(S(NP*     -    -   -   Speaker#1          *   (0)
nw/test/00/test_0001   0    1         KING   NNP          *)      -    -   -   Speaker#1          *   -
nw/test/00/test_0001   0    2       thanks   VBZ        (VP*      -    -   -   Speaker#1          *   -
nw/test/00/test_0001   0    3         john   NNP        (NP*)     -    -   -   Speaker#1   (PERSON)   (0)
nw/test/00/test_0001   0    4          and    CC           *      -    -   -   Speaker#1          *   -
nw/test/00/test_0001   0    5         Mary   NNP        (NP*)     -    -   -   Speaker#1   (PERSON)   (1)
nw/test/00/test_0001   0    6         mark    NN           *      -    -   -   Speaker#1          *   -
nw/test/00/test_0001   0    7           HE   PRP           *      -    -   -   Speaker#1          *   (0)
nw/test/00/test_0001   0    8            .     .          *))     -    -   -   Speaker#1          *   -

#end document
"""

DOC2 = """\
#begin document (nw/test/00/test_0002); part 001
nw/test/00/test_0002   1    0         Mary   NNP   (TOP(S(NP*)    -    -   -   Speaker#1   (PERSON)   (0)
nw/test/00/test_0002   1    1        waved   VBD        (VP*)     -    -   -   Speaker#1          *   -
nw/test/00/test_0002   1    2            .     .          *))     -    -   -   Speaker#1          *   -

#end document
"""

MAP = {"John": "Mary", "Mary": "John"}


def cols(line: str) -> list[str]:
    return line.split()


@pytest.fixture
def sample(tmp_path):
    p = tmp_path / "test_gold_conll"
    p.write_text(DOC1 + DOC2, encoding="utf-8", newline="")
    return p


# ---------------------------------------------------------------- reader ----------------

def test_reader_streams_documents(sample):
    gen = conll.read_documents(sample)
    assert inspect.isgenerator(gen)
    docs = list(gen)
    assert [d.doc_id for d in docs] == ["nw/test/00/test_0001", "nw/test/00/test_0002"]
    assert docs[0].n_tokens == 18 and docs[1].n_tokens == 3
    assert docs[0].words[:4] == ["John", "Smith", "met", "her"]
    assert docs[0].tags[3] == "PRP$" and docs[0].tags[7] == "PRP"
    assert "".join(d.raw() for d in docs) == DOC1 + DOC2


def test_reader_keeps_crlf_and_material_between_documents(tmp_path):
    text = ("\n" + DOC1 + "\n# a comment\n" + DOC2 + "\n").replace("\n", "\r\n")
    p = tmp_path / "crlf_gold_conll"
    p.write_bytes(text.encode("utf-8"))
    docs = list(conll.read_documents(p))
    assert "".join(d.raw() for d in docs).encode("utf-8") == text.encode("utf-8")
    assert docs[1].prefix == ["\r\n", "# a comment\r\n"] and docs[1].suffix == ["\r\n"]


def test_replace_field_keeps_other_columns_aligned():
    ln = "doc   0    3         John   NNP   (NP*)   (0)\n"
    short = conll.replace_field(ln, 3, "E1")
    longer = conll.replace_field(ln, 3, "Christopher")
    huge = conll.replace_field(ln, 3, "Maximilianusxyz")
    for new in (short, longer, huge):
        assert cols(new)[:3] == cols(ln)[:3] and cols(new)[4:] == cols(ln)[4:]
    assert cols(short)[3] == "E1" and cols(longer)[3] == "Christopher"
    # right-aligned: the word still ends where it ended, the rest of the line is unchanged
    assert short.index("NNP") == ln.index("NNP") and short.index("E1") + 2 == ln.index("John") + 4
    assert longer.index("NNP") == ln.index("NNP")
    # longer than the spaces before it: the rest shifts only by what the spaces cannot absorb
    assert cols(huge)[3] == "Maximilianusxyz" and huge.index("NNP") == ln.index("NNP") + 1
    assert conll.replace_field("a\tb\tc\tJohn\tNNP\t-\n", 3, "E1") == "a\tb\tc\tE1\tNNP\t-\n"
    assert conll.replace_field(ln, 3, "John") == ln


# ---------------------------------------------------------------- pure core -------------

def test_acda_words(sample):
    [d1, d2] = conll.read_documents(sample)
    names = cda.NameIndex({"John", "Mary", "Smith"})
    new, c = cda.augment_words(d1.words, d1.tags, "acda", names)
    assert new[3] == "his"           # her PRP$ -> his
    assert new[4] == "father"
    assert new[7] == "him"           # her PRP -> him
    assert new[9] == "Her"           # capital kept
    assert new[16] == "SHE"          # all capitals kept
    assert new[0] == "E1" and new[12] == "E1"   # John / john: one name, one placeholder
    assert new[1] == "E2" and new[14] == "E3"   # Smith, Mary in order of first appearance
    assert new[15] == "mark"                     # not NNP: untouched
    assert new[10] == (flip("KING", "NNP") or "KING")
    others = [i for i in range(len(new)) if i not in (0, 1, 3, 4, 7, 9, 10, 12, 14, 16)]
    assert all(new[i] == d1.words[i] for i in others)
    assert c.names == 4 and c.gendered == 5 + (new[10] != "KING")
    # numbering restarts per document
    new2, _ = cda.augment_words(d2.words, d2.tags, "acda", names)
    assert new2[0] == "E1"


def test_ncda_words_keep_case(sample):
    [d1, _] = conll.read_documents(sample)
    new, c = cda.augment_words(d1.words, d1.tags, "ncda", cda.NameIndex(MAP), MAP)
    assert new[0] == "Mary" and new[12] == "mary" and new[14] == "John"
    assert new[1] == "Smith"                     # not in the map
    assert new[3] == "his" and new[7] == "him" and new[16] == "SHE"
    assert c.names == 3
    words, _ = cda.augment_words(["JOHN"], ["NNP"], "ncda", cda.NameIndex(MAP), MAP)
    assert words == ["MARY"]


def test_gendered_words_win_over_names():
    names = cda.NameIndex({"King", "Prince", "Anna"})
    for word in ("King", "Prince"):
        flipped = flip(word, "NNP")
        if flipped is None:
            continue
        new, c = cda.augment_words([word, "Anna"], ["NNP", "NNP"], "acda", names)
        assert new == [flipped, "E1"] and c.gendered == 1 and c.names == 1


def test_with_case():
    assert cda.with_case("JOHN", "Mary") == "MARY"
    assert cda.with_case("john", "Mary") == "mary"
    assert cda.with_case("John", "Mary") == "Mary"
    assert cda.with_case("J", "Mary") == "Mary"


# ---------------------------------------------------------------- files -----------------

def check_output(inp, out, suffix):
    original = inp.read_bytes()
    data = out.read_bytes()
    assert data.startswith(original)               # originals byte for byte, first
    copies = data[len(original):].decode("utf-8").splitlines(keepends=True)
    orig_lines = original.decode("utf-8").splitlines(keepends=True)
    assert len(copies) == len(orig_lines)
    changed = 0
    for a, b in zip(orig_lines, copies):
        if a.startswith("#begin document"):
            doc_id = a[a.index("(") + 1:a.index(")")]
            assert b == a.replace(f"({doc_id})", f"({doc_id}{suffix})")
            continue
        ca, cb = cols(a), cols(b)
        assert len(ca) == len(cb)
        if len(ca) > 4:
            assert ca[:3] == cb[:3] and ca[4:] == cb[4:]   # every column but the word
            assert a.rstrip("\n")[-len(ca[-1]):] == b.rstrip("\n")[-len(cb[-1]):]
            changed += ca[3] != cb[3]
        else:
            assert a == b
    return copies, changed


def test_acda_file(sample, tmp_path):
    out = tmp_path / "out.acda"
    counts = augment_file(sample, out, "acda", cda.NameIndex({"John", "Mary", "Smith"}), progress=False)
    assert counts.documents == 2 and counts.tokens == 21
    copies, changed = check_output(sample, out, "_a")
    assert changed == counts.gendered + counts.names
    assert copies[0] == "#begin document (nw/test/00/test_0001_a); part 000\n"
    john = next(ln for ln in copies if cols(ln)[2:3] == ["0"] and "(0" in ln)
    assert cols(john)[3] == "E1" and john.index("NNP") == DOC1.splitlines()[1].index("NNP")


def test_ncda_cli_with_map(sample, tmp_path, capsys):
    m = tmp_path / "map.tsv"
    m.write_text("name\tpartner\tclass\tweight\nJohn\tMary\tmale\t0.5\nMary\tJohn\tfemale\t0.5\n",
                 encoding="utf-8")
    out = tmp_path / "o" / "out.ncda"
    assert main(["cda", "--conll", str(sample), "--mode", "ncda", "--out", str(out), "--name-map", str(m),
                 "--no-progress"]) == 0
    copies, changed = check_output(sample, out, "_n")
    text = capsys.readouterr().out
    assert "documents" in text and "tokens             21" in text and "names replaced     4" in text
    assert [cols(ln)[3] for ln in copies if len(cols(ln)) > 4 and cols(ln)[4] == "NNP"] == \
        ["Mary", "Smith", "KING" if flip("KING", "NNP") is None else flip("KING", "NNP"),
         "mary", "John", "John"]


def test_acda_cli_real_name_list(sample, tmp_path, capsys):
    out = tmp_path / "out.acda"
    assert main(["cda", "--conll", str(sample), "--mode", "acda", "--out", str(out), "--no-progress"]) == 0
    copies, _ = check_output(sample, out, "_a")
    words = [cols(ln)[3] for ln in copies if len(cols(ln)) > 4 and not ln.startswith("#")]
    assert words[0] == "E1" and words[12] == "E1"                          # John, john
    assert words[14] in ("E2", "E3") and words[3] == "his" and words[7] == "him"
    assert words[18] == "E1"                                              # Mary, next document


# ---------------------------------------------------------------- bad input -------------

def lines_of(text):
    return text.splitlines(keepends=True)


BAD = {
    "too few columns": (lambda t: t.replace("nw/test/00/test_0001   0    2          met   VBD        (VP*    meet   01   1   Speaker#1          *            (V*)   -",
                                            "nw/test/00/test_0001   0    2          met   VBD"), 4, "too few columns"),
    "column count": (lambda t: t.replace("(V*)   -", "-"), 4, "columns, but the sentence"),
    "unclosed": (lambda t: t.replace("*   (0)\nnw/test/00/test_0001   0    1         KING", "*   (0\nnw/test/00/test_0001   0    1         KING"),
                 12, "never closed"),
    "unopened": (lambda t: t.replace("(PERSON)   (1)\nnw/test/00/test_0001   0    6", "(PERSON)   1)\nnw/test/00/test_0001   0    6"),
                 17, "not open"),
    "malformed coref": (lambda t: t.replace("(2|(1)", "(2|(x)"), 5, "malformed coreference"),
    "missing end": (lambda t: t.replace("#end document\n#begin", "#begin", 1), 22, "'#end document' is missing"),
    "missing end at eof": (lambda t: t[: t.rindex("#end document")], 27, "has no '#end document'"),
    "token outside": (lambda t: "x  0  0  w  NN  *  -  -  -  -  *  -\n" + t, 1, "outside a document"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input(case, tmp_path, capsys):
    mutate, row, message = BAD[case]
    text = mutate(DOC1 + DOC2)
    assert text != DOC1 + DOC2
    p = tmp_path / "bad_gold_conll"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as exc:
        list(conll.read_documents(p))
    assert exc.value.row == row and str(exc.value.path) == str(p)
    out = tmp_path / "out" / "bad.acda"
    assert main(["cda", "--conll", str(p), "--mode", "acda", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {p}, row {row}: ")
    assert not out.exists() and (not out.parent.exists() or list(out.parent.iterdir()) == [])


def test_missing_input(tmp_path):
    assert main(["cda", "--conll", str(tmp_path / "nope"), "--mode", "acda", "--out", str(tmp_path / "o")]) == 2


# ---------------------------------------------------------------- streaming -------------

@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    from pipeline.perf.make_conll import generate_conll

    src = tmp_path_factory.mktemp("big") / "big_gold_conll"
    n_docs, n_tokens = generate_conll(src, 200_000, seed=3)
    return src, n_docs, n_tokens


@pytest.mark.slow
def test_reader_holds_one_document_at_a_time(big_file):
    """~200k tokens: the reader is a generator and no yielded document is kept alive by it
    once the next one has been read."""
    import gc
    import weakref

    src, n_docs, n_tokens = big_file
    gen = conll.read_documents(src)
    assert inspect.isgenerator(gen)
    refs, tokens, most_alive = [], 0, 0
    for doc in gen:
        tokens += doc.n_tokens
        refs.append(weakref.ref(doc))
        del doc
        if len(refs) % 50 == 0:
            gc.collect()
            most_alive = max(most_alive, sum(r() is not None for r in refs))
    assert len(refs) == n_docs and tokens == n_tokens >= 200_000
    assert most_alive <= 2


def _peak_traced(path) -> int:
    names = cda.NameIndex({"John", "Mary"})
    tracemalloc.start()
    try:
        augment_file(path, path.with_suffix(".out"), "acda", names, progress=False)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_augment_memory_does_not_grow_with_the_file(tmp_path):
    from pipeline.perf.make_conll import generate_conll

    small, large = tmp_path / "small_gold_conll", tmp_path / "large_gold_conll"
    generate_conll(small, 8_000, seed=5, doc_tokens=400)
    generate_conll(large, 32_000, seed=5, doc_tokens=400)
    _peak_traced(small)                      # warm caches (word list, regexes)
    p_small, p_large = _peak_traced(small), _peak_traced(large)
    assert large.stat().st_size > 3.5 * small.stat().st_size
    assert p_large < 1.5 * p_small + 200_000, (p_small, p_large)
    assert p_large < large.stat().st_size / 4


@pytest.mark.slow
def test_large_generated_file_augments(big_file, tmp_path):
    src, n_docs, n_tokens = big_file
    size = src.stat().st_size
    names = cda.NameIndex({"John", "Mary", "David", "Susan", "Anna", "Emma", "Peter", "Paul"})
    out = tmp_path / "big.acda"
    counts = augment_file(src, out, "acda", names, progress=False)
    assert counts.documents == n_docs and counts.tokens == n_tokens
    assert counts.gendered > 0 and counts.names > 0
    assert out.stat().st_size > 2 * size - 1000
    with open(out, "rb") as fh:
        assert fh.read(size) == src.read_bytes()
    assert sum(1 for d in conll.read_documents(out)) == 2 * n_docs


# ---------------------------------------------------------------- properties ------------

field = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=0x24F, exclude_categories=("Z", "C")),
                min_size=1, max_size=12)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(field, min_size=6, max_size=9), st.lists(st.integers(1, 8), min_size=9, max_size=9), field,
       st.sampled_from(["\n", "\r\n", ""]))
def test_replace_field_property(fields, gaps, new, eol):
    line = "".join(f + " " * g for f, g in zip(fields, gaps))[: -gaps[len(fields) - 1]] + eol
    out = conll.replace_field(line, 3, new)
    assert out.split() == fields[:3] + [new] + fields[4:]
    assert out.endswith(eol)
    # the columns after the word keep their position whenever the spaces around it allow
    shift = max(0, len(new) - len(fields[3]) - (gaps[2] - 1) - (gaps[3] - 1))
    start = sum(len(f) + g for f, g in zip(fields[:4], gaps[:4]))
    assert out[start + shift:].startswith(fields[4])


# ---------------------------------------------------------------- files without POS tags ----

LITBANK_STYLE = "".join(
    f"#begin document (lb_{k}); part 0\n"
    + "".join(f"lb_{k}\t0\t{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\t{c}\n"
              for i, (w, c) in enumerate(zip(words.split(), corefs)))
    + "\n#end document\n"
    for k, (words, corefs) in enumerate([
        ("Polly saw her hat and gave it to her .", ["(0)", "", "(2|(1)", "2)", "", "", "", "", "(1)", ""]),
        ("The baker yelled at the mover because her stove was broken .",
         ["(0", "0)", "", "", "", "", "", "(0)", "", "", "", ""]),
    ]))


def test_acda_predicts_tags_when_the_file_has_none(tmp_path, capsys):
    src = tmp_path / "lb.conll"
    src.write_text(LITBANK_STYLE, encoding="utf-8")
    out = tmp_path / "lb.acda"
    assert main(["cda", "--conll", str(src), "--mode", "acda", "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "POS tags PREDICTED by spaCy" in text and "for 2 of 2 documents" in text
    data = out.read_text(encoding="utf-8")
    assert data.startswith(LITBANK_STYLE)
    copies = data[len(LITBANK_STYLE):].splitlines(keepends=True)
    words = [ln.split("\t")[3] for ln in copies if ln.count("\t") == 12]
    assert words[:10] == ["E1", "saw", "his", "hat", "and", "gave", "it", "to", "him", "."]
    assert words[10:] == "The baker yelled at the mover because his stove was broken .".split()
    for a, b in zip(LITBANK_STYLE.splitlines(keepends=True), copies):
        if a.count("\t") == 12:
            ca, cb = a.split("\t"), b.split("\t")
            assert ca[:3] + ca[4:] == cb[:3] + cb[4:]       # every column but the word, "" included
    # --pos file: the '_' column is used as it is, nothing is predicted
    assert main(["cda", "--conll", str(src), "--mode", "acda", "--out", str(tmp_path / "f.acda"),
                 "--no-progress", "--pos", "file"]) == 0
    assert "POS tags from the file" in capsys.readouterr().out


def _her_agreement(files_by_pair):
    """Agreement of her -> his/him with the male pronoun at the same position of the paired
    WinoBias sentence (pro/anti files hold the same sentences with the other gender)."""
    from pipeline.cda.core.augment import augment_words
    from pipeline.cda.runs.cda import Tagger

    tagger = Tagger()
    agree = total = 0
    for a_path, b_path in files_by_pair:
        docs_a, docs_b = list(conll.read_documents(a_path)), list(conll.read_documents(b_path))
        by_len = {}
        for d in docs_b:
            by_len.setdefault(len(d.words), []).append(d)
        for d in docs_a:
            hers = [i for i, w in enumerate(d.words) if w.lower() == "her"]
            if not hers:
                continue
            partners = {tuple(o.words[i].lower() for i in hers) for o in by_len.get(len(d.words), [])
                        if sum(x != y for x, y in zip(d.words, o.words)) <= 3
                        and all(o.words[i].lower() in ("his", "him") for i in hers)}
            if len(partners) != 1:
                continue
            gold = partners.pop()
            tags, deps = tagger.tag(d.words, d.sentences())
            new, _ = augment_words(d.words, tags, "acda", cda.NameIndex(set()), None, deps)
            for i, g in zip(hers, gold):
                total += 1
                agree += new[i].lower() == g
    return agree, total


@pytest.mark.slow
@pytest.mark.shared
def test_winobias_her_becomes_his_or_him_as_the_paired_sentence_says(shared_dir):
    base = shared_dir / "reference" / "winobias" / "conll_format"
    pairs = []
    for split in ("dev", "test"):
        for typ in ("type1", "type2"):
            anti = base / f"{split}_{typ}_anti_stereotype.v4_auto_conll"
            pro = base / f"{split}_{typ}_pro_stereotype.v4_auto_conll"
            pairs += [(anti, pro), (pro, anti)]
    agree, total = _her_agreement(pairs)
    assert total > 850                      # every "her" of the eight files but a handful without a pair
    assert agree / total >= 0.97, (agree, total)


@pytest.mark.slow
@pytest.mark.shared
def test_litbank_file_augments_with_every_other_column_identical(shared_dir, tmp_path, capsys):
    src = shared_dir / "reference" / "litbank-coref" / "105_persuasion_brat.conll"
    out = tmp_path / "p.acda"
    assert main(["cda", "--conll", str(src), "--mode", "acda", "--out", str(out), "--no-progress"]) == 0
    assert "POS tags PREDICTED" in capsys.readouterr().out
    original = src.read_bytes()
    data = out.read_bytes()
    assert data.startswith(original)
    a_lines = original.decode("utf-8").splitlines(keepends=True)
    b_lines = data[len(original):].decode("utf-8").splitlines(keepends=True)
    assert len(a_lines) == len(b_lines)
    changed = 0
    for a, b in zip(a_lines, b_lines):
        if a.startswith("#"):
            continue
        ca, cb = a.split("\t"), b.split("\t")
        assert len(ca) == len(cb) and ca[:3] + ca[4:] == cb[:3] + cb[4:]
        changed += ca[3] != cb[3] if len(ca) > 3 else 0
    assert changed > 50
