"""Counterfactual quadruples: the pure core of the generate stage (records in, records out).

For an original x_o = s(P, C1, C2, O1, O2) (P the target pronoun, C1/C2 the two names of P's
gender in order of first appearance, O1/O2 the two others) four instances are made:

=========  ==============================  =========================================
variant    definition                      person placed at the positions (slots) of
=========  ==============================  =========================================
original   s(P, C1, C2, O1, O2)            C1 C2 O1 O2 (unchanged)
control    s(P, C2, C1, O2, O1)            C2 C1 O2 O1
swap-1     s~(P~, O1, O2, C1, C2)          O1 O2 C1 C2, every gendered word flipped
swap-2     s~(P~, O2, O1, C2, C1)          O2 O1 C2 C1, every gendered word flipped
=========  ==============================  =========================================

Roles are positional: in every variant the ``names`` entry with role C1 is the person now at
the original C1's positions (which is also that variant's own C1: the first-appearing name of
the variant's pronoun gender). A and B are the mentions at the original A and B positions, so
the original's gold label applies to the whole quadruple.

Names: by default each person is written everywhere in one form, their shortest mention in
the context, title included (Counter-GAP's convention; ``name_forms="shape"`` takes the shape
of the replaced mention instead). See ``docs/generate.md``.

API: :func:`check_instance`, :func:`complete_mentions`, :func:`make_variant`,
:func:`quadruple`, :func:`check_offsets`, :func:`gap_instance` (a GAP row + its spaCy Doc ->
an instance record or a rejection reason), :func:`strip_title_periods` (the evaluation variant
without the period of titles). The gendered words come from a
:class:`pipeline.lang.gendered_words.WordList` (``words=``; default: the built-in list).

May import: :mod:`pipeline.vocab`, :mod:`pipeline.errors`, :mod:`pipeline.lang`. Works on spaCy
Docs passed in (GAP conversion) but never loads a pipeline or touches a file.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass

from pipeline.lang import gendered_words as gw
from pipeline.lang.pronouns import FEMININE, MASCULINE, PRONOUNS, UNGENDERED, opposite
from pipeline.vocab import ID_SUFFIX, ROLES, VARIANTS  # noqa: F401 (re-exported)


class GenerateError(ValueError):
    """A generated or input record is inconsistent (a guard on what is written)."""


# variant -> slot -> role (in the original) of the person placed at that slot's positions
SOURCE_ROLE = {
    "original": {"C1": "C1", "C2": "C2", "O1": "O1", "O2": "O2"},
    "control": {"C1": "C2", "C2": "C1", "O1": "O2", "O2": "O1"},
    "swap-1": {"C1": "O1", "C2": "O2", "O1": "C1", "O2": "C2"},
    "swap-2": {"C1": "O2", "C2": "O1", "O1": "C2", "O2": "C1"},
}
# How a person is written at the positions of another (docs/generate.md, "Names"):
# "person": always the person's one form, the shortest mention as written in the context
# (Counter-GAP's convention); "shape": a form of the replaced mention's shape (full name,
# first name, surname, with or without title), built when the context never shows it.
NAME_FORMS = ("person", "shape")
FLIPS_WORDS = {"original": False, "control": False, "swap-1": True, "swap-2": True}
# Non-PERSON entity labels whose gendered nouns are part of a proper name ("Prince Edward
# Island", "the King's Arms") and are kept; pronouns inside them still flip.
_KEEP_ENTS = {"GPE", "LOC", "ORG", "FAC", "WORK_OF_ART", "NORP", "EVENT", "PRODUCT", "LAW", "LANGUAGE"}
REQUIRED_FIELDS = ("text", "tokens", "token_starts", "token_tags", "pronoun", "pronoun_offset",
             "pronoun_token", "pronoun_gender", "pattern", "names", "a_name", "a", "a_offset",
             "b_name", "b", "b_offset")


@dataclass
class Edit:
    start: int          # character span in the ORIGINAL text
    end: int
    new: str
    kind: str           # name | word | article
    old: str
    role: str = ""      # names: the slot
    index: int = -1     # names: mention index in the slot; words: token index
    title: str = ""     # names: the title of the rendered form
    constructed: bool = False  # names: the form was built and never seen for that person


# ----------------------------------------------------------------------------- checks ------

def check_instance(inst: dict) -> None:
    """Raise GenerateError (a ValueError) with a readable message if ``inst`` is not a usable instance."""
    missing = [c for c in REQUIRED_FIELDS if c not in inst or inst[c] is None]
    if missing:
        raise GenerateError(f"missing field(s) {', '.join(missing)}")
    text = inst["text"]
    toks, starts, tags = inst["tokens"], inst["token_starts"], inst["token_tags"]
    if not (len(toks) == len(starts) == len(tags)):
        raise GenerateError("tokens, token_starts and token_tags differ in length")
    for t, s in zip(toks, starts):
        if text[s:s + len(t)] != t:
            raise GenerateError(f"token {t!r} is not at offset {s}")
    names = inst["names"]
    roles = [n["role"] for n in names]
    if sorted(roles) != sorted(ROLES):
        raise GenerateError(f"names must have the roles C1 C2 O1 O2, got {roles}")
    by_role = {n["role"]: n for n in names}
    g = inst["pronoun_gender"]
    if g not in (MASCULINE, FEMININE):
        raise GenerateError(f"pronoun_gender must be masculine or feminine, got {g!r}")
    for r in ROLES:
        want = g if r.startswith("C") else opposite(g)
        if by_role[r]["gender"] != want:
            raise GenerateError(f"{r} must be {want}, got {by_role[r]['gender']!r}")
        if not by_role[r]["mentions"]:
            raise GenerateError(f"{r} has no mentions")
    spans = []
    for n in names:
        for m in n["mentions"]:
            if text[m["start"]:m["end"]] != m["text"] or not m["text"]:
                raise GenerateError(f"mention {m['text']!r} of {n['role']} is not at {m['start']}:{m['end']}")
            spans.append((m["start"], m["end"]))
    spans.sort()
    for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
        if s2 < e1:
            raise GenerateError(f"name mentions overlap at {s2}")
    p, po, pt = inst["pronoun"], inst["pronoun_offset"], inst["pronoun_token"]
    if text[po:po + len(p)] != p:
        raise GenerateError(f"pronoun {p!r} is not at offset {po}")
    if not (0 <= pt < len(toks)) or starts[pt] != po or toks[pt] != p:
        raise GenerateError(f"pronoun_token {pt} is not the pronoun")
    if PRONOUNS.get(p.lower(), (None,))[0] != g:
        raise GenerateError(f"pronoun {p!r} is not {g}")
    if any(s <= po < e for s, e in spans):
        raise GenerateError("the pronoun lies inside a name mention")
    for x in ("a", "b"):
        role, off, val = inst[f"{x}_name"], inst[f"{x}_offset"], inst[x]
        if role not in ("C1", "C2"):
            raise GenerateError(f"{x}_name must be C1 or C2, got {role!r}")
        if not any(m["start"] == off and m["text"] == val for m in by_role[role]["mentions"]):
            raise GenerateError(f"{x.upper()} {val!r} at {off} is not a mention of {role}")
    if inst["a_name"] == inst["b_name"]:
        raise GenerateError("A and B are mentions of the same name")


# ---------------------------------------------------------------------- name rendering -----

def _split_title(mention: dict) -> tuple[str, str]:
    """(title, name part) of a mention; the title is the mention's leading title token."""
    text, title = mention["text"], mention.get("title") or ""
    if title and text.startswith(title) and len(text) > len(title):
        return title, text[len(title):].lstrip()
    return "", text


def _is_upper(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def _shape(mention: dict, canonical: str) -> tuple[bool, str, bool]:
    """(has title, which part of the canonical name: full|first|last|other, all capitals)."""
    title, rest = _split_title(mention)
    low = [t.lower() for t in rest.split()]
    canon = [t.lower() for t in canonical.split()]
    if low == canon:
        part = "full"
    elif len(canon) > 1 and low == canon[:1]:
        part = "first"
    elif len(canon) > 1 and low == canon[-1:]:
        part = "last"
    else:
        part = "other"
    return bool(title), part, _is_upper(rest)


class PersonForms:
    """How one person can be written: the forms seen in the text, by shape."""

    def __init__(self, name_rec: dict):
        self.name = name_rec["name"]
        self.gender = name_rec["gender"]
        seen: dict[tuple, Counter] = {}
        titles: Counter = Counter()
        self.untitled_seen = False
        for m in name_rec["mentions"]:
            shape = _shape(m, self.name)
            title, _ = _split_title(m)
            seen.setdefault(shape, Counter())[(m["text"], title)] += 1
            if title:
                titles[title] += 1
            else:
                self.untitled_seen = True
        # most frequent form per shape; ties: the first seen (Counter keeps insertion order)
        self.literal = {shape: c.most_common(1)[0][0] for shape, c in seen.items()}
        self.seen_texts = {text for c in seen.values() for text, _ in c}
        self.title = titles.most_common(1)[0][0] if titles else ""
        # the person's one form (NAME_FORMS "person"): the shortest mention as written, title
        # included; ties: the more frequent, then the first seen
        counts = Counter((m["text"], _split_title(m)[0]) for m in name_rec["mentions"])
        order = {key: k for k, key in reversed(list(enumerate((m["text"], _split_title(m)[0])
                                                              for m in name_rec["mentions"])))}
        # (a form in capitals only when the person is never written otherwise)
        self.person_form = min(counts, key=lambda key: (_is_upper(key[0]), len(key[0]), -counts[key], order[key]))

    def render(self, shape: tuple[bool, str, bool], style: str = "person") -> tuple[str, str, bool]:
        """(text, title, constructed) of this person written in place of a mention of ``shape``.

        Style "person" (the default, Counter-GAP's convention): always the person's one form
        (:attr:`person_form`), in capitals when the mention is; never constructed.
        Style "shape":
        A form seen in the text with that shape wins. Otherwise the form is built from the
        canonical name (first token, last token or all of it) and the person's title, which is
        used when the shape has a title or when the person is never named without one.
        """
        if style == "person":
            text, title = self.person_form
            return (text.upper(), title.upper(), False) if shape[2] else (text, title, False)
        if shape in self.literal:
            text, title = self.literal[shape]
            return text, title, False
        has_title, part, upper = shape
        if (has_title, part, not upper) in self.literal:
            text, title = self.literal[(has_title, part, not upper)]
            return (text.upper() if upper else text), title, False
        canon = self.name.split() or [self.name]
        if part == "first" and len(canon) > 1:
            rest = canon[0]
        elif part == "last" and len(canon) > 1:
            rest = canon[-1]
        else:
            rest = " ".join(canon)
        if upper:
            rest = rest.upper()
        use_title = bool(self.title) and (has_title or not self.untitled_seen)
        text = f"{self.title} {rest}" if use_title else rest
        return text, (self.title if use_title else ""), text not in self.seen_texts


# ------------------------------------------------------------------------- word edits ------

def _article(word: str) -> str:
    w = word.lower()
    if w.startswith(("heir", "hour", "honest", "honour", "honor")):
        return "an"
    if w[:1] in "aeiou" and not w.startswith(("uni", "use", "eu", "one", "ewe", "usu")):
        return "an"
    return "a"


def _ent_label(ent: str) -> str:
    return ent.split("-", 1)[1] if ent and "-" in ent else ""


def word_edits(inst: dict, protected: list[tuple[int, int]], words: gw.WordList | None = None) -> list[Edit]:
    """Gendered-word substitutions of a gender-swapped variant (tokens outside names)."""
    words = words or gw.builtin()
    text = inst["text"]
    toks, starts, tags = inst["tokens"], inst["token_starts"], inst["token_tags"]
    deps = inst.get("token_deps") or [""] * len(toks)
    ents = inst.get("token_ents") or ["O"] * len(toks)
    prot_starts = sorted(protected)
    ps = [s for s, _ in prot_starts]

    def in_name(s: int, e: int) -> bool:
        k = bisect.bisect_right(ps, e - 1) - 1
        return k >= 0 and prot_starts[k][1] > s

    heads = inst.get("token_heads") or []
    period = bool(re.search(r"\bMrs?\.", text)) or not re.search(r"\bMrs? ", text)
    edits: dict[int, Edit] = {}
    for i, (tok, s) in enumerate(zip(toks, starts)):
        e = s + len(tok)
        if not words.is_listed(tok) or in_name(s, e):
            continue
        if words.category_of(tok) != gw.PRONOUN and _ent_label(ents[i]) in _KEEP_ENTS:
            continue
        dep = deps[i]
        # the subject of a gerund is a determiner: "without his running" -> "her running"
        if dep.startswith("nsubj") and i < len(heads) and 0 <= heads[i] < len(tags) and tags[heads[i]] == "VBG":
            dep = "poss"
        # "poss" on a predicative adjective is the subject of a small clause, an object:
        # "believing her capable" -> "him"; "her own", "her best", "did her utmost" stay
        elif (dep == "poss" and i < len(heads) and 0 <= heads[i] < len(tags) and tags[heads[i]] == "JJ"
              and deps[heads[i]] in ("ccomp", "xcomp", "oprd", "acomp")):
            dep = "dobj"
        new = None
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if tok[:1].isupper() and nxt[:1].isupper() and tags[i + 1].startswith("NNP"):
            new = words.flip_title(tok, period)     # a title before a name: "the Miss Musgroves"
        if new is None:
            new = words.flip(tok, gw.pronoun_tag(tok, tags[i], dep))
        if new is not None and new != tok:
            edits[i] = Edit(s, e, new, "word", tok, index=i)
    # a / an before a word whose initial sound class changed ("an earl" -> "a countess")
    for i, ed in list(edits.items()):
        j = i - 1
        if j < 0 or j in edits:
            continue
        art = toks[j]
        if art.lower() not in ("a", "an") or starts[j] + len(art) + 1 != starts[i] or in_name(starts[j], starts[j] + 1):
            continue
        before, after = _article(ed.old), _article(ed.new)
        if art.lower() == before and after != before:
            if art.isupper() and len(art) > 1:
                new_art = after.upper()
            elif art[0].isupper():
                new_art = after.capitalize()
            else:
                new_art = after
            edits[j] = Edit(starts[j], starts[j] + len(art), new_art, "article", art, index=j)
    return sorted(edits.values(), key=lambda x: x.start)


# ---------------------------------------------------------------------------- variants -----

def _apply(text: str, edits: list[Edit]) -> tuple[str, list[tuple[int, int]], callable]:
    """Apply sorted, non-overlapping edits. Returns (new text, new span of each edit, shift)
    where shift maps an original offset outside every edit to its new offset."""
    out, pos, delta = [], 0, 0
    new_spans, marks, deltas = [], [], []
    for ed in edits:
        if ed.start < pos:
            raise GenerateError(f"overlapping edits at {ed.start}")
        out.append(text[pos:ed.start])
        ns = ed.start + delta
        out.append(ed.new)
        new_spans.append((ns, ns + len(ed.new)))
        delta += len(ed.new) - (ed.end - ed.start)
        pos = ed.end
        marks.append(ed.end)
        deltas.append(delta)
    out.append(text[pos:])

    def shift(x: int) -> int:
        k = bisect.bisect_right(marks, x) - 1
        return x + (deltas[k] if k >= 0 else 0)

    return "".join(out), new_spans, shift


def _names_by_role(inst: dict) -> dict[str, dict]:
    return {n["role"]: n for n in inst["names"]}


def make_variant(inst: dict, variant: str, words: gw.WordList | None = None,
                 name_forms: str = "person") -> tuple[dict, list[Edit]]:
    """One variant of an instance: an instance-shaped record for the new text (names with
    recomputed mentions, tokens, GAP fields) and the edits that made it. ``name_forms``:
    "person" (each person written in their one form) or "shape" (see :class:`PersonForms`)."""
    if name_forms not in NAME_FORMS:
        raise GenerateError(f"unknown name form convention {name_forms!r}")
    if variant not in SOURCE_ROLE:
        raise GenerateError(f"unknown variant {variant!r}")
    by_role = _names_by_role(inst)
    forms = {r: PersonForms(by_role[r]) for r in ROLES}
    text = inst["text"]
    edits: list[Edit] = []
    if variant != "original":
        for slot in ROLES:
            person = forms[SOURCE_ROLE[variant][slot]]
            canon = by_role[slot]["name"]
            for k, m in enumerate(by_role[slot]["mentions"]):
                new, title, built = person.render(_shape(m, canon), name_forms)
                edits.append(Edit(m["start"], m["end"], new, "name", m["text"], slot, k, title, built))
    if FLIPS_WORDS[variant]:
        protected = [(m["start"], m["end"]) for n in inst["names"] for m in n["mentions"]]
        edits.extend(word_edits(inst, protected, words))
    edits.sort(key=lambda e: e.start)
    new_text, new_spans, shift = _apply(text, edits)

    # names with their mentions in the new text
    name_new: dict[tuple[str, int], tuple[int, int, str, str]] = {}
    word_new: dict[int, tuple[int, str]] = {}
    for ed, (s, e) in zip(edits, new_spans):
        if ed.kind == "name":
            name_new[(ed.role, ed.index)] = (s, e, ed.new, ed.title)
        else:
            word_new[ed.index] = (s, ed.new)
    names = []
    for slot in ROLES:
        src = by_role[SOURCE_ROLE[variant][slot]]
        mentions = []
        for k, m in enumerate(by_role[slot]["mentions"]):
            if (slot, k) in name_new:
                s, e, t, title = name_new[(slot, k)]
            else:
                s, e, t, title = shift(m["start"]), shift(m["start"]) + len(m["text"]), m["text"], m.get("title") or ""
            mentions.append({"start": s, "end": e, "text": t, "title": title})
        names.append({"role": slot, "name": src["name"], "gender": src["gender"], "mentions": mentions})

    # tokens: name mentions become whitespace tokens tagged NNP, other tokens keep their tags
    mention_spans = sorted((m["start"], m["end"]) for n in inst["names"] for m in n["mentions"])
    mstarts = [s for s, _ in mention_spans]
    toks_out: list[tuple[int, str, str, str, str]] = []
    deps = inst.get("token_deps") or [""] * len(inst["tokens"])
    ents = inst.get("token_ents") or ["O"] * len(inst["tokens"])
    pron_new = None
    for i, (tok, s) in enumerate(zip(inst["tokens"], inst["token_starts"])):
        k = bisect.bisect_right(mstarts, s) - 1
        if k >= 0 and mention_spans[k][0] <= s < mention_spans[k][1]:
            continue
        if i in word_new:
            ns, nt = word_new[i]
        else:
            ns, nt = shift(s), tok
        toks_out.append((ns, nt, inst["token_tags"][i], deps[i], ents[i]))
        if i == inst["pronoun_token"]:
            pron_new = (ns, nt)
    for n in names:
        for m in n["mentions"]:
            for j, mt in enumerate(re.finditer(r"\S+", m["text"])):
                toks_out.append((m["start"] + mt.start(), mt.group(), "NNP", "compound",
                                 ("B-PERSON" if j == 0 else "I-PERSON")))
    toks_out.sort(key=lambda t: t[0])
    tok_index = {t[0]: k for k, t in enumerate(toks_out)}

    g0 = inst["pronoun_gender"]
    g = opposite(g0) if FLIPS_WORDS[variant] else g0
    rec = {k: v for k, v in inst.items() if k not in ("token_heads", "sentence_starts", "sentence_ends")}
    new_by_role = {n["role"]: n for n in names}

    def field_of(x: str) -> tuple[str, int]:
        role, off = inst[f"{x}_name"], inst[f"{x}_offset"]
        k = next(k for k, m in enumerate(by_role[role]["mentions"]) if m["start"] == off)
        m = new_by_role[role]["mentions"][k]
        return m["text"], m["start"]

    a, a_off = field_of("a")
    b, b_off = field_of("b")
    rec.update(
        text=new_text,
        tokens=[t[1] for t in toks_out], token_starts=[t[0] for t in toks_out],
        token_tags=[t[2] for t in toks_out], token_deps=[t[3] for t in toks_out],
        token_ents=[t[4] for t in toks_out],
        pronoun=pron_new[1], pronoun_offset=pron_new[0], pronoun_token=tok_index[pron_new[0]],
        pronoun_gender=g, names=names, a=a, a_offset=a_off, b=b, b_offset=b_off,
    )
    if variant != "original" and FLIPS_WORDS[variant] and PRONOUNS.get(rec["pronoun"].lower(), (None,))[0] != g:
        raise GenerateError(f"pronoun {inst['pronoun']!r} flipped to {rec['pronoun']!r}, not {g}")
    return rec, edits


def gutenberg_url(book_id: str) -> str:
    """The Gutenberg page of a book whose id (the corpus-relative path) ends in an ebook number."""
    number = str(book_id).rsplit("/", 1)[-1]
    return f"https://www.gutenberg.org/ebooks/{number}" if number.isdigit() else ""


def quadruple(inst: dict, quadruple_id: str, source: str = "extract", url: str | None = None,
              a_coref: bool | None = None, b_coref: bool | None = None,
              words: gw.WordList | None = None,
              name_forms: str = "person") -> tuple[list[dict], dict[str, list[Edit]]]:
    """The four QUADRUPLES rows of an instance (original, control, swap-1, swap-2) and the
    edits of each variant. Gold labels (``a_coref``/``b_coref``) apply to all four."""
    rows, all_edits = [], {}
    for v in VARIANTS:
        rec, edits = make_variant(inst, v, words, name_forms)
        all_edits[v] = edits
        rows.append({
            "id": quadruple_id + ID_SUFFIX[v], "quadruple_id": quadruple_id, "variant": v,
            "instance_id": inst.get("instance_id") or "",
            "pronoun_gender": rec["pronoun_gender"], "original_gender": inst["pronoun_gender"],
            "pattern": inst.get("pattern") or "", "book_id": inst.get("book_id") or "",
            "book": inst.get("title") or "", "text": rec["text"],
            "pronoun": rec["pronoun"], "pronoun_offset": rec["pronoun_offset"],
            "a": rec["a"], "a_offset": rec["a_offset"], "b": rec["b"], "b_offset": rec["b_offset"],
            "a_coref": a_coref, "b_coref": b_coref, "names": rec["names"], "source": source,
            "url": gutenberg_url(inst.get("book_id") or "") if url is None else url,
        })
    return rows, all_edits


def check_offsets(row: dict) -> None:
    """Raise :class:`GenerateError` unless the GAP fields and name mentions of a generated row
    point into its text (a guard before anything is written; never an ``assert``)."""
    t = row["text"]
    for x in ("pronoun", "a", "b"):
        off = row[f"{x}_offset"]
        if t[off:off + len(row[x])] != row[x]:
            raise GenerateError(f"{row['id']}: {x} offset {off} does not point at {row[x]!r}")
    for n in row["names"]:
        for m in n["mentions"]:
            if t[m["start"]:m["end"]] != m["text"]:
                raise GenerateError(f"{row['id']}: mention {m['text']!r} of {n['role']} is not at "
                                    f"{m['start']}:{m['end']}")


# -------------------------------------------------------------------- GAP conversion ------

REJECT_PRONOUN = "pronoun is not a gendered pronoun token"
REJECT_AMBIGUOUS = "a name form fits two persons (ambiguous)"
REJECT_UNGENDERED = "a name of unknown gender"
REJECT_UNGENDERED_EXTRA = "a name of unknown gender beside two names of each gender"
REJECT_FEWER = "fewer than four persons"
REJECT_MORE = "more than four persons"
REJECT_SPLIT = "four persons, not two of each gender"
REJECT_AB_MISSING = "A or B is not a name found by NER"
REJECT_INCONSISTENT = "the converted instance is inconsistent (overlapping mentions)"
REJECT_AB_PERSONS = "A and B are not the two names of the pronoun's gender"


def positional_pattern(p_off: int, a_off: int, b_off: int) -> str:
    """FINALPRO / MEDIALPRO / INITIALPRO from the order of the pronoun and A, B."""
    before = sum(1 for o in (a_off, b_off) if o < p_off)
    return {2: "FINALPRO", 1: "MEDIALPRO", 0: "INITIALPRO"}[before]


def _entity_spans(inst: dict) -> list[tuple[int, int, str]]:
    """(start, end, label) of the entities in an instance's IOB token labels."""
    out: list[list] = []
    for tok, s, ent in zip(inst["tokens"], inst["token_starts"], inst.get("token_ents") or []):
        iob, label = (ent.split("-", 1) + [""])[:2] if ent != "O" else ("O", "")
        if iob == "B" or (iob == "I" and (not out or out[-1][2] != label)):
            out.append([s, s + len(tok), label])
        elif iob == "I":
            out[-1][1] = s + len(tok)
    return [tuple(x) for x in out]


def complete_mentions(inst: dict) -> tuple[dict, int]:
    """Add the name mentions NER missed (a copy of ``inst`` and how many were added).

    Searches whole-word, case-sensitive occurrences of each person's name forms (as written,
    without title, plus the first and last token of a name of several tokens). An occurrence
    becomes a mention when the form belongs to one person only, its tokens are tagged as proper
    nouns (NNP/NNPS), and it overlaps no mention, the pronoun, or another entity, except an
    entity that is exactly the occurrence (a bare name NER labelled ORG or GPE). A title of the
    person's gender, or one without a gender ("Doctor", "St."), directly before it joins the
    mention. A and B are unchanged.
    """
    from pipeline.lang.names import title_gender, ungendered_title

    text = inst["text"]
    names = [{**n, "mentions": [dict(m) for m in n["mentions"]]} for n in inst["names"]]
    tag_at = dict(zip(inst["token_starts"], inst["token_tags"]))
    owners: dict[str, set[int]] = {}
    for k, n in enumerate(names):
        forms = {_split_title(m)[1] for m in n["mentions"]}
        canon = n["name"].split()
        if len(canon) > 1:
            forms.update((canon[0], canon[-1]))
        for f in forms:
            if f[:1].isupper():
                owners.setdefault(f, set()).add(k)
    taken = [(m["start"], m["end"]) for n in names for m in n["mentions"]]
    taken.append((inst["pronoun_offset"], inst["pronoun_offset"] + len(inst["pronoun"])))
    ents = [(s, e) for s, e, label in _entity_spans(inst) if label != "PERSON"]

    def free(s: int, e: int) -> bool:
        return (not any(s < te and ts < e for ts, te in taken)
                and not any(s < te and ts < e and (ts, te) != (s, e) for ts, te in ents))

    added = 0
    for form, ks in sorted(owners.items(), key=lambda kv: (-len(kv[0]), kv[0])):
        if len(ks) != 1:
            continue
        n = names[next(iter(ks))]
        for mt in re.finditer(r"(?<!\w)" + re.escape(form) + r"(?!\w)", text):
            s, e = mt.span()
            starts = [x.start() + s for x in re.finditer(r"\S+", form)]
            if not free(s, e) or not all(tag_at.get(x, "").startswith("NNP") for x in starts):
                continue
            title = ""
            tm = re.search(r"(\S+) $", text[max(0, s - 20):s])
            if tm and (title_gender(tm.group(1)) == n["gender"] or ungendered_title(tm.group(1))) \
                    and free(s - len(tm.group(0)), s):
                title = tm.group(1)
                s -= len(tm.group(0))
            n["mentions"].append({"start": s, "end": e, "text": text[s:e], "title": title})
            taken.append((s, e))
            added += 1
    for n in names:
        n["mentions"].sort(key=lambda m: m["start"])
    out = {**inst, "names": names}
    # an added mention may come first: roles follow first appearance within each gender
    relabel = {}
    for prefix in ("C", "O"):
        group = sorted((n for n in names if n["role"].startswith(prefix)), key=lambda n: n["mentions"][0]["start"])
        relabel.update({n["role"]: f"{prefix}{k}" for k, n in enumerate(group, start=1)})
    if any(k != v for k, v in relabel.items()):
        for n in names:
            n["role"] = relabel[n["role"]]
        names.sort(key=lambda n: ROLES.index(n["role"]))
        for x in ("a_name", "b_name"):
            if x in out:
                out[x] = relabel[out[x]]
    return out, added


def gap_instance(row: dict, doc) -> tuple[dict | None, str | None, int]:
    """A GAP TSV row (validated, typed) and its spaCy Doc -> (instance, None, added) or
    (None, rejection reason, 0). ``added``: mentions found by :func:`complete_mentions`."""
    from pipeline.core.annotation_questions import trim_span
    from pipeline.core.cast import doc_mentions
    from pipeline.lang.names import group_persons

    text = row["Text"]
    p_off, p_text = row["Pronoun-offset"], row["Pronoun"]
    span = doc.char_span(p_off, p_off + len(p_text))
    if span is None or len(span) != 1 or span[0].text.lower() not in PRONOUNS:
        return None, REJECT_PRONOUN, 0
    ptok = span[0]
    g = PRONOUNS[ptok.text.lower()][0]
    mentions = doc_mentions(doc)        # the cast's sentence rules, as extract and gap_persons
    mentions = [m for m in mentions if not (m.start <= p_off < m.end)]
    persons, ok = group_persons(mentions)
    if not ok:
        return None, REJECT_AMBIGUOUS, 0
    if any(p.gender == UNGENDERED for p in persons):
        gendered = [p.gender for p in persons if p.gender != UNGENDERED]
        if gendered.count(g) == 2 and len(gendered) == 4:
            return None, REJECT_UNGENDERED_EXTRA, 0
        return None, REJECT_UNGENDERED, 0
    if len(persons) < 4:
        return None, REJECT_FEWER, 0
    if len(persons) > 4:
        return None, REJECT_MORE, 0
    if sum(p.gender == g for p in persons) != 2:
        return None, REJECT_SPLIT, 0
    cands = [p for p in persons if p.gender == g]
    others = [p for p in persons if p.gender != g]
    names = [{"role": role, "name": p.name, "gender": p.gender,
              "mentions": [{"start": m.start, "end": m.end, "text": m.text, "title": m.title} for m in p.mentions]}
             for role, p in zip(ROLES, cands + others)]
    toks = [t for t in doc if t.text.strip()]    # spaCy keeps runs of spaces as tokens
    index = {t.i: k for k, t in enumerate(toks)}
    inst = {
        "instance_id": "", "book_id": "", "title": "", "author": "", "text": text,
        "tokens": [t.text for t in toks], "token_starts": [t.idx for t in toks],
        "token_tags": [t.tag_ for t in toks], "token_deps": [t.dep_ for t in toks],
        "token_heads": [index.get(t.head.i, k) for k, t in enumerate(toks)],
        "token_ents": [f"{t.ent_iob_}-{t.ent_type_}" if t.ent_type_ else "O" for t in toks],
        "pronoun": ptok.text, "pronoun_offset": ptok.idx,
        "pronoun_token": next(k for k, t in enumerate(toks) if t.i == ptok.i),
        "pronoun_tag": ptok.tag_, "pronoun_gender": g, "names": names,
    }
    inst, added = complete_mentions(inst)

    def find(off: int, s: str):
        # the file's span trimmed of punctuation and a possessive, as the annotation's answer
        # checks trim a highlight (Counter-GAP writes "John Abdy's", "Colonel Brandon's")
        start, end = trim_span(text, off, off + len(s))
        if end <= start:
            return None, None
        for n in inst["names"]:
            for m in n["mentions"]:
                if m["start"] <= start and end <= m["end"]:
                    return n["role"], m
        return None, None

    ra, ma = find(row["A-offset"], row["A"])
    rb, mb = find(row["B-offset"], row["B"])
    if ra is None or rb is None:
        return None, REJECT_AB_MISSING, 0
    if ra == rb or ra not in ("C1", "C2") or rb not in ("C1", "C2"):
        return None, REJECT_AB_PERSONS, 0
    inst.update(pattern=positional_pattern(p_off, ma["start"], mb["start"]),
                a_name=ra, a=ma["text"], a_offset=ma["start"], b_name=rb, b=mb["text"], b_offset=mb["start"])
    return inst, None, added



def qualified_gap_instance(row: dict, doc) -> tuple[dict | None, str | None, int]:
    """:func:`gap_instance`, and the instance checked (:func:`check_instance`): what
    ``generate --gap-tsv`` keeps of a row. (instance, None, added) or (None, reason, 0)."""
    inst, reason, added = gap_instance(row, doc)
    if inst is None:
        return None, reason, 0
    try:
        check_instance(inst)
    except GenerateError:
        return None, REJECT_INCONSISTENT, 0
    return inst, None, added




# ------------------------------------------------------------- re-check of the variants ----
# After a quadruple is generated, each of its four texts goes through the same person detection
# again (the project's spaCy pipeline, person layer included) and the quadruple is dropped when
# one of them fails (docs/generate.md, "Re-check"). Reasons, in the order they are looked for:
RECHECK_NOT_PERSON = "a swapped name is not found as a person"
RECHECK_GENDER = "a name reads as the other gender"
RECHECK_NEW_PERSON = "a person that is none of the four appears"
RECHECK_WORD_KEPT = "a gendered word kept its gender"
RECHECK_REASONS = (RECHECK_NOT_PERSON, RECHECK_GENDER, RECHECK_NEW_PERSON, RECHECK_WORD_KEPT)


def _detected(doc) -> list:
    from pipeline.core.extract import person_mentions

    return person_mentions(doc)


def _found(spans: list[tuple[int, int]], s: int, e: int) -> list[int]:
    return [k for k, (a, b) in enumerate(spans) if a < e and s < b]


def _shift_of(edits: list[Edit]):
    """Original offset (outside every edit) -> offset in the edited text."""
    marks, deltas, delta = [], [], 0
    for ed in sorted(edits, key=lambda x: x.start):
        delta += len(ed.new) - (ed.end - ed.start)
        marks.append(ed.end)
        deltas.append(delta)

    def shift(x: int) -> int:
        k = bisect.bisect_right(marks, x) - 1
        return x + (deltas[k] if k >= 0 else 0)

    return shift


def recheck_row(row: dict, doc, found_before: set | None = None,
                known_forms: set | None = None) -> tuple[str | None, str, set, set]:
    """Person checks of one generated text (``row``: a QUADRUPLES row; ``doc``: its text
    through the whole pipeline). Returns (reason or None, the words concerned, the (slot,
    mention index) pairs found as persons, the written forms found as persons).

    A name mention that overlaps no detected person fails (:data:`RECHECK_NOT_PERSON`) only
    when the original's mention at that position was found (``found_before``; None for the
    original itself: no such failure) and its written form is not in ``known_forms`` (the
    forms found as persons at another person's positions somewhere in the quadruple), so a
    sentence-initial "Emma" that NER reads as ORG at one position is no failure, while a form
    the detection takes for a person only where the book had it ("ordination at Easter") is.
    A detected mention inside a name mention must have that person's gender, read as extract
    reads it (grouped with the text's other mentions: "Darcy" beside "Mr. Darcy")."""
    from pipeline.lang.names import group_persons

    det = _detected(doc)
    spans = [(m.start, m.end) for m in det]
    # each detected mention's gender as extract gives it: that of its person in this text
    # ("Darcy", feminine for gender-guesser, is masculine beside "Mr. Darcy")
    gender_of = {}
    for p in group_persons(det)[0]:
        for m in p.mentions:
            gender_of[id(m)] = p.gender
    used: set[int] = set()
    found: set = set()
    forms: set = set()
    reason, detail = None, ""
    for n in row["names"]:
        for k, m in enumerate(n["mentions"]):
            hits = _found(spans, m["start"], m["end"])
            used.update(hits)
            if hits:
                found.add((n["role"], k))
                forms.add(m["text"])
            elif (reason is None and found_before is not None and (n["role"], k) in found_before
                  and m["text"] not in (known_forms or set())):
                reason, detail = RECHECK_NOT_PERSON, m["text"]
            for h in hits:
                g = gender_of.get(id(det[h]), det[h].gender)
                inside = m["start"] <= det[h].start and det[h].end <= m["end"]
                if reason is None and inside and g in (MASCULINE, FEMININE) and g != n["gender"]:
                    reason, detail = RECHECK_GENDER, f"{det[h].text} ({g})"
    if reason is None:
        extra = [det[k].text for k in range(len(det)) if k not in used]
        if extra:
            reason, detail = RECHECK_NEW_PERSON, extra[0]
    return reason, detail, found, forms


def kept_gendered_word(inst: dict, row: dict, edits: list[Edit], doc, words: gw.WordList | None = None) -> str | None:
    """In a gender-swapped text (``row``, made from ``inst`` by ``edits``; ``doc`` its parse),
    a gendered word outside the four persons' names that the variant's own parse would flip but
    that stands unchanged from the original ("her" left as "her"), else None. Words inside a
    non-person entity of the variant ("Prince Edward Island") are kept by rule."""
    words = words or gw.builtin()
    shift = _shift_of(edits)
    edited = [(ed.start, ed.end) for ed in edits]
    names = sorted((m["start"], m["end"]) for n in inst["names"] for m in n["mentions"])
    at = {t.idx: t for t in doc}
    for tok, s in zip(inst["tokens"], inst["token_starts"]):
        e = s + len(tok)
        if not words.is_listed(tok) or _found(edited, s, e) or _found(names, s, e):
            continue
        t = at.get(shift(s))
        if t is None or t.text != tok:
            continue
        if words.category_of(tok) != gw.PRONOUN and t.ent_type_ in _KEEP_ENTS:
            continue
        new = words.flip(tok, gw.pronoun_tag(tok, t.tag_, t.dep_))
        if new is not None and new != tok:
            return tok
    return None


def recheck_quadruple(inst: dict, rows: list[dict], edits: dict[str, list[Edit]], docs: list,
                      words: gw.WordList | None = None) -> tuple[str | None, str, str]:
    """Re-check a generated quadruple: ``rows`` its four QUADRUPLES rows (original, control,
    swap-1, swap-2), ``docs`` their texts through the same spaCy pipeline (person layer
    included), ``edits`` the edits of each variant (:func:`quadruple`). Every variant must
    show: each name mention of the four persons found as a person (unless the original's
    mention was not found either, or the same written form is found as a person at another
    person's positions in the quadruple: see :func:`recheck_row`), none with the other gender, no person outside the four
    persons' mentions, and (swaps) no gendered word left unflipped. Returns (reason, variant,
    detail) of the first failure, or (None, "", "")."""
    by_variant = dict(zip(VARIANTS, zip(rows, docs)))
    row0, doc0 = by_variant["original"]
    reason, detail, found0, _ = recheck_row(row0, doc0)
    if reason is not None:
        return reason, "original", detail
    known: set = set()
    for v in VARIANTS[1:]:
        known |= recheck_row(*by_variant[v])[3]
    for v in VARIANTS[1:]:
        row, doc = by_variant[v]
        reason, detail, _, _ = recheck_row(row, doc, found0, known)
        if reason is None and FLIPS_WORDS[v]:
            word = kept_gendered_word(inst, row, edits[v], doc, words)
            if word is not None:
                reason, detail = RECHECK_WORD_KEPT, word
        if reason is not None:
            return reason, v, detail
    return None, "", ""


# ------------------------------------------------------ evaluation variant without periods --

def _title_period_re() -> re.Pattern:
    from pipeline.lang.names import titles

    words = sorted((t for t in titles() if len(t) > 1), key=len, reverse=True)
    alternation = "|".join(re.escape(w[:1].upper() + w[1:]) for w in words)
    # a title of two letters or more, capitalised, its period, then white space and a word
    return re.compile(r"(?<![\w.])(?:" + alternation + r")(\.)(?=\s+\S)")


def strip_title_periods(text: str, spans: list[tuple[int, int]] = ()) -> tuple[str, list[tuple[int, int]]]:
    """The evaluation variant Counter-GAP scored: the period after a title removed ("Mr" for
    "Mr.", "Mrs" for "Mrs."), for every title of ``resources/titles.tsv`` of two letters or
    more, written with a capital and followed by a word. Returns the new text and each
    (start, end) span of ``spans`` moved onto it (a removed period inside a span shortens it)."""
    cuts = [m.start(1) for m in _title_period_re().finditer(text)]
    if not cuts:
        return text, list(spans)
    out, pos = [], 0
    for c in cuts:
        out.append(text[pos:c])
        pos = c + 1
    out.append(text[pos:])

    def shift(x: int) -> int:
        return x - bisect.bisect_left(cuts, x)

    return "".join(out), [(shift(s), shift(e)) for s, e in spans]


def strip_title_periods_row(row: dict) -> dict:
    """A QUADRUPLES row (text, pronoun/a/b with offsets, names with mentions) in the variant
    without title periods, every offset and string recomputed and checked."""
    keys = [("pronoun", "pronoun_offset"), ("a", "a_offset"), ("b", "b_offset")]
    spans = [(row[o], row[o] + len(row[k])) for k, o in keys]
    mentions = [m for n in row.get("names") or [] for m in n["mentions"]]
    spans += [(m["start"], m["end"]) for m in mentions]
    text, moved = strip_title_periods(row["text"], spans)
    out = {**row, "text": text}
    for (k, o), (s, e) in zip(keys, moved[:3]):
        out[k], out[o] = text[s:e], s
    names = []
    it = iter(moved[3:])
    for n in row.get("names") or []:
        ms = []
        for m in n["mentions"]:
            s, e = next(it)
            title = m.get("title") or ""
            if title.endswith(".") and not text[s:e].startswith(title):
                title = title[:-1]
            ms.append({**m, "start": s, "end": e, "text": text[s:e], "title": title})
        names.append({**n, "mentions": ms})
    if "names" in row:
        out["names"] = names
    check_offsets({**out, "id": row.get("id", ""), "names": names})
    return out


def strip_title_periods_gap(row: dict) -> dict:
    """A GAP TSV row (Text, Pronoun, A, B and their offsets) without title periods."""
    keys = [("Pronoun", "Pronoun-offset"), ("A", "A-offset"), ("B", "B-offset")]
    spans = [(int(row[o]), int(row[o]) + len(row[k])) for k, o in keys]
    text, moved = strip_title_periods(row["Text"], spans)
    out = {**row, "Text": text}
    for (k, o), (s, e) in zip(keys, moved):
        out[k], out[o] = text[s:e], s
    return out
