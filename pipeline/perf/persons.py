"""Person detection and gender against LitBank's gold entities (the development half in
``../shared/reference/litbank-entities``), on the whole half and in leave-books-out folds;
and the training of the learned person decision.

    python -m pipeline.perf.persons [--shared DIR] [--entities DIR] [--examples N]
    python -m pipeline.perf.persons --folds 5 [--grid]
    python -m pipeline.perf.persons --train --out resources/person_model.json
    python -m pipeline.perf.persons --coref held-out|dev [--examples N]

For every annotated opening: the full book of ``corpus/litbank`` is read as extract reads it
(:mod:`pipeline.formats.books`), the book's evidence is gathered over the whole text
(:mod:`pipeline.lang.book_evidence`), the chunks that cover the opening go through the spaCy
pipeline and the project's person detection exactly as ``persons`` and ``extract`` run it
(:func:`pipeline.core.cast.doc_mentions`), and the mentions inside the opening are scored by
:mod:`pipeline.core.person_eval`: precision of our PERSON spans, recall of the gold named
persons (``PER``/``PROP``), and the gender of gold named persons whose cluster has a clear
pronoun gender. Prints the figures as Markdown with the date and machine size, and the most
frequent errors. Not a test: it reads ../shared and takes a minute or two.

The expensive work of a book (its evidence, spaCy over the opening's chunks) is done once per
book (:func:`prepare`; the parsed Docs are also kept in ``outputs/.cache/persons/``, keyed by
the model, the chunks' text and the source of ``pipeline/nlp`` and ``pipeline/lang``), so the
folds cost one pass. ``--folds K``: the books are split into K folds by a hash of their id
(:func:`fold_of`); for each fold the learned decision (:mod:`pipeline.lang.person_model`) is
trained on the other folds' books (:mod:`pipeline.core.person_training`) and the fold is scored
with the rules alone and with the rules and that model (the shipped thresholds; ``--grid``: a
few thresholds each). ``--train``: trains on every book and writes the model file.

``--coref held-out``: the openings of the half whose gold entities are held out, scored against
LitBank's coreference of them (``reference/litbank-coref``, which ../shared gives for all 100)
with types and categories inferred from its pronouns and capitals
(:func:`pipeline.core.person_eval.typed_from_coref`): a proxy of the held-out figures, not
them (it sees only named persons a pronoun of the opening refers to). ``--coref dev`` scores the
development half the same way, so the proxy can be read beside the true figures.

May import: the standard library; inside the functions: :mod:`pipeline.formats.books`,
:mod:`pipeline.formats.litbank`, :mod:`pipeline.formats.cast`, :mod:`pipeline.lang.book_evidence`,
:mod:`pipeline.lang.person_model`, :mod:`pipeline.nlp.prune`, from :mod:`pipeline.nlp` its ``load``,
:mod:`pipeline.core.extract`, :mod:`pipeline.core.cast`, :mod:`pipeline.core.person_training` and
from :mod:`pipeline.core` its ``person_eval`` (extract's own steps, then the comparison with the
gold entities), spaCy (``DocBin``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SHARED = ROOT.parent / "shared"
CACHE = ROOT / "outputs" / ".cache" / "persons"
GRID = ([{"person": 0.0, "gender": g, "veto": v} for g in (0.0, 0.9, 0.95) for v in (0.0, 0.2, 0.3)]
        + [{"person": p, "gender": 0.9, "veto": 0.2} for p in (0.8, 0.7, 0.6)])
RULES = {"person": 0.0, "gender": 0.0, "veto": 0.0}


def book_for(doc_id: str, corpus: Path) -> Path | None:
    hits = sorted(corpus.glob(f"{doc_id}.txt")) or sorted(corpus.glob(f"{doc_id.split('_')[0]}_*.txt"))
    return hits[0] if hits else None


def fold_of(book_ids, k: int) -> dict[str, int]:
    """book id -> fold (0..k-1): the ids ordered by the sha256 of the id, then dealt out in
    turn, so folds differ by at most one book and a book's fold depends only on the set of ids."""
    order = sorted(set(book_ids), key=lambda b: (hashlib.sha256(b.encode()).hexdigest(), b))
    return {b: i % k for i, b in enumerate(order)}


@dataclass
class Case:
    """One book's expensive work, done once: its evidence, the parsed chunks covering the
    opening (offset, Doc), the gold spans and the opening's stretch [lo, hi) of ``text``."""

    doc_id: str
    text: str
    evidence: object
    docs: list
    gold: list
    lo: int
    hi: int
    labels: list = field(default_factory=list)


def _code_key() -> str:
    h = hashlib.sha256()
    for sub in ("nlp", "lang"):
        for p in sorted((ROOT / "pipeline" / sub).glob("*.py")):
            if p.name not in ("book_evidence.py", "person_model.py"):
                h.update(p.name.encode() + p.read_bytes())
    for p in sorted((ROOT / "resources").glob("*.tsv")):
        h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()


def _parsed(nlp, nlp_mod, chunks: list[tuple[int, str]], cache: Path | None, code_key: str, model_name: str):
    """The Docs of ``chunks`` through NER and the parser, from the cache when it holds them."""
    from spacy.tokens import DocBin

    from pipeline.nlp.prune import run_components

    key = hashlib.sha256("\n".join([code_key, model_name, *(f"{o}:{c}" for o, c in chunks)]).encode()).hexdigest()
    path = cache / f"{key[:32]}.spacy" if cache is not None else None
    if path is not None and path.exists():
        return list(DocBin().from_bytes(path.read_bytes()).get_docs(nlp.vocab))
    comps = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
    docs = list(run_components(nlp, (nlp.make_doc(c) for _, c in chunks), comps))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(DocBin(docs=docs).to_bytes())
        tmp.replace(path)
    return docs


def coref_documents(coref: Path, entities: Path, held_out: bool) -> list:
    """``(file name, reader)`` of LitBank's coreference openings read as gold entities by
    :func:`pipeline.core.person_eval.typed_from_coref`: those with no file in ``entities`` (the
    held-out half) or, ``held_out`` False, those with one (the development half, whose true
    figures say how far the proxy is from them)."""
    from pipeline.core.person_eval import typed_from_coref
    from pipeline.formats.litbank import litbank_documents, read_litbank_coref

    have = {p.name.removesuffix(".ann") for p in litbank_documents(entities)}
    out = []
    for path in sorted(coref.glob("*.conll")):
        if (path.stem in have) is held_out:
            continue
        out.append((path.name, lambda path=path: typed_from_coref(read_litbank_coref(path))))
    return out


def prepare(entities: Path, corpus: Path, model: str | None = None, overrides: dict | None = None,
            books: list[str] | None = None, cache: Path | None = CACHE,
            gold_documents: list | None = None) -> tuple[list[Case], int]:
    """Every annotated book's :class:`Case`, and the gold tokens that could not be aligned.
    ``gold_documents``: ``(file name, reader)`` pairs read instead of ``entities``' files
    (:func:`coref_documents`)."""
    from pipeline.core import person_eval as pe
    from pipeline.core.extract import CHUNK_CHARS, chunk_paragraphs
    from pipeline.core.person_training import form_labels
    from pipeline.formats.books import read_book
    from pipeline.formats.litbank import litbank_documents, read_litbank_entities
    from pipeline.lang.book_evidence import book_evidence
    from pipeline.nlp import load as nlp_mod

    nlp = nlp_mod.load(model)
    code_key, model_name = _code_key(), "/".join(nlp_mod.model_id(nlp))
    cases, unaligned = [], 0
    golds = (gold_documents if gold_documents is not None
             else ((ann.name, lambda ann=ann: read_litbank_entities(ann)) for ann in litbank_documents(entities)))
    for name, read_gold in golds:
        if books and not any(name.startswith(b + "_") for b in books):
            continue
        gold_doc = read_gold()
        path = book_for(gold_doc.doc_id, corpus)
        if path is None:
            print(f"no book for {gold_doc.doc_id}")
            continue
        book = read_book(path, corpus)
        text = book.text
        lo = pe.locate_opening(gold_doc.sentences, text)
        spans, missed = pe.litbank_token_spans(gold_doc.sentences, text, max(0, lo - 40))
        unaligned += missed
        if not spans:
            continue
        gold = pe.gold_spans(gold_doc, spans)
        lo = min(s for s, _ in spans.values())
        hi = max(e for _, e in spans.values())
        evidence = book_evidence(text, book.book_id, overrides, model=None)
        chunks = [(o, c) for o, c in chunk_paragraphs(book.paragraphs, CHUNK_CHARS) if o < hi and o + len(c) > lo]
        docs = _parsed(nlp, nlp_mod, chunks, cache, code_key, model_name)
        cases.append(Case(gold_doc.doc_id, text, evidence, [(o, d) for (o, _), d in zip(chunks, docs)], gold, lo, hi,
                          form_labels(text, lo, hi, gold)))
    return cases, unaligned


def score_case(case: Case, scorer=None, baseline: bool = False, rejected: Counter | None = None):
    """The opening of ``case`` scored with the rules, and the learned decision ``scorer`` (a
    :class:`pipeline.lang.person_model.PersonModel`, or None: the rules alone)."""
    from pipeline.core import person_eval as pe
    from pipeline.core.cast import doc_mentions, resolve_in_context
    from pipeline.lang.person_model import BookScores

    ev = case.evidence
    ev.model = BookScores(scorer, ev) if scorer is not None else None
    found = []
    try:
        for off, doc in case.docs:
            for m in doc_mentions(doc, None if baseline else ev, rejected):
                m.start, m.end = off + m.start, off + m.end
                found.append(m)
    finally:
        ev.model = None
    if not baseline:
        resolve_in_context(found)
    return pe.score(case.gold, [(m.start, m.end, m.gender, m.text) for m in found], case.lo, case.hi)


def score_cases(cases: list[Case], scorer=None, baseline: bool = False):
    from pipeline.core import person_eval as pe

    total, per_book, rejected = pe.Score(), [], Counter()
    for case in cases:
        sc = score_case(case, scorer, baseline, rejected)
        per_book.append((case.doc_id, sc))
        total.add(sc)
    total.rejected = rejected
    return total, per_book


def train(cases: list[Case], thresholds: dict | None = None) -> dict:
    """The model file's dict trained on ``cases``."""
    from pipeline.core.person_training import fit

    return fit([(c.evidence, c.labels) for c in cases], thresholds, [c.doc_id for c in cases])


def figures(sc) -> dict[str, float]:
    g = sc.gendered_gold or 1
    return {"P": sc.precision, "R": sc.recall, "right": sc.gender_right / g, "wrong": sc.gender_wrong / g}


def _row(name: str, f: dict, extra: str = "") -> str:
    return f"| {name} | {f['P']:.3f} | {f['R']:.3f} | {f['right']:.1%} | {f['wrong']:.1%} |{extra}"


def run_folds(cases: list[Case], k: int, settings: list[dict]) -> dict:
    """Per fold and setting (thresholds; the first setting should be the rules alone), the
    held-out figures; the model of each fold is trained on the other folds' books."""
    from pipeline.lang.person_model import PersonModel

    folds = fold_of([c.doc_id for c in cases], k)
    out = {"folds": folds, "per_fold": [], "sizes": []}
    for f in range(k):
        test = [c for c in cases if folds[c.doc_id] == f]
        train_cases = [c for c in cases if folds[c.doc_id] != f]
        spec = train(train_cases)
        row = []
        for s in settings:
            model = PersonModel(dict(spec, thresholds=s)) if any(s.values()) else None
            total, _ = score_cases(test, model)
            row.append(figures(total))
        out["per_fold"].append(row)
        out["sizes"].append(len(test))
    return out


def fold_report(result: dict, settings: list[dict], whole: dict[str, dict]) -> str:
    k = len(result["per_fold"])
    names = [("rules" if not any(s.values()) else
              f"model person≥{s.get('person', 0):g} gender≥{s.get('gender', 0):g} veto<{s.get('veto', 0):g}")
             for s in settings]
    lines = [f"LitBank persons, {k} leave-books-out folds over {sum(result['sizes'])} development books, "
             f"{datetime.date.today()}, {os.cpu_count()} cores", "",
             "| | P | R | gender right | gender wrong | books |", "|---|---|---|---|---|---|"]
    means = []
    for j, name in enumerate(names):
        for f in range(k):
            lines.append(_row(f"fold {f}: {name}", result["per_fold"][f][j], f" {result['sizes'][f]} |"))
        mean = {key: sum(result["per_fold"][f][j][key] for f in range(k)) / k for key in ("P", "R", "right", "wrong")}
        means.append(mean)
        lines.append(_row(f"**mean of the folds: {name}**", mean, f" {sum(result['sizes'])} |"))
    lines += ["", "| whole half (no held-out) | P | R | gender right | gender wrong |", "|---|---|---|---|---|"]
    lines += [_row(name, f) for name, f in whole.items()]
    return "\n".join(lines) + "\n"


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


def _shipped():
    """The shipped model, or None when it decides nothing (thresholds 0)."""
    from pipeline.lang.person_model import shipped_model

    model = shipped_model()
    return model if any(model.thresholds.values()) else None


def main(argv=None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.persons", __doc__.split("\n")[0], [
        opt.option("--shared", type=opt.PATH, default=DEFAULT_SHARED),
        opt.option("--entities", type=opt.PATH, default=None,
                   help="LitBank entities directory (default: SHARED/reference/litbank-entities)"),
        opt.option("--model", default=None),
        opt.option("--cast", type=opt.PATH, default=None, help="a cast overrides file applied to every book"),
        opt.many("--books", default=None, help="only these LitBank ids (e.g. 105 1342)"),
        opt.option("--baseline", is_flag=True, help="PERSON entities as they are, no book evidence"),
        opt.option("--rules", is_flag=True, help="the rules alone, without the shipped model"),
        opt.option("--examples", type=int, default=40, help="most frequent errors listed (0: none)"),
        opt.option("--folds", type=int, default=0, help="leave-books-out folds (e.g. 5)"),
        opt.option("--grid", is_flag=True, help="with --folds: a few thresholds of the model"),
        opt.option("--train", is_flag=True, help="train the person model on every book"),
        opt.option("--out", type=opt.PATH, default=ROOT / "resources" / "person_model.json",
                   help="with --train: the model file written"),
        opt.option("--person-threshold", type=float, default=None, help="with --train: the shipped threshold"),
        opt.option("--gender-threshold", type=float, default=None, help="with --train: the shipped threshold"),
        opt.option("--veto-threshold", type=float, default=None, help="with --train: the shipped threshold"),
        opt.option("--no-cache", is_flag=True, help="parse again, ignoring outputs/.cache/persons"),
        opt.option("--coref", type=opt.choice(["held-out", "dev"]), default=None,
                   help="score against LitBank's coreference (SHARED/reference/litbank-coref) with types "
                        "inferred from its pronouns and capitals, not the gold entities: the openings "
                        "of the held-out half, or the development half to compare the proxy with the truth"),
    ])
    entities = args.entities or args.shared / "reference" / "litbank-entities"
    corpus = args.shared / "corpus" / "litbank"
    if not entities.is_dir() or not corpus.is_dir():
        print(f"{entities} or {corpus} is absent: nothing to measure")
        return 0
    t0 = time.perf_counter()
    overrides = None
    if args.cast is not None:
        from pipeline.formats.cast import read_cast_overrides
        overrides = read_cast_overrides(args.cast)
    golds = None
    if args.coref:
        coref = args.shared / "reference" / "litbank-coref"
        if not coref.is_dir():
            print(f"{coref} is absent: nothing to measure")
            return 0
        golds = coref_documents(coref, entities, args.coref == "held-out")
        if args.train:
            print("--train learns from the gold entities, not from --coref's proxy")
            return 2
    cases, unaligned = prepare(entities, corpus, args.model, overrides, args.books,
                               None if args.no_cache else CACHE, golds)
    print(f"prepared {len(cases)} books in {time.perf_counter() - t0:.0f} s")
    if args.train:
        return _train(args, cases)
    scorer = None if (args.rules or args.baseline) else _shipped()
    if args.folds:
        settings = GRID if args.grid else [dict(RULES)]
        if not args.grid:
            from pipeline.lang.person_model import shipped_model
            shipped = {k: float(shipped_model().thresholds.get(k, 0.0)) for k in RULES}
            settings += [shipped] if any(shipped.values()) else []
        result = run_folds(cases, args.folds, settings)
        whole = {"rules": figures(score_cases(cases)[0])}
        if scorer is not None:
            whole["rules + shipped model (trained on these books)"] = figures(score_cases(cases, scorer)[0])
        print(fold_report(result, settings, whole))
    else:
        total, per_book = score_cases(cases, scorer, args.baseline)
        print(report(total, per_book, unaligned, args.examples))
    print(f"elapsed {time.perf_counter() - t0:.0f} s")
    return 0


def _train(args, cases: list[Case]) -> int:
    from pipeline.core.person_training import DEFAULT_THRESHOLDS

    thresholds = dict(DEFAULT_THRESHOLDS)
    if args.out.exists():
        try:
            thresholds.update(json.loads(args.out.read_text(encoding="utf-8")).get("thresholds", {}))
        except (ValueError, AttributeError):
            pass
    if args.person_threshold is not None:
        thresholds["person"] = args.person_threshold
    if args.gender_threshold is not None:
        thresholds["gender"] = args.gender_threshold
    if args.veto_threshold is not None:
        thresholds["veto"] = args.veto_threshold
    t = time.perf_counter()
    spec = train(cases, thresholds)
    spec["trained_on"]["seconds"] = round(time.perf_counter() - t, 2)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
    tmp.replace(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes): {spec['trained_on']['person_rows']} forms, "
          f"{spec['trained_on']['gender_rows']} gendered, thresholds {thresholds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
