"""Every Parquet schema of the project, in one place (documented in README, "Data formats").

Offsets are character offsets into the row's own ``text`` unless a name says ``book_``.
Nested columns (lists, structs) read fine in pandas, polars and duckdb.
"""

from __future__ import annotations

import pyarrow as pa

SPAN = pa.struct([("start", pa.int32()), ("end", pa.int32()), ("text", pa.string())])

# ---------------------------------------------------------------- extract -----------------

BOOKS = pa.schema([
    ("book_id", pa.string()),        # Gutenberg ebook number, else the file's relative path stem
    ("title", pa.string()),
    ("author", pa.string()),
    ("path", pa.string()),           # relative to the corpus directory
    ("format", pa.string()),         # gutenberg | txt-paragraphs | txt-lines | epub
    ("status", pa.string()),         # ok | skipped
    ("skip_reason", pa.string()),    # empty | binary | undecodable | no text
    ("n_paragraphs", pa.int32()),
    ("n_words", pa.int64()),         # spaCy tokens that are not punctuation or space
    ("n_name_mentions", pa.int32()),
    ("n_pronouns", pa.int32()),
    ("n_instances", pa.int32()),
    ("seconds", pa.float64()),
    ("model", pa.string()),
    ("strategy", pa.string()),
])

MENTIONS = pa.schema([
    ("book_id", pa.string()),
    ("kind", pa.string()),           # name | pronoun
    ("text", pa.string()),           # the mention as written (names: with their title)
    ("book_start", pa.int64()),      # character offsets into the book text (see corpus.py)
    ("book_end", pa.int64()),
    ("gender", pa.string()),         # masculine | feminine | ungendered
    ("title", pa.string()),          # names: the title token ("Mrs."), else empty
    ("gender_source", pa.string()),  # names: title | gender-guesser:<label>; pronouns: pronoun
    ("tag", pa.string()),            # pronouns: PRP / PRP$
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

VARIANTS = ("original", "control", "swap-1", "swap-2")

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
    ("names", pa.list_(NAME)),       # the four names with their mentions in THIS text
    ("source", pa.string()),         # extract | gap-tsv:<file>
])
