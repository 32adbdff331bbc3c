"""Runebound: The Cataclysm, the helper pack: setup, curse progress, trading, market, victory."""
