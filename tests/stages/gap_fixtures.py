"""Shared fixtures of the diagnostics tests (analyze, weights, baseline): toy GAP files and
name spans, whitespace token starts, quadruple records, GAP test with the manual spans."""

from __future__ import annotations

from pipeline.diagnostics.core import analysis as A
from pipeline.formats.dataset_files import read_dataset, read_name_spans

N = A.NameSpan


def load_dataset(path, originals_only=True):
    """Examples of a dataset file through the formats reader and the core conversion."""
    records, kind = read_dataset(path, originals_only)
    return A.examples_from_records(records, path), kind


def load_name_spans(path, examples):
    return {k: [N(*s) for s in v] for k, v in read_name_spans(path, {e.id: e.text for e in examples}).items()}


def gap_test_features(shared_dir):
    """(examples, features) of GAP test with the manual name spans (spaCy tokeniser)."""
    from pipeline.nlp.load import load

    gap = shared_dir / "reference" / "gap"
    exs, _ = load_dataset(gap / "gap-test.tsv")
    spans = load_name_spans(gap / "gap-test-name-spans.json", exs)
    return exs, A.compute_features(exs, load(None), "spans", spans, progress=False)


def starts_of(text: str) -> list[int]:
    """Token starts of a whitespace-tokenised text (stand-in for spaCy in pure-core tests)."""
    out, prev = [], " "
    for i, ch in enumerate(text):
        if ch != " " and prev == " ":
            out.append(i)
        prev = ch
    return out


def span_of(text: str, word: str, nth: int = 0) -> tuple[int, int]:
    """The nth whole-word occurrence of ``word``."""
    import re

    m = list(re.finditer(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text))[nth]
    return m.start(), m.end()


GAP_HEADER = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL\n"
TOY = [
    ("t1", "Ann met Cleo and she smiled at Bob.", "she", "Cleo", "Ann", True, False),
    ("t2", "Tom saw Bob Smith when he came to see Carl.", "he", "Tom", "Bob Smith", False, True),
    ("t3", "Dora told Eve that her car broke.", "her", "Dora", "Eve", False, False),
    ("t4", "Max called Ned and Otto before he left.", "he", "Ned", "Max", True, False),
]


def write_toy_gap(path, rows=TOY):
    lines = [GAP_HEADER]
    for i, text, p, a, b, ac, bc in rows:
        po = text.index(" " + p + " ") + 1
        lines.append("\t".join([i, text, p, str(po), a, str(text.index(a)), str(ac).upper(), b,
                                str(text.index(b)), str(bc).upper(), "u"]) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def toy_spans(rows=TOY) -> dict:
    import re

    return {i: [[m.start(), m.end(), m.group()] for m in re.finditer(r"[A-Z][a-z]+(?: Smith)?", text)]
            for i, text, *_ in rows}


def quad_record(qid, variant, text, pronoun, a, b, a_coref=None, b_coref=None, mentions=()):
    from pipeline.lang.pronouns import target_pronoun_gender

    po = text.index(" " + pronoun + " ") + 1
    return {"id": qid if variant == "original" else f"{qid}-{variant}", "quadruple_id": qid,
            "variant": variant, "instance_id": "", "pronoun_gender": target_pronoun_gender(pronoun),
            "original_gender": "feminine", "pattern": "FINALPRO", "book_id": "1", "book": "B",
            "text": text, "pronoun": pronoun, "pronoun_offset": po, "a": a, "a_offset": text.index(a),
            "b": b, "b_offset": text.index(b), "a_coref": a_coref, "b_coref": b_coref,
            "names": [{"role": f"C{i + 1}", "name": m, "gender": "feminine",
                       "mentions": [{"start": text.index(m), "end": text.index(m) + len(m), "text": m, "title": ""}]}
                      for i, m in enumerate(mentions)],
            "source": "extract"}
