"""Races of forked processes (``solving.race``): a dead child is reported, the settling answer stops the rest."""

import os
import time

import pytest

from solving.race import race


@pytest.mark.timing
def test_race_reports_a_dead_child_and_stops_at_the_settling_answer():
    def dies(stop):
        os._exit(3)

    def slow(stop):
        time.sleep(30)
        return "slow"

    def quick(stop):
        return "quick"

    t = time.monotonic()
    out = race([dies, slow, quick], settles=lambda r: r == "quick")
    assert time.monotonic() - t < 10
    by = {o.index: o for o in out}
    assert by[2].result == "quick"
    assert by[0].error.startswith("process died") or by[0].error.startswith("stopped")
    assert by[1].error == "stopped before it reported"
