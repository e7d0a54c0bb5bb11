"""Context injection: what a hook adds to an agent's context (docs/capture.md#injection)."""
