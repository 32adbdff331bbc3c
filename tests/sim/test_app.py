"""The simulator, headless (Textual's pilot), on the real firmware of a virtual Pico: a room set
up from a tapped Room card and played to its end with the keys, the glass checked against the
frames the gadget sent, an undo, quit and resume."""

import asyncio
import time

from overseer import documents
from overseer.core.procedure import Roll
from overseer.devices.frames import vlsb
from overseer.screens.pages import full_prompt
from overseer.session.session import Session
from overseer.session.store import Store
from overseer.sim import glass
from overseer.sim.app import Simulator
from overseer.sim.running import Running
from overseer.sim.widgets import Dice, Glass, StepLog, TapPicker

PARTY = {"format": 1, "game": "catacombs", "title": "A room for the simulator test",
         "heroes": [{"id": "elf", "name": "Elf", "health": 8},
                    {"id": "barbarian", "name": "Barbarian", "health": 10}]}
ROOM = "bholoth-cemetery"  # 2 Orcs and 3 Skeleton Warriors, no Mercenary: no Lord needed


# A press reaches the inbox in about 0.15 s. The virtual board plays a tap as 100 ms of low pin
# in real time; when its process gets no CPU for longer than that (a loaded machine), the
# firmware never samples the pin low and the tap is lost, as a real switch pressed too briefly
# would be. After this long with no press in the inbox, the key is pressed again.
LOST = 3.0


class Table:
    """Keys into the simulator, waiting each time until the gadget has acted."""

    def __init__(self, pilot, running: Running) -> None:
        self.pilot, self.running = pilot, running

    async def until(self, test, timeout: float = 10.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while True:
            with self.running.reading() as gadget:
                if self.running.idle and test(gadget):
                    return
            assert self.running.error is None, self.running.error
            assert time.monotonic() < deadline, (
                f"timed out waiting for {what or test}: {self.running.inbox.puts} put, "
                f"{self.running.fed} taken; the glass: {self.gadget.screen}")
            await self.pilot.pause(0.03)

    def count(self, key: str) -> int:
        """ROLL comes in as the Pico's roll, any other button as a press."""
        inbox = self.running.inbox
        return inbox.puts if key in "rR" else inbox.presses

    async def key(self, *keys: str) -> None:
        for key in keys:
            before = self.count(key)
            await self.pilot.press(key)
            try:
                await self.until(lambda g, k=key, b=before: self.count(k) > b, LOST, key)
            except AssertionError:  # a tap the starved board never saw (see LOST): once more
                if self.count(key) > before:
                    raise
                await self.pilot.press(key)
                await self.until(lambda g, k=key, b=before: self.count(k) > b, what=key)

    @property
    def gadget(self):
        return self.running.gadget

    @property
    def caption(self) -> str:
        screen = self.gadget.screen
        return f"{screen.title} {screen.key} {screen.rows[screen.cursor] if screen.rows else ''}"

    async def read_and_answer(self) -> None:
        """Read every step and answer what is asked (rolls: ROLL on the Pico), until the glass
        is idle."""
        for _ in range(200):
            app = self.gadget.app
            question = app.view.question
            if app.notice or app.reading:
                await self.key("o")
            elif isinstance(question, Roll):
                count = len(self.gadget.session.events)
                await self.key("r")
                await self.until(lambda g, c=count: len(g.session.events) > c, what="a roll")
            elif question is not None:
                await self.key("o")
            else:
                return
        raise AssertionError(f"no end of questions: {self.caption}")

    async def menu(self, word: str) -> None:
        await self.key("o")
        assert self.gadget.app.menu is not None, f"no menu: {self.gadget.screen}"
        for _ in range(12):
            if self.gadget.app.notice:  # the card reader's word over the menu (OK puts it away)
                await self.key("o")
                continue
            if word in self.gadget.screen.rows[self.gadget.screen.cursor]:
                return await self.key("o")
            await self.key("c")
        raise AssertionError(f"no {word!r} in the menu: {self.gadget.screen.rows}")

    async def glass_is_the_boards(self, app) -> None:
        """The board's OLED RAM holds the frame the gadget sent last, and the terminal shows
        exactly those pixels."""
        sent = vlsb(self.running.glass.sent)
        frame = await asyncio.to_thread(self.running.box.board.wait_oled,
                                        lambda f: f == sent, 10)
        assert frame == sent
        await self.pilot.pause(0.1)  # a tick of the simulator
        assert app.query_one(Glass).lines() == glass.braille(frame)


def new_game(path) -> int:
    with Store(path) as store:
        setup = documents.upgrade(dict(PARTY))
        return Session.new(store, "catacombs", setup, seed=11, dice="pico").id


def test_a_room_played_to_its_end_undone_quit_and_resumed(tmp_path):
    path = tmp_path / "games.sqlite3"
    game_id = new_game(path)
    asyncio.run(play_a_room(path, game_id))
    asyncio.run(resume(path, game_id))


async def play_a_room(path, game_id) -> None:
    running = Running(path, game_id)
    app = Simulator(running)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            table = Table(pilot, running)
            await table.until(lambda g: g.screen is not None, what="the first screen")
            await table.glass_is_the_boards(app)

            await pilot.press("x")  # no key of the box: the log says which are
            await pilot.pause(0.1)
            assert any(str(line.text).startswith("'x' presses nothing: n NEXT AI PIECE, o OK")
                       for line in app.query_one(StepLog).lines)
            await table.menu("room")  # the menu's room set-up: which Room card?
            await table.until(lambda g: g.app.view.question is not None, what="the form")
            await pilot.pause(0.3)  # a tick of the simulator: the question goes to the log
            prompt = full_prompt(table.gadget.app.view.question)
            assert f"? {prompt}" in [str(line.text) for line in app.query_one(StepLog).lines]
            await pilot.press("t")
            assert app.query_one(TapPicker).is_open
            await pilot.press(*"bholoth cemetery", "enter")
            await table.until(lambda g: g.session.events, what="the room's set-up")
            assert "Tapped room: Bholoth Cemetery" in "\n".join(
                str(line.text) for line in app.query_one(StepLog).lines)
            await table.until(lambda g: isinstance(g.app.view.question, Roll), what="a roll")
            await pilot.pause(0.3)  # a tick: the steps and the question reach the log
            logged = [str(line.text) for line in app.query_one(StepLog).lines]
            asked = logged.index(f"? {full_prompt(table.gadget.app.view.question)}")
            assert any(line.startswith("Battle Room: Bholoth") for line in logged[:asked])
            await table.read_and_answer()
            assert table.gadget.session.state.adventure.room == ROOM
            battle = table.gadget.session.state
            assert len(battle.pieces) == 5
            await pilot.pause(0.3)
            logged = "\n".join(str(line.text) for line in app.query_one(StepLog).lines)
            assert "1. Skeleton Warrior A (Level 1 monsters tile)" in logged  # the glass's labels
            assert "skeleton-warrior-1" not in logged

            await table.key("n")  # NEXT AI PIECE: the first monster acts
            await table.read_and_answer()
            await table.glass_is_the_boards(app)
            head = table.gadget.session.head
            await table.key("u")  # BACK held: undo
            await table.until(lambda g: g.session.head < head, what="the undo")
            assert table.gadget.screen.key == "Undone"
            await pilot.pause(0.3)
            logged = [str(line.text) for line in app.query_one(StepLog).lines]
            undone = [line for line in logged if line.startswith("Taken back: ")]
            notice = next(line for line in logged if line.startswith("Undone: "))
            assert undone and notice.startswith("Undone: Taken back: ")
            assert not any("step" in line for line in (*undone, notice))  # no step numbers
            assert "Skeleton Warrior A" in " ".join(undone)  # the glass's label
            await table.key("o")
            await table.key("n")
            await table.read_and_answer()
            assert table.gadget.session.head == head  # the same press, the same dice

            for _ in range(5):  # the heroes destroy every piece
                await table.menu("Hit")
                await table.read_and_answer()
            assert table.gadget.screen.key == "Room won"
            await table.glass_is_the_boards(app)
            await pilot.press("q")
        assert app.return_value == 0 and app.failure is None
        assert app.saved == game_id
    finally:
        running.close()


async def resume(path, game_id) -> None:
    running = Running(path)
    app = Simulator(running)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            table = Table(pilot, running)
            await table.until(lambda g: g.screen is not None, what="the first screen")
            assert running.game_id == game_id
            assert table.gadget.session.state.adventure.room == ROOM
            await table.glass_is_the_boards(app)
            await pilot.pause(0.3)  # a tick: the dice panel is filled
            # the panel lists the Pico's rolls since the box started; the game's are in its log
            assert str(app.query_one(Dice).render()) == "no roll on the Pico since the box started"
            await pilot.press("ctrl+c")
        assert app.return_value == 0
    finally:
        running.close()
