"""A whole four-player Catacombs Conquest game through the virtual Pico (the real firmware and
protocol, presses on the board's pins), the emulated PN532 reader behind a pty (every card a
written NTAG215 sticker placed on it, read by nfcpy) and the seat LEDs on gpiozero's mock PWM
pins: the Quick Tutorial's seven turns (a capture, kept armour spent, a stun, a surprise
attack, a Power Wave), then three turns to the end with an undo (BACK held) and redo, the
host restarted in the middle of a card and resumed, and a Power Wave with a card discarded
that empties the Sword Team's pool. Every frame is checked on the board's OLED (pico_table
waits for it); the LED pins' histories, the final pools, bank and winner are checked at the
end. About 150 presses and 40 taps: ``-m long``."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from overseer.devices.leds import DIM, GpioLeds  # noqa: E402
from overseer.devices.nfc import NfcTags, Reader  # noqa: E402
from overseer.devices.pins import seat_leds  # noqa: E402
from overseer.devices.pn532_emulator import Ntag215, Pn532, PtyPn532  # noqa: E402
from overseer.devices.tags import CardRef  # noqa: E402
from overseer.devices.virtual_pico import VirtualPico  # noqa: E402
from overseer.loaders.conquest import load_cards  # noqa: E402
from tests.app.test_conquest_flow import MORE_DRAWS, TURN_8, TURN_9, TURN_10, TUTORIAL  # noqa: E402
from tests.drivers.conquest_table import Players, new_four_player_game, tutorial_script  # noqa: E402
from tests.drivers.pico_table import BACK, CHOICE, PicoTable

SEED = 5
TAP_TIMEOUT = 15.0


def written(ref: CardRef, uid: bytes) -> Ntag215:
    """A sticker with the card's record written on it by the real writer."""
    from overseer.devices.pn532_emulator import LoopTTY

    tag = Ntag215(uid)
    chip = Pn532()
    chip.place(tag)
    reader = Reader.on(LoopTTY(chip))
    try:
        reader.write(reader.sense(), ref)
    finally:
        reader.close()
    tag.active = False
    return tag


class Reader532:
    """The table's card reader: the emulated PN532 on a pty, read by ``NfcTags``; ``tap``
    holds a card's sticker on it until the gadget's inbox has its ``Tap``, then takes it
    away."""

    def __init__(self, emulator: PtyPn532, tags: dict[str, Ntag215]) -> None:
        self.emulator, self.stickers = emulator, tags
        self.port: NfcTags | None = None
        self.inbox: Any = None
        self.came = threading.Event()
        self.taps = 0

    def start(self, inbox: Any) -> None:
        self.inbox = inbox
        self.port = NfcTags(self.emulator.path, interval=0.01, repeat_window=0.0)
        self.port.start(self)

    def put(self, item: Any) -> None:  # the reader's inputs, on their way to the inbox
        self.inbox.put(item)
        self.came.set()

    def tap(self, game: str, kind: str, card: str) -> None:
        sticker = self.stickers[card] if game == "conquest" else self.stickers[f"{game}:{card}"]
        self.came.clear()
        with self.emulator.lock:
            sticker.active = True
            self.emulator.chip.place(sticker)
        assert self.came.wait(TAP_TIMEOUT), f"the reader never read {card}"
        with self.emulator.lock:
            self.emulator.chip.remove()
        self.taps += 1

    def close(self) -> None:
        if self.port is not None:
            self.port.close()
            self.port = None


@pytest.mark.long
def test_a_whole_conquest_game_through_the_pico_and_the_nfc_reader(board: VirtualPico,
                                                                    tmp_path: Path) -> None:
    store = tmp_path / "games.db"
    stickers = {c: written(CardRef("conquest", "card", c), bytes([4, n, 1, 2, 3, 4, 5]))
                for n, c in enumerate(load_cards())}
    stickers["catacombs:bholoth-cemetery"] = written(
        CardRef("catacombs", "room", "bholoth-cemetery"), bytes([4, 200, 1, 2, 3, 4, 5]))
    factory = MockFactory(pin_class=MockPWMPin)
    leds = GpioLeds(seat_leds(), pin_factory=factory)
    with PtyPn532() as emulator:
        reader = Reader532(emulator, stickers)
        table = PicoTable(board, store, SEED, leds=leds, tags=reader)
        try:
            new_four_player_game(table)
            draws, plays, answers = tutorial_script(TUTORIAL)
            players = Players(table, [*draws, *MORE_DRAWS], answers)
            players.settle()
            assert table.screen.key == "Player 1" and leds.modes == {1: "on", 2: "dim",
                                                                      3: "off", 4: "off"}
            # a Catacombs card in a Conquest game: said, nothing changed
            events = len(table.session.events)
            assert players.tap("bholoth-cemetery", "catacombs").key == "Wrong game"
            assert len(table.session.events) == events
            table.read()
            for card in plays:
                players.play(card)
            assert table.session.state.pools == {"sword": 5, "skull": 7}
            assert table.session.state.bank == 12

            players.answers = TURN_8[:3]
            players.play("skull-07")
            players.answer(TURN_8[3]["answer"])
            table.read()
            assert table.session.state.pools["sword"] == 3
            table.press(BACK, long=True)
            assert table.screen.key == "Undone" and table.session.state.pools["sword"] == 5
            table.press(CHOICE)
            players.answers = TURN_8[4:]
            players.settle()
            assert table.session.state.pools["sword"] == 3

            players.answers = TURN_9[:1]
            players.play("sword-06")
            asked, before = table.session.pending, table.screen
            shown = list(table.shown)
            table.close()
            reader.close()
            table = PicoTable(board, store, SEED, leds=leds, tags=reader)
            players.t = table
            table.read()
            assert table.screen == before and table.session.pending == asked
            players.answers = list(TURN_9[1:])
            players.settle()
            players.answers = list(TURN_10)
            players.play("skull-06")

            final = table.session.state
            assert final.over is not None and final.over.reason == "pool_empty"
            assert final.over.winner == "skull"
            assert final.pools == {"sword": 0, "skull": 6} and final.bank == 18
            assert table.screen.key == "Game over"
            assert table.screen.lines[0].startswith("Skull Team wins")
            keys = {s.key for s in [*shown, *table.shown]}
            assert {"Armour!", "Power Wave +1", "Game over"} <= keys
        finally:
            table.close()
            reader.close()
    # the LED pins: seat 1 lit and dimmed as the tracker turned, the Skull seats pulsed for
    # the armour, every seat off at the end
    pins = seat_leds()
    history = {seat: [float(s.state) for s in factory.pin(bcm).states]
               for seat, bcm in pins.items()}
    assert {1.0, DIM} <= set(history[1]) and {1.0, DIM} <= set(history[2])
    assert any(0.0 < v < 1.0 and v != DIM for v in history[4])  # a pulse's fade
    assert all(h[-1] == 0.0 for h in history.values())
    # every draw, every card played, the Catacombs card, and the two cards out of a hand (the
    # Surprise Attack card and the Power Wave discard: a hand is secret, so they are tapped)
    assert reader.taps == 39
    leds.close()
