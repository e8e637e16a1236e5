"""YINSH from Python: Yinsh Lab's engine (libyinsh, through ctypes).

    import yinsh
    p = yinsh.Position()                      # the empty standard start
    p.apply("e5")                             # an action by text, or by index
    p.legal_actions()[:3]                     # ['a2', 'a3', 'a4']
    action, stats = yinsh.Agent("best").choose(p)
    yinsh.PuctAgent(evaluate, sims=800, batch=64)  # PUCT over your own net
    game = yinsh.Game()                       # OpenSpiel's shape
    state = game.new_initial_state()
    state.legal_actions_mask()                # 2142 values
    with yinsh.Database("results/yinsh.db") as db:
        data = db.load()                      # every position as arrays

docs/python.md has it all: finding the library, the API, the planes and
action indices, databases and positions in bulk; yinsh.data (with numpy)
serves training batches from a window of runs or shards."""

from ._lib import (ACTIONS, API_VERSION, CELLS, CHANNEL_MOVE0, CHANNEL_PASS, CHANNEL_PLACE, CHANNEL_RING, CHANNEL_ROW0,
                   CHANNELS, GAME_MAX, GRID, MOVE0, MOVE_SPAN, OBSERVATION, PASS, PLACE0, PLANE_SCALE, PLANES, RING0,
                   ROW0, SYMMETRIES, ClosedError, Error, NotFoundError, UsageError)
from ._lib import lib as _c
from ._lib import path as library_path
from .agent import Agent, MoveStats, Played, play
from .db import ActionRow, Database, RunInfo, Sample, StoredGame, load_positions
from .game import TERMINAL, Game, State
from .puct import PuctAgent, SearchResult, visit_policy
from .position import BLACK, WHITE, Action, FrozenError, Position, action_index, action_text
from .symmetry import ActionLayout, Symmetries, action_layout, symmetric_indices, symmetries

__version__ = _c.yinsh_version().decode()

#: The planes' names, by number (docs/python.md, "Observation planes").
PLANE_NAMES = ("own rings", "other rings", "own markers", "other markers", "valid", "black acts", "state P",
               "state M", "state R", "state X", "state r", "state x", "over", "own removed", "other removed", "pool",
               "blitz")

__all__ = ["ACTIONS", "API_VERSION", "Action", "ActionLayout", "ActionRow", "Agent", "BLACK", "CELLS", "CHANNELS",
           "CHANNEL_MOVE0", "CHANNEL_PASS", "CHANNEL_PLACE", "CHANNEL_RING", "CHANNEL_ROW0", "ClosedError", "Database",
           "Error", "FrozenError", "GAME_MAX", "GRID", "Game", "MOVE0", "MOVE_SPAN", "MoveStats", "NotFoundError", "OBSERVATION", "PASS", "PLACE0", "PLANES",
           "PLANE_NAMES", "PLANE_SCALE", "Played", "Position", "PuctAgent", "RING0", "ROW0", "SYMMETRIES", "RunInfo", "Sample", "SearchResult", "State", "StoredGame",
           "Symmetries", "TERMINAL", "UsageError", "WHITE", "action_index", "action_layout", "action_text",
           "library_path", "load_positions", "play", "symmetric_indices", "symmetries", "visit_policy"]
