"""How long this machine's disk takes to make one table-log record durable, by how
long it rested since the last one.

The table's log writes each record before anyone hears of its action: one 4 KiB block
(the log's last) written again with ``O_DIRECT | O_DSYNC`` into room made earlier,
as ``net/logaio.py`` has the kernel do it. Here the same write is made synchronously,
300 times per spacing, into a file of zeros in the data folder's file system (the
temporary folder by default), with the processor kept busy between writes (as the
server is, building the action's views) or asleep (as a table between two players'
moves). On a virtual machine the host's side of the disk may cool down between
writes: the spacing then sets the time as much as the disk does.

Usage: ``.venv/bin/python scripts/bench_disk.py`` (≈ 5 s). Linux only (``O_DIRECT``).
"""

from __future__ import annotations

import mmap
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

from poissonnier_tui.hosting.persistence import DATA_DIR_ENV  # noqa: E402

BLOCK = 4096
"""Bytes of one write: the log's last block, as the server's direct writes go."""
WRITES = 300
"""Writes per spacing."""
SPACINGS_MS = (0.0, 0.2, 0.5, 1.0, 2.0, 5.0)
"""Rest between two writes, in ms (the server figure of ``scripts/bench.py``: ≈ 1 ms)."""


def durable_writes(fd: int, block: mmap.mmap, spacing: float, busy: bool) -> list[float]:
    """:data:`WRITES` writes of ``block`` at offset 0 of ``fd``, ``spacing`` seconds
    apart (spinning if ``busy``, else asleep); each write's µs."""
    took = []
    for _ in range(WRITES):
        if busy:
            rest = time.perf_counter()
            while time.perf_counter() - rest < spacing:
                pass
        elif spacing:
            time.sleep(spacing)
        start = time.perf_counter()
        os.pwrite(fd, block, 0)
        took.append((time.perf_counter() - start) * 1e6)
    return took


def main() -> int:
    """Print one row per spacing and way of resting: p50 and p90 of a durable write."""
    if not hasattr(os, "O_DIRECT"):
        print("no O_DIRECT on this platform", file=sys.stderr)
        return 1
    folder = Path(tempfile.mkdtemp(prefix="disk-", dir=os.environ.get(DATA_DIR_ENV) or None))
    path = folder / "log"
    try:
        path.write_bytes(bytes(16 * BLOCK))  # written zeros: no extent to convert on write
        fd = os.open(path, os.O_WRONLY | os.O_DIRECT | os.O_DSYNC)
        block = mmap.mmap(-1, BLOCK)  # page-aligned, as O_DIRECT needs
        try:
            durable_writes(fd, block, 0.0, True)  # warm-up
            print(f"durable {BLOCK}-byte writes ({WRITES} each) into {folder}")
            print("| rest before each write | p50 | p90 |")
            print("| --- | --- | --- |")
            rests = [(ms, True) for ms in SPACINGS_MS] + [(1.0, False), (5.0, False)]
            for ms, busy in rests:
                took = sorted(durable_writes(fd, block, ms / 1000, busy))
                how = "busy" if busy else "asleep"
                print(
                    f"| {ms:g} ms, {how} | {statistics.median(took):.0f} µs "
                    f"| {took[int(len(took) * 0.9)]:.0f} µs |"
                )
        finally:
            os.close(fd)
    finally:
        path.unlink(missing_ok=True)
        folder.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
