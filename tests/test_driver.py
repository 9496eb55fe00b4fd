"""The driver of the resumable kernels (``baseline.runtime.driver``): the restart schedule."""

from baseline.runtime.driver import luby


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
