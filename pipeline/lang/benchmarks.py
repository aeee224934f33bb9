"""The English pro/anti-stereotype benchmarks as distributed, read into the one benchmark layout.

Loaders (each returns a list of item dicts with the columns of
:data:`pipeline.formats.schemas.BENCHMARK`; ``category``, ``stereotype`` and
``maze_eligible`` are left ``None`` for :mod:`pipeline.core.benchmark_stereotypes` to fill):

* :func:`load_winobias` -- WinoBias as distributed: ``{pro,anti}_stereotyped_type{1,2}.txt.{dev,test}``
  (numbered lines, the antecedent and the pronoun in brackets) with ``male_occupations.txt`` and
  ``female_occupations.txt`` beside them. The main entity is the bracketed mention, the other
  entity the other occupation of the sentence; stereotypes from the two lists.
* :func:`load_winogender` -- ``all_sentences.tsv`` (sentid ``occupation.participant.answer.gender.txt``),
  ``templates.tsv`` (checked: every sentence's template exists) and ``occupations-stats.tsv``
  (``bls_pct_female``: an occupation's stereotype, see :func:`stereotype_from_share`).
  ``answer`` 0: the pronoun refers to the occupation, 1: to the participant ("the customer",
  "someone"), whose stereotype is neutral (the template file's columns are ``occupation(0)``
  and ``other-participant(1)``).
* :func:`load_bug` -- BUG's CSV (``sentence_text, profession, g, g_first_index,
  profession_first_index, stereotype, corpus, data_index, distance, num_of_pronouns``; indices
  are token indices in the space-separated sentence; stereotype 1 pro / -1 anti / 0 neutral;
  UTF-8 or Latin-1). BUG names no other entity.
* :func:`load_cog_wino`, :func:`load_cog_bug` -- the sentence lists released by "Comparing
  Humans and Models on a Similar Scale": its WinoBias + Winogender list (tab-separated, a
  pandas index column first; the category is its own ``type``) and its BUG list (BUG's columns
  plus ``uid``, ``predicted gender``, ``correct``); comma or tab separated;
* :func:`load_sowinobias` -- the project's SoWinoBias Parquet (``python -m pipeline sowinobias``,
  schema ``SOWINOBIAS``): the pronoun is "they"; the main entity is ``b`` (the referent).

The benchmark file itself (Parquet + GAP-style TSV) is read and written by
:mod:`pipeline.formats.benchmarks`.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.vocab`,
:mod:`pipeline.lang.pronouns`, :mod:`pipeline.formats` (tables, schemas).
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

from pipeline.errors import InputError
from pipeline.lang.pronouns import PRONOUNS, REFLEXIVES
from pipeline.vocab import FEMININE, MASCULINE, NEUTRAL

SOURCES = ("winobias", "winogender", "bug", "sowinobias", "cog-wino", "cog-bug")
# the fine-grained categories an item can have (as pipeline.core.benchmark_stereotypes.FINE_CATEGORIES)
FINE_TYPES = tuple(f"{m}-{o}" for m in ("pro", "anti", "neutral") for o in ("pro", "anti", "neutral")) + ("pronoun-neutral",)
WINOBIAS_RE = re.compile(r"^(?P<set>pro|anti)_stereotyped_type(?P<type>[12])\.txt\.(?P<split>dev|test)$")
BUG_COLUMNS = ["sentence_text", "profession", "g", "g_first_index", "profession_first_index",
               "stereotype"]
NEUTRAL_PRONOUNS = {"they", "them", "their", "theirs", "themselves", "themself"}


def pronoun_gender(word: str) -> str | None:
    w = word.lower()
    if w in PRONOUNS:
        return PRONOUNS[w][0]
    if w in REFLEXIVES:
        return REFLEXIVES[w]
    if w in NEUTRAL_PRONOUNS:
        return NEUTRAL
    return None


# Winogender: an occupation is neutral when its BLS share of women is within this many
# percentage points of 50 (strictly). 7 gives the six neutral occupations (investigator,
# salesperson, appraiser, administrator, broker, dispatcher) that reproduce the paper's
# category counts (neutral-neutral 48 = 6 occupations x 2 participants x 2 genders x 2 answers).
NEUTRAL_BAND = 7.0


def stereotype_from_share(pct_female: float, band: float = NEUTRAL_BAND) -> str:
    """An occupation's stereotype from its share of women (percent)."""
    if abs(pct_female - 50.0) < band:
        return NEUTRAL
    return FEMININE if pct_female > 50.0 else MASCULINE


def tokens_of(text: str) -> list[str]:
    return text.split()


def _item(**kw) -> dict:
    base = {k: None for k in ("id", "source", "split", "text", "tokens", "pronoun", "pronoun_start",
                              "pronoun_end", "pronoun_gender", "main_entity", "main_start",
                              "main_end", "main_occupation", "other_entity", "other_start",
                              "other_end", "other_occupation", "main_stereotype",
                              "other_stereotype", "category", "stereotype", "maze_eligible")}
    base.update(kw)
    if base["tokens"] is None:
        base["tokens"] = tokens_of(base["text"])
    return base


def _read_text(path: Path) -> str:
    if not path.exists():
        raise InputError("file not found", path)
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _with_determiner(text: str, start: int) -> int:
    """Extend a span start leftwards over a preceding determiner ("the developer")."""
    m = re.search(r"(?:^|\s)(the|a|an)\s+$", text[:start], flags=re.IGNORECASE)
    return m.start(1) if m else start


# ------------------------------------------------------------------------------ WinoBias

def read_occupation_list(path: Path) -> list[str]:
    words = [line.strip() for line in _read_text(path).splitlines() if line.strip()]
    if not words:
        raise InputError("empty occupation list", path)
    return words


def _occupation_pattern(occupations: list[str]) -> re.Pattern:
    alts = sorted(occupations, key=len, reverse=True)          # "construction worker" first
    return re.compile(r"\b(" + "|".join(re.escape(o) for o in alts) + r")s?\b", re.IGNORECASE)


def _winobias_files(path: Path) -> list[Path]:
    if path.is_file():
        if not WINOBIAS_RE.match(path.name):
            raise InputError("not a WinoBias file (expected {pro,anti}_stereotyped_type{1,2}.txt.{dev,test})", path)
        return [path]
    if not path.is_dir():
        raise InputError("file not found", path)
    files = sorted(p for p in path.iterdir() if WINOBIAS_RE.match(p.name))
    if not files:
        raise InputError("no WinoBias files ({pro,anti}_stereotyped_type{1,2}.txt.{dev,test}) here", path)
    names = {p.name for p in files}
    if any(n.startswith("pro_") for n in names) and any(n.startswith("anti_") for n in names):
        for p in files:
            # pro and anti come in pairs (a type and a split): the bias is their difference, so a
            # folder holding both kinds must hold each file's partner (a folder of one kind only,
            # a subset made on purpose, is read as it is)
            other = ("anti" + p.name[3:]) if p.name.startswith("pro_") else ("pro" + p.name[4:])
            if other not in names:
                raise InputError(f"{other} is missing: WinoBias scores {p.name} against it", path)
    return files


def parse_winobias_line(line: str, path, lineno: int, occ_re: re.Pattern,
                        stereotypes: dict[str, str]) -> dict:
    """One numbered, bracketed WinoBias line as an item (without id/source/split)."""
    m = re.match(r"^\s*(\d+)\s+(.*\S)\s*$", line)
    if not m:
        raise InputError("expected a numbered sentence ('1 [The developer] argued ...')", path, lineno)
    number, raw = int(m.group(1)), m.group(2)
    text, spans, pos = [], [], 0
    for b in re.finditer(r"\[([^\[\]]*)\]", raw):
        text.append(raw[pos:b.start()])
        start = sum(len(t) for t in text)
        text.append(b.group(1))
        spans.append((start, start + len(b.group(1)), b.group(1)))
        pos = b.end()
    text.append(raw[pos:])
    text = "".join(text)
    if "[" in text or "]" in text or len(spans) < 2:
        raise InputError(f"expected two bracketed mentions, found {len(spans)}", path, lineno)
    # the entity and its pronoun; some lines bracket a second pronoun of the same chain
    # ("because [she] needed to cut [her] hair"): the first one is the item's pronoun
    pron = [s for s in spans if pronoun_gender(s[2].strip()) is not None]
    ents = [s for s in spans if pronoun_gender(s[2].strip()) is None]
    if len(pron) < 1 or len(ents) != 1:
        raise InputError("expected one bracketed entity and a bracketed pronoun", path, lineno)
    (ps, pe, pw), (ms, me, mw) = pron[0], ents[0]
    om = occ_re.search(mw)
    if om is None:
        raise InputError(f"the bracketed entity {mw!r} holds no occupation of the lists", path, lineno)
    main_occ = om.group(1).lower()
    other = None
    for o in occ_re.finditer(text):
        if o.start() < me and ms < o.end():
            continue
        if o.start() < pe and ps < o.end():
            continue
        other = o
        break
    item = dict(number=number, text=text, pronoun=pw, pronoun_start=ps, pronoun_end=pe,
                pronoun_gender=pronoun_gender(pw.strip()), main_entity=mw, main_start=ms,
                main_end=me, main_occupation=main_occ,
                main_stereotype=stereotypes.get(main_occ))
    if other is not None:
        os_ = _with_determiner(text, other.start())
        occ = other.group(1).lower()
        item.update(other_entity=text[os_:other.end()], other_start=os_, other_end=other.end(),
                    other_occupation=occ, other_stereotype=stereotypes.get(occ))
    return item


def winobias_list_stereotypes(path: str | os.PathLike) -> dict[str, str]:
    """occupation (lower case) -> masculine / feminine, from the two lists of a WinoBias
    directory (or beside one of its files)."""
    path = Path(path)
    base = path if path.is_dir() else path.parent
    out = {o.lower(): MASCULINE for o in read_occupation_list(base / "male_occupations.txt")}
    out.update({o.lower(): FEMININE for o in read_occupation_list(base / "female_occupations.txt")})
    return out


def load_winobias(path: str | os.PathLike, male_list: str | os.PathLike | None = None,
                  female_list: str | os.PathLike | None = None) -> list[dict]:
    """WinoBias items from a directory as distributed (or one of its eight files)."""
    path = Path(path)
    files = _winobias_files(path)
    base = path if path.is_dir() else path.parent
    male = read_occupation_list(Path(male_list) if male_list else base / "male_occupations.txt")
    female = read_occupation_list(Path(female_list) if female_list else base / "female_occupations.txt")
    stereotypes = {o.lower(): MASCULINE for o in male}
    stereotypes.update({o.lower(): FEMININE for o in female})
    occ_re = _occupation_pattern(male + female)
    items = []
    for f in files:
        meta = WINOBIAS_RE.match(f.name)
        for lineno, line in enumerate(_read_text(f).splitlines(), start=1):
            if not line.strip():
                continue
            it = parse_winobias_line(line, f, lineno, occ_re, stereotypes)
            number = it.pop("number")
            items.append(_item(id=f"winobias-{meta['set']}-type{meta['type']}-{meta['split']}-{number:04d}",
                               source="winobias", split=meta["split"], **it))
    return items


# ------------------------------------------------------------------------------ Winogender

def _read_tsv(path: Path, required: list[str]) -> list[tuple[int, dict]]:
    text = _read_text(path)
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = reader.fieldnames or []
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(f"not this layout: missing column(s) {', '.join(missing)}", path, 1)
    return [(reader.line_num, row) for row in reader]


def _find_word(text: str, word: str, start: int = 0) -> re.Match | None:
    return re.compile(r"\b" + re.escape(word) + r"\b", re.IGNORECASE).search(text, start)


def load_winogender(path: str | os.PathLike) -> list[dict]:
    """Winogender items from the directory as distributed."""
    d = Path(path)
    if d.is_file():
        d = d.parent
    if not (d / "all_sentences.tsv").exists():
        raise InputError("no all_sentences.tsv here (a Winogender directory holds all_sentences.tsv, "
                         "templates.tsv, occupations-stats.tsv)", d)
    stats_path = d / "occupations-stats.tsv"
    shares = {}
    for line, r in _read_tsv(stats_path, ["occupation", "bls_pct_female"]):
        try:
            shares[r["occupation"].strip().lower()] = float(r["bls_pct_female"])
        except (TypeError, ValueError):
            raise InputError(f"bls_pct_female must be a number, got {r['bls_pct_female']!r}",
                             stats_path, line) from None
    tpl_path = d / "templates.tsv"
    templates = set()
    for line, r in _read_tsv(tpl_path, ["occupation(0)", "other-participant(1)", "answer", "sentence"]):
        templates.add((r["occupation(0)"].strip().lower(), r["other-participant(1)"].strip().lower(),
                       r["answer"].strip()))

    sent_path = d / "all_sentences.tsv"
    items = []
    for line, r in _read_tsv(sent_path, ["sentid", "sentence"]):
        parts = (r["sentid"] or "").strip().split(".")
        if len(parts) != 5 or parts[2] not in ("0", "1") or parts[3] not in ("male", "female", "neutral"):
            raise InputError(f"sentid {r['sentid']!r} is not occupation.participant.answer.gender.txt",
                             sent_path, line)
        occ, part, answer, gender = parts[0].lower(), parts[1].lower(), parts[2], parts[3]
        if occ not in shares:
            raise InputError(f"occupation {occ!r} is not in occupations-stats.tsv", sent_path, line)
        if (occ, part, answer) not in templates and (occ, answer) not in {(t[0], t[2]) for t in templates}:
            raise InputError(f"no template for {occ}/{part}/answer {answer}", sent_path, line)
        text = r["sentence"].strip()
        g = {"male": MASCULINE, "female": FEMININE, "neutral": NEUTRAL}[gender]
        pron = next((m for m in re.finditer(r"\b\w+\b", text) if pronoun_gender(m.group()) == g), None)
        o = _find_word(text, occ)
        p = _find_word(text, part)
        if pron is None or o is None or p is None:
            raise InputError("cannot find the pronoun, the occupation and the participant in the sentence",
                             sent_path, line)
        o_span = (_with_determiner(text, o.start()), o.end())
        p_span = (_with_determiner(text, p.start()), p.end())
        occ_st = stereotype_from_share(shares[occ])
        ent = {"occ": (o_span, occ, occ_st), "part": (p_span, part, NEUTRAL)}
        # templates.tsv names its columns "occupation(0)" and "other-participant(1)": answer 0
        # is the occupation ("The technician told the customer that he had completed the
        # repair"), answer 1 the participant ("... that he could pay with cash")
        main, other = (ent["occ"], ent["part"]) if answer == "0" else (ent["part"], ent["occ"])
        items.append(_item(
            id=f"winogender-{occ}-{part}-{answer}-{gender}", source="winogender", split="all",
            text=text, pronoun=pron.group(), pronoun_start=pron.start(), pronoun_end=pron.end(),
            pronoun_gender=g,
            main_entity=text[main[0][0]:main[0][1]], main_start=main[0][0], main_end=main[0][1],
            main_occupation=main[1], main_stereotype=main[2],
            other_entity=text[other[0][0]:other[0][1]], other_start=other[0][0],
            other_end=other[0][1], other_occupation=other[1], other_stereotype=other[2]))
    if not items:
        raise InputError("no sentences", sent_path)
    return items


# ------------------------------------------------------------------------------ BUG

def _read_table_rows(path: Path, required: list[str], what: str) -> tuple[list[str], list[tuple[int, dict]]]:
    """Header and (line, row) pairs of a comma- or tab-separated file (the first line decides;
    a nameless first column -- a pandas index -- is called ``_index``)."""
    text = _read_text(path)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if first.count("\t") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InputError("empty file", path) from None
    if header and header[0] in ("", "Unnamed: 0"):
        header[0] = "_index"
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(f"not {what}: missing column(s) {', '.join(missing)}", path, 1)
    rows = []
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise InputError(f"{len(cells)} cells, the header has {len(header)}", path, reader.line_num)
            rows.append((reader.line_num, dict(zip(header, cells))))
    except csv.Error as exc:
        raise InputError(f"not a {'TSV' if delimiter == chr(9) else 'CSV'} row ({exc})", path,
                         reader.line_num) from None
    if not rows:
        raise InputError("no rows", path)
    return header, rows


def _bug_item(r: dict, path, line: int, item_id: str, source: str) -> dict:
    sentence = (r["sentence_text"] or "").strip()
    tokens = sentence.split(" ")
    try:
        gi, pi = int(float(r["g_first_index"])), int(float(r["profession_first_index"]))
        st = int(float(r["stereotype"]))
    except (TypeError, ValueError):
        raise InputError("g_first_index, profession_first_index and stereotype must be integers",
                         path, line) from None
    if st not in (1, -1, 0):
        raise InputError(f"stereotype must be 1, -1 or 0, got {r['stereotype']!r}", path, line)
    if not (0 <= gi < len(tokens) and 0 <= pi < len(tokens)):
        raise InputError(f"token index outside the sentence's {len(tokens)} tokens", path, line)
    starts, pos = [], 0
    for t in tokens:
        starts.append(pos)
        pos += len(t) + 1
    pw = tokens[gi]
    g = pronoun_gender(re.sub(r"\W+$", "", pw) or pw)
    if g is None:
        raise InputError(f"token {gi} ({pw!r}) is not a pronoun", path, line)
    profession = (r["profession"] or "").strip()
    n_words = max(1, len(profession.split()))
    last = min(pi + n_words, len(tokens)) - 1
    pe = starts[last] + len(tokens[last])
    ms = _with_determiner(sentence, starts[pi])
    main_st = {1: g, -1: {MASCULINE: FEMININE, FEMININE: MASCULINE}.get(g, NEUTRAL), 0: NEUTRAL}[st]
    return _item(
        id=item_id, source=source, split="all",
        text=sentence, tokens=tokens, pronoun=pw, pronoun_start=starts[gi],
        pronoun_end=starts[gi] + len(re.sub(r"\W+$", "", pw) or pw), pronoun_gender=g,
        main_entity=sentence[ms:pe], main_start=ms, main_end=pe,
        main_occupation=profession.lower(), main_stereotype=main_st)


def load_bug(path: str | os.PathLike) -> list[dict]:
    """BUG items from its CSV (UTF-8 or Latin-1; comma- or tab-separated)."""
    path = Path(path)
    _, rows = _read_table_rows(path, BUG_COLUMNS, "a BUG file")
    items = []
    for line, r in rows:
        key = (r.get("data_index") or "").strip() or str(line - 1)
        corpus = (r.get("corpus") or "").strip()
        items.append(_bug_item(r, path, line, f"bug-{corpus + '-' if corpus else ''}{key}", "bug"))
    ids = [it["id"] for it in items]
    if len(set(ids)) != len(ids):
        for i, it in enumerate(items):
            it["id"] = f"bug-{i + 1:06d}"
    return items


# ------------------------------------------------------------------------------ the study's lists

# "Comparing Humans and Models on a Similar Scale" released the sentences it used: a tab-separated
# list of its WinoBias + Winogender part (a pandas index column first) and a BUG part.
COG_WINO_COLUMNS = ["main_entity_occupation", "main_entity_index", "gender",
                    "other_entity_occupation", "other_entity_index", "pronoun", "sentence", "type"]
COG_BUG_COLUMNS = ["uid"] + BUG_COLUMNS
_ABSENT = {"", "nan", "none", "null", "-"}


def _cell(r: dict, column: str) -> str:
    v = (r.get(column) or "").strip()
    return "" if v.lower() in _ABSENT else v


def _entity_span(text: str, occupation: str, index: str, path, line: int, column: str) -> tuple[int, int]:
    """Character span of an entity of the study's list: ``index`` is a token index of the
    space-separated sentence (or, failing that, a character offset); the occupation's words
    must be there. Without a usable index, the occupation's first occurrence."""
    words = occupation.split()
    word_re = re.compile(r"\b" + r"\s+".join(re.escape(w) for w in words) + r"\b", re.IGNORECASE)
    starts = [m.start() for m in re.finditer(r"\S+", text)]
    try:
        i = int(float(index))
    except (TypeError, ValueError):
        i = None
    candidates = []
    if i is not None:
        if 0 <= i < len(starts):
            candidates.append(starts[i])
        if 0 <= i < len(text):
            candidates.append(i)
    for c in candidates:
        m = word_re.match(text, c)
        if m:
            return m.start(), m.end()
    m = word_re.search(text)
    if m is None:
        raise InputError(f"{column} {occupation!r} is not in the sentence", path, line)
    return m.start(), m.end()


def load_cog_wino(path: str | os.PathLike) -> list[dict]:
    """The study's WinoBias + Winogender sentence list (see docs/benchmarks.md). The category
    is the list's own ``type``; the entities' stereotypes are what that type says of them."""
    path = Path(path)
    header, rows = _read_table_rows(path, COG_WINO_COLUMNS, "the study's Wino sentence list")
    genders = {"male": MASCULINE, "female": FEMININE, "neutral": NEUTRAL, "masculine": MASCULINE,
               "feminine": FEMININE}
    opposite = {MASCULINE: FEMININE, FEMININE: MASCULINE}
    items, seen = [], set()
    for line, r in rows:
        text = (r["sentence"] or "").strip()
        if not text:
            raise InputError("sentence is empty", path, line)
        fine = re.sub(r"[\s_]+", "-", _cell(r, "type").lower())
        if fine not in FINE_TYPES:
            raise InputError(f"type must be one of {', '.join(FINE_TYPES)}, got {r['type']!r}", path, line)
        g = genders.get(_cell(r, "gender").lower())
        pw = _cell(r, "pronoun")
        pm = re.search(r"\b" + re.escape(pw) + r"\b", text, re.IGNORECASE) if pw else None
        if pm is None:
            raise InputError(f"pronoun {pw!r} is not in the sentence", path, line)
        if g is None:
            g = pronoun_gender(pw)
            if g is None:
                raise InputError(f"gender must be male, female or neutral, got {r['gender']!r}", path, line)
        if (g == NEUTRAL) != (fine == "pronoun-neutral"):
            raise InputError(f"type {fine} does not fit the pronoun {pw!r} ({g})", path, line)
        main_occ = _cell(r, "main_entity_occupation")
        if not main_occ:
            raise InputError("main_entity_occupation is empty", path, line)
        ms, me = _entity_span(text, main_occ, r["main_entity_index"], path, line, "main_entity_occupation")
        ms = _with_determiner(text, ms)
        other_occ = _cell(r, "other_entity_occupation")
        other = None
        if other_occ:
            os_, oe = _entity_span(text, other_occ, r["other_entity_index"], path, line,
                                   "other_entity_occupation")
            other = (_with_determiner(text, os_), oe)

        def stereo(rel: str) -> str | None:
            if fine == "pronoun-neutral" or g == NEUTRAL:
                return None
            return {"pro": g, "anti": opposite[g], "neutral": NEUTRAL}[rel]

        main_rel, _, other_rel = fine.partition("-") if fine != "pronoun-neutral" else ("", "", "")
        key = _cell(r, "_index") if "_index" in header else str(line - 1)
        item_id = f"cog-wino-{key}"
        if item_id in seen:
            raise InputError(f"index {key!r} given twice", path, line)
        seen.add(item_id)
        items.append(_item(
            id=item_id, source="cog-wino", split="all", text=text, pronoun=pm.group(),
            pronoun_start=pm.start(), pronoun_end=pm.end(), pronoun_gender=g,
            main_entity=text[ms:me], main_start=ms, main_end=me, main_occupation=main_occ.lower(),
            main_stereotype=stereo(main_rel),
            other_entity=None if other is None else text[other[0]:other[1]],
            other_start=None if other is None else other[0], other_end=None if other is None else other[1],
            other_occupation=other_occ.lower() or None,
            other_stereotype=None if other is None else stereo(other_rel),
            category=fine))
    return items


def load_cog_bug(path: str | os.PathLike) -> list[dict]:
    """The study's BUG part: BUG's columns with a ``uid`` (the item id ``cog-bug-<uid>``)."""
    path = Path(path)
    _, rows = _read_table_rows(path, COG_BUG_COLUMNS, "the study's BUG list")
    items, seen = [], set()
    for line, r in rows:
        uid = _cell(r, "uid")
        if not uid:
            raise InputError("uid is empty", path, line)
        if uid in seen:
            raise InputError(f"uid {uid!r} given twice", path, line)
        seen.add(uid)
        items.append(_bug_item(r, path, line, f"cog-bug-{uid}", "cog-bug"))
    return items


# ------------------------------------------------------------------------------ SoWinoBias

def load_sowinobias(path: str | os.PathLike) -> list[dict]:
    """Items from the project's SoWinoBias Parquet. The coarse label is its ``set``."""
    from pipeline.formats.schemas import SOWINOBIAS
    from pipeline.formats.tables import read_table

    path = Path(path)
    table = read_table(path)
    missing = [c for c in SOWINOBIAS.names if c not in table.column_names]
    if missing:
        raise InputError(f"not a SoWinoBias table: missing column(s) {', '.join(missing)}", path)
    gender = {"male": MASCULINE, "female": FEMININE}
    items = []
    for i, r in enumerate(table.to_pylist(), start=1):
        text = r["text"]
        ps, bs, as_ = r["pronoun_offset"], r["b_offset"], r["a_offset"]
        if text[ps:ps + len(r["pronoun"])] != r["pronoun"] or text[bs:bs + len(r["b"])] != r["b"]:
            raise InputError("offsets do not point at the pronoun and b", path, i)
        mstart, ostart = _with_determiner(text, bs), _with_determiner(text, as_)
        items.append(_item(
            id=r["id"], source="sowinobias", split="all", text=text, pronoun=r["pronoun"],
            pronoun_start=ps, pronoun_end=ps + len(r["pronoun"]), pronoun_gender=NEUTRAL,
            main_entity=text[mstart:bs + len(r["b"])], main_start=mstart, main_end=bs + len(r["b"]),
            main_occupation=r["b"].lower(), main_stereotype=gender.get(r["b_stereotype"], NEUTRAL),
            other_entity=text[ostart:as_ + len(r["a"])], other_start=ostart,
            other_end=as_ + len(r["a"]), other_occupation=r["a"].lower(),
            other_stereotype=gender.get(r["a_stereotype"], NEUTRAL),
            stereotype=r["set"]))
    return items


LOADERS = {"winobias": load_winobias, "winogender": load_winogender, "bug": load_bug,
           "sowinobias": load_sowinobias, "cog-wino": load_cog_wino, "cog-bug": load_cog_bug}


def load_source(source: str, path: str | os.PathLike) -> list[dict]:
    if source not in LOADERS:
        raise InputError(f"unknown benchmark source {source!r} (known: {', '.join(SOURCES)})")
    return LOADERS[source](path)


