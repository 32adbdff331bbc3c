"""The page's parts one by one: the feed (resume by id), the guard (Host, Origin, rates), the
addresses it may listen on, the config's [web], a phone's answer in the controller, and what
the party page never shows (a Conquest hand)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from overseer import games
from overseer.app import controller
from overseer.app.controller import Answer
from overseer.app.view import GameView
from overseer.cli.config import ConfigError, parse
from overseer.core.procedure import ChooseOne
from overseer.core.shapes import BadInput
from overseer.ports.events import Remote
from overseer.web import addresses, guard, party, views, wire
from overseer.web.feed import Event, Feed
from tests.drivers import catacombs_table as play
from tests.drivers import web_table


def test_the_feed_resumes_after_the_last_id_and_a_new_game_starts_it_again():
    feed = Feed()
    ids = [feed.publish(kind, n).id for n, kind in enumerate(("game", "step", "step", "ask"))]
    assert [e.id for e in feed.since(None)] == ids
    assert [e.id for e in feed.since(ids[1])] == ids[2:]
    assert feed.since(ids[-1]) == []
    assert feed.since(ids[0]) and feed.since(ids[0])[0].wire.startswith(
        f"id: {ids[1]}\nevent: step\ndata: 1\n\n".encode())
    new = feed.publish("game", {"id": 2}).id
    assert [e.id for e in feed.since(ids[1])] == [new]  # from the new game's first event
    # The glass's bits are written into the data's object as they are, not scanned again.
    glass = feed.publish("glass", {"v": 3, "title": "Caf\u00e9 \"x\""}, bits="AP8=")
    data = glass.wire.decode().split("data: ", 1)[1]
    assert json.loads(data) == {"v": 3, "title": 'Caf\u00e9 "x"', "bits": "AP8="}


def test_the_glass_shows_the_pairing_code_at_a_game_start_and_the_page_hides_it(tmp_path):
    followed = web_table.follow(tmp_path / "games.db")
    try:
        table = followed.table
        play.new_campaign(table)
        code = followed.page.live.code
        assert code is not None
        # The first screen of the game, over its setup: one page, put away by one OK.
        said = [s for s in table.shown if s.key == "Phones"]
        host = f"{web_table.LOOPBACK}:{followed.page.server.port}"
        assert len(said) == 1 and said[0].page is None
        assert " ".join(said[0].lines) == f"Code {code} pairs a phone at {host}."
        # Nothing of it reached the page's events: its glass said where to look instead.
        wires = b"".join(e.wire for e in followed.page.feed.since(None) or [])
        assert code.encode() not in wires and b"The code is on the box" in wires
    finally:
        followed.close()


def test_a_read_only_page_shows_no_code(tmp_path):
    followed = web_table.follow(tmp_path / "games.db", answers=False)
    try:
        play.new_campaign(followed.table)
        assert not [s for s in followed.table.shown if s.key == "Phones"]
    finally:
        followed.close()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_guard_refuses_other_hosts_other_origins_and_too_many_requests():
    clock = Clock()
    hosts = guard.allowed_hosts(["192.168.1.20", "fd00::5"], 8080, ["overseer.local"])
    assert {"192.168.1.20:8080", "[fd00::5]:8080", "overseer.local:8080"} <= hosts
    check = guard.Guard(None, hosts, clock).refusal  # type: ignore[arg-type]
    box = {"host": "192.168.1.20:8080"}
    assert check("GET", "/", box, "a") is None
    assert check("GET", "/", {"host": "evil.example:8080"}, "a")[0] == 421
    assert check("GET", "/", {**box, "origin": "http://evil.example"}, "a")[0] == 403
    assert check("POST", "/answer", box, "a")[0] == 403  # a change needs its Origin
    assert check("POST", "/answer", {**box, "origin": "http://192.168.1.20:8080"}, "a") is None
    # A client's budget: the burst, then 429 until time refills it; another client is free.
    refused = [check("GET", "/", box, "b") for _ in range(guard.BURST + 5)]
    assert refused[:guard.BURST] == [None] * guard.BURST and refused[-1][0] == 429
    assert check("GET", "/", box, "c") is None
    clock.now += 1.0
    assert check("GET", "/", box, "b") is None
    # Pairing attempts have a smaller budget of their own.
    posts = [check("POST", "/pair", {**box, "origin": "http://192.168.1.20:8080"}, "d")
             for _ in range(guard.PAIR_TRIES + 1)]
    assert posts[:-1] == [None] * guard.PAIR_TRIES and posts[-1][0] == 429


def test_the_page_listens_on_lan_addresses_only():
    assert addresses.lan(["127.0.0.1", "192.168.1.20", "8.8.8.8", "fe80::1", "fd12::3",
                          "10.1.2.3", "2a00:1450::1", "192.0.2.2", "172.32.0.1"]) == [
        "192.168.1.20", "fd12::3", "10.1.2.3"]  # 192.0.2.2: a documentation net, not a LAN
    assert addresses.check(["192.168.1.20", "127.0.0.1"]) == ["192.168.1.20", "127.0.0.1"]
    for bad, said in (("8.8.8.8", "not a LAN address"), ("0.0.0.0", "not a LAN address"),
                      ("box", "not an IP address")):
        with pytest.raises(addresses.AddressError, match=said):
            addresses.check([bad])


def test_the_config_web_section():
    config = parse({"web": {"enabled": True, "listen": ["192.168.1.20"], "port": 8000,
                            "answers": False}})
    assert (config.web, config.web_listen, config.web_port, config.web_answers) == (
        True, ("192.168.1.20",), 8000, False)
    assert parse({}).web is False and parse({}).web_listen == ()
    assert "[web]" in config.lines() and 'listen = ["192.168.1.20"]' in config.lines()
    with pytest.raises(BadInput, match="web.port"):
        parse({"web": {"port": 0}})
    with pytest.raises(BadInput, match="listen"):
        parse({"web": {"listen": [5]}})
    with pytest.raises(BadInput, match="lisen"):
        parse({"web": {"lisen": []}})
    assert issubclass(ConfigError, ValueError)


def test_a_phone_answer_is_the_buttons_answer_and_a_late_one_is_dropped():
    question = ChooseOne("Which hero is closest?", ("elf", "hero-1"), "closest")
    app, _ = controller.start(GameView("catacombs", question=question, asked=7))
    moved, effects = controller.handle(app, Remote("hero-1", 7))
    assert effects[-1] == Answer("hero-1") and moved.waiting == Answer("hero-1")
    assert controller.handle(app, Remote("hero-1", 6)) == (app, ())  # a question gone by
    idle, _ = controller.start(GameView("catacombs"))
    assert controller.handle(idle, Remote("elf", 0)) == (idle, ())


def test_the_party_page_never_shows_a_conquest_hand():
    spec = games.get("conquest")
    state = spec.build({"players": {"p1": "sword", "p2": "skull"}, "first": "sword"})
    state.hands["p1"] = ["some-card"]
    shown = party.summary(spec, state, {}, {})
    assert "hands" not in shown["state"] and "decks" not in shown["state"]
    assert shown["state"]["hand_counts"]["p1"] == 1
    assert "some-card" not in repr(shown)
    page = views.party_body(shown)
    assert "hand_counts" in page and "some-card" not in page


def test_a_failing_watcher_is_dropped_and_the_table_plays_on(tmp_path):
    from overseer.ports.events import Button
    from tools.table import Table

    table = Table(tmp_path / "games.db")
    seen = []

    def broken(gadget, item):
        raise RuntimeError("a bug in the page")

    table.gadget.watchers += [broken, lambda gadget, item: seen.append(item)]
    before = table.screen
    table.press(Button.CHOICE)
    assert table.screen != before  # the press did what it does
    assert broken not in table.gadget.watchers and len(seen) == 1


def test_overseer_web_is_a_command_of_its_own(capsys):
    from overseer.cli import command

    with pytest.raises(SystemExit) as ended:
        command.dispatch(["web", "--help"])
    assert ended.value.code == 0
    said = capsys.readouterr().out
    assert said.startswith("usage: overseer web") and "[--web]" not in said
    assert "page for the table's phones" in said


def test_the_glass_bits_are_the_picos_own_frame():
    import base64

    from overseer.screens.render import Screen, frame, render
    from overseer.web.watch import picture

    screen = Screen(title="Turn 1", lines=("Tap a card: 5 in hand",), key="Player 1")
    image = render(screen)
    bits = base64.b64decode(picture(image))
    assert bits == frame(screen)  # the frame kept for the Pico: not packed again
    # pixel (x, y) is bit y % 8 of byte (y // 8) * 128 + x (MONO_VLSB, as the page reads it)
    lit = [(x, y) for y in range(64) for x in range(128)
           if bits[(y // 8) * 128 + x] & (1 << (y % 8))]
    assert lit and all(image.getpixel(xy) for xy in lit)
    assert len(lit) == sum(1 for y in range(64) for x in range(128) if image.getpixel((x, y)))
    drawn = image.copy()  # a picture without its kept frame (a copy carries none) is packed
    assert not hasattr(drawn, "mono_vlsb") and base64.b64decode(picture(drawn)) == bits


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)  # quotes, controls too
_NUMBER = st.none() | st.integers()
_ANY = st.none() | st.booleans() | st.integers() | _TEXT | st.floats(allow_nan=False)
_SHAPES = {  # each event kind with its own encoder, its fields (and a field of another type)
    "step": {"n": st.integers() | _ANY, "kind": _TEXT, "rule": _TEXT, "text": _TEXT,
             "verified": st.booleans() | _ANY, "round": _NUMBER | _ANY, "actor": _TEXT | _ANY},
    "answer": {"seq": st.integers() | _ANY, "key": _TEXT | _ANY, "question": _TEXT,
               "answer": _TEXT, "by": _TEXT},
    "action": {"seq": st.integers(), "do": _TEXT | _ANY},
    "party": {"head": st.integers() | _ANY, "finished": st.booleans() | _ANY},
    "ask": {"asked": st.integers(), "key": _TEXT, "kind": _TEXT, "short": _TEXT,
            "prompt": _TEXT, "phone": st.booleans() | _ANY,
            "options": st.lists(st.fixed_dictionaries(
                {"value": _ANY, "label": _TEXT}).map(lambda o: {"value": o["value"],
                                                              "label": o["label"]}),
                max_size=3) | _ANY},
    "glass": {"v": st.integers(), "title": _TEXT, "key": _TEXT, "mark": _TEXT,
              "lines": st.lists(_TEXT, max_size=4) | _ANY, "rows": st.lists(_TEXT, max_size=4),
              "number": _NUMBER | _ANY},
}


@given(st.sampled_from(sorted(_SHAPES)).flatmap(
    lambda kind: st.tuples(st.just(kind), st.fixed_dictionaries(_SHAPES[kind]))))
def test_an_events_own_encoder_writes_what_the_json_module_writes(event):
    """web/wire.py: the same bytes as json's compact encoder, whatever the fields hold (a
    field of a type an encoder does not write: the event is encoded the json way)."""
    kind, drawn = event
    data = {key: drawn[key] for key in _SHAPES[kind]}  # in the order the watcher writes them
    own = Event(7, kind, data, bits="AP8=", encode=getattr(wire, kind)).wire
    assert own == Event(7, kind, data, bits="AP8=").wire
    text = own.decode().split("data: ", 1)[1]
    assert json.loads(text) == {**data, "bits": "AP8="}
