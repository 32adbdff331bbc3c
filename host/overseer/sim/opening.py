"""Which game the play command opens: a game named by id, a new one from a setup file, the last
unfinished one, or none (the gadget asks a new game's questions on its glass); and the options
only a new game can take.

A resumed game keeps the setup, the seed, the dice and the tokens it was started with: an option
that would change them is refused with a message (never quietly ignored).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from overseer import documents, games
from overseer.session.session import Session
from overseer.session.store import Store

NEW_ONLY = ("setup", "seed", "dice", "tokens")  # options that make a new game what it is
DEFAULT_DICE = "pico"  # the virtual Pico rolls, with its tumble, when ROLL is pressed


class OptionError(ValueError):
    """An option that does not apply here; the message says what to do instead."""


def given(args: argparse.Namespace) -> list[str]:
    """The new-game options on the command line, as typed (``--seed 3``)."""
    return [f"--{name} {getattr(args, name)}" for name in NEW_ONLY
            if getattr(args, name, None) is not None]


def refuse_for_resumed(args: argparse.Namespace, game_id: int) -> None:
    """OptionError when ``args`` carry new-game options but game ``game_id`` is resumed."""
    options = given(args)
    if options:
        raise OptionError(
            f"{' and '.join(options)} {'apply' if len(options) > 1 else 'applies'} to a new "
            f"game, and game #{game_id} would be resumed (it keeps its own); add --new to "
            "start a new game with them")


def load_setup(path: str) -> dict[str, Any]:
    """A scenario-shaped setup file as format 2, checked (ScenarioError otherwise)."""
    setup = documents.load(path)
    return {k: v for k, v in setup.items() if k != "_path"}


def physical_tokens(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup with the table drawing its own damage tokens and poison cards."""
    options = {**setup["setup"].get("options", {}), "physical_tokens": True,
               "physical_poison": True}
    return {**setup, "setup": {**setup["setup"], "options": options}}


@dataclass(frozen=True)
class NewGame:
    """How new games start: the command line's seed, dice and tokens."""

    store: Store
    seed: int | None = None
    dice: str | None = None
    tokens: str | None = None

    def start(self, setup: dict[str, Any]) -> Session:
        if self.tokens == "physical":
            setup = physical_tokens(setup)
        return Session.new(self.store, setup["game"], setup, seed=self.seed,
                           dice=self.dice or DEFAULT_DICE)


def choose_game(store: Store, args: argparse.Namespace) -> int | None:
    """The id of the game to open: ``args.game_id``, the last unfinished game of the gadget's
    own (the registry's first: ``own_game``) unless ``--new``, or a new game from
    ``--setup``; None when there is none, and the gadget asks a new game's questions
    (``--seed`` is the gadget's then). Raises OptionError,
    ScenarioError, SessionError, StoreError."""
    if args.game_id is not None:
        refuse_for_resumed(args, args.game_id)
        store.game(args.game_id)  # StoreError when there is no such game
        return args.game_id
    own = own_game()
    if not args.new:
        last = store.last_unfinished(own)
        if last is not None:
            refuse_for_resumed(args, last.id)
            return last.id
    if args.setup is not None:
        setup = load_setup(args.setup)
        if setup["game"] != own:
            raise OptionError(f"{args.setup} is a {setup['game']} setup; the gadget plays "
                              f"{own} (`overseer scenario FILE` runs any scenario)")
        return new_game(store, args).start(setup).id
    refuse_without_setup(args)
    return None


def own_game() -> str:
    """The gadget's own game: the registry's first (``games.GAMES``)."""
    return next(iter(games.GAMES))


def refuse_without_setup(args: argparse.Namespace) -> None:
    """The gadget's own new-game questions choose the dice and the tokens."""
    options = [o for o in given(args) if not o.startswith(("--seed", "--setup"))]
    if options:
        raise OptionError(f"{' and '.join(options)} need --setup FILE: without one the gadget "
                          "asks the new game's questions on its glass, the dice among them")


def new_game(store: Store, args: argparse.Namespace) -> NewGame:
    return NewGame(store, args.seed, args.dice, args.tokens)
