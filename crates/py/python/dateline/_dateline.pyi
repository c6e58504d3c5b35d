"""Type stubs of the native module; the documented API is ``dateline``."""

from os import PathLike
from typing import Any, Iterable, Iterator, Optional, Union

import pyarrow

__version__: str

class ArchiveError(Exception): ...

def parse_json(text: Union[str, bytes]) -> str: ...
def segment(text: Union[str, bytes]) -> list[dict[str, Any]]: ...
def parse_arrow_array(array: Any, threads: Optional[int] = None) -> list[pyarrow.RecordBatch]: ...
def record_schema() -> pyarrow.Schema: ...

class ParseMany(Iterator[str]):
    def __new__(cls, texts: Iterable[Union[str, bytes]], threads: Optional[int] = None) -> "ParseMany": ...
    def __iter__(self) -> "ParseMany": ...
    def __next__(self) -> str: ...

class Archive:
    def __new__(cls, path: Union[str, PathLike[str]]) -> "Archive": ...
    @property
    def path(self) -> str: ...
    def search_json(
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
    ) -> str: ...
    def show_json(self, id: str) -> Optional[str]: ...
