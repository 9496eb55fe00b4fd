"""The hand-written searches, one family a package: ``xcc``, ``poly``, ``edge`` and ``beam``, on the
shared ``runtime``.  Families import ``runtime`` and, where they build on one another, the family below
(``beam`` on ``edge``, ``xcc`` and ``poly``; ``xcc`` on ``poly``): docs/ARCHITECTURE.md."""
