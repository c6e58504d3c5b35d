"""The Spark job on a generated corpus in ``local[2]``: both engines give the
CLI's records, and each one's captions per second per core is reported
beside the CLI's in the same run.

Run: ``pytest -s examples/spark/test_parse_captions.py`` with the wheel
installed, ``dateline`` and ``xtask`` built in release mode (or
``DATELINE_PROFILE_DIR=debug``) and Java 17+.
``SPARK_TEST_CAPTIONS`` sets the corpus size (default 100000);
``SPARK_FIGURES=FILE`` also writes the figures as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import parse_captions  # noqa: E402

CAPTIONS = int(os.environ.get("SPARK_TEST_CAPTIONS", "100000"))
CORES = 2


def release_binary(name: str) -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    # `debug` in CI, which checks records, not speed, with the build its
    # Rust tests made; the figures come from release builds.
    path = target / os.environ.get("DATELINE_PROFILE_DIR", "release") / name
    if not path.exists():
        pytest.fail(f"{path} is missing: cargo build [--release] -p dateline -p xtask")
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """CAPTIONS generated captions as a text file and as JSON Lines."""
    tmp = tmp_path_factory.mktemp("corpus")
    # About 320 bytes a caption; generate a little more and cut.
    mb = max(1, CAPTIONS * 400 // 1_000_000 + 1)
    raw = tmp / "raw.txt"
    subprocess.run([str(release_binary("xtask")), "corpus", "--mb", str(mb), "--out", str(raw)], check=True,
                   capture_output=True)
    paragraphs = raw.read_text(encoding="utf-8").split("\n\n")[:CAPTIONS]
    assert len(paragraphs) == CAPTIONS
    text = tmp / "captions.txt"
    text.write_text("".join(p + "\n\n" for p in paragraphs), encoding="utf-8")
    jsonl = tmp / "captions.jsonl"
    with open(jsonl, "w", encoding="utf-8") as f:
        for p in paragraphs:
            f.write(json.dumps({"text": p, "source": "generated"}) + "\n")
    return text, jsonl


@pytest.fixture(scope="module")
def cli_run(corpus):
    """The CLI's records and its captions per second on one core."""
    text, _ = corpus
    start = time.perf_counter()
    out = subprocess.run([str(release_binary("dateline")), "parse", "--threads", "1", str(text)],
                         check=True, capture_output=True)
    seconds = time.perf_counter() - start
    records = [json.loads(line) for line in out.stdout.decode().splitlines()]
    return records, len(records) / seconds


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master(f"local[{CORES}]")
        .appName("dateline-test")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.shuffle.partitions", str(CORES))
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    # The workers unpickle the job's functions by module name.
    session.sparkContext.addPyFile(str(HERE / "parse_captions.py"))
    yield session
    session.stop()


FIGURES: dict = {}


def iso(date, precision):
    if date is None:
        return None
    return {"day": date.isoformat(), "month": date.isoformat()[:7], "year": date.isoformat()[:4]}[precision]


def canonical(row: dict) -> dict:
    """A row read back from either engine's Parquet, as the JSON record."""
    row = dict(row)
    if "date_created_precision" in row:  # the package's typed dates
        row["date_created"] = iso(row["date_created"], row.pop("date_created_precision"))
        row["dates"] = [
            {"date": iso(d["date"], d["precision"]), "role": d["role"], "text": d["text"], "span": d["span"]}
            for d in row["dates"]
        ]
    stated = row.get("stated")
    if stated is not None and "latitude" in stated:  # typed: two floats, JSON: [lat, lon]
        lat, lon = stated.pop("latitude"), stated.pop("longitude")
        stated["coordinates"] = None if lat is None else [lat, lon]
    return row


def key(record: dict) -> str:
    return json.dumps(record, sort_keys=True)


def read_back(path: Path) -> list[dict]:
    import pyarrow.dataset as ds

    table = ds.dataset(str(path), format="parquet").to_table()
    assert "year" not in table.column_names  # a partition column, in the directory names
    return [canonical(r) for r in table.to_pylist()]


@pytest.mark.parametrize(
    "engine, input_format",
    [("package", "jsonl"), ("package", "text"), ("pipe", "text")],
)
def test_the_job_gives_the_clis_records(spark, corpus, cli_run, tmp_path, engine, input_format):
    text, jsonl = corpus
    cli_records, cli_per_second = cli_run
    args = [
        "--input", str(jsonl if input_format == "jsonl" else text),
        "--input-format", input_format,
        "--output", str(tmp_path / "out"),
        "--engine", engine,
        "--dateline-binary", str(release_binary("dateline")),
    ]
    start = time.perf_counter()
    parse_captions.run(spark, parse_captions.parse_args(args))
    seconds = time.perf_counter() - start

    got = read_back(tmp_path / "out")
    assert len(got) == len(cli_records)
    assert sorted(map(key, got)) == sorted(map(key, cli_records))
    partitions = {p.name.split("=")[0] for p in (tmp_path / "out").iterdir() if "=" in p.name}
    assert partitions == {"year"}
    assert any("=" in q.name and q.name.startswith("country=") for p in (tmp_path / "out").iterdir()
               if p.is_dir() for q in p.iterdir())

    per_core = len(got) / seconds / CORES
    FIGURES[f"{engine}/{input_format}"] = {
        "captions": len(got), "seconds": round(seconds, 2), "captions_per_second_per_core": round(per_core),
    }
    FIGURES["cli --threads 1"] = {"captions_per_second": round(cli_per_second)}
    print(f"\n{engine} engine, {input_format} input, local[{CORES}]: {len(got)} captions in {seconds:.1f} s = "
          f"{per_core:,.0f} captions/s per core; CLI on one core: {cli_per_second:,.0f} captions/s")
    if os.environ.get("SPARK_FIGURES"):
        Path(os.environ["SPARK_FIGURES"]).write_text(json.dumps(FIGURES, indent=2) + "\n")

