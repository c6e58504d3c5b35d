"""``parse_arrow`` and ``to_pandas``: shapes, types, values, threads."""

from __future__ import annotations

import datetime

import pyarrow as pa
import pytest

import dateline
from conftest import CAPTIONS


def iso(date: datetime.date | None, precision: str | None) -> str | None:
    """A date column and its precision, written back as the record writes it."""
    if date is None:
        return None
    return {"day": date.isoformat(), "month": date.isoformat()[:7], "year": date.isoformat()[:4]}[precision]


def test_one_row_per_caption_with_the_record_schema():
    table = dateline.parse_arrow(pa.array(CAPTIONS))
    assert table.num_rows == len(CAPTIONS)
    assert table.schema == dateline.record_schema()
    types = {f.name: f.type for f in table.schema}
    assert types["date_created"] == pa.date32()
    assert pa.types.is_struct(types["credit"]) and pa.types.is_struct(types["location"])
    assert types["location"].field("latitude").type == pa.float64()
    assert types["location"].field("geonames_id").type == pa.uint32()
    assert pa.types.is_list(types["persons"]) and pa.types.is_struct(types["persons"].value_type)
    assert types["flags"] == pa.list_(pa.string())
    assert types["dates"].value_type.field("date").type == pa.date32()


def test_columns_hold_the_records_values():
    table = dateline.parse_arrow(pa.array(CAPTIONS)).to_pylist()
    for row, text in zip(table, CAPTIONS):
        record = dateline.parse(text)
        for key in ("id", "text", "description", "organizations", "flags", "image_url"):
            assert row[key] == record[key]
        assert iso(row["date_created"], row["date_created_precision"]) == record["date_created"]
        assert {k: row["credit"][k] for k in ("raw", "creators", "agencies", "source", "span")} == record["credit"]
        assert row["location"] == record["location"]
        assert [{"date": iso(d["date"], d["precision"]), "role": d["role"], "text": d["text"], "span": d["span"]}
                for d in row["dates"]] == record["dates"]
        assert row["persons"] == record["persons"]
        assert row["conflicts"] == record["conflicts"]
        assert row["stated"] == record["stated"]  # text states nothing: None


def test_a_null_caption_is_a_row_of_nulls():
    table = dateline.parse_arrow(pa.array([CAPTIONS[0], None, CAPTIONS[1]]))
    rows = table.to_pylist()
    assert rows[1] == {name: None for name in table.column_names}
    assert rows[2]["text"] == dateline.parse(CAPTIONS[1])["text"]


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string(), pa.string_view()])
def test_every_arrow_string_layout_is_read(kind):
    expected = dateline.parse_arrow(pa.array(CAPTIONS))
    assert dateline.parse_arrow(pa.array(CAPTIONS, type=kind)).equals(expected)


def test_tables_chunked_arrays_and_plain_lists():
    expected = dateline.parse_arrow(pa.array(CAPTIONS))
    chunked = pa.chunked_array([CAPTIONS[:2], CAPTIONS[2:]])
    assert dateline.parse_arrow(chunked).equals(expected)
    table = pa.table({"caption": chunked, "n": list(range(len(CAPTIONS)))})
    assert dateline.parse_arrow(table, column="caption").equals(expected)
    assert dateline.parse_arrow(CAPTIONS).equals(expected)
    assert dateline.parse_arrow(pa.array([], type=pa.string())).num_rows == 0


def test_wrong_columns_are_clear_errors():
    with pytest.raises(KeyError, match="no column 'text'"):
        dateline.parse_arrow(pa.table({"caption": CAPTIONS}))
    with pytest.raises(TypeError, match="must be an Arrow string column, not Int64"):
        dateline.parse_arrow(pa.array([1, 2]))


def test_threads_change_nothing_but_speed():
    texts = pa.array(CAPTIONS * 50)
    one = dateline.parse_arrow(texts, threads=1)
    assert dateline.parse_arrow(texts, threads=2).equals(one)
    assert dateline.parse_arrow(texts, threads=7).equals(one)


def test_to_pandas_shapes_and_types():
    import pandas as pd

    frame = dateline.to_pandas(pd.DataFrame({"text": CAPTIONS}))
    assert isinstance(frame, pd.DataFrame)
    assert frame.shape == (len(CAPTIONS), len(dateline.record_schema()))
    assert frame["date_created"][0] == datetime.date(2019, 6, 4)
    assert frame["location"][0]["country_code"] == "SY"
    assert list(frame["credit"][1]["agencies"]) == ["AP"]
    assert frame["location"][4] is None
    assert list(dateline.to_pandas(pd.Series(CAPTIONS))["id"]) == list(frame["id"])
