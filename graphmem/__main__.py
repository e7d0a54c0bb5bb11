"""``python -m graphmem``: the same as the ``graphmem`` command."""

from graphmem.launcher import main

main()
