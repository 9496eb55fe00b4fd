"""The model: what a puzzle is, and everything that knows about puzzles without solving them.

At the top: the interface every kind declares (``puzzle``), the exact cover with colours that every kind
compiles to (``xcc``), the independent verifier (``verify``), the built-in puzzles (``catalog``), the errors
every layer raises (``errors``), where the shipped data lives (``data``) and declared ranges (``ranges``).
The rooms: ``kinds`` (one kind a module), ``files`` (one reader or writer a module), ``estimates`` (Owen's
model, Selby's tilability, symmetry counts), ``make`` (generators, scramble, hints), ``forms`` (counting the
forms themselves), ``proofs`` (proofs about boards).

The modules moved into the rooms keep answering at their old names (``puzzles.edge`` is
``puzzles.kinds.edge``, the same module), with a ``DeprecationWarning``, so that plug-ins and notebooks written
against them go on working for a release (``_moved``)."""

from ._moved import install as _install

_install()
