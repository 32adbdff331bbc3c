"""The toy game's rulebook: the one section its steps cite."""

TAKE = "Toy: Taking a coin"
