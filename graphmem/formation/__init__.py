"""Formation (docs/formation.md): turning an episode's structured parts into beliefs."""
