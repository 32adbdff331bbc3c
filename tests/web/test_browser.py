"""The page in a real browser: Debian's chromium driven by Playwright, following a Catacombs
room played through the Gadget's inbox (the buttons, as the table presses them). The live log
with its rules and groups, the party page and the story chart as they change; a phone pairs
with the code the glass shows and answers a question, and the glass moves; a page that is not
paired cannot answer; a wrong Host or Origin is refused.

One browser for the module. With OVERSEER_WEB_SHOTS=FOLDER the pages' screenshots are saved
there (docs/web.md's pictures: ``OVERSEER_WEB_SHOTS=docs/img scripts/test tests/web``)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from overseer.app.story import Story
from overseer.screens.render import render
from overseer.session.events import digest
from overseer.web import views
from tests.drivers import catacombs_table as play
from tests.drivers import web_table
from tests.drivers.web_table import code_on_the_glass, into_the_battle, request

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE_WIDTH = 412  # px: a phone's viewport (CSS pixels)
WAIT = 10_000  # ms a page may take to show what the gadget did (a busy machine)

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not "
                               "installed (pyproject's test extra)")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip("chromium is not installed (Debian package chromium; .ci/run installs it)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def game(tmp_path):
    followed = web_table.follow(tmp_path / "games.db")
    into_the_battle(followed.table)
    yield followed
    followed.close()


def shot(page, name: str, full: bool = True) -> None:
    folder = os.environ.get("OVERSEER_WEB_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"web-{name}.png"), full_page=full)


def phone(browser, game):
    """A phone's browser: a page of its own (its own cookies), at the live page."""
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": 860})
    page = context.new_page()
    page.goto(game.url)
    return context, page


def test_the_live_log_the_party_and_the_story_follow_the_room(browser, game):
    table = game.table
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    live, party, story = (context.new_page() for _ in range(3))
    live.goto(game.url)
    party.goto(game.url + "party")
    story.goto(game.url + "story")
    # The setup's steps are in the log already, each with its rule; unprinted ones marked.
    last = table.session.runner.trace[-1]
    live.wait_for_selector(f'li.step[data-n="{len(table.session.runner.trace) - 1}"]',
                           timeout=WAIT)
    assert live.locator("li.step").count() == len(table.session.runner.trace)
    assert live.locator("li.step").last.locator(".rule").inner_text() == last.rule
    assert live.locator("li.step.unprinted .mark").count() > 0  # the "!" of unprinted data
    assert party.locator('tr[data-piece="minotaur-1"] td.health').inner_text() == "2"
    health_before = story.locator('polyline[data-hero="elf"]').first.get_attribute("points")

    # NEXT AI PIECE: the Minotaur acts, asks, and targets the Elf: a group of its own.
    pages, asked = play.ai_turn(table)
    assert asked == ["closest", "template"]
    steps = len(table.session.runner.trace)
    live.wait_for_selector(f'li.step[data-n="{steps - 1}"]', timeout=WAIT)
    assert live.locator("li.round > h3").last.inner_text() == "Round 1"
    assert live.locator("li.activation > h4").last.inner_text().startswith("Minotaur")
    answers = live.locator("li.activation").last.locator("li.answer")  # the Minotaur's
    assert answers.count() == 2 and "by button" in answers.first.inner_text()
    assert live.locator("#glass-text").inner_text().startswith(table.screen.title)
    # The glass drawn on the page is the glass, pixel for pixel.
    want = list(render(table.screen).convert("L").tobytes())
    live.wait_for_function("""(want) => {
        const d = document.getElementById('glass').getContext('2d')
            .getImageData(0, 0, 128, 64).data;
        for (let i = 0; i < want.length; i++) if (d[i * 4] !== want[i]) return false;
        return true; }""", arg=want, timeout=WAIT)

    # The heroes' side: the Elf hits the Minotaur for 1; the party page follows.
    play.heroes_side(table, "Hit an AI piece", "Minotaur", amount=1)  # no kill: no "whose shot"
    party.wait_for_selector('tr[data-piece="minotaur-1"] td.health:text-is("1")', timeout=WAIT)
    # Its steps are a group of their own, under the menu's label.
    live.wait_for_selector('li.activation > h4:text-is("The table: Hit an AI piece")',
                           timeout=WAIT)
    shot(live, "live")

    # Orc A, Orc B (their questions answered), then round 2: the story has two rounds.
    play.ai_turn(table)
    play.ai_turn(table)
    play.ai_turn(table)
    assert table.session.state.round == 2
    story.wait_for_selector('#story h2:text-is("2 rounds")', timeout=WAIT)
    points = story.locator('polyline[data-hero="elf"]').first.get_attribute("points")
    assert points != health_before and len(points.split()) == 2
    elf = table.session.state.heroes["elf"]
    assert story.locator('tr[data-hero="elf"] td.damage').inner_text() == str(10 - elf.health)
    party.wait_for_selector('h2:text-is("Round 2")', timeout=WAIT)
    shot(party, "party")
    shot(story, "story")
    context.close()


def test_a_paired_phone_answers_and_the_glass_moves(browser, game):
    table = game.table
    context, page = phone(browser, game)
    assert page.locator("#paired").inner_text() == "read-only"
    # The phone asks for the code; the glass shows it; the phone types it in.
    with page.expect_response("**/show-code"):
        page.click("#show-code")
    game.take()
    code = code_on_the_glass(table)
    assert code == game.page.live.code
    # The page's own glass never shows it (else any page could pair itself): its picture
    # and its text say where to look instead.
    page.wait_for_selector('#glass-text:has-text("The code is on the box")', timeout=WAIT)
    assert code not in page.content()
    status, _ = request(game, "GET", "/glass.png")
    assert status == 200 and game.page.live.screen is not None \
        and code not in " ".join(game.page.live.screen.lines)
    page.fill("input[name=code]", code)
    with page.expect_response("**/pair"):
        page.click("text=Pair this phone")
    page.wait_for_selector('#paired:text-is("paired")', timeout=WAIT)
    cookie = next(c for c in context.cookies() if c["name"] == "overseer_pair")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    # The paired phone may download the game's export (and nothing else of the store).
    with page.expect_download() as download:
        page.click("#export")
    export = json.loads(Path(download.value.path()).read_text())
    assert export["kind"] == "overseer-game" and export["head"] == table.session.head
    assert export["digest"] == digest(table.session.log.slice(0, len(export["events"])))
    table.press(play.OK)  # the code put away

    # NEXT AI PIECE: the Minotaur asks which hero is closest; the phone answers it.
    table.press(play.NEXT)
    table.read()  # the steps before it, read on the glass: the question is up
    question = table.session.pending
    assert question is not None and question.key == "closest" and table.screen.mark == "?"
    page.wait_for_selector("#question button.option", timeout=WAIT)
    shot(page, "phone")
    glass_before, head = table.screen, table.session.head
    with page.expect_response("**/answer") as answered:
        page.locator("#question button.option").first.click()
    assert answered.value.status == 202
    game.take()
    assert table.session.head == head + 1  # answered through the session, logged
    assert table.session.pending is None or table.session.pending.key != "closest"
    assert table.screen != glass_before  # the glass moved
    page.wait_for_selector("li.answer:has-text('by phone')", timeout=WAIT)
    # It is undone as a press is: BACK held.
    table.press(play.BACK, long=True)
    assert table.session.pending is not None and table.session.pending.key == "closest"
    page.wait_for_selector("li.answer:has-text('by phone')", state="detached", timeout=WAIT)
    context.close()


def test_an_unpaired_page_cannot_answer(browser, game):
    table = game.table
    context, page = phone(browser, game)
    table.press(play.NEXT)
    assert table.session.pending is not None
    page.wait_for_selector("#question p.hint", timeout=WAIT)
    assert page.locator("#question button.option").count() == 0
    # Nor by sending the answer itself, from the page's own origin.
    asked = game.page.live.question["asked"]
    status = page.evaluate("""async (asked) => (await fetch('/answer', {method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({asked: asked, value: 'elf'})})).status""", asked)
    assert status == 403
    assert page.locator("#export").count() == 0
    assert page.evaluate("async () => (await fetch('/export')).status") == 403
    head = table.session.head
    game.take()
    assert table.session.head == head  # nothing reached the game
    # A wrong code pairs nothing.
    wrong = "000000" if game.page.live.code != "000000" else "111111"
    page.fill("input[name=code]", wrong)
    with page.expect_response("**/pair") as paired:
        page.click("text=Pair this phone")
    assert paired.value.status == 403
    page.wait_for_selector('#pair-said:has-text("That is not the code on the glass.")',
                           timeout=WAIT)
    context.close()


def test_a_wrong_host_or_origin_is_refused(browser, game):
    assert request(game, "GET", "/", headers={"Host": "evil.example"})[0] == 421
    assert request(game, "GET", "/party", headers={"Host": f"evil.example:{game.page.server.port}"}
                   )[0] == 421
    status, _ = request(game, "POST", "/show-code", {}, headers={"Origin": "http://evil.example"})
    assert status == 403
    assert request(game, "POST", "/show-code", {}, headers={"Origin": ""})[0] == 403
    assert request(game, "GET", "/static/../../session/store.py")[0] == 404
    assert request(game, "GET", "/games.db")[0] == 404
    # In the browser: a page of another origin cannot read the box's events.
    context = browser.new_context()
    page = context.new_page()
    page.goto(game.url + "static/style.css")  # an origin of the box's...
    other = page.evaluate("""async (url) => { try { await fetch(url, {method: 'POST'});
        return 'sent'; } catch (e) { return 'refused'; } }""",
                          f"http://localhost:{game.page.server.port}/show-code")
    assert other == "refused"  # localhost is not the address the box answers to here
    context.close()


def fits(page) -> None:
    """Nothing of the page is wider than the phone, and no legend's name is cut."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    for text in page.locator("svg.chart text.legend").all():
        right = text.evaluate("""(t) => { const b = t.getBBox();
            return [b.x + b.width, t.ownerSVGElement.viewBox.baseVal.width]; }""")
        assert right[0] <= right[1], text.inner_text()


def test_the_party_and_the_story_fit_a_phone(browser, game):
    context, page = phone(browser, game)
    for path in ("party", "story"):
        page.goto(game.url + path)
        page.wait_for_selector(f"#{path}", timeout=WAIT)
        fits(page)
    # The pages as the server makes them, without their script (which would fetch them
    # again), filled with the longest a table makes them.
    page.route("**/static/app.js", lambda route: route.abort())
    # The longest a table makes them: long names, every item, poison and status.
    party = game.page.live.party
    assert party is not None
    names = ["Barbarian of the Northern Wastes", "Elf Ranger of the Silver Wood"]
    heroes = [{**hero, "name": name, "items": ["Champion's Helm", "Dagger of Deception",
                                               "Delilah's Potion", "Trident"],
               "poison": [1, 2], "status": ["stunned", "invisible"]}
              for hero, name in zip(party["heroes"], names, strict=True)]
    page.goto(game.url + "party")
    page.evaluate("(html) => { document.getElementById('party').outerHTML = html; }",
                  views.party_body({**party, "heroes": heroes}))
    fits(page)
    shot(page, "party-phone")
    story = Story(rounds=3, heroes={"barbarian": names[0], "elf": names[1]},
                  health={"barbarian": [10, 8, 5], "elf": [10, 9, 9]},
                  gold={"barbarian": [0, 2, 4], "elf": [1, 1, 3]},
                  kills={"barbarian": 2}, damage={"barbarian": 5, "elf": 1})
    page.goto(game.url + "story")
    page.evaluate("(html) => { document.getElementById('story').outerHTML = html; }",
                  views.story_body(story, "catacombs"))
    assert page.locator("svg.chart text.legend").count() == 4
    fits(page)
    shot(page, "story-phone")
    context.close()


def test_a_conquest_hand_on_its_players_phone_only(browser, tmp_path):
    """A phone pairs, claims Player 1, Player 1 holds a card of their hand on the reader: the
    phone lists that hand; another paired phone is offered the other players, and shows no
    card of any hand."""
    from overseer.app.conquest import card_name
    from tests.app.test_conquest_flow import TUTORIAL
    from tests.drivers.conquest_table import Players, new_four_player_game, tutorial_script

    followed = web_table.follow(tmp_path / "games.db")
    t = followed.table
    new_four_player_game(t)
    draws, _, answers = tutorial_script(TUTORIAL)
    players = Players(t, draws, answers)
    players.settle()
    state = t.session.state
    code = followed.page.live.code
    owner, owner_page = phone(browser, followed)
    other, other_page = phone(browser, followed)
    for page in (owner_page, other_page):
        page.fill("input[name=code]", code)
        with page.expect_response("**/pair"):
            page.click("text=Pair this phone")
        page.wait_for_selector("#hand button.claim", timeout=WAIT)
    with owner_page.expect_response("**/claim"):
        owner_page.click('#hand button.claim[data-player="p1"]')
    owner_page.wait_for_selector('#claim-said:has-text("hold a card of your hand")',
                                 timeout=WAIT)
    followed.take()
    players.tap(state.hands["p1"][0])  # Player 1's card, on the reader
    owner_page.wait_for_selector("#hand[data-held] li", timeout=WAIT)
    shown = owner_page.locator("#hand li").all_inner_texts()
    assert shown == [card_name(state, c) for c in state.hands["p1"]]
    assert owner_page.locator("#hand h2").inner_text() == "Player 1's hand"
    shot(owner_page, "conquest-hand", full=False)  # the top: the glass and the hand
    other_page.reload()
    other_page.wait_for_selector("#hand button.claim", timeout=WAIT)
    offered = other_page.locator("#hand button.claim").all_inner_texts()
    assert offered == ["Player 2", "Player 3", "Player 4"]
    text = other_page.content()
    assert not [card_name(state, c) for hand in state.hands.values() for c in hand
                if card_name(state, c) in text]
    owner.close()
    other.close()
    followed.close()
