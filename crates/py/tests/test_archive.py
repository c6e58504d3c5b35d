"""``dateline.Archive``: the same search results and errors as the CLI."""

from __future__ import annotations

import json

import pytest

import dateline
from conftest import CAPTIONS, run_cli, write_paragraphs


@pytest.fixture(scope="module")
def archive_dir(cli, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("archive")
    source = write_paragraphs(tmp / "gallery.txt", CAPTIONS)
    done = run_cli(cli, "ingest", "--archive", str(tmp / "a"), str(source))
    assert done.returncode == 0, done.stderr.decode()
    return tmp / "a"


@pytest.mark.parametrize(
    "cli_args, kwargs",
    [
        (["rubble"], {"query": "rubble"}),
        (["--facets"], {"facets": True}),
        (["--country", "Lebanon", "--limit", "1"], {"country": "Lebanon", "limit": 1}),
        (["--from", "2014", "--to", "2020", "--agency", "Reuters"],
         {"date_from": "2014", "date_to": "2020", "agency": "Reuters"}),
        (["--near", "34.9,35.9,50"], {"near": (34.9, 35.9, 50)}),
        (["--flag", "file_photo"], {"flag": "file_photo"}),
    ],
)
def test_search_is_the_clis_search_json(cli, archive_dir, cli_args, kwargs):
    out = run_cli(cli, "search", "--archive", str(archive_dir), "--json", *cli_args)
    assert out.returncode == 0, out.stderr.decode()
    assert dateline.Archive(archive_dir).search(**kwargs) == json.loads(out.stdout)


def test_show_gives_a_record_and_none_for_an_unknown_id(cli, archive_dir):
    archive = dateline.Archive(str(archive_dir))
    hit = archive.search("rubble")["hits"][0]
    shown = archive.show(hit["id"])
    assert shown is not None and shown["id"] == hit["id"]
    assert archive.show("0000000000000000") is None


def test_a_missing_archive_raises_the_clis_message(cli, tmp_path):
    missing = tmp_path / "nowhere"
    out = run_cli(cli, "search", "--archive", str(missing), "x")
    assert out.returncode == 1
    message = out.stderr.decode().strip().removeprefix("dateline: error: ")
    with pytest.raises(dateline.ArchiveError) as raised:
        dateline.Archive(missing)
    assert str(raised.value) == message


def test_a_bad_near_is_a_value_error(archive_dir):
    with pytest.raises(ValueError, match="is not LAT,LON,KM"):
        dateline.Archive(archive_dir).search(near=(95.0, 0.0, 1.0))
