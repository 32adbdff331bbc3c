"""Catacombs Conquest: the rules book-keeping engine (seed 002_537138dd24e99996.txt)."""
