"""Shared fixtures: the repository, the CLI binary and the shared dev sets.

The dev sets live in ``../shared/eval`` beside the repository; tests that
need them skip with a message where it is absent, and fail under
``CI=true``, where it must be present.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared"
DEV_SETS = ["dev.jsonl", "dev-world.jsonl", "dev-pages.jsonl"]


def cli_path() -> Path:
    """The binary: ``$DATELINE``, or ``CARGO_TARGET_DIR``'s (else
    ``target/``'s) ``$DATELINE_PROFILE_DIR/dateline`` (``release`` unless
    CI says ``debug``, the build its Rust tests already made)."""
    if os.environ.get("DATELINE"):
        return Path(os.environ["DATELINE"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / os.environ.get("DATELINE_PROFILE_DIR", "release") / "dateline"


@pytest.fixture(scope="session")
def cli() -> Path:
    path = cli_path()
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing: build it with `cargo build [--release] -p dateline`")
        pytest.skip(f"{path} is missing: build it with `cargo build [--release] -p dateline`")
    return path


def run_cli(cli: Path, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli), *args], input=input, capture_output=True, check=False)


def dev_texts(name: str) -> list[str]:
    path = SHARED / "eval" / name
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing; CI runs with ../shared beside the repository")
        pytest.skip(f"{path} is absent (../shared is not beside the repository)")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line)["text"] for line in f if line.strip()]


def write_paragraphs(path: Path, texts: list[str]) -> Path:
    """Captions as ``dateline parse`` reads them: blank-line separated."""
    path.write_text("".join(t + "\n\n" for t in texts), encoding="utf-8")
    return path


# Written for these tests; every agency and date convention here is one the
# record contract names.
CAPTIONS = [
    "Boys play football near the old port in Tartus, Syria, June 4, 2019. REUTERS/Lina Farah",
    "A vendor arranges oranges at a market in Sidon, Lebanon, on Tuesday, March 5, 2013. (AP Photo/Karim Haddad)",
    "Rescue workers search the rubble of a building in Antakya, Turkey, February 8, 2023. "
    "The quake killed thousands. (Photo by Selin Aksoy/AFP via Getty Images)",
    "FILE PHOTO: Smoke rises over the skyline of Mosul, Iraq, October 17, 2016. REUTERS/Omar Saleh/File Photo",
    "An empty street at dawn.",
    "Nadia Haddad, 9, holds her brother's hand at a camp near Zahle, Lebanon, in this handout picture "
    "released on January 3, 2014. UNICEF/Handout via REUTERS",
]
