"""``parse``, ``parse_many`` and ``segment`` against the CLI and on bad input."""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
import warnings

import pytest

import dateline
from dateline import _dateline
from conftest import CAPTIONS, DEV_SETS, dev_texts, run_cli, write_paragraphs


# The CLI segments a file before parsing: it may take a dev text for page
# chrome (a lone line with no credit, say) and give it no record. At most
# this share of a set may go that way; every record it does print must be
# the package's record of one dev text, byte for byte, in input order.
MAX_TEXTS_WITHOUT_A_RECORD = 0.02


@pytest.mark.parametrize("name", DEV_SETS)
def test_parse_gives_the_clis_records_byte_for_byte(name, cli, tmp_path):
    texts = dev_texts(name)
    out = run_cli(cli, "parse", str(write_paragraphs(tmp_path / "dev.txt", texts)))
    assert out.returncode == 0, out.stderr.decode()
    lines = out.stdout.decode("utf-8").splitlines()
    ours = [_dateline.parse_json(t) for t in texts]
    # Walk both in order: each CLI line must be the next text's record, or
    # a later one's (texts between them got no record from the CLI).
    matched, at = [], 0
    for line in lines:
        while at < len(ours) and ours[at] != line:
            at += 1
        assert at < len(ours), f"the CLI printed a record no dev text parses to: {line[:300]}"
        matched.append(at)
        at += 1
    skipped = len(texts) - len(matched)
    assert skipped <= MAX_TEXTS_WITHOUT_A_RECORD * len(texts), f"{skipped} of {len(texts)} texts got no CLI record"
    # The JSON the package builds dicts from is the same JSON, field for field.
    assert [dateline.parse(texts[i]) for i in matched] == [json.loads(line) for line in lines]
    assert list(dateline.parse_many(texts, threads=2)) == [json.loads(j) for j in ours]


def test_a_record_has_every_field_of_the_contract():
    record = dateline.parse(CAPTIONS[0])
    assert list(record) == [
        "id", "text", "description", "credit", "date_created", "dates", "location",
        "persons", "organizations", "flags", "image_url", "conflicts", "stated",
    ]
    assert record["credit"]["creators"] == ["Lina Farah"]
    assert record["credit"]["agencies"] == ["Reuters"]
    assert record["date_created"] == "2019-06-04"
    assert record["location"]["country_code"] == "SY"
    assert isinstance(record["location"]["latitude"], float)


def test_parse_many_streams_in_order_on_any_thread_count():
    texts = CAPTIONS * 300
    expected = [dateline.parse(t) for t in texts]
    for threads in (1, 2, 3):
        assert list(dateline.parse_many(texts, threads=threads)) == expected
    # An endless iterable: records come before the input ends.
    endless = itertools.cycle(CAPTIONS)
    first = list(itertools.islice(dateline.parse_many(endless, threads=2), 5))
    assert [r["text"] for r in first] == [dateline.parse(t)["text"] for t in CAPTIONS[:5]]


def test_parse_many_raises_on_a_bad_item_after_the_records_before_it():
    got = []
    with pytest.raises(TypeError, match=r"item 2 must be str or bytes, not NoneType"):
        for record in dateline.parse_many([CAPTIONS[0], CAPTIONS[1], None, CAPTIONS[2]]):
            got.append(record)
    assert len(got) == 2


def test_threads_must_be_positive():
    with pytest.raises(ValueError, match="threads must be at least 1"):
        list(dateline.parse_many(CAPTIONS, threads=0))


@pytest.mark.parametrize("bad", [None, 12, 3.5, ["a caption"], object()])
def test_non_text_is_a_type_error(bad):
    with pytest.raises(TypeError, match="text must be str or bytes"):
        dateline.parse(bad)


def test_invalid_utf8_is_replaced_with_the_clis_warning():
    raw = CAPTIONS[0].encode().replace(b"near the", b"near the caf\xe9 \xff\xfe")
    with pytest.warns(UnicodeWarning, match=r"invalid UTF-8 at byte offset 31 \(3 sequence\(s\) replaced"):
        record = dateline.parse(raw)
    assert "\ufffd" in record["text"]
    assert record["credit"]["agencies"] == ["Reuters"]


def test_valid_bytes_are_the_same_as_str_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert dateline.parse(CAPTIONS[1].encode()) == dateline.parse(CAPTIONS[1])


def test_control_characters_and_lone_surrogates_do_not_crash():
    assert dateline.parse("\x00\x01 \u202e caption \x7f")["text"]
    with pytest.raises(UnicodeEncodeError):
        dateline.parse("half a pair \ud800 here")


def test_a_huge_string_is_parsed():
    huge = (CAPTIONS[2] + " ") * 20_000  # 4 MB in one caption
    start = time.perf_counter()
    record = dateline.parse(huge)
    assert time.perf_counter() - start < 30
    assert record["text"].startswith("Rescue workers")


def test_segment_splits_a_scraped_page():
    page = (
        "Next\n3 / 20\n" + CAPTIONS[0] + "\n\nShare this\n"
        "Women queue for bread in Homs, Syria, May 12, 2014.\nHassan Ammar/AP Photo\n"
    )
    found = dateline.segment(page)
    assert [c["text"] for c in found] == [
        CAPTIONS[0],
        "Women queue for bread in Homs, Syria, May 12, 2014.\nHassan Ammar/AP Photo",
    ]
    raw = page.encode()
    for c in found:
        assert raw[c["start"] : c["end"]].decode() == c["text"]
        assert c["truncated"] is False
    assert dateline.segment("Smoke over the port of Latakia ...more")[0]["truncated"] is True


def test_the_gil_is_released_while_parsing():
    # Another Python thread keeps running while one parses a large caption.
    huge = (CAPTIONS[2] + " ") * 8_000
    done = threading.Event()
    ticks = 0

    def parse():
        dateline.parse(huge)
        done.set()

    worker = threading.Thread(target=parse)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.0005)
    worker.join()
    assert ticks > 10


def test_two_python_threads_parse_at_once():
    # Two threads parsing together use more CPU time than the wall time
    # they take only if both run at once, which the GIL would forbid:
    # then two threads parse faster than one. Wall times alone are too
    # noisy on a shared 2-core VM (one thread 0.06 s against two 0.05 s
    # in one CI run); CPU time per thread is not. On a machine busy with
    # other work neither reaches its idle figure, so the two-thread figure
    # is held against the one-thread figure of the same moment.
    # With every core taken by other work, two threads get no more CPU
    # than one whether or not the GIL is held: nothing can be measured.
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    if load >= cores:
        pytest.skip(f"load average {load:.1f} on {cores} cores: no core free to run a second thread")
    texts = CAPTIONS * 1_500
    dateline.parse(texts[0])  # decode the gazetteer first

    def cpu_per_wall(n_threads: int) -> float:
        cpu: list[float] = []

        def work(part: list[str]) -> None:
            start = time.thread_time()
            for text in part:
                _dateline.parse_json(text)
            cpu.append(time.thread_time() - start)

        parts = [texts[i::2] for i in range(2)][:n_threads]
        workers = [threading.Thread(target=work, args=(part,)) for part in parts]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return sum(cpu) / (time.perf_counter() - start)

    # Best of three: on two idle cores one thread gives about 1.0 and two
    # 1.3 to 1.9; with the GIL held, two give what one does.
    one = max(cpu_per_wall(1) for _ in range(3))
    two = max(cpu_per_wall(2) for _ in range(3))
    assert two > 1.25 * one, f"two threads used {two:.2f} s of CPU per second, one {one:.2f}"
