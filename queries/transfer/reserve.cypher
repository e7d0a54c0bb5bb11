// Import: locks the clock first, as every memory write does (a write of another
// property takes the lock before seq is read; see belief/create), reserves $count seqs
// for the imported records and returns the seq before them; the principal's node is
// written with the exported properties when it is new.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + $count
WITH clock.seq - $count AS base
MERGE (principal:Principal {id: $principal})
  ON CREATE SET principal += $props
RETURN base
