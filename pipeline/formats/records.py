"""The project's central records, typed: one definition each.

- :class:`Instance`: one original instance of ``extract`` (a context, its tokens, the pronoun,
  the four persons with their mentions, A and B) -- a row of ``instances.parquet``;
- :class:`QuadrupleRow`: one of the four rows of a counterfactual quadruple -- a row of
  ``quadruples.parquet``;
- :class:`SystemAnswer`: a system's answer on one dataset row -- a row of ``answers.parquet``.

The Parquet schemas of :mod:`pipeline.formats.schemas` are checked against these classes when
that module is imported (same fields, same order): a field added to one and not the other stops
every command at once. The records travel as plain dicts (``record.as_dict()``; the Parquet
rows, the cores' inputs); building one through its class makes a missing or unknown field a
``TypeError`` where it is built.

May import: the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


class _Record:
    def as_dict(self) -> dict:
        """The record as a row dict (shallow: lists and dicts are the record's own)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


@dataclass
class Instance(_Record):
    """An original instance (``instances.parquet``; the comments of
    :data:`pipeline.formats.schemas.INSTANCES` say what each field holds). A GAP row converted by
    ``generate --gap-tsv`` has no book position, sentences or model: those stay None."""
    instance_id: str
    book_id: str
    title: str
    author: str
    text: str
    book_start: int | None
    sentence_starts: list[int] | None
    sentence_ends: list[int] | None
    tokens: list[str]
    token_starts: list[int]
    token_tags: list[str]
    token_deps: list[str]
    token_heads: list[int]
    token_ents: list[str]
    pronoun: str
    pronoun_offset: int
    pronoun_token: int
    pronoun_tag: str
    pronoun_gender: str
    pattern: str | None
    names: list[dict]
    a_name: str | None
    a: str | None
    a_offset: int | None
    b_name: str | None
    b: str | None
    b_offset: int | None
    model: str | None
    model_version: str | None
    spacy_version: str | None


@dataclass
class QuadrupleRow(_Record):
    """One row of a quadruple (``quadruples.parquet``; see :data:`pipeline.formats.schemas.QUADRUPLES`)."""
    id: str
    quadruple_id: str
    variant: str
    instance_id: str
    pronoun_gender: str
    original_gender: str
    pattern: str
    book_id: str
    book: str
    text: str
    pronoun: str
    pronoun_offset: int
    a: str
    a_offset: int
    b: str
    b_offset: int
    a_coref: bool | None
    b_coref: bool | None
    names: list[dict]
    source: str
    url: str


@dataclass
class SystemAnswer(_Record):
    """A system's answer on one dataset row (``answers.parquet``; see
    :data:`pipeline.formats.schemas.ANSWERS`)."""
    id: str
    system: str
    quadruple_id: str
    variant: str
    gender: str
    answer: str | None
    a_coref: bool | None
    b_coref: bool | None
    gold: str | None
    correct: bool | None
    answered: bool
    error: str | None
