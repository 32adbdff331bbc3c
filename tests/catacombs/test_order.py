"""Which AI piece acts next (order.first_in_order): a Character Order tile or a Monster Order
tile that is not laid out sorts after every one that is."""

from __future__ import annotations

import json

from overseer import documents, games
from overseer.core.records import DATA_DIR
from overseer.rules.catacombs import order


def demo_battle():
    demo = json.loads((DATA_DIR / "demo" / "catacombs.json").read_text())
    return games.CATACOMBS.build(documents.setup_of(demo, games.CATACOMBS))


def test_a_character_tile_not_laid_out_comes_after_every_laid_out_one():
    battle = demo_battle()
    battle.pieces["rat-1"].order_tile = "level-9"  # no such tile on the table
    battle.acted.extend(["centaur-1", "orc-1", "orc-2"])
    assert order.first_in_order(battle) == ([battle.pieces["wraith-1"]], "character_tile")
    battle.acted.append("wraith-1")
    assert order.first_in_order(battle) == ([battle.pieces["rat-1"]], "character_tile")


def test_a_monster_tile_not_laid_out_comes_after_every_laid_out_one_on_a_shared_tile():
    battle = demo_battle()
    battle.pieces["rat-1"].type = "white"  # a family colour not laid out
    battle.acted.extend(["orc-1", "orc-2"])
    assert order.first_in_order(battle) == ([battle.pieces["centaur-1"]], "monster_tile")
    battle.acted.append("centaur-1")
    assert order.first_in_order(battle) == ([battle.pieces["rat-1"]], "character_tile")
