"""Checks that every acknowledged correction (lines "ID NOTE" on stdin) is
in the archive's review log; used by serve-load.sh after the SIGKILL."""
import sqlite3
import sys

archive = sys.argv[1]
acked = [line.split(" ", 1) for line in sys.stdin.read().splitlines() if line.strip()]
db = sqlite3.connect(f"file:{archive}/archive.sqlite3?mode=ro", uri=True)
notes = {row[0] for row in db.execute("SELECT note FROM review_log WHERE reviewer = 'load'")}
missing = [note for _, note in acked if note not in notes]
print(f"acknowledged corrections: {len(acked)}; in the review log: {len(acked) - len(missing)}; missing: {len(missing)}")
sys.exit(1 if missing else 0)
