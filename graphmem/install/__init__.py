"""Attaching graphmem to an agent host: ``graphmem install|uninstall HOST`` and ``doctor``.

The host's own settings files are edited as text: graphmem's entries are inserted and
removed without touching a byte of anything else, so an install followed by an
uninstall gives the file back exactly as it was (docs/serving-agents.md).
"""
