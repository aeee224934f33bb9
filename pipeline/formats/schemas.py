"""Every Parquet schema of the project, in one place (documented in README, "Data formats").

Offsets are character offsets into the row's own ``text`` unless a name says ``book_``.
Nested columns (lists, structs) read fine in pandas, polars and duckdb.

May import: pyarrow, :mod:`pipeline.formats.records` (inside the import-time check that each
record type and its schema hold the same fields). No file I/O: a core may import it.
"""

from __future__ import annotations

import pyarrow as pa

# ---------------------------------------------------------------- extract -----------------

BOOKS = pa.schema([
    ("book_id", pa.string()),        # files: path relative to the corpus root, "/" separators, a final
                                     # ".txt" dropped unless the rest ends in .txt/.epub; compressed files:
                                     # the whole path; zip members: zip path + "/" + member id; table rows:
                                     # the id column or row-N; sentences layout: file id + "#N". Unique in
                                     # a corpus, stable across runs (docs/extract.md, "Book identity")
    ("ebook", pa.string()),          # Project Gutenberg ebook number from the header, else ""
    ("title", pa.string()),
    ("author", pa.string()),
    ("path", pa.string()),           # relative to the corpus directory (zip members: zip/member; tables:
                                     # the table file)
    ("row", pa.int64()),             # table corpora: the 1-based row; sentences layout: the book's first
                                     # line; null for files
    ("format", pa.string()),         # gutenberg | txt-paragraphs | txt-lines | epub | sentences
    ("encoding", pa.string()),       # Python codec the bytes were decoded with: utf-8, iso8859-1, cp1252, ...
    ("encoding_source", pa.string()),# bom | declared | default | detected | container (epub, table cells),
                                     # with a note when a declaration did not fit
    ("language", pa.string()),       # Gutenberg "Language:" header, a language column, or --metadata
    ("status", pa.string()),         # ok | skipped (could not be read or processed) | failed (worker died
                                     # twice; a rerun retries it) | excluded (--language,
                                     # --where, --min-words) | duplicate (another copy is read) | not-read
                                     # (not a book: other file types, dangling symlinks, FIFOs, ...)
    ("skip_reason", pa.string()),    # empty | binary: NUL byte at offset N | undecodable | unknown encoding
                                     # declared | corrupt zip | null text | not JSON | unreadable epub |
                                     # no text | unreadable: … | error: <type>: <message> |
                                     # worker process died … | failed on the Dask cluster: … (docs/extract.md)
    ("n_paragraphs", pa.int32()),
    ("n_words", pa.int64()),         # spaCy tokens that are not punctuation or space
    ("n_name_mentions", pa.int32()),
    ("n_pronouns", pa.int32()),
    ("n_instances", pa.int32()),
    ("seconds", pa.float64()),
    ("model", pa.string()),
    ("strategy", pa.string()),
    ("rejected_windows", pa.map_(pa.string(), pa.int32())),  # reason -> pronouns whose every fitting
                                     # window held a fifth person-like mention (docs/extract.md)
])

MENTIONS = pa.schema([
    ("book_id", pa.string()),
    ("kind", pa.string()),           # name | pronoun
    ("text", pa.string()),           # the mention as written (names: with their title)
    ("book_start", pa.int64()),      # character offsets into the book text (see formats/books.py)
    ("book_end", pa.int64()),
    ("gender", pa.string()),         # masculine | feminine | ungendered
    ("title", pa.string()),          # names: the title token ("Mrs."), else empty
    ("gender_source", pa.string()),  # names: title | gender-guesser:<label>; pronouns: pronoun
    ("tag", pa.string()),            # pronouns: PRP / PRP$
])

# evidence.parquet of extract: one row per book, what the whole book says of its capitalised
# words (pipeline.lang.book_evidence), as the JSON of pipeline.lang.evidence_json; generate's
# re-check judges a quadruple's variants with it (docs/persons.md, "One cast per book")
EVIDENCE = pa.schema([
    ("book_id", pa.string()),
    ("version", pa.int32()),         # pipeline.lang.evidence_json.VERSION
    ("evidence", pa.large_string()),
])

# refused.parquet of extract: one row per pronoun whose fitting windows (two persons of each
# gender, a GAP pattern) were all refused, with the first reason and the words that caused it
REFUSED = pa.schema([
    ("book_id", pa.string()),
    ("pronoun_offset", pa.int64()),  # character offset of the pronoun in the book text
    ("pronoun", pa.string()),
    ("reason", pa.string()),         # one of pipeline.core.extract.WINDOW_REJECTIONS
    ("words", pa.string()),          # the person-like words that made the window refused
])

NAME = pa.struct([
    ("role", pa.string()),           # C1 C2 (pronoun's gender, first appearance order), O1 O2
    ("name", pa.string()),           # canonical form: the longest mention without title
    ("gender", pa.string()),
    ("mentions", pa.list_(pa.struct([("start", pa.int32()), ("end", pa.int32()),
                                     ("text", pa.string()), ("title", pa.string())]))),
])

INSTANCES = pa.schema([
    ("instance_id", pa.string()),    # "<book_id>-<book offset of the pronoun>"
    ("book_id", pa.string()),
    ("title", pa.string()),
    ("author", pa.string()),
    ("text", pa.string()),           # the context: at most five whole sentences, one line
    ("book_start", pa.int64()),      # where the context starts in the book text
    ("sentence_starts", pa.list_(pa.int32())),
    ("sentence_ends", pa.list_(pa.int32())),
    ("tokens", pa.list_(pa.string())),
    ("token_starts", pa.list_(pa.int32())),
    ("token_tags", pa.list_(pa.string())),   # fine-grained POS (Penn tags: PRP, PRP$, NNP, ...)
    ("token_deps", pa.list_(pa.string())),
    ("token_heads", pa.list_(pa.int32())),   # index into tokens
    ("token_ents", pa.list_(pa.string())),   # IOB entity label per token: "B-PERSON", "I-GPE", "O"
    ("pronoun", pa.string()),
    ("pronoun_offset", pa.int32()),
    ("pronoun_token", pa.int32()),
    ("pronoun_tag", pa.string()),
    ("pronoun_gender", pa.string()), # masculine | feminine
    ("pattern", pa.string()),        # FINALPRO | MEDIALPRO | INITIALPRO
    ("names", pa.list_(NAME)),       # exactly four: C1, C2, O1, O2
    ("a_name", pa.string()),         # role of A: C1 or C2
    ("a", pa.string()),              # A's mention text (with title)
    ("a_offset", pa.int32()),
    ("b_name", pa.string()),
    ("b", pa.string()),
    ("b_offset", pa.int32()),
    ("model", pa.string()),          # spaCy pipeline name
    ("model_version", pa.string()),
    ("spacy_version", pa.string()),
])

# ---------------------------------------------------------------- generate ----------------


QUADRUPLES = pa.schema([
    ("id", pa.string()),             # Counter-GAP ID: N, N-control, N-swap-1, N-swap-2
    ("quadruple_id", pa.string()),   # N
    ("variant", pa.string()),        # original | control | swap-1 | swap-2
    ("instance_id", pa.string()),    # the original's extract instance id (empty for GAP input)
    ("pronoun_gender", pa.string()), # this instance's pronoun gender
    ("original_gender", pa.string()),# the original's pronoun gender
    ("pattern", pa.string()),
    ("book_id", pa.string()),
    ("book", pa.string()),           # title
    ("text", pa.string()),
    ("pronoun", pa.string()),
    ("pronoun_offset", pa.int32()),
    ("a", pa.string()),
    ("a_offset", pa.int32()),
    ("b", pa.string()),
    ("b_offset", pa.int32()),
    ("a_coref", pa.bool_()),         # gold labels: null until annotation
    ("b_coref", pa.bool_()),
    ("names", pa.list_(NAME)),       # the four names with their mentions in THIS text; role =
                                     # slot: the person at the original's C1 positions is C1
                                     # (control: C2's name, swap-1: O1's, swap-2: O2's)
    ("source", pa.string()),         # extract | gap-tsv:<file>
    ("url", pa.string()),            # GAP input: the row's URL; extract: Gutenberg page or ""
])

# ---------------------------------------------------------------- sowinobias --------------
# SoWinoBias template sentences (pipeline/sowinobias.py). One row per sentence; a pair is one
# (male occupation, female occupation, adjective) combination with one pro and one anti row.

SOWINOBIAS = pa.schema([
    ("id", pa.string()),             # sowino-pro-00042 / sowino-anti-00042
    ("pair_id", pa.string()),        # sowino-00042: the pro sentence and its anti partner
    ("set", pa.string()),            # pro | anti
    ("polarity", pa.string()),       # positive (verb "liked") | negative ("disliked")
    ("text", pa.string()),           # "The guard liked the nurse because they were gentle."
    ("pronoun", pa.string()),        # always "they"
    ("pronoun_offset", pa.int32()),
    ("a", pa.string()),              # occ1
    ("a_offset", pa.int32()),
    ("a_coref", pa.bool_()),         # always False
    ("b", pa.string()),              # occ2, the referent of "they"
    ("b_offset", pa.int32()),
    ("b_coref", pa.bool_()),         # always True
    ("a_stereotype", pa.string()),   # male | female (Mocc / Focc)
    ("b_stereotype", pa.string()),
    ("verb", pa.string()),           # liked | disliked
    ("adjective", pa.string()),
])

# ---------------------------------------------------------------- namemap -----------------
# One row per direction: every matched pair appears twice (name -> partner, partner -> name).
# File metadata: alpha, nam_dict_sha256 (the gender-guesser dictionary the map was built from).

NAME_MAP = pa.schema([
    ("name", pa.string()),
    ("partner", pa.string()),
    ("class", pa.string()),          # male | female | mostly_male | mostly_female
    ("partner_class", pa.string()),
    ("weight", pa.float64()),        # ||v - w|| * (alpha - cos(v, w)) of the pair
    ("name_frequency", pa.int32()),  # total of the name's 55 country frequencies
    ("partner_frequency", pa.int32()),
])

# ---------------------------------------------------------------- annotate ----------------
# votes.parquet of annotate-import: one row per instance of the annotated quadruples file.

ANNOTATION_VOTES = pa.schema([
    ("id", pa.string()),             # Counter-GAP ID
    ("quadruple_id", pa.string()),
    ("variant", pa.string()),
    ("n_answers", pa.int32()),       # valid answers counted
    ("n_a", pa.int32()),             # answers per label: A, B, neither
    ("n_b", pa.int32()),
    ("n_neither", pa.int32()),
    ("majority", pa.string()),       # A | B | neither; null: too few answers or a tie
    ("agreement", pa.float64()),     # % of answers agreeing with the most frequent label
    ("flagged", pa.bool_()),         # some annotator described a commonsense contradiction
    ("contradictions", pa.list_(pa.string())),
    ("annotators", pa.list_(pa.string())),
    ("status", pa.string()),         # voted | no-majority | too-few-answers
    ("quadruple_status", pa.string()),  # kept | balancing | real-person | flagged | inconsistent | not-annotated
])

# ---------------------------------------------------------------- benchmarks --------------
# Pro/anti-stereotype benchmark items (WinoBias, Winogender, BUG, SoWinoBias) in one layout:
# `python -m pipeline benchmark` writes it; the experiment app and the model scoring read it.
# Spans are character offsets into ``text``; ``tokens`` is the whitespace tokenisation the
# source distributed (token indices are not stored: derive them from offsets when needed).

BENCHMARK = pa.schema([
    ("id", pa.string()),                 # winobias-pro-type1-dev-0001, winogender-..., bug-..., sowino-...
    ("source", pa.string()),             # winobias | winogender | bug | sowinobias
    ("split", pa.string()),              # dev | test | all (as distributed)
    ("text", pa.string()),               # the sentence, brackets removed
    ("tokens", pa.list_(pa.string())),
    ("pronoun", pa.string()),
    ("pronoun_start", pa.int32()),
    ("pronoun_end", pa.int32()),
    ("pronoun_gender", pa.string()),     # masculine | feminine | neutral
    ("main_entity", pa.string()),        # the gold antecedent as written ("the developer")
    ("main_start", pa.int32()),
    ("main_end", pa.int32()),
    ("main_occupation", pa.string()),    # "developer"
    ("other_entity", pa.string()),       # the other occupation mention, null if none
    ("other_start", pa.int32()),
    ("other_end", pa.int32()),
    ("other_occupation", pa.string()),
    ("main_stereotype", pa.string()),    # masculine | feminine | neutral: the occupation's stereotype
    ("other_stereotype", pa.string()),
    ("category", pa.string()),           # fine-grained: anti-pro, pro-anti, pronoun-neutral, ...
    ("stereotype", pa.string()),         # coarse: pro | anti | neutral
    ("maze_eligible", pa.bool_()),
])
# ---------------------------------------------------------------- label -------------------
# `python -m pipeline label`: the input's columns plus the gold labels from coreference-
# annotated text; label = A | B | both | neither | unlabelled (a_coref/b_coref null then).
LABEL_FIELDS = [("label", pa.string()), ("a_coref", pa.bool_()), ("b_coref", pa.bool_())]
LABELLED_INSTANCES = pa.schema(list(INSTANCES) + [pa.field(n, t) for n, t in LABEL_FIELDS])
LABELLED_QUADRUPLES = pa.schema([f for f in QUADRUPLES if f.name not in ("a_coref", "b_coref")]
                                + [pa.field(n, t) for n, t in LABEL_FIELDS])

# ---------------------------------------------------------------- experiment --------------
# plan.parquet of `python -m pipeline experiment-plan`: one row per trial of one participant
# slot (P001, P002, ...), in presentation order. QA rows: kind calibration | target | filler,
# alpha (null for calibration), question, answers, correct_answer; Maze rows: kind maze,
# distractors (null for the first word) and sides ("left"/"right": where the TRUE word is).

EXPERIMENT_PLAN = pa.schema([
    ("participant", pa.string()),        # P001, ...: a slot; the app gives it to one participant key
    ("position", pa.int32()),            # 0-based order within the participant
    ("experiment", pa.string()),         # qa | maze
    ("item_id", pa.string()),            # benchmark item id
    ("source", pa.string()),
    ("kind", pa.string()),               # calibration | target | filler | maze
    ("alpha", pa.float64()),             # 0.75 | 0.5 | 0.25 (targets, fillers); null otherwise
    ("text", pa.string()),
    ("tokens", pa.list_(pa.string())),
    ("n_words", pa.int32()),
    ("question", pa.string()),
    ("answers", pa.list_(pa.string())),  # male, female, neutral, unknown
    ("correct_answer", pa.string()),
    ("question_category", pa.string()),  # filler | MAIN_STEREOTYPE.CATEGORY | pro-stereotype_Male (BUG)
    ("main_entity_gender", pa.string()), # male | female | neutral: the pronoun's gender
    ("template", pa.string()),           # gender | subject | passive (filler templates)
    ("argument", pa.string()),           # the entity the question asks about, as written
    ("pronoun", pa.string()),
    ("pronoun_gender", pa.string()),
    ("pronoun_index", pa.int32()),       # token index of the pronoun
    ("main_entity", pa.string()),
    ("other_entity", pa.string()),
    ("main_occupation", pa.string()),
    ("relation_to_main", pa.string()),   # pro | anti | neutral | pronoun-neutral
    ("relation_to_other", pa.string()),
    ("dist_to_main", pa.int32()),        # tokens between pronoun and main entity
    ("dist_to_other", pa.int32()),
    ("distractors", pa.list_(pa.string())),
    ("sides", pa.list_(pa.string())),
])

# ---------------------------------------------------------------- benchmark scoring -------
# per_item.parquet of `evaluate` on a benchmark: one row per (item, system), to join with the
# human results on id.

BENCHMARK_PER_ITEM = pa.schema([
    ("id", pa.string()),                 # benchmark item id
    ("system", pa.string()),
    ("correct", pa.bool_()),             # the strict rule (the pronoun's cluster: main, not other)
    ("correct_loose", pa.bool_()),       # the loose rule (main's words and the pronoun in a cluster)
    ("present", pa.bool_()),             # False: the output had no line for the item (counted wrong)
    ("source", pa.string()),
    ("category", pa.string()),
    ("stereotype", pa.string()),
])

# ``persons``: one row per person mention of a book (docs/persons.md)
PERSONS = pa.schema([
    ("book_id", pa.string()),
    ("start", pa.int64()),           # character offsets into the book text (paragraphs joined by "\n\n")
    ("end", pa.int64()),
    ("text", pa.string()),           # book_text[start:end], with the title
    ("name", pa.string()),           # without the title
    ("title", pa.string()),
    ("person", pa.string()),         # the person's id within the book (P0001 ...)
    ("gender", pa.string()),         # masculine | feminine | unknown
    ("gender_source", pa.string()),  # title | gender-guesser:<label> | book:titles | book:pronouns |
                                     # book:appositions | cast
])

# ``persons``: one row per person per book (also written as cast.tsv, the file --cast reads back)
CAST = pa.schema([
    ("book_id", pa.string()),
    ("person", pa.string()),
    ("name", pa.string()),           # the longest name form, without title
    ("forms", pa.list_(pa.string())),  # every form seen, as written
    ("mentions", pa.int32()),
    ("gender", pa.string()),         # masculine | feminine | unknown
    ("evidence", pa.string()),       # where the gender came from, with counts
])

# ---------------------------------------------------------------- answers -----------------
# `predict` and `evaluate`: one row per (dataset row, system). quadruple_id / variant: the
# Counter-GAP quadruple and variant; a GAP row is its own quadruple ("original"); SoWinoBias:
# pair_id and pro/anti; a benchmark item: its id and its stereotype (pro/anti/neutral).
ANSWERS = pa.schema([
    ("id", pa.string()),
    ("system", pa.string()),
    ("quadruple_id", pa.string()),
    ("variant", pa.string()),
    ("gender", pa.string()),              # masculine | feminine | neutral (the pronoun's)
    ("answer", pa.string()),              # A | B | both | neither; null: unanswered
    ("a_coref", pa.bool_()),
    ("b_coref", pa.bool_()),
    ("gold", pa.string()),                # A | B | both | neither; null: no gold label
    ("correct", pa.bool_()),              # answer == gold (unanswered: False); null without gold
    ("answered", pa.bool_()),
    ("error", pa.string()),               # why a row is unanswered (a crash, no alignment, missing)
])


# ---------------------------------------------------------------- typed records ------------
# The typed records (pipeline.formats.records) and their schemas hold the same fields in the
# same order: checked here, at import, so that one cannot drift from the other.

def _check_record_schemas() -> None:
    from pipeline.formats.records import Instance, QuadrupleRow, SystemAnswer

    for record, schema in ((Instance, INSTANCES), (QuadrupleRow, QUADRUPLES), (SystemAnswer, ANSWERS)):
        if record.field_names() != tuple(schema.names):
            raise ImportError(f"pipeline.formats.records.{record.__name__} and its schema differ: "
                              f"{record.field_names()} != {tuple(schema.names)}")


_check_record_schemas()
