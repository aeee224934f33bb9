"""``cda``: counterfactual data augmentation of CoNLL-2012 coreference training files.

Thin command: reads the CoNLL file one document at a time (:mod:`pipeline.formats.conll`:
OntoNotes, WinoBias and LitBank layouts), augments each (:mod:`pipeline.core.cda`: a-CDA or
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
file beside the output and appended at the end; the output appears atomically.

n-CDA's name map: ``--name-map`` (name_map.parquet or .tsv), else the cache in
``--name-map-cache`` when it was built from the installed nam_dict.txt with the default alpha,
else built now (:mod:`pipeline.core.namemap`) and cached.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.core`,
:mod:`pipeline.formats`, :mod:`pipeline.nlp`, :mod:`pipeline.report` (heavy ones inside functions).
"""

from __future__ import annotations

COMMAND = "cda"
HELP = "a-CDA / n-CDA of CoNLL-2012 training files"

import argparse
import functools
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Mapping

from pipeline.errors import InputError
from pipeline.formats.files import atomic_path
from pipeline.formats.name_map import DEFAULT_MAP_DIR

MODES = ("acda", "ncda")
POS_CHOICES = ("auto", "file", "predict")


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

        self.nlp = load(self.model_arg, exclude=("lemmatizer", "ner"))
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


# ------------------------------------------------------------------------------ file

def augment_file(conll: str | os.PathLike, out: str | os.PathLike, mode: str, names,
                 name_map: Mapping[str, str] | None = None, min_columns: int | None = None,
                 progress: bool = True, tagger: Tagger | None = None, pos: str = "auto"):
    """Write originals + augmented copies of ``conll`` to ``out`` (atomically, streaming).

    ``tagger``: predicts tags for documents without POS tags (``pos="auto"``) or for every
    document (``pos="predict"``); without one, the file's tags are used as they are.
    """
    from tqdm import tqdm

    from pipeline.core.cda import SUFFIX, Counts, augment_words
    from pipeline.formats.conll import MIN_COLUMNS, read_documents, replace_words

    conll, out = Path(conll), Path(out)
    if out.exists() and conll.exists() and out.resolve() == conll.resolve():
        raise InputError("--out must differ from the input file", out)
    total = Counts()
    with atomic_path(out) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fo, \
            tempfile.TemporaryFile("w+", encoding="utf-8", newline="", dir=out.parent) as spool:
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
                new_words, counts = augment_words(doc.words, tags, mode, names, name_map, deps)
                counts.tagged_documents = int(predicted)
                spool.writelines(replace_words(doc, new_words, SUFFIX[mode]))
                total.add(counts)
                bar.update(len(raw.encode("utf-8")))
        if total.documents == 0:
            raise InputError("no documents in the file", conll)
        if last != "\n":
            fo.write("\n")
        spool.seek(0)
        shutil.copyfileobj(spool, fo)
        fo.flush()
    return total


# ------------------------------------------------------------------------------ names

@functools.lru_cache(maxsize=1)
def name_list() -> frozenset[str]:
    """Every name in gender-guesser's dictionary (all classes), for a-CDA."""
    from pipeline.formats.name_map import load_nam_dict

    return frozenset(load_nam_dict())


def load_or_build_map(path: Path | None, cache_dir: Path, alpha: float | None = None) -> tuple[dict[str, str], str]:
    """The n-CDA name map: from ``path`` when given; else from the cache in ``cache_dir``
    when it was built from the installed nam_dict.txt with the same alpha; else built now
    and cached."""
    from pipeline.core import namemap
    from pipeline.formats.files import sha256_file
    from pipeline.formats.name_map import load_nam_dict, map_metadata, nam_dict_path, read_map, write_map

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


# ------------------------------------------------------------------------------ CLI

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--conll", type=Path, required=True,
                        help="CoNLL-2012 file (OntoNotes *_gold_conll, WinoBias *.v4_auto_conll, LitBank *.conll)")
    parser.add_argument("--mode", choices=MODES, required=True,
                        help="acda: gendered words + names -> E1, E2, ...; ncda: gendered words + name map")
    parser.add_argument("--out", type=Path, required=True,
                        help="output file: the originals followed by the augmented copies")
    parser.add_argument("--name-map", type=Path, default=None,
                        help="ncda: name_map.parquet or .tsv (default: built on first use and cached)")
    parser.add_argument("--name-map-cache", type=Path, default=DEFAULT_MAP_DIR,
                        help=f"ncda: where the built map is cached (default {DEFAULT_MAP_DIR})")
    parser.add_argument("--pos", choices=POS_CHOICES, default="auto",
                        help="auto (default): predict POS tags with spaCy for documents whose POS column "
                             "holds none (- or _); file: always use the file's column; predict: always predict")
    parser.add_argument("--model", default=None,
                        help="spaCy pipeline for predicted tags (default: see pipeline.nlp.load)")
    parser.add_argument("--min-columns", type=int, default=None,
                        help="fewest columns of a token line (default 12, the CoNLL-2012 minimum)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args) -> int:
    from pipeline.core.cda import SUFFIX, NameIndex
    from pipeline.report.usage import peak_rss_mb

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
    counts = augment_file(args.conll, args.out, args.mode, names, name_map, args.min_columns,
                          progress=not args.no_progress, tagger=tagger, pos=args.pos)
    elapsed = time.perf_counter() - t0
    print(f"{args.mode} of {args.conll} -> {args.out}")
    print(f"  names from: {source}")
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
    print(f"  names replaced     {counts.names}")
    print(f"  time {elapsed:.1f} s; peak memory {peak_rss_mb():.0f} MB (peak RSS of the process, ru_maxrss)")
    return 0
