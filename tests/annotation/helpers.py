"""Hand-made quadruples (schema QUADRUPLES) and scripted annotators for the annotate tests
(a helper module, not a test module)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.formats import schemas
from pipeline.annotation.core.votes import Answer

NAMES = {
    "masculine": [("John Smith", "John"), ("Peter Hale", "Peter"), ("Tom Reed", "Tom"),
                  ("Hugh Lane", "Hugh")],
    "feminine": [("Mary Jones", "Mary"), ("Anne Lee", "Anne"), ("Kate Moss", "Kate"),
                 ("Lucy Dunn", "Lucy")],
}
PRONOUN = {"masculine": "he", "feminine": "she"}
OTHER = {"masculine": "feminine", "feminine": "masculine"}

# (role, "full"|"short") or a literal string; P = the pronoun
LAYOUT = [("C1", "full"), " thanked ", ("C2", "full"), " in the hall while ", ("O1", "full"),
          " waited with ", ("O2", "full"), ", and then ", "P", " left. \"Yes,\" ", ("C1", "short"),
          " said & smiled."]


def build_row(qid: str, variant: str, gender: str, original_gender: str, names: dict,
              pattern: str = "FINALPRO", book: str = "Emma", book_id: str = "158") -> dict:
    """names: role -> (full, short). Offsets are computed while assembling the text."""
    text, mentions, pronoun_offset = "", {r: [] for r in names}, None
    for part in LAYOUT:
        if part == "P":
            pronoun_offset = len(text)
            text += PRONOUN[gender]
        elif isinstance(part, tuple):
            role, form = part
            s = names[role][0] if form == "full" else names[role][1]
            mentions[role].append({"start": len(text), "end": len(text) + len(s), "text": s, "title": ""})
            text += s
        else:
            text += part
    role_gender = {"C1": gender, "C2": gender, "O1": OTHER[gender], "O2": OTHER[gender]}
    a, b = mentions["C1"][0], mentions["C2"][0]
    return {
        "id": qid if variant == "original" else f"{qid}-{variant}",
        "quadruple_id": qid, "variant": variant, "instance_id": f"{book_id}-{qid}",
        "pronoun_gender": gender, "original_gender": original_gender, "pattern": pattern,
        "book_id": book_id, "book": book, "text": text, "pronoun": PRONOUN[gender],
        "pronoun_offset": pronoun_offset, "a": a["text"], "a_offset": a["start"],
        "b": b["text"], "b_offset": b["start"], "a_coref": None, "b_coref": None,
        "names": [{"role": r, "name": names[r][0], "gender": role_gender[r], "mentions": mentions[r]}
                  for r in ("C1", "C2", "O1", "O2")],
        "source": "extract",
    }


def make_quadruple(qid: str, gender: str = "masculine", pattern: str = "FINALPRO",
                   book: str = "Emma", book_id: str = "158", c1=None) -> list[dict]:
    """Four rows: original and control in ``gender``, the swaps in the other gender."""
    g, o = gender, OTHER[gender]
    sets = {
        "original": (g, {"C1": NAMES[g][0], "C2": NAMES[g][1], "O1": NAMES[o][0], "O2": NAMES[o][1]}),
        "control": (g, {"C1": NAMES[g][2], "C2": NAMES[g][3], "O1": NAMES[o][2], "O2": NAMES[o][3]}),
        "swap-1": (o, {"C1": NAMES[o][0], "C2": NAMES[o][1], "O1": NAMES[g][0], "O2": NAMES[g][1]}),
        "swap-2": (o, {"C1": NAMES[o][2], "C2": NAMES[o][3], "O1": NAMES[g][2], "O2": NAMES[g][3]}),
    }
    rows = []
    for variant, (pg, names) in sets.items():
        names = dict(names)
        if c1 is not None and variant == "original":
            names["C1"] = c1
        rows.append(build_row(qid, variant, pg, gender, names, pattern, book, book_id))
    return rows


def write_quadruples(rows: list[dict], path) -> None:
    pq.write_table(pa.Table.from_pylist(rows, schema=schemas.QUADRUPLES), path)


def mention(row: dict, role: str, k: int = 0) -> tuple[int, int]:
    m = [n for n in row["names"] if n["role"] == role][0]["mentions"][k]
    return (m["start"], m["end"])


def spans_for(row: dict, label: str) -> tuple[list, bool]:
    """Scripted answer: A (via C1's *second*, short mention), A0 (the mention at A), B, O
    (another person), none (tick box)."""
    if label == "A":
        return [mention(row, "C1", 1)], False
    if label == "A0":
        return [(row["a_offset"], row["a_offset"] + len(row["a"]))], False
    if label == "B":
        return [(row["b_offset"], row["b_offset"] + len(row["b"]))], False
    if label == "O":
        return [mention(row, "O1")], False
    if label == "none":
        return [], True
    raise ValueError(label)


def answer(row: dict, label: str, annotator: str, flag: str = "") -> Answer:
    spans, none = spans_for(row, label)
    return Answer(annotator, row["id"], spans, none, flag, f"scripted {annotator}")


def stored_answers(db) -> list[tuple]:
    """(annotator, instance_id, spans, no_names, contradiction) of every stored answer."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT annotator, instance_id, spans, no_names, contradiction "
                           "FROM answers ORDER BY id").fetchall()
    finally:
        con.close()


def shipped_checks(path=None):
    """The check items of ``path`` or of the shipped resources/annotation_checks.txt."""
    from pipeline.annotation.core.questions import CHECKS_RESOURCE, parse_checks
    from pipeline.formats.resources import read_commented, resource

    source = path or resource(CHECKS_RESOURCE)
    return parse_checks(read_commented(source), source)


def shipped_real_people():
    from pipeline.annotation.core.votes import real_people_set
    from pipeline.formats.resources import read_commented, resource

    return real_people_set(read_commented(resource("real_people.txt")))


def quad_rows(n_quads: int, short: int = 0) -> list[dict]:
    """``n_quads`` quadruples alternating masculine/feminine; the first ``short`` of them
    with two rows only."""
    rows = []
    for i in range(1, n_quads + 1):
        quad = make_quadruple(str(i), "masculine" if i % 2 else "feminine")
        rows += quad[:2] if i <= short else quad
    return rows


W = ["w1", "w2", "w3"]


def scenario():
    """Nine quadruples, three scripted annotators each, one case per filter.

    q1 m: everyone A everywhere (via C1's second mention)          -> kept
    q2 f: B, B, A everywhere                                       -> kept (agreement 2/3)
    q3 m: A everywhere but swap-1 gets B, B, A                     -> inconsistent
    q4 f: A everywhere but control ties A / B / none               -> inconsistent (no majority)
    q5 m: A everywhere, w3 flags swap-2                            -> flagged
    q6 f: A everywhere but w3 never answered control               -> not annotated
    q7 m: nobody named (tick box) everywhere                       -> kept, label neither
    q8 f: A everywhere; original's C1 is "Jane Austen"             -> real person (if filtered)
    q9 m: A everywhere (one answer picks O1 -> still majority A)   -> kept
    plus: w1 answers q1 twice (ignored), w4 gives an invalid answer to q2 (not counted).
    """
    quads = {str(i): make_quadruple(str(i), "masculine" if i % 2 else "feminine",
                                    pattern="MEDIALPRO" if i in (2, 7) else "FINALPRO",
                                    book="Emma" if i < 5 else "Persuasion",
                                    c1=("Jane Austen", "Jane") if i == 8 else None)
             for i in range(1, 10)}
    rows = [r for q in quads.values() for r in q]
    ans = []

    def all_say(q, labels):
        for r in quads[q]:
            for w, lab in zip(W, labels):
                ans.append(answer(r, lab, w))

    all_say("1", ["A", "A0", "A"])
    all_say("2", ["B", "B", "A"])
    for r in quads["3"]:
        for w, lab in zip(W, ["B", "B", "A"] if r["variant"] == "swap-1" else ["A"] * 3):
            ans.append(answer(r, lab, w))
    for r in quads["4"]:
        for w, lab in zip(W, ["A", "B", "none"] if r["variant"] == "control" else ["A"] * 3):
            ans.append(answer(r, lab, w))
    for r in quads["5"]:
        for w in W:
            ans.append(answer(r, "A", w, "a woman cannot be his brother" if
                              (w == "w3" and r["variant"] == "swap-2") else ""))
    for r in quads["6"]:
        for w in W:
            if not (w == "w3" and r["variant"] == "control"):
                ans.append(answer(r, "A", w))
    all_say("7", ["none", "none", "none"])
    all_say("8", ["A", "A", "A"])
    for r in quads["9"]:
        for w, lab in zip(W, ["A", "A", "O" if r["variant"] == "original" else "A"]):
            ans.append(answer(r, lab, w))
    ans.append(answer(quads["1"][0], "B", "w1"))                        # duplicate: ignored
    bad = answer(quads["2"][0], "A", "w4")
    bad.none = True                                                      # tick + highlight
    ans.append(bad)
    return quads, rows, ans


# ----------------------------------------------------------------- GAP TSV input ------------

BOOK = "1342-0 Pride and Prejudice (by Jane Austen)"
GAP_HEADER = ["ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref",
              "B", "B-offset", "B-coref", "Book"]
# (id, text, pronoun, A, B, A-coref, B-coref); A/B/pronoun offsets: the last occurrence of
# the pronoun, the first of A, the last of B. Every text opens with dialogue (a double quote).
GAP_TEXTS = [
    ("1", '"Well," said Mr. Bennet, "Lydia may go." Catherine was silent, but Lydia told '
          'Mr. Collins that she would stay.', "she", "Catherine", "Lydia", False, True),
    ("1-control", '"Well," said Mr. Collins, "Catherine may go." Lydia was silent, but Catherine '
                  'told Mr. Bennet that she would stay.', "she", "Lydia", "Catherine", False, True),
    ("1-swap-1", '"Well," said Catherine, "Mr. Bennet may go." Mr. Collins was silent, but '
                 'Mr. Bennet told Lydia that he would stay.', "he", "Mr. Collins", "Mr. Bennet",
     False, True),
    ("1-swap-2", '"Well," said Lydia, "Mr. Collins may go." Mr. Bennet was silent, but '
                 'Mr. Collins told Catherine that he would stay.', "he", "Mr. Bennet", "Mr. Collins",
     False, True),
    # the original's A is "the baker": not a name -> reported, quadruple 2 left out
    ("2", '"Come in," said Mr. Darcy to the baker, and Emma smiled at Mr. Knightley because she '
          'was glad.', "she", "the baker", "Emma", False, True),
    ("2-control", '"Come in," said Mr. Knightley to the baker, and Emma smiled at Mr. Darcy because '
                  'she was glad.', "she", "Mr. Knightley", "Emma", False, True),
    ("2-swap-1", '"Come in," said Emma to the baker, and Mr. Darcy smiled at Harriet because he was '
                 'glad.', "he", "Emma", "Mr. Darcy", False, True),
    ("2-swap-2", '"Come in," said Harriet to the baker, and Mr. Knightley smiled at Emma because he '
                 'was glad.', "he", "Harriet", "Mr. Knightley", False, True),
]

# a quadruple with a masculine original (the import balances masculine and feminine originals)
GAP_TEXTS_M = [
    ("3", '"Stay," said Lydia, "Mr. Darcy is tired." Mr. Bingley nodded, but Mr. Darcy asked '
          'Catherine whether he could go.', "he", "Mr. Bingley", "Mr. Darcy", False, True),
    ("3-control", '"Stay," said Catherine, "Mr. Bingley is tired." Mr. Darcy nodded, but Mr. Bingley '
                  'asked Lydia whether he could go.', "he", "Mr. Darcy", "Mr. Bingley", False, True),
    ("3-swap-1", '"Stay," said Mr. Darcy, "Lydia is tired." Catherine nodded, but Lydia asked '
                 'Mr. Bingley whether she could go.', "she", "Catherine", "Lydia", False, True),
    ("3-swap-2", '"Stay," said Mr. Bingley, "Catherine is tired." Lydia nodded, but Catherine asked '
                 'Mr. Darcy whether she could go.', "she", "Lydia", "Catherine", False, True),
]


def gap_rows(texts=GAP_TEXTS, book: str = BOOK) -> list[dict]:
    """Typed GAP TSV rows (as :func:`pipeline.formats.gap_tsv.read_gap_tsv` returns them)."""
    out = []
    for rid, text, pron, a, b, ac, bc in texts:
        out.append({"ID": rid, "Text": text, "Pronoun": pron, "Pronoun-offset": text.rindex(f" {pron} ") + 1,
                    "A": a, "A-offset": text.index(a), "A-coref": ac,
                    "B": b, "B-offset": text.rindex(b), "B-coref": bc, "Book": book})
    return out


def write_gap_csv_quoted(rows: list[dict], path) -> None:
    """A GAP TSV written as Counter-GAP's releases are: Python's csv module, tab delimiter,
    default (minimal) quoting and CRLF line ends, TRUE/FALSE labels, a Book column."""
    import csv

    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter="\t")
        writer.writerow(GAP_HEADER)
        for r in rows:
            writer.writerow(["TRUE" if r[c] is True else "FALSE" if r[c] is False else r[c]
                             for c in GAP_HEADER])
