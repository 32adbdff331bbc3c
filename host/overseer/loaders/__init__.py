"""The game data loaders: the only code that reads data/<game>/ files, each into one frozen
value the rules take as an argument."""
