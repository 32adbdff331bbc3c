"""The game-neutral contract every game's rules are written against: procedures that ask
(``procedure``), move tables and typed parameters (``moves``, ``params``), chance and dice
(``chance``, ``dice``), the TOML record reader (``records``) and the JSON shape checker
(``shapes``). Nothing here knows a game."""
