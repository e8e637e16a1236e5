"""The game in OpenSpiel's shape: a Game that makes States, a fixed space
of 2142 action indices with a legal-action mask, observation tensors and
returns. Names and meanings follow pyspiel's (current_player,
legal_actions, legal_actions_mask, apply_action, is_terminal, returns,
observation_tensor, ...), so code written against OpenSpiel's two-player
games reads the same; docs/python.md has the table."""

from . import _arrays, _lib
from .position import Position, action_index, action_text

TERMINAL = -4  # pyspiel.PlayerId.TERMINAL


class Game:
    """YINSH, standard or blitz: two players, player 0 is White."""

    def __init__(self, variant="standard"):
        _lib.variant_of(variant)
        self.variant = variant

    def __repr__(self):
        return "yinsh.Game(%r)" % self.variant

    def new_initial_state(self):
        return State(Position(variant=self.variant))

    def num_players(self):
        return 2

    def num_distinct_actions(self):
        return _lib.ACTIONS

    def observation_tensor_shape(self):
        return [_lib.PLANES, _lib.GRID, _lib.GRID]

    def observation_tensor_size(self):
        return _lib.OBSERVATION

    def max_game_length(self):
        """A bound on a game's actions: none reaches 200 (docs/rules.md §6.4)."""
        return _lib.GAME_MAX

    def min_utility(self):
        return -1.0

    def max_utility(self):
        return 1.0

    def utility_sum(self):
        return 0.0


class State:
    """A state of the game: its position and the actions that led there."""

    def __init__(self, position, history=None):
        self.position = position
        self._history = list(history or [])

    def __str__(self):
        return self.position.ypn

    def __repr__(self):
        return "yinsh.State(%r)" % self.position.ypn

    def _repr_svg_(self):
        return self.position.svg()

    def clone(self):
        return State(self.position.copy(), self._history)

    def child(self, action):
        s = self.clone()
        s.apply_action(action)
        return s

    def history(self):
        return list(self._history)

    def current_player(self):
        """0 (White) or 1 (Black) to act; TERMINAL (-4) once it is over."""
        return TERMINAL if self.position.is_over else self.position.actor

    def is_terminal(self):
        return self.position.is_over

    def is_chance_node(self):
        return False

    def is_simultaneous_node(self):
        return False

    def legal_actions(self, player=None):
        """The legal indices, ascending; none for the other player or at the end."""
        if player is not None and player != self.current_player():
            return []
        return self.position.legal_indices()

    def legal_actions_mask(self, player=None):
        """2142 values, 1 for each legal action (numpy uint8 or a bytearray)."""
        if player is not None and player != self.current_player():
            mask, _ = _arrays.uint8(_lib.ACTIONS)
            return mask
        return self.position.legal_mask()

    def apply_action(self, action):
        """Plays an action index (an integer: a float, a bool or an index
        outside 0..2141 is refused, the state unchanged)."""
        i = _lib.action_of(action)
        self.position.apply(i)
        self._history.append(i)

    def returns(self):
        """[White's, Black's]: 1 to the winner, -1 to the loser, 0 each for
        a draw or a game that goes on."""
        outcome = self.position.outcome
        if outcome is None or outcome[0] == "draw":
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome[0] == "white" else [-1.0, 1.0]

    def rewards(self):
        """The returns, paid at the end only."""
        return self.returns()

    def player_return(self, player):
        return self.returns()[player]

    def observation_tensor(self, player=None):
        """The planes seen by player (0: White's view, 1: Black's; None: the
        actor's), flat: 2057 values in [0, 1] (numpy float32 or array('f'))."""
        view = "actor" if player is None else ("white", "black")[player]
        planes = self.position.planes(view)
        return planes.reshape(-1) if _arrays.have_numpy() else planes

    def observation_string(self, player=None):
        return self.position.ypn

    def action_to_string(self, player, action=None):
        """The text of an action; as pyspiel, (player, action) or (action)."""
        return action_text(player if action is None else action)

    def string_to_action(self, player, text=None):
        """The index of an action's text that is legal here."""
        return self.position.index(player if text is None else text)


__all__ = ["Game", "State", "TERMINAL", "action_index", "action_text"]
