"""Agents by spec (selfplay/agents/agent.h; docs/uyi.md for engines)."""

from __future__ import annotations

import collections
import ctypes
from typing import Any, List, Optional, Tuple

from . import _lib
from ._lib import lib
from .position import Action, Position, action_text

MoveStats = collections.namedtuple(
    "MoveStats", "legal searched visits chosen_visits value sims depth proven pv root_value")
MoveStats.__doc__ = """What an agent's choice came with, as the database
stores it for each action: legal actions, whether it searched (a forced
action or the random agent does not: then the figures are 0), the root's
visits and the chosen action's (alpha-beta: positions searched and the
depth completed), the chosen action's value for the actor in [0, 1], the
simulations, the depth (alpha-beta: completed; MCTS: the principal
variation's length), the winner a solver proved ('white', 'black' or
None), the principal variation as action texts, and the position's value
for the actor in [0, 1] (the database's root_value: MCTS the root's mean
over its visits, alpha-beta the same as value)."""


class Agent:
    """An agent: Agent("best"), Agent("mcts:sims=800", seed=7),
    Agent("ab:depth=4"), Agent("random"), Agent("uyi:cmd=...") (an external
    engine, started here). Its random draws come from a stream of seed.
    choose(position) returns the action (text) and its MoveStats. An MCTS
    agent keeps its tree across a game when shown every action played
    (observe); an external engine needs it: it knows a game only by its
    actions from the start (new_game)."""

    def __init__(self, spec: str = "best", seed: int = 0) -> None:
        spec = _lib.encode(spec, "the agent's spec")
        seed = _lib.integer(seed, "seed", 0, 2 ** 64 - 1)
        h = ctypes.c_void_p()
        _lib.call(lib.yinsh_agent_new, ctypes.byref(h), spec, seed)
        self._h = h

    def close(self, _free=lib.yinsh_agent_free) -> None:  # bound now: at exit the module's globals may be gone
        if getattr(self, "_h", None):
            _free(self._h)
            self._h = None

    __del__ = close

    def __enter__(self) -> Agent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def spec(self) -> str:
        """The canonical spec (`best` is the ab spec it stands for)."""
        out = ctypes.create_string_buffer(_lib.SPEC_LEN)
        lib.yinsh_agent_spec(self._handle(), out)
        return out.value.decode()

    def _handle(self):
        return _lib.handle(self, "the agent")

    def __repr__(self) -> str:
        return "yinsh.Agent(%r)" % self.spec if getattr(self, "_h", None) else "<yinsh.Agent, closed>"

    def new_game(self, variant: str = "standard") -> None:
        _lib.call(lib.yinsh_agent_new_game, self._handle(), _lib.variant_of(variant))

    def observe(self, before: Position, action: Action) -> None:
        """An action (text or index) was played from the position before."""
        h = self._handle()
        i = before.index(action) if isinstance(action, str) else _lib.action_of(action)
        _lib.call(lib.yinsh_agent_observe, h, before._h, i)

    def choose_index(self, position: Position) -> Tuple[int, MoveStats]:
        """(the chosen action's index, MoveStats)."""
        h = self._handle()
        i = ctypes.c_int()
        st = _lib.MoveStatsC()
        _lib.call(lib.yinsh_agent_choose, h, position._h, ctypes.byref(i), ctypes.byref(st))
        return i.value, move_stats(st)

    def choose(self, position: Position) -> Tuple[str, MoveStats]:
        """(the chosen action's text, MoveStats)."""
        i, stats = self.choose_index(position)
        return action_text(i, position), stats


def move_stats(st: _lib.MoveStatsC) -> MoveStats:
    """A yinsh_move_stats as MoveStats."""
    proven = {1: "white", 2: "black"}.get(st.proven)
    return MoveStats(st.legal, bool(st.searched), st.root_visits, st.chosen_visits, st.value, st.sims, st.depth,
                     proven, [action_text(a) for a in st.pv[:st.npv]], st.root_value)


class Played(tuple):
    """What play() returns: (actions, stats, final) as a tuple, and the
    end: .resigned, the colour that resigned ('white' or 'black'; None when
    the game was played out), .result ('white', 'black', 'draw') and
    .reason (the final position's, or 'resign')."""

    resigned: Optional[str] = None

    @property
    def result(self) -> str:
        if self.resigned:
            return "black" if self.resigned == "white" else "white"
        return self[2].outcome[0]

    @property
    def reason(self) -> str:
        return "resign" if self.resigned else self[2].outcome[1]


def play(white: Any, black: Any, variant: str = "standard",
         position: Optional[Position] = None) -> Tuple[List[str], List[MoveStats], Position]:
    """Plays a game between two agents (an Agent or a PuctAgent, or anything
    with their new_game, observe and choose; the same one may play both sides)
    from the variant's start or a given position, showing each action to
    both. Returns (actions as text, the MoveStats of each, the final
    Position), a Played tuple. An agent whose choice sets its .resigning
    (PuctAgent's resign rule) resigns instead of playing it: the game ends
    there, unfinished on the board, with Played.resigned its colour."""
    pos = position.copy() if position is not None else Position(variant=variant)
    agents = [white] if white is black else [white, black]
    for a in agents:
        a.new_game(pos.variant)
    actions, stats = [], []
    resigned = None
    while not pos.is_over:
        agent = white if pos.actor == 0 else black
        action, st = agent.choose(pos)
        if getattr(agent, "resigning", False):
            resigned = ("white", "black")[pos.actor]
            break
        for a in agents:
            a.observe(pos, action)
        pos.apply(action)
        actions.append(action)
        stats.append(st)
    out = Played((actions, stats, pos))
    out.resigned = resigned
    return out
