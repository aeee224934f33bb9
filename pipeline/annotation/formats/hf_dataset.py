"""Hugging Face dataset directories: Parquet data files + ``README.md`` (YAML metadata + card).

A directory written by :func:`write_hf_dataset` loads with ``datasets.load_dataset(DIR)``,
offline, and uploads unchanged to the Hub::

    README.md            ---
                         license: cc-by-4.0
                         configs:
                         - config_name: default
                           data_files:
                           - split: test
                             path: dataset.parquet
                         dataset_info: [features and split sizes of every config]
                         ---
                         # the dataset card text ...
    dataset.parquet      one Parquet file per (config, split), at the path given

The YAML block is built with the ``datasets`` library's own metadata classes
(``MetadataConfigs``, ``DatasetInfosDict``, ``Features.from_arrow_schema``) and rendered by
``huggingface_hub.DatasetCardData``, so what the Hub and ``load_dataset`` read is what the
library itself writes. The first config is the default one.

May import: pyarrow, datasets and huggingface_hub (inside functions), :mod:`pipeline.errors`,
:mod:`pipeline.formats.tables`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from pipeline.errors import InputError
from pipeline.formats.tables import write_table


@dataclass
class Split:
    name: str                    # "test", "train", ... (the Hub's split names)
    path: str                    # Parquet file, relative to the dataset directory
    table: pa.Table


@dataclass
class Config:
    name: str                    # "default" for the one load_dataset(DIR) returns
    splits: list[Split] = field(default_factory=list)
    description: str = ""


def card_data(configs: list[Config], *, license: str, pretty_name: str | None = None,
              language: list[str] | None = None, task_categories: list[str] | None = None,
              tags: list[str] | None = None, size_category: str | None = None):
    """The metadata (``huggingface_hub.DatasetCardData``) of a dataset made of ``configs``."""
    import datasets
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCardData

    for name, value in (("license", license), ("pretty_name", pretty_name)):
        plain_scalar(value, name)
    for name, values in (("language", language), ("task_categories", task_categories), ("tags", tags)):
        for value in values or ():
            plain_scalar(value, name)
    if not configs:
        raise ValueError("a dataset needs at least one config")
    names = [c.name for c in configs]
    if len(set(names)) != len(names):
        raise ValueError(f"config names must be unique: {names}")
    data = DatasetCardData(license=license, pretty_name=pretty_name, language=language,
                           task_categories=task_categories, tags=tags,
                           size_categories=[size_category] if size_category else None)
    meta = MetadataConfigs({
        c.name: {"data_files": [{"split": s.name, "path": s.path} for s in c.splits],
                 **({"default": True} if i == 0 else {})}
        for i, c in enumerate(configs)})
    meta.to_dataset_card_data(data)
    infos = {}
    for c in configs:
        schemas = {s.table.schema.remove_metadata() for s in c.splits}
        if len(schemas) != 1:
            raise ValueError(f"config {c.name!r}: every split needs the same columns")
        features = datasets.Features.from_arrow_schema(c.splits[0].table.schema)
        splits = datasets.SplitDict()
        for s in c.splits:
            splits.add(datasets.SplitInfo(s.name, num_bytes=s.table.nbytes,
                                          num_examples=s.table.num_rows))
        infos[c.name] = datasets.DatasetInfo(description=c.description, features=features,
                                             splits=splits, config_name=c.name)
    DatasetInfosDict(infos).to_dataset_card_data(data)
    return data


MAX_SCALAR = 200


def plain_scalar(value, field: str) -> None:
    """Refuse a dataset-card metadata value that is not one line of plain text (a ``--license``
    holding a line break, a control character, ``---`` or a YAML structure): the card's YAML
    block must say what the maker meant and nothing more."""
    if value is None:
        return
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_SCALAR \
            or any(ch < " " or ch == "\x7f" or ch in "\u2028\u2029\x85" for ch in value) \
            or value.strip().startswith(("---", "...", "{", "[", "&", "*", "!", "|", ">", "%", "@", "`")):
        raise InputError(f"dataset card field {field}: one line of plain text (at most {MAX_SCALAR} characters) "
                         f"is needed, got {str(value)[:60]!r}")


def readme_text(data, card: str) -> str:
    """README.md: the YAML metadata block, then the card's Markdown."""
    return f"---\n{data.to_yaml()}\n---\n\n{card.lstrip()}"


def size_category(n: int) -> str:
    """The Hub's size bucket of ``n`` examples."""
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                        (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "n>1M"


def write_hf_dataset(out_dir: str | os.PathLike, configs: list[Config], card: str, *,
                     license: str, pretty_name: str | None = None,
                     language: list[str] | None = None, task_categories: list[str] | None = None,
                     tags: list[str] | None = None) -> list[Path]:
    """Write the Parquet files of every split and README.md into ``out_dir``.

    Each file is written atomically; for the set to appear together, pass a staging
    directory (:func:`pipeline.formats.files.staged_outputs`). Returns the written paths.
    """
    from pipeline.formats.files import write_text

    out = Path(out_dir)
    # the Hub's size bucket is the dataset's: the default (first) config's largest split, not
    # an auxiliary config such as the votes (four rows per instance and more)
    largest = max((s.table.num_rows for s in configs[0].splits), default=0) if configs else 0
    data = card_data(configs, license=license, pretty_name=pretty_name, language=language,
                     task_categories=task_categories, tags=tags,
                     size_category=size_category(largest))
    written = []
    for c in configs:
        for s in c.splits:
            target = out / s.path
            write_table(s.table, target)
            written.append(target)
    write_text(out / "README.md", readme_text(data, card))
    written.append(out / "README.md")
    return written
