"""The instance: built in one place, checked, and its name mentions completed (pure).

An instance (:class:`pipeline.formats.records.Instance`, a row of ``instances.parquet``) is an
original context with its pronoun and four persons. :func:`build_instance` is the one place it
is made, from a spaCy context (extract, :mod:`pipeline.core.extract`) or a GAP row
(:mod:`pipeline.core.gap_rows`); :func:`complete_mentions` adds the mentions of the four persons
that NER missed, and :func:`completed` keeps the completed instance when it still passes
:func:`check_instance` -- extract completes its own instances, so ``generate`` takes them as
they are.

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.lang`,
:mod:`pipeline.formats.records` (the typed record). Works on spaCy tokens passed in; never
loads a pipeline or touches a file.
"""

from __future__ import annotations

import re
from typing import Callable

from pipeline.formats.records import Instance
from pipeline.lang.pronouns import FEMININE, MASCULINE, PRONOUNS, opposite
from pipeline.vocab import ROLES


class GenerateError(ValueError):
    """A generated or input record is inconsistent (a guard on what is written)."""


# ----------------------------------------------------------------------------- checks ------

REQUIRED_FIELDS = ("text", "tokens", "token_starts", "token_tags", "pronoun", "pronoun_offset",
             "pronoun_token", "pronoun_gender", "pattern", "names", "a_name", "a", "a_offset",
             "b_name", "b", "b_offset")


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


# ----------------------------------------------------------------------- completion -----

def split_title(mention: dict) -> tuple[str, str]:
    """(title, name part) of a mention; the title is the mention's leading title token."""
    text, title = mention["text"], mention.get("title") or ""
    if title and text.startswith(title) and len(text) > len(title):
        return title, text[len(title):].lstrip()
    return "", text


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


_MODIFIER_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?)\s+$")


def complete_mentions(inst: dict) -> tuple[dict, int]:
    """Add the name mentions NER missed (a copy of ``inst`` and how many were added).

    Searches whole-word, case-sensitive occurrences of each person's name forms (as written,
    without title, plus the first and last token of a name of several tokens). An occurrence
    becomes a mention when the form belongs to one person only, its tokens are tagged as proper
    nouns (NNP/NNPS), follows no article ("the Harrison place"), and it overlaps no mention,
    the pronoun, or another entity, except an
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
        forms = {split_title(m)[1] for m in n["mentions"]}
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
            if _MODIFIER_BEFORE.search(text, max(0, s - 6), s):
                continue                # "the Harrison place": the name of a thing, no mention
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
            if out.get(x) in relabel:       # None: A or B is not one of the four (a GAP row)
                out[x] = relabel[out[x]]
    return out, added


# ---------------------------------------------------------------------------- building -----

def build_instance(*, text: str, toks: list, start_of: Callable, pron, pronoun_gender: str, names: list[dict],
                   instance_id: str = "", book_id: str = "", title: str = "", author: str = "",
                   book_start: int | None = None, sentence_starts: list[int] | None = None,
                   sentence_ends: list[int] | None = None, pattern: str | None = None,
                   a_name: str | None = None, a: str | None = None, a_offset: int | None = None,
                   b_name: str | None = None, b: str | None = None, b_offset: int | None = None,
                   model: str | None = None, model_version: str | None = None,
                   spacy_version: str | None = None) -> dict:
    """The instance record of a context: ``toks`` its spaCy tokens (no whitespace token),
    ``start_of(token)`` a token's offset in ``text``, ``pron`` the pronoun's token. The token
    fields (text, offset, tag, dependency, head as an index into ``toks``, IOB entity) are read
    off the tokens here, the same way for every source."""
    index = {t.i: k for k, t in enumerate(toks)}
    return Instance(
        instance_id=instance_id, book_id=book_id, title=title, author=author, text=text,
        book_start=book_start, sentence_starts=sentence_starts, sentence_ends=sentence_ends,
        tokens=[t.text for t in toks], token_starts=[start_of(t) for t in toks],
        token_tags=[t.tag_ for t in toks], token_deps=[t.dep_ for t in toks],
        token_heads=[index.get(t.head.i, k) for k, t in enumerate(toks)],
        token_ents=[f"{t.ent_iob_}-{t.ent_type_}" if t.ent_type_ else "O" for t in toks],
        pronoun=pron.text, pronoun_offset=start_of(pron), pronoun_token=index[pron.i], pronoun_tag=pron.tag_,
        pronoun_gender=pronoun_gender, pattern=pattern, names=names,
        a_name=a_name, a=a, a_offset=a_offset, b_name=b_name, b=b, b_offset=b_offset,
        model=model, model_version=model_version, spacy_version=spacy_version,
    ).as_dict()


def completed(inst: dict) -> tuple[dict, int]:
    """``inst`` with the mentions NER missed (:func:`complete_mentions`) and how many were
    added, when the completed instance passes :func:`check_instance`; else ``inst`` as it was
    and 0."""
    done, added = complete_mentions(inst)
    try:
        check_instance(done)
    except GenerateError:
        return inst, 0
    return done, added
