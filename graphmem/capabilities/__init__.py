"""What a :class:`~graphmem.GraphMem` can do, one object per capability.

The client is a facade: it connects, then composes these, each holding what it needs of
one :class:`~graphmem.capabilities.context.Context` (the connection, the principal,
the recall engine). Every capability checks its arguments, calls the typed logic
(recall/, formation/, anchors/, explore/, transfer/) and the store, and returns models.

- :mod:`.memory`: episodes and beliefs, written, changed and read one by one.
- :mod:`.formation`: beliefs formed from episodes, re-derivation, formation hints.
- :mod:`.recall`: recall, episode search, snapshots; traces, citations, the views.
- :mod:`.code`: the derived code graph and the anchors of beliefs.
- :mod:`.views`: listings across the principal's memory: projects, beliefs, changes.
- :mod:`.transfer`: export and import.
"""
