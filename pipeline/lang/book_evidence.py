"""What a whole book says about its capitalised words: placeholder (being written)."""
from __future__ import annotations
from dataclasses import dataclass, field


@dataclass
class BookEvidence:
    book_id: str = ""
    not_persons: dict = field(default_factory=dict)
    genders: dict = field(default_factory=dict)


def book_evidence(text: str, book_id: str = "", overrides=None) -> BookEvidence:
    return BookEvidence(book_id)
