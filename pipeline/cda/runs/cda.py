"""The ``cda`` run: counterfactual data augmentation of CoNLL-2012 coreference training files.

Reads the CoNLL file one document at a time (:mod:`pipeline.formats.conll`:
OntoNotes, WinoBias and LitBank layouts), augments each (:mod:`pipeline.cda.core.augment`: a-CDA or
n-CDA), writes the originals followed by the augmented copies, prints a summary.

POS tags decide "her" -> "him"/"his" and which tokens can be names (NNP/NNPS). A document
whose POS column holds no tags (WinoBias ``-``, LitBank ``_``) is tagged sentence by sentence
with spaCy (the same ``--model`` choice as elsewhere; tagger and parser run on the file's own
tokens, the parser's dependency label refines "her"/"his"); the summary says so. ``--pos
predict`` tags every document, ``--pos file`` never.

The output holds the original file byte for byte, followed by the augmented copy of every
document, whose ``#begin document`` id gets the suffix ``_a`` (a-CDA) or ``_n`` (n-CDA); in the
copies only the word column changes (:func:`pipeline.formats.conll.replace_field`), so
coreference brackets and all other columns -- an empty last column included -- are identical.
It streams: one document in memory at a time, the copies spooled to an anonymous temporary
file beside the output and appended at the end; the output appears atomically
(:func:`pipeline.formats.files.two_part_text`).

Names are replaced only inside PERSON spans (``--persons``, default ``auto``): the spans of the
file's named-entity column when a document carries one (OntoNotes ``*_gold_conll`` /
``*_auto_conll``), else the project's person detection (the spaCy pipeline of
:func:`pipeline.nlp.load.load` with its person layer, run on the document's text rebuilt from its
tokens, its PERSON entities filtered by the cast's rules with the document's own evidence and
mapped back to the tokens). So months, days, feasts and places that
happen to be in the name list ("born March 1, 1760", "in Kent", "London") stay. Which source
each document used is printed and written to ``OUT.persons.tsv``.

Whole names (:func:`pipeline.cda.core.augment.name_roles`): every word of a person's name is replaced;
n-CDA puts a surname of ``resources/surnames.tsv`` where a surname stood and gives a first name
the map lacks a name of the other gender (:func:`name_swap`; the person's gender from the
detection's mention or the document's evidence). Mentions that are titles of works or places of
the book are left out (:meth:`PersonFinder._not_a_person`). Docs: docs/cda.md.

n-CDA's name map: ``--name-map`` (name_map.parquet or .tsv), else the cache in
``--name-map-cache`` when it was built from the installed nam_dict.txt with the default alpha,
else built now (:mod:`pipeline.cda.core.namemap`) and cached.

``python -m pipeline cda`` parses its options and calls :func:`cda`.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.core`,
:mod:`pipeline.formats`, :mod:`pipeline.lang`, :mod:`pipeline.nlp`, :mod:`pipeline.report` (heavy
ones inside functions), :mod:`pipeline.runs.settings`.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from pipeline.errors import InputError
from pipeline.formats.conll import write_person_sources
from pipeline.formats.files import two_part_text
from pipeline.cda.formats.name_map import DEFAULT_MAP_DIR
from pipeline.lang.pronouns import FEMININE, MASCULINE
from pipeline.runs.settings import RunResult, as_paths, check_choice

MODES = ("acda", "ncda")
POS_CHOICES = ("auto", "file", "predict")
PERSON_CHOICES = ("auto", "column", "detect")
NE_COLUMN, DETECTION, ALL_NNP = "ne-column", "detection", "all-nnp"
# spaCy's default limit is 1,000,000 characters; a longer document is read in pieces of whole
# sentences (the person layer's rules look at one sentence at a time).
DETECT_CHARS = 500_000


# ------------------------------------------------------------------------------ tagging

class Tagger:
    """Predicts Penn tags and dependency labels for pre-tokenized sentences with spaCy. The
    pipeline is loaded on first use (a file whose documents all carry tags never loads it)."""

    def __init__(self, model: str | None = None):
        self.model_arg = model
        self.nlp = None
        self.model = ""

    def _load(self) -> None:
        from pipeline.nlp.load import load

        self.nlp = load(self.model_arg)   # the same (cached) pipeline as PersonFinder's; NER not run here
        self.model = f"{self.nlp.lang}_{self.nlp.meta.get('name', '?')} {self.nlp.meta.get('version', '')}".strip()
        self._skip = [c for c in self.nlp.pipe_names if c not in ("tok2vec", "tagger", "parser",
                                                                    "attribute_ruler")]

    def tag(self, words: list[str], sentences: list[tuple[int, int]]) -> tuple[list[str], list[str]]:
        """(tags, deps) for every word of a document, sentence by sentence."""
        from spacy.tokens import Doc

        if self.nlp is None:
            self._load()
        docs = (Doc(self.nlp.vocab, words=words[s:e]) for s, e in sentences if e > s)
        tags: list[str] = []
        deps: list[str] = []
        with self.nlp.select_pipes(disable=self._skip):
            for doc in self.nlp.pipe(docs, batch_size=256):
                tags.extend(t.tag_ for t in doc)
                deps.extend(t.dep_ for t in doc)
        if len(tags) != len(words):
            raise RuntimeError(f"tagger returned {len(tags)} tags for {len(words)} words")
        return tags, deps


class BookShelf:
    """The whole books behind CoNLL documents (``cda --books DIR``): a document's book is the
    file of DIR (as extract reads books) whose name, without extension, is the document id or
    the id without LitBank's ``_brat`` suffix, or else the one file whose name starts with the
    id's leading number and an underscore ("105_persuasion_brat" -> "105_persuasion.txt")."""

    def __init__(self, root: Path):
        from pipeline.formats.books import find_books

        if not root.is_dir():
            raise InputError("--books: not a directory", root)
        self.root = root
        self.paths = {p.name.split(".")[0]: p for p in find_books(root)}

    def path(self, doc_id: str) -> Path | None:
        for key in (doc_id, doc_id.removesuffix("_brat")):
            if key in self.paths:
                return self.paths[key]
        lead = doc_id.split("_")[0]
        hits = [p for k, p in self.paths.items() if lead.isdigit() and k.split("_")[0] == lead]
        return hits[0] if len(hits) == 1 else None

    def text(self, doc_id: str) -> str | None:
        """The book text of ``doc_id`` as extract reads it, or None when DIR has no such book."""
        from pipeline.formats.books import BookSkipped, read_book

        path = self.path(doc_id)
        if path is None:
            return None
        try:
            return read_book(path, self.root).text
        except BookSkipped:
            return None


class PersonFinder:
    """The tokens inside the person mentions of the project's person detection, for a tokenized
    document: the text is rebuilt from the tokens (:func:`pipeline.cda.core.augment.detokenize`, one
    line per sentence) and run through the pipeline of :func:`pipeline.nlp.load.load` (NER and
    the person layer, as extract uses them); its PERSON entities go through the cast's filter
    (:func:`pipeline.core.cast.doc_mentions`: dates, saints' places, "the X", powers, and the
    document's own evidence -- :func:`pipeline.lang.book_evidence.book_evidence` over the whole
    document text -- for places such as "in Kent" and persons the NER missed), and the mentions
    are mapped back to the file's tokens (:func:`pipeline.cda.core.augment.tokens_in_spans`).
    ``cast=False``: the PERSON entities as they are (the benchmark's middle row).
    ``overrides``: a researcher's ``--cast`` file (:func:`pipeline.formats.cast.read_cast_overrides`;
    the book id is the CoNLL document id, ``*`` every document). Loaded on first use.
    ``rejected`` counts the reasons of the PERSON entities the cast dropped."""

    def __init__(self, model: str | None = None, cast: bool = True, overrides: dict | None = None,
                 books: Path | None = None):
        self.model_arg = model
        self.cast = cast
        self.overrides = overrides
        self.books = BookShelf(books) if books is not None else None
        self.with_book = 0              # documents whose evidence came from their whole book
        self.genders: dict[int, str] = {}   # token -> its person's gender, of the last find()
        self.not_persons: Counter = Counter()   # mentions dropped here: known places, titles of works
        self.nlp = None
        self.model = ""
        self.rejected: Counter = Counter()

    def _load(self) -> None:
        from pipeline.nlp.load import load

        self.nlp = load(self.model_arg)
        self.model = f"{self.nlp.lang}_{self.nlp.meta.get('name', '?')} {self.nlp.meta.get('version', '')}".strip()

    def find(self, words: list[str], sentences: list[tuple[int, int]], doc_id: str = "") -> tuple[set[int], int]:
        """(indices of the tokens inside person mentions, number of mentions)."""
        from pipeline.cda.core.augment import detokenize, tokens_in_spans

        if self.nlp is None:
            self._load()
        evidence = None
        if self.cast:
            from pipeline.lang.book_evidence import book_evidence

            whole = self.books.text(doc_id) if self.books is not None else None
            self.with_book += whole is not None
            evidence = book_evidence(whole if whole is not None else detokenize(words, sentences)[0], doc_id,
                                     self.overrides)
        pieces, current, size = [], [], 0
        for s, e in sentences:
            n = sum(len(w) + 1 for w in words[s:e])
            if current and size + n > DETECT_CHARS:
                pieces.append(current)
                current, size = [], 0
            current.append((s, e))
            size += n
        if current:
            pieces.append(current)
        tokens: set[int] = set()
        genders: dict[int, str] = {}
        n_spans = 0
        found: list = []                # (first, last, offsets, mentions or entity spans)
        for piece in pieces:
            text, offsets = detokenize(words, piece)
            first, last = piece[0][0], piece[-1][1]
            doc = self.nlp(text)
            if self.cast:
                from pipeline.core.cast import doc_mentions

                found.append((first, last, offsets, doc_mentions(doc, evidence, self.rejected)))
            else:
                found.append((first, last, offsets,
                              [(ent.start_char, ent.end_char) for ent in doc.ents if ent.label_ == "PERSON"]))
        for first, last, offsets, mentions in found:
            if self.cast:
                mentions = [m for m in mentions
                            if not self._not_a_person(m, words, offsets, first, last, evidence)]
                spans = [(m.start, m.end) for m in mentions]
                for m in mentions:
                    for i in tokens_in_spans(offsets[first:last], [(m.start, m.end)]):
                        g = m.gender if m.gender in (MASCULINE, FEMININE) else None
                        if g is None and evidence is not None:
                            book = evidence.gender(words[first + i])
                            g = book[0] if book and book[0] in (MASCULINE, FEMININE) else None
                        if g:
                            genders[first + i] = g
            else:
                spans = mentions
            n_spans += len(spans)
            local = tokens_in_spans(offsets[first:last], spans)
            tokens.update(first + i for i in local)
        self.genders = genders
        return tokens, n_spans

    def _not_a_person(self, m, words, offsets, first, last, evidence) -> bool:
        """A mention the cast kept that CDA does not replace: a lone untitled word that the
        evidence (of the document, or of the whole book with ``--books``) shows as a place and
        never as a person -- a place of the book (:meth:`BookEvidence.is_place`), or a well-known
        place (:func:`pipeline.lang.places.known_place`) used as a place at least once: "whether
        she knew Florence well" in *A Room with a View*, whose book has "in Florence" 28 times --,
        or a name inside the italics of a longer title of a work ("_ Undine and Sintran _").
        Counted in ``not_persons``."""
        from pipeline.cda.core.augment import tokens_in_spans, work_title
        from pipeline.lang.places import known_place

        local = sorted(tokens_in_spans(offsets[first:last], [(m.start, m.end)]))
        if not local:
            return False
        s, e = first + local[0], first + local[-1] + 1
        if work_title(words, s, e):
            self.not_persons["title of a work"] += 1
            return True
        w = words[s]
        fe = evidence.forms.get(w) if evidence is not None else None
        if (not m.title and e - s == 1 and fe is not None and not evidence.is_person(w)
                and (evidence.is_place(w) or (known_place(w) and (fe.place or fe.motion)))):
            self.not_persons["a place of the book"] += 1
            return True
        return False


def person_tokens(doc, persons: str, finder: "PersonFinder | None", path=None) -> tuple[set[int] | None, str, int]:
    """(tokens inside PERSON spans, their source, number of spans) for one document: the
    named-entity column when the document carries one (``persons`` auto or column), else the
    person detection (auto or detect). ``finder`` None with ``persons`` auto: the rule before
    the person rules (every NNP/NNPS token in the name list; source ``all-nnp``), for benchmarks."""
    from pipeline.cda.core.augment import span_tokens
    from pipeline.formats.conll import ne_spans

    if persons in ("auto", "column"):
        spans = ne_spans(doc, "PERSON", path)
        if spans is not None:
            return span_tokens(spans), NE_COLUMN, len(spans)
        if persons == "column":
            raise InputError(f"document {doc.doc_id!r} has no named-entity column (--persons column)",
                             path, doc.begin)
    if finder is None:
        return None, ALL_NNP, 0
    tokens, n = finder.find(doc.words, doc.sentences(), doc.doc_id)
    return tokens, DETECTION, n


# ------------------------------------------------------------------------------ file

def augment_file(conll: str | os.PathLike, out: str | os.PathLike, mode: str, names,
                 name_map: Mapping[str, str] | None = None, min_columns: int | None = None,
                 progress: bool = True, tagger: Tagger | None = None, pos: str = "auto",
                 persons: str = "auto", finder: PersonFinder | None = None,
                 sources: list | None = None, swap=None):
    """Write originals + augmented copies of ``conll`` to ``out`` (atomically, streaming).

    ``tagger``: predicts tags for documents without POS tags (``pos="auto"``) or for every
    document (``pos="predict"``); without one, the file's tags are used as they are.
    ``persons``/``finder``: where the PERSON spans come from (:func:`person_tokens`); the
    command always passes a finder. ``sources``: a list that receives one record per document
    (document, person_source, person_spans, person_tokens, names_replaced). ``swap``: the
    surname and fallback lists (:func:`name_swap`; None: surnames and names the map lacks stay).
    """
    from tqdm import tqdm

    from pipeline.cda.core.augment import SUFFIX, Counts, augment_words
    from pipeline.formats.conll import MIN_COLUMNS, read_documents, replace_words

    conll, out = Path(conll), Path(out)
    if out.exists() and conll.exists() and out.resolve() == conll.resolve():
        raise InputError("--out must differ from the input file", out)
    total = Counts()
    with two_part_text(out) as (fo, spool):        # originals as read, then the copies (spooled)
        last = "\n"
        size = conll.stat().st_size if conll.exists() else None
        with tqdm(total=size, unit="B", unit_scale=True, desc=f"{mode} {conll.name}",
                  disable=not progress or None, leave=False) as bar:
            for doc in read_documents(conll, MIN_COLUMNS if min_columns is None else min_columns):
                raw = doc.raw()
                fo.write(raw)
                if raw:
                    last = raw[-1]
                tags, deps = doc.tags, None
                predicted = tagger is not None and (pos == "predict" or (pos == "auto" and not doc.has_pos))
                if predicted:
                    tags, deps = tagger.tag(doc.words, doc.sentences())
                tokens, source, n_spans = person_tokens(doc, persons, finder, conll)
                genders = finder.genders if source == DETECTION and finder is not None else None
                new_words, counts = augment_words(doc.words, tags, mode, names, name_map, deps, tokens,
                                                  swap=swap, genders=genders)
                counts.tagged_documents = int(predicted)
                counts.ne_documents = int(source == NE_COLUMN)
                counts.detected_documents = int(source == DETECTION)
                counts.person_spans = n_spans
                if sources is not None:
                    sources.append({"document": doc.doc_id, "person_source": source, "person_spans": n_spans,
                                    "person_tokens": -1 if tokens is None else len(tokens),
                                    "names_replaced": counts.names})
                spool.writelines(replace_words(doc, new_words, SUFFIX[mode]))
                total.add(counts)
                bar.update(len(raw.encode("utf-8")))
        if total.documents == 0:
            raise InputError("no documents in the file", conll)
        if last != "\n":
            fo.write("\n")
    return total


# ------------------------------------------------------------------------------ names

@functools.lru_cache(maxsize=1)
def name_list() -> frozenset[str]:
    """Every name in gender-guesser's dictionary (all classes), for a-CDA."""
    from pipeline.cda.formats.name_map import load_nam_dict

    return frozenset(load_nam_dict())


SURNAMES = "surnames.tsv"
# names of each gender the fallback draws from: the most frequent of nam_dict.txt's class in
# Great Britain, Ireland and the USA (its first three countries), then overall
FALLBACK_SIZE = 1000
# n-CDA's replacement surnames: the most frequent surnames that are no first names
SURNAME_POOL = 2000
FALLBACK_CLASSES = {MASCULINE: "male", FEMININE: "female", "": "unisex"}


@functools.lru_cache(maxsize=1)
def surname_list() -> tuple[str, ...]:
    """The surnames of ``resources/surnames.tsv`` in rank order (1990 US Census; docs/cda.md)."""
    from pipeline.formats.resources import read_commented, resource

    return tuple(f[0] for _, f in read_commented(resource(SURNAMES), header="surname", min_columns=2))


@functools.lru_cache(maxsize=1)
def name_swap():
    """The lists that replace whole names (:class:`pipeline.cda.core.augment.NameSwap`): every surname of
    ``resources/surnames.tsv`` for deciding roles; as n-CDA's replacement surnames, those that
    nam_dict.txt does not list as first names ("Smith", not "Walter"), the ``SURNAME_POOL`` most
    frequent in rank order; as the fallback for a first name the map lacks, the
    ``FALLBACK_SIZE`` most frequent one-word names of nam_dict.txt's male, female and unisex
    classes (by frequency in Great Britain, Ireland and the USA, then overall, then name)."""
    from pipeline.cda.core.augment import NameSwap, is_name_part
    from pipeline.cda.formats.name_map import load_nam_dict

    entries = load_nam_dict()
    first = {n.casefold() for n in entries}
    surnames = surname_list()
    pool = tuple(n for n in surnames if n.casefold() not in first)[:SURNAME_POOL]
    first = frozenset(first)
    fallback = {}
    for gender, cls in FALLBACK_CLASSES.items():
        ranked = sorted((e for e in entries.values() if e.cls == cls and is_name_part(e.name)),
                        key=lambda e: (-sum(e.vector[:3]), -sum(e.vector), e.name))
        fallback[gender] = tuple(e.name for e in ranked[:FALLBACK_SIZE])
    return NameSwap(frozenset(n.casefold() for n in surnames), pool, first, fallback)


def load_or_build_map(path: Path | None, cache_dir: Path, alpha: float | None = None) -> tuple[dict[str, str], str]:
    """The n-CDA name map: from ``path`` when given; else from the cache in ``cache_dir``
    when it was built from the installed nam_dict.txt with the same alpha; else built now
    and cached."""
    from pipeline.cda.core import namemap
    from pipeline.formats.files import sha256_file
    from pipeline.cda.formats.name_map import load_nam_dict, map_metadata, nam_dict_path, read_map, write_map

    if path is not None:
        return read_map(path), f"read from {path}"
    cached = cache_dir / "name_map.parquet"
    src = nam_dict_path()
    sha = sha256_file(src)
    a = namemap.ALPHA if alpha is None else alpha
    if cached.exists():
        meta = map_metadata(cached)
        if meta.get("nam_dict_sha256") == sha and meta.get("alpha") == repr(a):
            return read_map(cached), f"cached {cached}"
    rows = namemap.map_records(namemap.build_name_map(load_nam_dict(src), a))
    write_map(rows, cache_dir, {"alpha": repr(a), "nam_dict_sha256": sha})
    return {r["name"]: r["partner"] for r in rows}, f"built and cached in {cached}"


@dataclass(frozen=True)
class CdaSettings:
    """What one ``cda`` run is given (the command's options): paths become :class:`Path`; the
    choices are checked when it is built (one :class:`pipeline.errors.InputError` line)."""
    conll: Path
    mode: str
    out: Path
    name_map: Path | None = None
    name_map_cache: Path = DEFAULT_MAP_DIR
    pos: str = "auto"
    persons: str = "auto"
    cast: Path | None = None
    model: str | None = None
    min_columns: int | None = None
    no_progress: bool = False
    books: Path | None = None

    def __post_init__(self):
        as_paths(self, "conll", "out", "name_map", "name_map_cache", "cast", "books")
        check_choice("--mode", self.mode, MODES)
        check_choice("--pos", self.pos, POS_CHOICES)
        check_choice("--persons", self.persons, PERSON_CHOICES)


def cda(args: CdaSettings) -> RunResult:
    """The whole ``cda`` run -> a :class:`pipeline.runs.settings.RunResult`: the exit status,
    the output file and its persons report, and ``run.json``'s settings (the mode and the
    resolved spaCy model). One writer per output file: a second run into the same ``--out`` is
    refused while this one holds the lock beside it."""
    from pipeline.formats.files import output_file_lock
    from pipeline.nlp.load import resolve_model_name

    with output_file_lock(args.out):
        status = _cda(args)
    return RunResult(status, outputs=(args.out, Path(f"{args.out}.persons.tsv")),
                     settings={"mode": args.mode, "model": resolve_model_name(args.model)})


def _cda(args: CdaSettings) -> int:
    from pipeline.cda.core.augment import SUFFIX, NameIndex
    from pipeline.report.memory import peak_rss_mb

    t0 = time.perf_counter()
    if not args.conll.exists():
        raise InputError("file not found", args.conll)
    if args.conll.is_dir():
        raise InputError("a directory: --conll takes one CoNLL-2012 file", args.conll)
    tagger = None if args.pos == "file" else Tagger(args.model)
    if args.mode == "acda":
        names, name_map, source = NameIndex(name_list()), None, "gender-guesser name list"
    else:
        name_map, how = load_or_build_map(args.name_map, args.name_map_cache)
        names, source = NameIndex(name_map), f"name map ({len(name_map)} names, {how})"
    overrides = None
    if args.cast is not None:
        from pipeline.formats.cast import check_books, read_cast_overrides
        from pipeline.formats.conll import MIN_COLUMNS, read_documents

        from pipeline.lang.names import title_gender

        overrides = read_cast_overrides(args.cast, title_gender)
        columns = MIN_COLUMNS if args.min_columns is None else args.min_columns
        check_books(overrides, {d.doc_id for d in read_documents(args.conll, columns)}, args.cast)
    finder = PersonFinder(args.model, overrides=overrides, books=args.books)
    sources: list[dict] = []
    counts = augment_file(args.conll, args.out, args.mode, names, name_map, args.min_columns,
                          progress=not args.no_progress, tagger=tagger, pos=args.pos,
                          persons=args.persons, finder=finder, sources=sources, swap=name_swap())
    report = Path(f"{args.out}.persons.tsv")
    write_person_sources(sources, report)
    elapsed = time.perf_counter() - t0
    print(f"{args.mode} of {args.conll} -> {args.out}")
    print(f"  names from: {source}")
    kinds = [f"named-entity column for {counts.ne_documents}"] if counts.ne_documents else []
    if counts.detected_documents:
        kinds.append(f"person detection ({finder.model}) for {counts.detected_documents}"
                     + (f", the evidence of the whole book for {finder.with_book} (--books)" if args.books else ""))
    print(f"  persons from: {' and '.join(kinds)} of {counts.documents} documents; "
          f"{counts.person_spans} PERSON spans; only their tokens are replaced as names "
          f"(per document: {report})")
    if counts.tagged_documents:
        print(f"  POS tags PREDICTED by spaCy ({tagger.model}) for {counts.tagged_documents} of "
              f"{counts.documents} documents (the file's POS column holds none)"
              if args.pos == "auto" else
              f"  POS tags PREDICTED by spaCy ({tagger.model}) for every document (--pos predict)")
    else:
        print("  POS tags from the file")
    print(f"  documents          {counts.documents} (+ {counts.documents} copies, id suffix "
          f"{SUFFIX[args.mode]!r})")
    print(f"  tokens             {counts.tokens}")
    print(f"  gendered words swapped {counts.gendered} (her -> his {counts.her_to_his}, "
          f"her -> him {counts.her_to_him})")
    print(f"  names replaced     {counts.names} (surnames {counts.surnames}"
          + (f", first names the map lacks replaced by the fallback {counts.fallback_names}"
             if args.mode == "ncda" else "") + ")")
    print(f"  titles swapped as titles {counts.titles} (Miss Bartlett -> Mr. Bartlett)")
    if finder.not_persons:
        print("  person mentions not replaced: "
              + ", ".join(f"{k} {n}" for k, n in sorted(finder.not_persons.items())))
    print(f"  time {elapsed:.1f} s; peak memory {peak_rss_mb():.0f} MB (peak RSS of the process, ru_maxrss)")
    return 0
