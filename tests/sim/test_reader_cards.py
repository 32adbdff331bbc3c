"""The virtual reader's cards: every card record in data/, found by label, name or id."""

import pytest

from overseer.loaders import catacombs as catacombs_loader
from overseer.loaders.conquest import load_cards
from overseer.sim import cards
from overseer.sim.cards import Card, UnknownCard, find


def test_every_card_of_the_data_is_there():
    have = {(c.game, c.kind, c.id) for c in cards.catalogue()}
    data = catacombs_loader.default()
    for kind, table in (("monster", data.monsters), ("room", data.rooms), ("lord", data.lords)):
        assert {("catacombs", kind, r["id"]) for r in table.values()} <= have
    assert {("conquest", "card", c) for c in load_cards()} <= have
    assert len(have) == len(cards.catalogue())  # each once


def test_the_hero_cards_are_the_heroes_the_tags_are_written_for():
    from overseer.devices.tags import cards as tagged

    heroes = [c for c in cards.catalogue() if c.kind == "hero"]
    assert heroes[0] == Card("catacombs", "hero", "elf", "Elf")
    # the picker lists every card as the tags go (the game's record's cards)
    assert [(c.game, c.kind, c.id, c.name) for c in cards.catalogue()
            if c.game == "catacombs"] == [
        (ref.game, ref.kind, ref.card, name) for ref, name in tagged("catacombs")]


def test_found_by_label_name_or_id():
    every = cards.catalogue()
    orc = find("orc", every)
    assert (orc.game, orc.kind, orc.id) == ("catacombs", "monster", "orc")
    assert find("  THE outer   bailey ", every).id == "the-outer-bailey"
    assert find(orc.label, every) == orc


def test_unknown_and_ambiguous_text_is_refused_with_the_closest():
    every = cards.catalogue()
    with pytest.raises(UnknownCard, match="no card 'orcc' in data/; did you mean 'monster: Orc"):
        find("orcc", every)
    twins = [Card("catacombs", "hero", "elf", "Elf"), Card("conquest", "card", "elf", "Elf")]
    with pytest.raises(UnknownCard, match="names 2 cards"):
        find("elf", twins)
    with pytest.raises(UnknownCard, match="type a card's name"):
        find(" ", every)
