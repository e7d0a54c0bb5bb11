"""One adapter per agent host: its payload in, a HookEvent out (standard library only)."""
