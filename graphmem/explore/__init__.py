"""Cross-project views over one principal's memory: overview, changes, anchor drift.

Typed logic over ``graphmem.store``: what a person asks across all of their projects
("what do I know where?", "what changed this week?", "which beliefs did this index
drift?").
"""
