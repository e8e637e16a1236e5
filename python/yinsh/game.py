"""The game in OpenSpiel's shape: a Game that makes States, a fixed space
of 2142 action indices with a legal-action mask, observation tensors and
returns. Names and meanings follow pyspiel's (current_player,
legal_actions, legal_actions_mask, apply_action, is_terminal, returns,
observation_tensor, ...), so code written against OpenSpiel's two-player
games reads the same; docs/python.md has the table."""

from __future__ import annotations

from typing import Iterable, List, Optional

from . import _arrays, _lib
from .position import Buffer, Position, action_index, action_text

TERMINAL = -4  # pyspiel.PlayerId.TERMINAL


class Game:
    """YINSH, standard or blitz: two players, player 0 is White."""

    def __init__(self, variant: str = "standard") -> None:
        _lib.variant_of(variant)
        self.variant = variant

    def __repr__(self) -> str:
        return "yinsh.Game(%r)" % self.variant

    def new_initial_state(self) -> State:
        return State(Position(variant=self.variant))

    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return _lib.ACTIONS

    def observation_tensor_shape(self) -> List[int]:
        return [_lib.PLANES, _lib.GRID, _lib.GRID]

    def observation_tensor_size(self) -> int:
        return _lib.OBSERVATION

    def max_game_length(self) -> int:
        """A bound on a game's actions: none reaches 200 (docs/rules.md §6.4)."""
        return _lib.GAME_MAX

    def min_utility(self) -> float:
        return -1.0

    def max_utility(self) -> float:
        return 1.0

    def utility_sum(self) -> float:
        return 0.0


class State:
    """A state of the game: its position and the actions that led there."""

    def __init__(self, position: Position, history: Optional[Iterable[int]] = None) -> None:
        self.position = position
        self._history = list(history or [])

    def __str__(self) -> str:
        return self.position.ypn

    def __repr__(self) -> str:
        return "yinsh.State(%r)" % self.position.ypn

    def _repr_svg_(self) -> str:
        return self.position.svg()

    def clone(self) -> State:
        return State(self.position.copy(), self._history)

    def child(self, action: int) -> State:
        s = self.clone()
        s.apply_action(action)
        return s

    def history(self) -> List[int]:
        return list(self._history)

    def current_player(self) -> int:
        """0 (White) or 1 (Black) to act; TERMINAL (-4) once it is over."""
        return TERMINAL if self.position.is_over else self.position.actor

    def is_terminal(self) -> bool:
        return self.position.is_over

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal indices, ascending; none for the other player or at the end."""
        if player is not None and player != self.current_player():
            return []
        return self.position.legal_indices()

    def legal_actions_mask(self, player: Optional[int] = None) -> Buffer:
        """2142 values, 1 for each legal action (numpy uint8 or a bytearray)."""
        if player is not None and player != self.current_player():
            mask, _ = _arrays.uint8(_lib.ACTIONS)
            return mask
        return self.position.legal_mask()

    def apply_action(self, action: int) -> None:
        """Plays an action index (an integer: a float, a bool or an index
        outside 0..2141 is refused, the state unchanged)."""
        i = _lib.action_of(action)
        self.position.apply(i)
        self._history.append(i)

    def returns(self) -> List[float]:
        """[White's, Black's]: 1 to the winner, -1 to the loser, 0 each for
        a draw or a game that goes on."""
        outcome = self.position.outcome
        if outcome is None or outcome[0] == "draw":
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome[0] == "white" else [-1.0, 1.0]

    def rewards(self) -> List[float]:
        """The returns, paid at the end only."""
        return self.returns()

    def player_return(self, player: int) -> float:
        return self.returns()[player]

    def observation_tensor(self, player: Optional[int] = None) -> Buffer:
        """The planes seen by player (0: White's view, 1: Black's; None: the
        actor's), flat: 2057 values in [0, 1] (numpy float32 or array('f'))."""
        view = "actor" if player is None else ("white", "black")[player]
        planes = self.position.planes(view)
        return planes.reshape(-1) if _arrays.have_numpy() else planes

    def observation_string(self, player: Optional[int] = None) -> str:
        return self.position.ypn

    def action_to_string(self, player: int, action: Optional[int] = None) -> str:
        """The text of an action; as pyspiel, (player, action) or (action)."""
        return action_text(player if action is None else action, self.position)

    def string_to_action(self, player: object, text: Optional[str] = None) -> int:
        """The index of an action's text that is legal here."""
        return self.position.index(player if text is None else text)


__all__ = ["Game", "State", "TERMINAL", "action_index", "action_text"]
