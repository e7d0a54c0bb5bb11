// Import: writes the principal's node with the exported properties when it is new
// (the import's seqs come from a block it reserved before its transaction).
MERGE (principal:Principal {id: $principal})
  ON CREATE SET principal += $props
