"""Session capture: hook events in, spool, signals, consolidation (docs/capture.md)."""
