"""The Hugging Face dataset directory writer (pipeline.annotation.formats.hf_dataset)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from pipeline.annotation.formats.hf_dataset import Config, Split, size_category, write_hf_dataset


def small(n: int) -> pa.Table:
    return pa.table({"id": [str(i) for i in range(n)],
                     "spans": pa.array([[{"start": i, "end": i + 1}] for i in range(n)]),
                     "ok": [i % 2 == 0 for i in range(n)]})


def test_directory_layout_and_metadata(tmp_path):
    configs = [Config("default", [Split("train", "data/train.parquet", small(3)),
                                  Split("test", "data/test.parquet", small(2))], "the items"),
               Config("extra", [Split("test", "extra.parquet", pa.table({"x": [1.5]}))])]
    written = write_hf_dataset(tmp_path, configs, "# Title\n\nSome words.\n", license="cc0-1.0",
                               pretty_name="Tiny", language=["en"])
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == [
        "README.md", "data/test.parquet", "data/train.parquet", "extra.parquet"]
    assert pq.read_table(tmp_path / "data/train.parquet").column("id").to_pylist() == ["0", "1", "2"]
    text = (tmp_path / "README.md").read_text(encoding="utf-8")
    _, block, body = text.split("---\n", 2)
    meta = yaml.safe_load(block)
    assert meta["license"] == "cc0-1.0" and meta["pretty_name"] == "Tiny"
    assert meta["language"] == ["en"] and meta["size_categories"] == ["n<1K"]
    assert meta["configs"][0] == {"config_name": "default", "default": True, "data_files": [
        {"split": "train", "path": "data/train.parquet"}, {"split": "test", "path": "data/test.parquet"}]}
    info = {i["config_name"]: i for i in meta["dataset_info"]}
    assert [(s["name"], s["num_examples"]) for s in info["default"]["splits"]] == [("train", 3), ("test", 2)]
    features = {f["name"]: f for f in info["default"]["features"]}
    assert features["ok"]["dtype"] == "bool"
    assert features["spans"]["list"] == [{"name": "start", "dtype": "int64"},
                                         {"name": "end", "dtype": "int64"}]
    assert info["extra"]["features"] == [{"name": "x", "dtype": "float64"}]
    assert body.strip() == "# Title\n\nSome words."


def test_bad_configs_are_refused(tmp_path):
    with pytest.raises(ValueError, match="unique"):
        write_hf_dataset(tmp_path, [Config("a", [Split("test", "a.parquet", small(1))]),
                                    Config("a", [Split("test", "b.parquet", small(1))])], "", license="mit")
    with pytest.raises(ValueError, match="same columns"):
        write_hf_dataset(tmp_path, [Config("a", [Split("train", "a.parquet", small(1)),
                                                 Split("test", "b.parquet", pa.table({"y": [1]}))])],
                         "", license="mit")
    assert list(tmp_path.iterdir()) == []


def test_size_categories():
    assert [size_category(n) for n in (0, 999, 1000, 99_999, 100_000, 5_000_000)] == [
        "n<1K", "n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "n>1M"]


def test_size_category_counts_the_dataset_not_the_votes(tmp_path):
    """The card's size_categories is the default config's (the dataset's) size, not that of a
    larger auxiliary config such as the votes."""
    configs = [Config("default", [Split("test", "dataset.parquet", small(400))]),
               Config("votes", [Split("test", "votes.parquet", small(1500))])]
    write_hf_dataset(tmp_path, configs, "# card\n", license="mit")
    meta = yaml.safe_load((tmp_path / "README.md").read_text(encoding="utf-8").split("---\n", 2)[1])
    assert meta["size_categories"] == ["n<1K"]
