"""``python -m graphmem``: the same as the ``graphmem`` command."""

from graphmem.cli import main

main()
