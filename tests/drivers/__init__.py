"""What only the tests use, shared by more than one of their folders: tables that play scripted
games (Catacombs, Conquest, on the virtual Pico, with the web page), the session's scripted
steps, the random games' moves, seeded cases and the virtual board's fault checks."""
