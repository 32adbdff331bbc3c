"""The turn: its beginning, its end, and the turn trackers (Conquest: Turn Summary).

Teams alternate; on its turn a team acts with the disc its tracker shows, then flips the
tracker. From the first team's disc 1 this gives the printed order (first team player 1,
other team player 1, first team player 2, other team player 2), and a lone player running
both discs acts with one disc per turn (Conquest: Three or Four Players).
"""

from __future__ import annotations

from overseer.core.procedure import Procedure, Step
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.decks import draw
from overseer.rules.conquest.end import finish
from overseer.rules.conquest.health import lose
from overseer.rules.conquest.kinds import StepKind
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState, other


def begin_turn(state: ConquestState) -> Procedure:
    """The start of the next turn: last stand, the draw, and whether a card can be played."""
    team = state.team_to_act
    assert team is not None
    state.turn_number += 1
    disc = state.next_disc(team)
    player = state.controller[disc]
    yield Step(StepKind.TURN, rulebook.TURN,
               "Turn {number}: {player} acts with {disc} ({team}).",
               {"number": state.turn_number, "team": team, "disc": disc, "player": player},
               {"number": state.turn_number, "player": (player, player), "disc": (disc, disc),
                "team": TEAM_NAMES[team]})
    # Conquest: Winning the Game, Advanced Rule - a team with an empty deck but cards in hand
    # loses a token at the start of each of its turns.
    if state.options.last_stand and not state.decks[team] and state.cards_in_hand(team):
        yield from lose(state, team, 1, rulebook.LAST_STAND, "last stand: the deck is empty")
    # Conquest: Turn Summary - draw at the start (unless the draw-at-end rule is in play).
    if not state.options.draw_at_end:
        yield from draw(state, player, rulebook.TURN)
    # Conquest: Winning the Game - a player who cannot play a card ends the game.
    if not state.hands[player]:
        yield from finish(state, "cannot_play", f"{player} has no card to play",
                          ("{player} has no card to play", {"player": (player, player)}))
    if player in state.stunned:
        yield Step(StepKind.STUNNED, rulebook.STUNNED,
                   "{player} is stunned: the card they play is discarded and ignored; they make "
                   "one Rush shot.",
                   {"player": player},
                   {"player": (player, player)})


def end_turn(state: ConquestState, player: str) -> Procedure:
    """Obstacle rush, the optional draw at the end, the tracker flip; the next turn begins."""
    team = state.players[player]
    # Conquest: Moving Obstacles - a Rush shot with any one obstacle; it deals no damage.
    yield Step(StepKind.OBSTACLE_RUSH, rulebook.MOVING_OBSTACLES,
               "{player}: Rush shot with any one Obstacle Disc (no damage).",
               {"player": player},
               {"player": (player, player)})
    # Conquest: Turn Summary, Advanced Rule - draw at the end instead of the start.
    if state.options.draw_at_end:
        yield from draw(state, player, rulebook.DRAW_AT_END)
    # Conquest: Card Decks - flip the team's turn tracker after the turn.
    state.tracker[team] = 3 - state.tracker[team]
    state.team_to_act = other(team)
    yield Step(StepKind.TRACKER, rulebook.TURN_TRACKERS,
               "{team} flips its tracker: {disc} acts next.",
               {"team": team, "next_disc": state.next_disc(team)},
               {"team": TEAM_NAMES[team], "disc": (state.next_disc(team),) * 2})
    yield from begin_turn(state)
