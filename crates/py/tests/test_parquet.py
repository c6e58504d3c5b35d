"""``dateline parse|export --format parquet``: read back with pyarrow,
pandas, DuckDB and GeoPandas."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from conftest import CAPTIONS, DEV_SETS, SHARED, dev_texts, run_cli, write_paragraphs


@pytest.fixture(scope="module")
def written(cli, tmp_path_factory):
    """The dev sets (or, without ../shared, the test captions) as JSON Lines
    and as GeoParquet from the same run of the CLI."""
    tmp = tmp_path_factory.mktemp("parquet")
    texts = list(CAPTIONS)
    if (SHARED / "eval").exists():
        for name in DEV_SETS:
            texts += dev_texts(name)
    source = write_paragraphs(tmp / "captions.txt", texts)
    out = run_cli(cli, "parse", "--format", "parquet", "--out", str(tmp / "r.parquet"), str(source))
    assert out.returncode == 0, out.stderr.decode()
    lines = run_cli(cli, "parse", str(source)).stdout.decode().splitlines()
    return tmp / "r.parquet", [json.loads(line) for line in lines]


def test_pyarrow_reads_one_typed_row_per_record(written):
    path, records = written
    table = pq.read_table(path)
    assert table.num_rows == len(records)
    assert table.column("id").to_pylist() == [r["id"] for r in records]
    assert table.column("flags").to_pylist() == [r["flags"] for r in records]
    dates = table.column("date_created").to_pylist()
    precision = table.column("date_created_precision").to_pylist()
    for date, p, r in zip(dates, precision, records):
        want = r["date_created"]
        assert (date is None) == (want is None)
        if date is not None:
            assert date.isoformat()[: len(want)] == want and len(want) == {"day": 10, "month": 7, "year": 4}[p]
    meta = pq.ParquetFile(path).metadata
    assert all(
        meta.row_group(g).column(c).compression == "ZSTD"
        for g in range(meta.num_row_groups) for c in range(meta.num_columns)
    )


def test_the_geo_metadata_is_geoparquet_1_1(written):
    path, _ = written
    geo = json.loads(pq.read_schema(path).metadata[b"geo"])
    # GeoParquet's place for it: the file's key-value metadata (GDAL, DuckDB).
    assert json.loads(pq.ParquetFile(path).metadata.metadata[b"geo"]) == geo
    assert geo["version"] == "1.1.0" and geo["primary_column"] == "geometry"
    column = geo["columns"]["geometry"]
    assert column["encoding"] == "WKB" and column["geometry_types"] == ["Point"]
    assert "crs" not in column  # GeoParquet: no crs means OGC:CRS84


def test_pandas_reads_it(written):
    import pandas as pd

    path, records = written
    frame = pd.read_parquet(path)
    assert len(frame) == len(records)
    assert list(frame["text"]) == [r["text"] for r in records]


def test_duckdb_reads_plain_and_nested_columns(written):
    import duckdb

    path, records = written
    con = duckdb.connect()
    rows = con.execute(
        f"SELECT id, date_created, location.city, location.latitude, len(flags), credit.creators "
        f"FROM read_parquet('{path}')"
    ).fetchall()
    assert len(rows) == len(records)
    for (id_, date, city, lat, nflags, creators), r in zip(rows, records):
        assert id_ == r["id"]
        assert city == (r["location"] or {}).get("city")
        assert lat == (r["location"] or {}).get("latitude")
        assert nflags == len(r["flags"]) and creators == r["credit"]["creators"]
    kinds = dict(con.execute(f"DESCRIBE SELECT date_created, location FROM read_parquet('{path}')").fetchall()[i][:2]
                 for i in range(2))
    assert kinds["date_created"] == "DATE"


def test_geopandas_reads_points_in_crs84(written):
    import geopandas

    path, records = written
    frame = geopandas.read_parquet(path)
    assert frame.crs.to_string() == "OGC:CRS84"
    located = [r for r in records if r["location"] and r["location"]["latitude"] is not None]
    points = frame.geometry.dropna()
    assert len(points) == len(located)
    first = points.iloc[0]
    assert (first.x, first.y) == (located[0]["location"]["longitude"], located[0]["location"]["latitude"])


def test_export_adds_the_archives_columns(cli, tmp_path):
    source = write_paragraphs(tmp_path / "g.txt", CAPTIONS + CAPTIONS[:2])
    assert run_cli(cli, "ingest", "--archive", str(tmp_path / "a"), str(source)).returncode == 0
    out = run_cli(cli, "export", "--archive", str(tmp_path / "a"), "--format", "parquet",
                  "--out", str(tmp_path / "e.parquet"))
    assert out.returncode == 0, out.stderr.decode()
    table = pq.read_table(tmp_path / "e.parquet")
    jsonl = [json.loads(line) for line in
             run_cli(cli, "export", "--archive", str(tmp_path / "a")).stdout.decode().splitlines()]
    assert table.column("id").to_pylist() == [r["id"] for r in jsonl]
    assert table.column("occurrences").to_pylist() == [r["archive"]["occurrences"] for r in jsonl]
    assert table.column("variants").to_pylist() == [r["archive"]["variants"] for r in jsonl]
    assert table.column("corrected_fields").to_pylist() == [[] for _ in jsonl]
    assert not (tmp_path / "e.parquet.partial").exists()


def test_out_is_required_and_refused_for_json(cli, tmp_path):
    assert run_cli(cli, "parse", "--format", "parquet", input=b"x").returncode == 2
    out = run_cli(cli, "parse", "--out", str(tmp_path / "f"), input=b"x")
    assert out.returncode == 1 and b"--out is for --format xmp" in out.stderr
