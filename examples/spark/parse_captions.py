"""Parse captions at cluster scale with Spark: text or JSON Lines in,
GeoParquet-style records out, partitioned by year and country.

Two engines, the same records:

* ``--engine package`` (default): the ``dateline`` Python package inside
  ``mapInArrow``. Spark hands each Python worker Arrow batches of captions;
  the worker parses a batch at a time in Rust (one engine, one decoded
  gazetteer per worker process, reused across tasks) and hands back Arrow
  record batches, never a Python object per field.
* ``--engine pipe``: ``RDD.pipe`` through the ``dateline parse`` binary, for
  clusters where only a binary can be shipped (``--files dateline``). Its
  JSON Lines are read with the record's schema.

Input: ``--input-format text`` reads files of blank-line separated captions
(as ``dateline parse`` does: each paragraph split into captions, page chrome
dropped); ``jsonl`` reads one JSON object per line with the caption in
``--text-field`` (default ``text``), one caption per object.

    spark-submit --py-files dateline-*.whl examples/spark/parse_captions.py \\
        --input 's3://bucket/captions/*.jsonl' --input-format jsonl --output s3://bucket/records

See the README ("Spark") for submitting to a cluster.
"""

from __future__ import annotations

import argparse
import sys
from typing import Iterator

# The record as `dateline parse` prints it, for the pipe engine's JSON.
RECORD_DDL = (
    "id STRING, text STRING, description STRING, "
    "credit STRUCT<raw: STRING, creators: ARRAY<STRING>, agencies: ARRAY<STRING>, source: STRING, "
    "span: ARRAY<BIGINT>>, "
    "date_created STRING, "
    "dates ARRAY<STRUCT<date: STRING, role: STRING, text: STRING, span: ARRAY<BIGINT>>>, "
    "location STRUCT<sublocation: STRING, city: STRING, province: STRING, province_code: STRING, "
    "country: STRING, country_code: STRING, geonames_id: BIGINT, latitude: DOUBLE, longitude: DOUBLE, "
    "text: STRING, span: ARRAY<BIGINT>>, "
    "persons ARRAY<STRUCT<name: STRING, age: BIGINT, span: ARRAY<BIGINT>>>, "
    "organizations ARRAY<STRING>, flags ARRAY<STRING>, image_url STRING, "
    "conflicts ARRAY<STRUCT<field: STRING, stated: STRING, parsed: STRING>>, "
    "stated STRUCT<creators: ARRAY<STRING>, credit_line: STRING, source: STRING, date_created: STRING, "
    "sublocation: STRING, city: STRING, province: STRING, country: STRING, country_code: STRING, "
    "coordinates: ARRAY<DOUBLE>>"
)

# A paragraph separator RDD.pipe keeps: it strips an element's trailing
# newlines, and a line of one space still ends a paragraph for `dateline`.
PIPE_PARAGRAPH_END = "\n "


def spark_arrow_schema():
    """dateline's record schema with Spark's types: Spark has no unsigned
    integers, so ids, ages and offsets widen to signed; plus the partition
    columns."""
    import pyarrow as pa

    import dateline

    def widen(t: pa.DataType) -> pa.DataType:
        if pa.types.is_struct(t):
            return pa.struct([pa.field(f.name, widen(f.type), f.nullable) for f in t])
        if pa.types.is_list(t):
            return pa.list_(widen(t.value_type))
        if t in (pa.uint16(), pa.uint32()):
            return pa.int64()
        return t

    fields = [pa.field(f.name, widen(f.type), f.nullable) for f in dateline.record_schema()]
    return pa.schema(fields + [pa.field("year", pa.int32()), pa.field("country", pa.string())])


def parse_batches(batches: Iterator, paragraphs: bool) -> Iterator:
    """mapInArrow's function: caption batches in, record batches out.

    Runs in the Python worker; ``dateline`` is imported (and its gazetteer
    decoded) once per worker process. ``threads=1``: Spark already runs one
    task per core."""
    import pyarrow as pa
    import pyarrow.compute as pc

    import dateline

    schema = spark_arrow_schema()
    for batch in batches:
        texts = batch.column(0)
        if paragraphs:
            # As `dateline parse` reads a text file: each paragraph split
            # into its captions.
            texts = pa.array(
                [c["text"] for p in texts.to_pylist() if p is not None for c in dateline.segment(p)],
                type=pa.string(),
            )
        table = dateline.parse_arrow(texts, threads=1)
        year = pc.year(table.column("date_created")).cast(pa.int32())
        country = pc.struct_field(table.column("location"), "country_code")
        table = table.append_column("year", year).append_column("country", country)
        for out in table.cast(schema).to_batches():
            yield out


def read_captions(spark, path: str, input_format: str, text_field: str):
    """A one-column DataFrame `text`: paragraphs (text) or captions (jsonl)."""
    from pyspark.sql import functions as F

    if input_format == "text":
        # One row per blank-line separated paragraph.
        return spark.read.option("lineSep", "\n\n").text(path).select(F.col("value").alias("text"))
    frame = spark.read.json(path)
    if text_field not in frame.columns:
        raise SystemExit(f"parse_captions: no field {text_field!r} in {path} (fields: {', '.join(frame.columns)})")
    return frame.select(F.col(text_field).cast("string").alias("text")).where(F.col("text").isNotNull())


def with_package(spark, captions, input_format: str):
    from pyspark.sql.pandas.types import from_arrow_schema

    paragraphs = input_format == "text"
    return captions.mapInArrow(
        lambda batches: parse_batches(batches, paragraphs), from_arrow_schema(spark_arrow_schema())
    )


def with_binary(spark, captions, binary: str):
    from pyspark.sql import functions as F

    lines = captions.rdd.map(lambda row: row.text.replace("\r", "") + PIPE_PARAGRAPH_END).pipe(
        f"{binary} parse --threads 1", env={"LC_ALL": "C.UTF-8"}, checkCode=True
    )
    records = spark.createDataFrame(lines.map(lambda line: (line,)), "json STRING").select(
        F.from_json("json", RECORD_DDL).alias("r")
    )
    return records.select("r.*").withColumns(
        {
            "year": F.substring("date_created", 1, 4).cast("int"),
            "country": F.col("location.country_code"),
        }
    )


def spread(captions, parallelism: int):
    """At least one partition per core: a single small file is one split,
    which would leave all but one core idle."""
    if captions.rdd.getNumPartitions() < parallelism:
        return captions.repartition(parallelism)
    return captions


def run(spark, args) -> None:
    captions = read_captions(spark, args.input, args.input_format, args.text_field)
    captions = spread(captions, spark.sparkContext.defaultParallelism)
    if args.engine == "package":
        records = with_package(spark, captions, args.input_format)
    else:
        records = with_binary(spark, captions, args.dateline_binary)
    (
        # One file per year and country rather than one per task in each
        # of hundreds of directories (small files cost more to write and
        # to read than the shuffle that gathers them).
        records.repartition("year", "country")
        .write.mode("overwrite")
        .option("compression", "zstd")
        .partitionBy("year", "country")
        .parquet(args.output)
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The job's arguments (``sys.argv`` when ``argv`` is None)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="files or a glob of captions")
    parser.add_argument("--input-format", choices=["text", "jsonl"], default="text")
    parser.add_argument("--text-field", default="text", help="the caption's field in JSON Lines")
    parser.add_argument("--output", required=True, help="a directory for the Parquet files")
    parser.add_argument("--engine", choices=["package", "pipe"], default="package")
    parser.add_argument(
        "--dateline-binary",
        default="./dateline",
        help="the binary for --engine pipe, as executors see it (./dateline with --files dateline)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("dateline-parse-captions").getOrCreate()
    try:
        run(spark, args)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
