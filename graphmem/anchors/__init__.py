"""Code anchors: tree-sitter derives the code graph; beliefs anchor to its symbols.

The derived code graph (``:File``, ``:Symbol``, ``CONTAINS``, ``REFERENCES``) is a pure
function of source. Nothing here creates, changes or deletes a memory node (rule 1).
"""
