"""CDA replaces persons only: how many of its capitalised name replacements fall outside gold
persons, on LitBank's openings (a perf script, not a test).

    python -m pipeline.perf.cda_persons [--model NAME] [--limit N] [--examples N] [--errors FILE]
    make perf-cda

For every opening of ``../shared/reference/litbank-entities/`` (50 books with gold entities), the
CoNLL file of ``../shared/reference/litbank-coref/`` is read with the project's reader, tagged
as ``cda`` tags it (no POS column: spaCy on the file's tokens) and augmented in both modes
(a-CDA with the whole name list, n-CDA with the name map), twice:

* **before**: the earlier rule, every NNP/NNPS token in the list is a name;
* **entities**: the PERSON entities of the project's pipeline (NER + the person layer) as they
  are (:class:`pipeline.cda.runs.cda.PersonFinder` with ``cast=False``);
* **after**: what ``cda --persons auto`` does -- LitBank has no named-entity column, so the
  project's person detection gives the person spans: those entities filtered by the cast's
  rules with the document's own evidence (:func:`pipeline.core.cast.doc_mentions`).

A *capitalised replacement* is a token replaced by the name rule (not a gendered-word flip)
whose original starts with a capital letter. With person spans, the name rule replaces every
word of a name, surnames outside the name list included, with the lists of
:func:`pipeline.cda.runs.cda.name_swap` and the detection's genders, as ``cda`` does. Gold persons come from the ``.ann`` file: every
mention is mapped to the CoNLL tokens by (sentence, token) -- the ``_brat.txt`` sentences and
tokens of all 50 books are identical to the CoNLL file's (checked here, word by word; a book
that differs is skipped and reported). A token's gold reading is its *innermost* mention (the
shortest containing it), so "Kellynch" in "Sir Walter Elliot, of Kellynch Hall" is FAC, not PER.

* ``outside PER`` (the issue's figure): the innermost mention is not PER, whatever its category.
  PER NOM counts as a person because LitBank writes some named persons only as part of a
  description ("James Stevenson, Esq. of South Park" is one PER NOM with no PROP inside);
* ``outside PER PROP`` (stricter): the innermost mention is not a PER PROP mention;
* recall: of the capitalised tokens whose innermost mention is PER PROP, that the mode's list
  holds and that are neither gendered words (titles such as King, Prince flip instead) nor
  tagged as function words ("The"), the share replaced.

Every remaining error is listed by its gold reading (GPE PROP, no mention, ...). Skips (exit 0)
when ../shared is absent.

May import: every layer.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
ENTITIES = SHARED / "reference" / "litbank-entities"
COREF = SHARED / "reference" / "litbank-coref"
MONTHS = {"january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"}
DAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
FEASTS = {"easter", "christmas", "michaelmas", "whitsun", "whitsuntide", "lady-day", "candlemas", "lent",
          "midsummer", "martinmas", "pentecost", "advent", "sabbath"}


def gold_readings(doc, ann: Path) -> list[str] | None:
    """Per CoNLL token: the innermost gold mention's ``TYPE CATEGORY`` ("PER PROP", "GPE NOM"),
    or "" outside every mention (LitBank's layout read by
    :func:`pipeline.formats.litbank.read_litbank_entities`). None when the ``_brat.txt`` tokens
    differ from the CoNLL file's."""
    from pipeline.formats.litbank import read_litbank_entities

    gold = read_litbank_entities(ann)
    spans = doc.sentences()
    if len(gold.sentences) != len(spans) or any(doc.words[s:e] != toks for (s, e), toks in zip(spans, gold.sentences)):
        return None
    starts = [s for s, _ in spans]
    best: list[tuple[int, str]] = [(1 << 30, "")] * doc.n_tokens
    for m in gold.mentions:
        a, b = starts[m.start[0]] + m.start[1], starts[m.end[0]] + m.end[1]
        for i in range(a, b + 1):
            if b - a < best[i][0]:
                best[i] = (b - a, f"{m.type} {m.category}")
    return [label for _, label in best]


def kind(word: str, reading: str) -> str:
    """The kind of a replacement outside gold persons, for the error list."""
    w = word.lower()
    if w in MONTHS:
        return "month"
    if w in DAYS:
        return "day"
    if w in FEASTS:
        return "feast"
    return reading or "no mention"


def context(words, i: int, reach: int = 6) -> str:
    return " ".join(words[max(0, i - reach):i] + [f"[{words[i]}]"] + words[i + 1:i + 1 + reach])


def main(argv=None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.cda_persons", __doc__.split("\n\n")[0], [
        opt.option("--model", default=None, help="spaCy pipeline (default: see pipeline.nlp.load)"),
        opt.option("--limit", type=int, default=None, help="only the first N books (by file name)"),
        opt.option("--examples", type=int, default=8, help="examples printed per error kind"),
        opt.option("--errors", type=opt.PATH, default=None, help="write every error (after) to this TSV"),
        opt.option("--books", is_flag=True,
                   help="the cast's evidence from each whole novel of ../shared/corpus/litbank (cda --books), "
                        "not from the opening alone"),
    ])
    if not ENTITIES.is_dir() or not COREF.is_dir():
        print(f"skipped: {ENTITIES} or {COREF} is absent")
        return 0

    from pipeline.cda.core.augment import FUNCTION_TAGS, MODES, NameIndex, augment_words_detail
    from pipeline.lang.gendered_words import is_listed
    from pipeline.formats.conll import read_documents
    from pipeline.cda.formats.name_map import DEFAULT_MAP_DIR
    from pipeline.cda.runs.cda import PersonFinder, Tagger, load_or_build_map, name_list, name_swap, person_tokens

    t0 = time.perf_counter()
    name_map, _ = load_or_build_map(None, ROOT / DEFAULT_MAP_DIR)
    indexes = {"acda": (NameIndex(name_list()), None), "ncda": (NameIndex(name_map), name_map)}
    novels = SHARED / "corpus" / "litbank" if args.books else None
    tagger, finder = Tagger(args.model), PersonFinder(args.model, books=novels)
    plain = PersonFinder(args.model, cast=False)
    books = sorted(p.name[:-len(".ann")] for p in ENTITIES.glob("*_brat.ann"))[:args.limit]
    # (mode, variant) -> counters
    total = defaultdict(Counter)
    errors = defaultdict(list)              # (mode, variant) -> [(kind, word, context, book)]
    nominal = defaultdict(list)             # inside PER, innermost not PROP
    missed = defaultdict(list)              # gold person names not replaced
    skipped, tokens, t_tag, t_detect = [], 0, 0.0, 0.0
    sources = Counter()
    for book in books:
        conll = COREF / f"{book}.conll"
        if not conll.exists():
            skipped.append(f"{book} (no CoNLL file)")
            continue
        for doc in read_documents(conll):
            gold = gold_readings(doc, ENTITIES / f"{book}.ann")
            if gold is None:
                skipped.append(f"{book} (tokens differ)")
                continue
            tokens += doc.n_tokens
            t = time.perf_counter()
            tags, deps = tagger.tag(doc.words, doc.sentences())
            t_tag += time.perf_counter() - t
            t = time.perf_counter()
            persons, source, _ = person_tokens(doc, "auto", finder, conll)
            genders = dict(finder.genders)
            t_detect += time.perf_counter() - t
            entities, _ = plain.find(doc.words, doc.sentences(), doc.doc_id)
            sources[source] += 1
            for mode in MODES:
                names, mapping = indexes[mode]
                gold_names = {i for i, w in enumerate(doc.words)
                              if gold[i] == "PER PROP" and w[:1].isupper() and names.find(w) is not None
                              and not is_listed(w) and tags[i] not in FUNCTION_TAGS}
                for variant, tok in (("before", None), ("entities", entities), ("after", persons)):
                    _, _, replaced = augment_words_detail(doc.words, tags, mode, names, mapping, deps, tok,
                                                          swap=name_swap(),
                                                          genders=genders if variant == "after" else None)
                    c = total[mode, variant]
                    c["gold person names"] += len(gold_names)
                    c["gold person names replaced"] += len(gold_names & set(replaced))
                    missed[mode, variant].extend((doc.words[i], context(doc.words, i), book)
                                                 for i in sorted(gold_names - set(replaced)))
                    for i in replaced:
                        w = doc.words[i]
                        if not w[:1].isupper():
                            continue
                        c["capitalised"] += 1
                        reading = gold[i]
                        if not reading.startswith("PER "):
                            c["outside PER"] += 1
                            errors[mode, variant].append((kind(w, reading), w, context(doc.words, i), book))
                        if reading != "PER PROP":
                            c["outside PER PROP"] += 1
                            if reading.startswith("PER "):
                                nominal[mode, variant].append((reading, w, context(doc.words, i), book))
    elapsed = time.perf_counter() - t0

    print(f"CDA on LitBank's openings: {len(books) - len(skipped)} books with gold entities, {tokens:,} tokens; "
          f"persons from {dict(sources)}; model {finder.model or tagger.model}; evidence from "
          + (f"the whole novel for {finder.with_book} documents" if args.books else "the opening alone"))
    if skipped:
        print(f"  skipped: {', '.join(skipped)}")
    print()
    print("| mode | persons | capitalised replacements | outside PER | outside PER PROP | gold person names replaced |")
    print("|---|---|---|---|---|---|")
    for mode in MODES:
        for variant, label in (("before", "every NNP in the list (before)"),
                               ("entities", "PERSON entities (NER + person layer)"),
                               ("after", "persons of the cast (cda --persons auto)")):
            c = total[mode, variant]
            n = c["capitalised"] or 1
            g = c["gold person names"] or 1
            print(f"| {mode} | {label} | {c['capitalised']:,} | {c['outside PER']:,} "
                  f"({100 * c['outside PER'] / n:.2f} %) | {c['outside PER PROP']:,} "
                  f"({100 * c['outside PER PROP'] / n:.2f} %) | {c['gold person names replaced']:,} of "
                  f"{c['gold person names']:,} ({100 * c['gold person names replaced'] / g:.1f} %) |")
    for mode in MODES:
        for variant in ("before", "entities", "after"):
            errs = errors[mode, variant]
            by_kind = Counter(k for k, *_ in errs)
            print(f"\n{mode} {variant}: {len(errs)} capitalised replacements outside PER: "
                  + ", ".join(f"{k} {n}" for k, n in by_kind.most_common()))
            if variant == "after":
                for k, _ in by_kind.most_common():
                    shown = [e for e in errs if e[0] == k][:args.examples]
                    for _, w, ctx, book in shown:
                        print(f"    {k:<10} {book.split('_')[0]:>6}  {ctx}")
    for mode in MODES:
        nom = nominal[mode, "after"]
        print(f"\n{mode} after: {len(nom)} inside PER but not PER PROP (innermost): "
              + ", ".join(f"{k} {n}" for k, n in Counter(r for r, *_ in nom).most_common()))
        for r, w, ctx, book in nom[:args.examples]:
            print(f"    {r:<10} {book.split('_')[0]:>6}  {ctx}")
    for mode in MODES:
        miss = missed[mode, "after"]
        print(f"\n{mode} after: {len(miss)} gold person names (PER PROP, in the list) not replaced: "
              + ", ".join(f"{w} {n}" for w, n in Counter(w for w, *_ in miss).most_common(25)))
        for w, ctx, book in miss[:args.examples]:
            print(f"    {book.split('_')[0]:>6}  {ctx}")
    if args.errors:
        from pipeline.formats.files import atomic_path

        with atomic_path(args.errors) as tmp, open(tmp, "w", encoding="utf-8") as fh:
            fh.write("mode\tkind\tword\tbook\tcontext\n")
            for mode in MODES:
                for k, w, ctx, book in errors[mode, "after"]:
                    fh.write(f"{mode}\t{k}\t{w}\t{book}\t{ctx}\n")
    print("\nPERSON entities the cast dropped (after): "
          + ", ".join(f"{k} {n}" for k, n in finder.rejected.most_common()))
    print("person mentions cda does not replace (after): "
          + ", ".join(f"{k} {n}" for k, n in finder.not_persons.most_common()))
    print(f"\ntime {elapsed:.0f} s (tagging {t_tag:.0f} s, person detection {t_detect:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
