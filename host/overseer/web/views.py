"""The pages' HTML, made on the server from what the watcher keeps (no template engine, every
value escaped). The live log and the question are filled in by ``static/app.js`` from the
events; the party and story pages are sent whole and fetched again when the game changes."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from overseer.web import story as stories

NAV = (("/", "Live"), ("/party", "Party"), ("/story", "Story"))


def page(title: str, here: str, body: str, game: dict[str, Any] | None, paired: bool,
         kind: str) -> str:
    nav = " ".join(f'<a href="{href}"{" aria-current=page" if href == here else ""}>'
                   f'{label}</a>' for href, label in NAV)
    name = escape(game["title"]) + f' #{game["id"]}' if game else "No game yet"
    badge = '<span id="paired" class="paired">paired</span>' if paired else \
        '<span id="paired" class="unpaired">read-only</span>'
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)}: Overseer</title>'
            f'<link rel="stylesheet" href="/static/style.css"></head>'
            f'<body data-page="{kind}" data-paired="{int(paired)}">'
            f'<header><strong>Overseer</strong> <span id="game">{name}</span> {badge}'
            f'<nav>{nav}</nav></header><main>{body}</main>'
            f'<script src="/static/app.js"></script></body></html>')


EXPORT = ('<p class="export"><a id="export" href="/export" download>Download the game\'s '
          'export</a> (<code>overseer games import</code> reads it)</p>')


def live_body(paired: bool, answers: bool, private: bool = False, hand: str = "") -> str:
    """The live page; ``private``: the export holds a secret (not offered); ``hand``: the
    paired phone's part (``hand_body``)."""
    pair = "" if paired or not answers else (
        '<form id="pair" class="pair"><label>Pairing code <input name="code" '
        'inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="off" required>'
        '</label> <button>Pair this phone</button> <button type="button" id="show-code">'
        'Show the code on the glass</button><span id="pair-said"></span></form>')
    return ('<section class="glass"><canvas id="glass" width="128" height="64" '
            'aria-label="the glass"></canvas>'
            '<pre id="glass-text"></pre></section>'
            f'{pair}{EXPORT if paired and not private else ""}{hand}'
            '<section id="question" hidden></section>'
            '<section><h2>Log</h2><ol id="log" class="log"></ol></section>')


def hand_body(name: str | None, cards: list[str] | None, claimable: dict[str, str]) -> str:
    """A paired phone's hand: ``name``'s ``cards`` (the hand it holds), else the players
    whose hand it may claim (none: an empty section, hidden)."""
    if name is not None and cards is not None:
        listed = "".join(f"<li>{escape(card)}</li>" for card in cards)
        return (f'<section id="hand" class="hand" data-held="1"><h2>{escape(name)}\'s hand'
                f'</h2>{f"<ul>{listed}</ul>" if listed else "<p>No card in hand.</p>"}'
                '</section>')
    if not claimable:
        return '<section id="hand" hidden></section>'
    buttons = "".join(f'<button type="button" class="claim" data-player="{escape(p)}">'
                      f'{escape(n)}</button> ' for p, n in claimable.items())
    return ('<section id="hand" class="hand"><h2>Your hand on this phone</h2>'
            '<p>Whose hand is this phone\'s? The box asks that player to hold a card of their '
            f'hand on its reader.</p><p>{buttons}</p><p id="claim-said"></p></section>')


def party_body(party: dict[str, Any] | None) -> str:
    if party is None:
        return '<div id="party"><p>No game yet.</p></div>'
    if "state" in party:  # a game's state as its record writes it (Table.page)
        return f'<div id="party"><h2>{escape(party.get("game", ""))}</h2>' \
               f'{_tree(party.get("state", {}))}</div>'
    rows = "".join(
        f'<tr data-hero="{escape(h["id"])}"><th>{escape(h["name"])}</th>'
        f'<td class="health" data-label="Health">{h["health"]}</td>'
        f'<td class="gold" data-label="Gold">{h["gold"]}</td>'
        f'<td data-label="Poison">{escape(", ".join(map(str, h["poison"])) or "-")}</td>'
        f'<td data-label="Items">{escape(", ".join(h["items"]) or "-")}</td>'
        f'<td data-label="Status">{escape(", ".join(h["status"]) or "-")}</td>'
        f'<td data-label="Seat">{h["seat"] if h["seat"] is not None else "-"}</td></tr>'
        for h in party["heroes"])
    pieces = "".join(
        f'<tr data-piece="{escape(p["id"])}"><th>{escape(p["name"])}</th>'
        f'<td class="health" data-label="Health">{p["health"]}</td>'
        f'<td data-label="Character tile">{escape(p["tile"])}</td></tr>'
        for p in party["pieces"]) or '<tr><td colspan="3">none left</td></tr>'
    cave = party.get("hidden_cave")
    cave_html = "<p>The Hidden Cave is not in this game.</p>" if cave is None else (
        "<ul>" + "".join(f'<li>{escape(t["monster"])}: '
                         f'{escape(t["held_by"]) if t["held_by"] else "not collected"}</li>'
                         for t in cave["targets"]) + "</ul>"
        f'<p>Items beside the card: {escape(", ".join(cave["items"]) or "none")}</p>')
    path = " &rarr; ".join(escape(room) for room in party["path"]) or "-"
    campaign = escape(party["campaign"] or "a single room")
    over = f'<p class="over">{escape(party["over"])}</p>' if party.get("over") else ""
    return (f'<div id="party"><h2>Round {party["round"]}</h2>'
            '<table class="heroes"><caption>The party</caption><tr class="heads">'
            '<th>Hero</th>'
            '<th>Health</th><th>Gold</th><th>Poison</th><th>Items</th><th>Status</th>'
            f'<th>Seat</th></tr>{rows}</table>'
            '<table class="pieces"><caption>AI pieces left</caption><tr class="heads">'
            '<th>Piece</th>'
            f'<th>Health</th><th>Character tile</th></tr>{pieces}</table>'
            f'<h3>Hidden Cave</h3>{cave_html}'
            f'<h3>Campaign</h3><p>{campaign}: stage {party["stage"]}; path {path}</p>'
            f'{over}</div>')


def _tree(value: Any) -> str:
    """A game's state (not Catacombs) as nested lists."""
    if isinstance(value, dict):
        return "<dl>" + "".join(f"<dt>{escape(str(k))}</dt><dd>{_tree(v)}</dd>"
                                for k, v in value.items()) + "</dl>"
    if isinstance(value, list):
        return escape(", ".join(json.dumps(v) if isinstance(v, dict | list) else str(v)
                                for v in value)) or "-"
    return escape(str(value))


def story_body(story: stories.Story | None, game: str | None) -> str:
    if story is None:
        return '<div id="story"><p>This game has no story: its party page shows it.</p></div>'
    rows = "".join(f'<tr data-hero="{escape(h)}"><th>{escape(name)}</th>'
                   f'<td class="kills">{story.kills.get(h, 0)}</td>'
                   f'<td class="damage">{story.damage.get(h, 0)}</td></tr>'
                   for h, name in story.heroes.items())
    over = f'<p class="over">{escape(story.over)}</p>' if story.over else ""
    return (f'<div id="story"><h2>{story.rounds} round{"s" if story.rounds != 1 else ""}'
            f'</h2>{over}<table class="story"><tr><th>Hero</th><th>AI pieces destroyed</th>'
            f'<th>Damage taken</th></tr>{rows}</table>'
            f'{stories.chart(story.health, story.heroes, "Health by round")}'
            f'{stories.chart(story.gold, story.heroes, "Gold by round")}'
            '<p class="print"><button id="print">Print</button></p></div>')
