"""News-photo captions to structured IPTC records.

The engine of the ``dateline`` command line, in-process: the same parser,
the same embedded GeoNames gazetteer, the same records (the contract in
``RECORD.md``: credit, date taken, place, persons, organizations, flags).
Parsing runs in Rust with the GIL released, so Python threads and the
``threads`` arguments below parse in parallel.

>>> import dateline
>>> record = dateline.parse("Men walk in Aleppo, Syria, May 2, 2016. REUTERS/Jane Doe")
>>> record["credit"]["creators"], record["date_created"], record["location"]["city"]
(['Jane Doe'], '2016-05-02', 'Aleppo')
"""

from __future__ import annotations

import json as _json
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Union

from . import _dateline
from ._dateline import ArchiveError, __version__

if TYPE_CHECKING:
    import pandas
    import pyarrow

__all__ = [
    "Archive",
    "ArchiveError",
    "parse",
    "parse_arrow",
    "parse_many",
    "record_schema",
    "segment",
    "to_pandas",
    "__version__",
]

Text = Union[str, bytes]


def parse(text: Text) -> dict[str, Any]:
    """Parse one caption into its record, exactly as ``dateline parse``
    prints it (a JSON object, here a dict).

    ``text`` is one caption (any whitespace). ``bytes`` are read as UTF-8:
    invalid sequences are replaced with U+FFFD and a ``UnicodeWarning``
    names the first bad byte, as the CLI warns. Anything else raises
    ``TypeError``. Parsing never fails: what the caption does not say is
    ``None`` or ``[]`` or a flag.
    """
    return _json.loads(_dateline.parse_json(text))


def parse_many(texts: Iterable[Text], threads: Optional[int] = None) -> Iterator[dict[str, Any]]:
    """Parse captions lazily, in order, on ``threads`` threads (default: one
    per core) with the GIL released.

    Items are pulled from ``texts`` a chunk at a time, so memory stays flat
    over an endless iterable. A bad item (not ``str`` or ``bytes``) raises
    ``TypeError`` naming its position, after the records before it.
    """
    for record in _dateline.ParseMany(texts, threads):
        yield _json.loads(record)


def segment(text: Text) -> list[dict[str, Any]]:
    """Split text into captions, as ``dateline parse`` does within a
    paragraph: page chrome (counters, buttons, headlines) dropped, a credit
    on its own line joined to its caption.

    Each caption is ``{"text", "start", "end", "truncated"}``; ``start`` and
    ``end`` are UTF-8 byte offsets into ``text`` (as the record's spans are),
    ``truncated`` says the caption ends in ``...more`` or ``…``.
    """
    return _dateline.segment(text)


def record_schema() -> "pyarrow.Schema":
    """The Arrow schema of :func:`parse_arrow`'s tables: one column per
    record field, nested where the record nests; dates as ``date32`` (the
    first day of the period) with a ``precision`` of ``day``, ``month`` or
    ``year``; spans as ``[start, end)`` byte offsets."""
    return _dateline.record_schema()


def _string_chunks(data: Any, column: str) -> list[Any]:
    """The chunks of the caption column of ``data``, as Arrow arrays."""
    import pyarrow as pa

    if isinstance(data, (pa.Table, pa.RecordBatch)):
        if column not in data.column_names:
            raise KeyError(f"no column {column!r} (columns: {', '.join(data.column_names)})")
        data = data.column(column)
    elif hasattr(data, "columns") and hasattr(data, "__getitem__") and not isinstance(data, pa.Array):
        data = pa.array(data[column])  # a pandas DataFrame
    if isinstance(data, pa.ChunkedArray):
        return list(data.chunks)
    if isinstance(data, pa.Array):
        return [data]
    if hasattr(data, "__arrow_c_array__"):
        return [pa.array(data)]
    return [pa.array(list(data) if not hasattr(data, "__len__") else data, type=pa.string())]


def parse_arrow(data: Any, column: str = "text", threads: Optional[int] = None) -> "pyarrow.Table":
    """Parse a column of captions into a ``pyarrow.Table`` of records, one
    row per input row (a null caption gives a row of nulls).

    ``data`` is a ``pyarrow`` Array, ChunkedArray, RecordBatch or Table
    (then ``column`` names the captions), a pandas Series or DataFrame, or
    any iterable of ``str``. Arrow strings (``string``, ``large_string``,
    ``string_view``) are read in place and the result is handed over
    through the Arrow C data interface, without copies. See
    :func:`record_schema` for the columns.
    """
    import pyarrow as pa

    batches = []
    for chunk in _string_chunks(data, column):
        batches.extend(_dateline.parse_arrow_array(chunk, threads))
    return pa.Table.from_batches(batches, schema=record_schema())


def to_pandas(data: Any, column: str = "text", threads: Optional[int] = None) -> "pandas.DataFrame":
    """:func:`parse_arrow` as a pandas DataFrame: strings as ``str``, nested
    fields as dicts and lists, dates as ``datetime.date``."""
    return parse_arrow(data, column, threads).to_pandas()


class Archive:
    """A dateline archive (made by ``dateline ingest``), opened read-only.

    Errors (no archive there, a damaged store) raise :class:`ArchiveError`
    with the message ``dateline`` prints.
    """

    def __init__(self, path: "Union[str, bytes, Any]") -> None:
        self._native = _dateline.Archive(path)

    @property
    def path(self) -> str:
        """The archive's directory."""
        return str(self._native.path)

    def search(
        self,
        query: Optional[str] = None,
        *,
        agency: Optional[str] = None,
        creator: Optional[str] = None,
        country: Optional[str] = None,
        city: Optional[str] = None,
        province: Optional[str] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        flag: Optional[str] = None,
        near: Optional[tuple[float, float, float]] = None,
        person: Optional[str] = None,
        org: Optional[str] = None,
        facets: bool = False,
        limit: int = 20,
    ) -> dict[str, Any]:
        """Search as ``dateline search --json`` does, with the same query
        syntax (``"a phrase"``, ``-word``, ``a OR b``) and filters
        (``date_from``/``date_to`` are ``--from``/``--to``; ``near`` is
        ``(lat, lon, km)``). Returns ``{"total", "hits": [{"id", "score",
        "snippet", "highlights", "record"}], "facets"}``."""
        # Every keyword argument above, by name, as the native side takes
        # them (locals() read here: inside a comprehension it is the
        # comprehension's own before Python 3.12).
        filters = dict(locals())
        del filters["self"], filters["query"]
        return _json.loads(self._native.search_json(query, **filters))

    def show(self, id: str) -> Optional[dict[str, Any]]:
        """A record with its variants and occurrences, as ``dateline show``
        gives it; ``None`` when no record has that id."""
        found = self._native.show_json(id)
        return None if found is None else _json.loads(found)

    def __repr__(self) -> str:
        return f"dateline.Archive({self.path!r})"
