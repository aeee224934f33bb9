"""Property tests (hypothesis) of the generate core on synthetic instances.

Instances are built without spaCy: random sequences of words (drawn from the whole gendered
word list and some neutral words, with Penn tags), name mentions of four persons and a target
pronoun. Properties: offsets always consistent; control applied to the control gives the
original (persons written in one form each); swap-1 and swap-2 differ only at name
positions; after a swap no listed word outside the names keeps its gender.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.lang import gendered_words as gw
from pipeline.core.instances import check_instance
from pipeline.core.quadruples import NAME_FORMS, check_offsets, make_variant, quadruple
from pipeline.core.title_periods import strip_title_periods_row
from pipeline.lang.pronouns import FEMININE, MASCULINE, opposite
from pipeline.vocab import ROLES

FIRST = {MASCULINE: ["John", "Tom", "Frank", "George", "Henry", "Edward", "Robert"],
         FEMININE: ["Emma", "Anne", "Jane", "Lucy", "Mary", "Harriet", "Maria"]}
SURNAMES = ["Smith", "Weston", "Elton", "Martin", "King", "Bachelor", "Groom", "Goddard"]
TITLES = {MASCULINE: ["Mr."], FEMININE: ["Mrs.", "Miss"]}
NEUTRAL = [("the", "DT"), ("said", "VBD"), ("table", "NN"), ("and", "CC"), ("to", "IN"),
           ("a", "DT"), ("an", "DT"), (",", ","), (".", "."), ("author", "NN"), ("child", "NN")]
LISTED = sorted({w for m, f, c in gw.pairs() for w in ([f] if c == gw.MARKED_FEMININE else [m, f])})
TARGETS = {MASCULINE: ["he", "him", "his"], FEMININE: ["she", "her", "hers"]}


def _word_tag(word: str, draw) -> str:
    if gw.category_of(word) == "pronoun":
        return draw(st.sampled_from(["PRP", "PRP$"])) if word in ("her", "his") else "PRP"
    return "NN"


@st.composite
def instances(draw, single_form: bool = True):
    g = draw(st.sampled_from([MASCULINE, FEMININE]))
    og = opposite(g)
    firsts = {x: draw(st.permutations(FIRST[x]))[:2] for x in (g, og)}
    surnames = draw(st.permutations(SURNAMES))[:4]
    persons = []   # (gender, kind, k) -> forms
    for n, (gender, k) in enumerate([(g, 0), (g, 1), (og, 0), (og, 1)]):
        first, last = firsts[gender][k], surnames[n]
        title = draw(st.sampled_from(TITLES[gender]))
        allowed = {"first": first, "full": f"{first} {last}", "title": f"{title} {last}"}
        if single_form:
            kinds = [draw(st.sampled_from(sorted(allowed)))]
        else:
            kinds = draw(st.sampled_from([["first"], ["full"], ["title"], ["full", "first"],
                                          ["full", "title"], ["full", "first", "title"]]))
        canonical = f"{first} {last}" if "full" in kinds else (first if kinds == ["first"] else last)
        persons.append({"gender": gender, "forms": [allowed[x] for x in kinds], "name": canonical,
                        "title": title})
    # a random sequence: every person at least once, words in between, one target pronoun
    items = [("name", n) for n in range(4)]
    items += [("name", n) for n in draw(st.lists(st.integers(0, 3), max_size=5))]
    words = draw(st.lists(st.one_of(st.sampled_from(LISTED), st.sampled_from([w for w, _ in NEUTRAL])), max_size=14))
    items += [("word", w) for w in words]
    items = draw(st.permutations(items))
    p_at = draw(st.integers(0, len(items)))
    items = items[:p_at] + [("pronoun", draw(st.sampled_from(TARGETS[g])))] + items[p_at:]

    parts, tokens, starts, tags, ents = [], [], [], [], []
    mentions = {n: [] for n in range(4)}
    pos, pronoun = 0, None

    def add(tok, tag, ent="O", glue=False):
        nonlocal pos
        if parts and not glue:
            parts.append(" ")
            pos += 1
        tokens.append(tok), starts.append(pos), tags.append(tag), ents.append(ent)
        parts.append(tok)
        pos += len(tok)

    neutral_tags = dict(NEUTRAL)
    for kind, val in items:
        if kind == "word":
            add(val, neutral_tags.get(val) or _word_tag(val, draw))
        elif kind == "pronoun":
            tag = "PRP$" if val == "his" else ("PRP" if val != "her" else draw(st.sampled_from(["PRP", "PRP$"])))
            pronoun = (val, pos + (1 if parts else 0), len(tokens), tag)
            add(val, tag)
        else:
            p = persons[val]
            form = draw(st.sampled_from(p["forms"]))
            start = pos + (1 if parts else 0)
            for j, piece in enumerate(form.split()):
                add(piece, "NNP", "B-PERSON" if j == 0 else "I-PERSON")
            title = form.split()[0] if form.split()[0] in TITLES[p["gender"]] else ""
            mentions[val].append({"start": start, "end": pos, "text": form, "title": title})
            if draw(st.booleans()) and draw(st.booleans()):
                add("'s", "POS", glue=True)
    text = "".join(parts)
    # roles by first appearance within each gender
    order = sorted(range(4), key=lambda n: mentions[n][0]["start"])
    cands = [n for n in order if persons[n]["gender"] == g]
    others = [n for n in order if persons[n]["gender"] == og]
    role_of = dict(zip(cands + others, ROLES))
    names = [{"role": role_of[n], "name": persons[n]["name"], "gender": persons[n]["gender"],
              "mentions": mentions[n]} for n in cands + others]
    ma = draw(st.sampled_from(mentions[cands[0]]))
    mb = draw(st.sampled_from(mentions[cands[1]]))
    (ra, ma), (rb, mb) = sorted([("C1", ma), ("C2", mb)], key=lambda x: x[1]["start"])
    inst = {
        "instance_id": "h-1", "book_id": "1", "title": "Synthetic", "text": text,
        "tokens": tokens, "token_starts": starts, "token_tags": tags, "token_deps": [""] * len(tokens),
        "token_ents": ents, "pronoun": pronoun[0], "pronoun_offset": pronoun[1], "pronoun_token": pronoun[2],
        "pronoun_tag": pronoun[3], "pronoun_gender": g, "pattern": "FINALPRO", "names": names,
        "a_name": ra, "a": ma["text"], "a_offset": ma["start"], "b_name": rb, "b": mb["text"], "b_offset": mb["start"],
    }
    check_instance(inst)
    return inst


def _name_spans(row) -> list[tuple[int, int]]:
    return sorted((m["start"], m["end"]) for n in row["names"] for m in n["mentions"])


def _outside_names(row) -> list[str]:
    """The text between name mentions, in order."""
    out, pos = [], 0
    for s, e in _name_spans(row):
        out.append(row["text"][pos:s])
        pos = e
    out.append(row["text"][pos:])
    return out


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SETTINGS
@given(instances(single_form=False))
def test_offsets_always_consistent(inst):
    for forms in NAME_FORMS:
        rows, _ = quadruple(inst, "h", name_forms=forms)
        assert [r["variant"] for r in rows] == ["original", "control", "swap-1", "swap-2"]
        for r in rows:
            check_offsets(r)
            spans = _name_spans(r)
            assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))
            assert r["a_offset"] < r["b_offset"]
            # every variant is itself a valid instance
            rec, _ = make_variant(inst, r["variant"], name_forms=forms)
            check_instance(rec)
            # and so is its evaluation variant without title periods
            check_offsets(strip_title_periods_row(r))


@pytest.mark.slow
@SETTINGS
@given(instances(single_form=True))
def test_control_of_control_is_the_original(inst):
    for forms in NAME_FORMS:
        control, _ = make_variant(inst, "control", name_forms=forms)
        back, _ = make_variant(control, "control", name_forms=forms)
        for key in ("text", "names", "pronoun", "pronoun_offset", "a", "a_offset", "b", "b_offset", "a_name", "b_name"):
            assert back[key] == inst[key], (forms, key)


@pytest.mark.slow
@SETTINGS
@given(instances(single_form=False))
def test_swaps_differ_only_at_name_positions(inst):
    rows, _ = quadruple(inst, "h")
    _, _, s1, s2 = rows
    assert _outside_names(s1) == _outside_names(s2)
    assert s1["pronoun"] == s2["pronoun"] and s1["pronoun_gender"] == s2["pronoun_gender"] == opposite(inst["pronoun_gender"])
    original, control = rows[0], rows[1]
    assert _outside_names(original) == _outside_names(control)


@pytest.mark.slow
@SETTINGS
@given(instances(single_form=False))
def test_no_listed_word_keeps_its_gender_after_a_swap(inst):
    rows, _ = quadruple(inst, "h")
    before = _outside_names(rows[0])
    for swapped in rows[2:]:
        after = _outside_names(swapped)
        assert len(before) == len(after)
        for seg_b, seg_a in zip(before, after):
            wb, wa = re.findall(r"\S+", seg_b), re.findall(r"\S+", seg_a)
            assert len(wb) == len(wa)
            for x, y in zip(wb, wa):
                gx = gw.gender_of(x)
                if gx is not None and x not in ("Lord", "LORD"):     # (capitalised "Lord" may be the deity)
                    # the opposite gender, or neutral for a marked feminine ("prophetess");
                    # animal words ("bull") are no persons and keep theirs
                    if gw.category_of(x) == gw.ANIMAL:
                        want = gx
                    else:
                        want = None if gw.category_of(x) == gw.MARKED_FEMININE else opposite(gx)
                    assert gw.gender_of(y) == want, (x, y)
        # and the names' own genders follow the slot definition
        for n in swapped["names"]:
            want = swapped["pronoun_gender"] if n["role"].startswith("C") else inst["pronoun_gender"]
            assert n["gender"] == want
