"""Formation (design §6): turning an episode's structured parts into beliefs."""
