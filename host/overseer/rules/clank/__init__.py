"""Clank! Catacombs: Lairs and Lost Chambers, the helper pack (seed 003_dd4e7df731101ec5.txt)."""
