"""Person detection and gender against LitBank's gold entities (the development half in
``../shared/reference/litbank-entities``).

    python -m pipeline.perf.persons [--shared DIR] [--entities DIR] [--examples N]

For every annotated opening: the full book of ``corpus/litbank`` is read as extract reads it
(:mod:`pipeline.formats.books`), the book's evidence is gathered over the whole text
(:mod:`pipeline.lang.book_evidence`), the chunks that cover the opening go through the spaCy
pipeline and the project's person detection exactly as ``persons`` and ``extract`` run it
(:func:`pipeline.core.cast.book_mentions`), and the mentions inside the opening are scored by
:mod:`pipeline.core.person_eval`: precision of our PERSON spans, recall of the gold named
persons (``PER``/``PROP``), and the gender of gold named persons whose cluster has a clear
pronoun gender. Prints the figures as Markdown with the date and machine size, and the most
frequent errors. Not a test: it reads ../shared and takes a few minutes.

May import: the standard library; inside :func:`evaluate`: :mod:`pipeline.formats.books`,
:mod:`pipeline.formats.litbank`, :mod:`pipeline.formats.cast`, :mod:`pipeline.lang.book_evidence`,
:mod:`pipeline.nlp.prune`, from :mod:`pipeline.nlp` its ``load``, :mod:`pipeline.core.extract`,
:mod:`pipeline.core.cast` and from :mod:`pipeline.core` its ``person_eval`` (extract's own steps, then the
comparison with the gold entities).
"""

from __future__ import annotations

import argparse
import datetime
import os
import time
from collections import Counter
from pathlib import Path

DEFAULT_SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def book_for(doc_id: str, corpus: Path) -> Path | None:
    hits = sorted(corpus.glob(f"{doc_id}.txt")) or sorted(corpus.glob(f"{doc_id.split('_')[0]}_*.txt"))
    return hits[0] if hits else None


def evaluate(entities: Path, corpus: Path, model: str | None = None, cast_file: Path | None = None,
             baseline: bool = False, books: list[str] | None = None):
    from pipeline.core import person_eval as pe
    from pipeline.core.cast import doc_mentions, resolve_in_context
    from pipeline.nlp.prune import run_components
    from pipeline.core.extract import CHUNK_CHARS, chunk_paragraphs
    from pipeline.formats.books import read_book
    from pipeline.formats.litbank import litbank_documents, read_litbank_entities
    from pipeline.lang.book_evidence import book_evidence
    from pipeline.nlp import load as nlp_mod

    nlp = nlp_mod.load(model)
    overrides = None
    if cast_file is not None:
        from pipeline.formats.cast import read_cast_overrides
        overrides = read_cast_overrides(cast_file)
    total, per_book, unaligned = pe.Score(), [], 0
    rejected = Counter()
    for ann in litbank_documents(entities):
        if books and not any(ann.name.startswith(b + "_") for b in books):
            continue
        gold_doc = read_litbank_entities(ann)
        path = book_for(gold_doc.doc_id, corpus)
        if path is None:
            print(f"no book for {gold_doc.doc_id}")
            continue
        book = read_book(path, corpus)
        text = book.text
        lo = pe.locate_opening(gold_doc.sentences, text)
        spans, missed = pe.align_tokens(gold_doc.sentences, text, max(0, lo - 40))
        unaligned += missed
        if not spans:
            continue
        gold = pe.gold_spans(gold_doc, spans)
        lo = min(s for s, _ in spans.values())
        hi = max(e for _, e in spans.values())
        evidence = book_evidence(text, book.book_id, overrides)
        chunks = [(o, c) for o, c in chunk_paragraphs(book.paragraphs, CHUNK_CHARS) if o < hi and o + len(c) > lo]
        comps = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
        docs = run_components(nlp, (nlp.make_doc(c) for _, c in chunks), comps)
        found = []
        for (off, _), doc in zip(chunks, docs):
            for m in doc_mentions(doc, None if baseline else evidence, rejected):
                m.start, m.end = off + m.start, off + m.end
                found.append(m)
        if not baseline:
            resolve_in_context(found)
        preds = [(m.start, m.end, m.gender, m.text) for m in found]
        sc = pe.score(gold, preds, lo, hi)
        per_book.append((gold_doc.doc_id, sc))
        total.add(sc)
    total.rejected = rejected
    return total, per_book, unaligned


def report(total, per_book, unaligned: int, examples: int) -> str:
    g = total.gendered_gold or 1
    lines = [f"LitBank persons ({len(per_book)} openings), {datetime.date.today()}, {os.cpu_count()} cores",
             "", "| figure | value |", "|---|---|",
             f"| predicted PERSON spans | {total.predicted} |",
             f"| precision | {total.precision:.3f} ({total.right}/{total.predicted}) |",
             f"| wrong spans by what they hit | {dict(total.wrong.most_common())} |",
             f"| gold named-person mentions | {total.gold} |",
             f"| recall | {total.recall:.3f} ({total.found}/{total.gold}) |",
             f"| named persons with a clear gold gender | {total.gendered_gold} |",
             f"| ... our gender right | {total.gender_right / g:.1%} ({total.gender_right}) |",
             f"| ... our gender wrong | {total.gender_wrong / g:.1%} ({total.gender_wrong}) |",
             f"| ... no gender (missed or ungendered) | {total.gender_none / g:.1%} ({total.gender_none}) |",
             f"| PERSON entities rejected, by reason | {dict(total.rejected.most_common())} |",
             f"| gold tokens not aligned | {unaligned} |", ""]
    if examples:
        def top(items):
            return ", ".join(f"{k} ({n})" for k, n in Counter(items).most_common(examples))
        lines += [f"false positives: {top(f'{t} [{k}]' for t, k in total.false_positives)}", "",
                  f"misses: {top(total.misses)}", "",
                  f"wrong genders: {top(f'{t} ({o} for {w})' for t, o, w in total.wrong_genders)}", "",
                  f"no gender: {top(f'{t} ({w})' for t, w in total.no_genders)}", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipeline.perf.persons", description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    ap.add_argument("--entities", type=Path, default=None,
                    help="LitBank entities directory (default: SHARED/reference/litbank-entities)")
    ap.add_argument("--model", default=None)
    ap.add_argument("--cast", type=Path, default=None, help="a cast overrides file applied to every book")
    ap.add_argument("--books", nargs="*", default=None, help="only these LitBank ids (e.g. 105 1342)")
    ap.add_argument("--baseline", action="store_true", help="PERSON entities as they are, no book evidence")
    ap.add_argument("--examples", type=int, default=40, help="most frequent errors listed (0: none)")
    args = ap.parse_args(argv)
    entities = args.entities or args.shared / "reference" / "litbank-entities"
    corpus = args.shared / "corpus" / "litbank"
    if not entities.is_dir() or not corpus.is_dir():
        print(f"{entities} or {corpus} is absent: nothing to measure")
        return 0
    t0 = time.perf_counter()
    total, per_book, unaligned = evaluate(entities, corpus, args.model, args.cast, args.baseline, args.books)
    print(report(total, per_book, unaligned, args.examples))
    print(f"elapsed {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
