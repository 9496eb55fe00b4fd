"""Progress of long work when nobody watches a terminal: a log line every ``EVERY_S`` seconds.

On a terminal the CLI and the runner draw live bars (rich); when stderr is a
file or a pipe (CI, nohup, a batch system) those draw nothing until the end,
so ``LogLines`` turns the same progress callbacks into one line on stderr
every ``EVERY_S`` seconds: enough to see a run is alive, not enough to flood a log.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

EVERY_S = 15.0


def describe(info: dict) -> str:
    """One progress report as a line of ``key value`` pairs."""
    return "  ".join(
        f"{k} {v:,}"
        if isinstance(v, int) and not isinstance(v, bool)
        else f"{k} {v:.3g}"
        if isinstance(v, float)
        else f"{k} {v}"
        for k, v in info.items()
    )


class LogLines:
    """A progress callback that writes ``prefix: key value ...`` at most once every ``every`` seconds;
    a new best score (``score`` in the info: rare, and what a long best-mode run is watched for)
    is written at once."""

    def __init__(self, prefix: str, every: float | None = None, stream: TextIO | None = None):
        self.prefix, self.every, self.stream = prefix, EVERY_S if every is None else every, stream or sys.stderr
        self.t0 = self.last = time.monotonic()

    def __call__(self, info: dict, force: bool = False) -> None:
        """Write ``info`` as a line, at most every ``every`` seconds unless ``force``."""
        now = time.monotonic()
        if force or "score" in info or now - self.last >= self.every:
            self.last = now
            print(f"{self.prefix}: [{now - self.t0:.0f} s] {describe(info)}", file=self.stream, flush=True)
