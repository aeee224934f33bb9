"""Typed records and the strict table writer: a record's fields and its Parquet schema agree,
and a row dict with an unknown or a missing field is refused instead of becoming a null column."""

from __future__ import annotations

import dataclasses

import pyarrow.parquet as pq
import pytest

from pipeline.formats import schemas
from pipeline.formats.records import Instance, QuadrupleRow, SystemAnswer
from pipeline.formats.tables import RecordError, records_to_table, write_records


def _answer(**changes) -> dict:
    rec = SystemAnswer(id="1", system="s", quadruple_id="1", variant="original", gender="masculine",
                       answer="A", a_coref=True, b_coref=False, gold="A", correct=True, answered=True,
                       error=None).as_dict()
    rec.update(changes)
    return rec


@pytest.mark.parametrize("record, schema", [(Instance, schemas.INSTANCES), (QuadrupleRow, schemas.QUADRUPLES),
                                            (SystemAnswer, schemas.ANSWERS)])
def test_each_record_has_its_schemas_fields_in_order(record, schema):
    assert record.field_names() == tuple(schema.names)


def test_a_record_class_refuses_a_missing_or_unknown_field():
    values = _answer()
    values.pop("error")
    with pytest.raises(TypeError):
        SystemAnswer(**values)
    with pytest.raises(TypeError):
        SystemAnswer(**_answer(eror="typo"))


def test_writer_keeps_exact_records(tmp_path):
    write_records([_answer(), _answer(id="2", answer=None, answered=False, error="missing")],
                  tmp_path / "a.parquet", schemas.ANSWERS)
    rows = pq.read_table(tmp_path / "a.parquet").to_pylist()
    assert [r["id"] for r in rows] == ["1", "2"] and rows[1]["answer"] is None and rows[1]["error"] == "missing"


def test_writer_refuses_an_unknown_field(tmp_path):
    with pytest.raises(RecordError, match=r"record 1: unknown field\(s\) anwser"):
        write_records([_answer(), _answer(anwser="B")], tmp_path / "a.parquet", schemas.ANSWERS)
    assert not (tmp_path / "a.parquet").exists()


def test_writer_refuses_a_missing_field():
    rec = _answer()
    del rec["gold"], rec["error"]
    with pytest.raises(RecordError, match=r"record 0: missing field\(s\) error, gold"):
        records_to_table([rec], schemas.ANSWERS)


def test_schema_check_at_import_catches_drift(monkeypatch):
    """A field added to a record but not to its schema stops the import of the schemas."""
    import pipeline.formats.records as records

    Grown = dataclasses.make_dataclass("SystemAnswer", [("extra", str)], bases=(SystemAnswer,))
    monkeypatch.setattr(records, "SystemAnswer", Grown)
    with pytest.raises(ImportError, match="SystemAnswer and its schema differ"):
        schemas._check_record_schemas()


def test_fill_missing_allows_partial_rows_but_not_unknown_fields(tmp_path):
    rec = {"id": "1", "system": "s"}
    write_records([rec], tmp_path / "a.parquet", schemas.ANSWERS, fill_missing=True)
    assert pq.read_table(tmp_path / "a.parquet").to_pylist()[0]["answer"] is None
    with pytest.raises(RecordError, match="unknown field"):
        records_to_table([{**rec, "sytem": "t"}], schemas.ANSWERS, fill_missing=True)


def test_read_table_reads_as_a_schema_and_refuses_a_file_that_does_not_fit(tmp_path):
    """The reader extract's merge uses for its partitions: ``schema`` as pyarrow's, a cut file
    or one of other types is one line naming it."""
    import pyarrow as pa

    from pipeline.errors import InputError
    from pipeline.formats.tables import read_table

    rows = [{"a": 1, "b": "x"}]
    schema = pa.schema([("a", pa.int64()), ("b", pa.string())])
    write_records(rows, tmp_path / "t.parquet", schema)
    assert read_table(tmp_path / "t.parquet", schema=schema).equals(
        pq.read_table(tmp_path / "t.parquet", schema=schema))
    assert read_table(tmp_path / "t.parquet", schema=schema).to_pylist() == rows
    with pytest.raises(InputError) as exc:
        read_table(tmp_path / "t.parquet", schema=pa.schema([("a", pa.list_(pa.int64())), ("b", pa.string())]))
    assert str(exc.value).startswith(f"{tmp_path / 't.parquet'}: not a readable Parquet file (")
    assert "\n" not in str(exc.value)
    (tmp_path / "cut.parquet").write_bytes((tmp_path / "t.parquet").read_bytes()[:50])
    with pytest.raises(InputError, match="not a readable Parquet file"):
        read_table(tmp_path / "cut.parquet", schema=schema)


def test_table_streams_write_each_file_as_its_tables_come(tmp_path):
    import pyarrow as pa

    from pipeline.formats.tables import read_table, table_streams

    a = pa.schema([("a", pa.int64())])
    b = pa.schema([("b", pa.string())])
    with table_streams(tmp_path, {"a.parquet": a, "b.parquet": b}) as write:
        for i in range(3):
            write["a.parquet"](pa.table({"a": [i, i + 10]}, schema=a))
        write["b.parquet"](pa.table({"b": ["x"]}, schema=b))
    assert read_table(tmp_path / "a.parquet").column("a").to_pylist() == [0, 10, 1, 11, 2, 12]
    assert read_table(tmp_path / "b.parquet", schema=b).to_pylist() == [{"b": "x"}]
    with table_streams(tmp_path, {"empty.parquet": a}):
        pass
    assert read_table(tmp_path / "empty.parquet").num_rows == 0 and read_table(tmp_path / "empty.parquet").schema == a


def test_count_rows_reads_the_footer_and_names_a_bad_file(tmp_path):
    import pyarrow as pa

    from pipeline.errors import InputError
    from pipeline.formats.tables import count_rows

    schema = pa.schema([("a", pa.int64())])
    write_records([{"a": i} for i in range(7)], tmp_path / "t.parquet", schema)
    assert count_rows(tmp_path / "t.parquet") == 7
    (tmp_path / "cut.parquet").write_bytes(b"PAR1 not really")
    for bad, reason in ((tmp_path / "cut.parquet", "not a readable Parquet file"),
                        (tmp_path / "missing.parquet", "file not found"), (tmp_path, "a directory")):
        with pytest.raises(InputError) as exc:
            count_rows(bad)
        assert str(exc.value).startswith(f"{bad}: {reason}") and "\n" not in str(exc.value)
