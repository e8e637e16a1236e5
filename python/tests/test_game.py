"""The OpenSpiel-shaped game API, and games played through Python that
`yinsh replay` checks."""

import unittest

import yinsh
from helpers import MOVES, ROW_SIX, TempDir, as_list, yinsh as run_yinsh


def record(actions, result, reason, variant="standard"):
    start = yinsh.Position(variant=variant).ypn
    lines = ['[Variant "%s"]' % variant, '[Result "%s"]' % result, '[Reason "%s"]' % reason,
             '[Actions "%d"]' % len(actions), start]
    lines += [" ".join(actions[k:k + 10]) for k in range(0, len(actions), 10)]
    return "\n".join(lines) + "\n"


class OpenSpielShape(unittest.TestCase):
    def test_the_game(self):
        g = yinsh.Game()
        self.assertEqual(g.num_players(), 2)
        self.assertEqual(g.num_distinct_actions(), 2142)
        self.assertEqual(g.observation_tensor_shape(), [17, 11, 11])
        self.assertEqual(g.observation_tensor_size(), 2057)
        self.assertEqual(g.max_game_length(), 200)
        self.assertEqual((g.min_utility(), g.max_utility(), g.utility_sum()), (-1.0, 1.0, 0.0))
        self.assertRaises(yinsh.UsageError, yinsh.Game, "chess")

    def test_a_state(self):
        s = yinsh.Game().new_initial_state()
        self.assertEqual(s.current_player(), 0)
        self.assertFalse(s.is_chance_node())
        self.assertEqual(s.legal_actions(), list(range(85)))
        self.assertEqual(s.legal_actions(1), [])
        mask = as_list(s.legal_actions_mask())
        self.assertEqual(sum(mask), 85)
        self.assertEqual(sum(as_list(s.legal_actions_mask(1))), 0)
        s.apply_action(s.string_to_action("e5"))
        self.assertEqual(s.current_player(), 1)
        self.assertEqual(s.history(), [yinsh.action_index("e5")])
        self.assertEqual(s.action_to_string(1, s.history()[0]), "e5")
        self.assertEqual(s.action_to_string(s.history()[0]), "e5")
        obs = as_list(s.observation_tensor())
        self.assertEqual(len(obs), 2057)
        # Black acts: in its view (and the actor's) White's ring on e5 is "other"
        e5 = 4 * 11 + 4
        self.assertEqual(obs[1 * 121 + e5], 1.0)
        self.assertEqual(as_list(s.observation_tensor(0))[0 * 121 + e5], 1.0)
        self.assertEqual(s.returns(), [0.0, 0.0])
        c = s.child(s.legal_actions()[0])
        self.assertEqual(len(c.history()), 2)
        self.assertEqual(len(s.history()), 1)
        self.assertEqual(str(s), s.position.ypn)
        self.assertEqual(s.observation_string(0), s.position.ypn)

    def test_terminal_returns(self):
        s = yinsh.State(yinsh.Position("W2B/W6/8/9/2w7/3b5/10/9/8/6B/2B1 w - standard"))
        self.assertTrue(s.is_terminal())
        self.assertEqual(s.current_player(), yinsh.TERMINAL)
        self.assertEqual(s.returns(), [1.0, -1.0])
        self.assertEqual(s.rewards(), [1.0, -1.0])
        self.assertEqual(s.legal_actions(), [])

    def test_mask_of_the_hand_worked_position(self):
        s = yinsh.State(yinsh.Position(ROW_SIX))
        self.assertEqual([i for i, m in enumerate(as_list(s.legal_actions_mask())) if m], [1996, 1998])
        self.assertEqual([s.action_to_string(0, a) for a in s.legal_actions()], ["xe2-e6", "xe3-e7"])


class PlayedGamesReplay(unittest.TestCase):
    def setUp(self):
        self.tmp = TempDir()

    def tearDown(self):
        self.tmp.remove()

    def check_replay(self, actions, state, variant="standard"):
        result, reason = state.position.outcome
        path = self.tmp.join("game.rec")
        with open(path, "w") as f:
            f.write(record(actions, result, reason, variant))
        out = run_yinsh("replay", path)
        self.assertIn("actions %d result %s reason %s" % (len(actions), result, reason), out)
        self.assertIn(state.position.ypn, out)

    def test_a_game_of_states_replays(self):
        for variant, spec, seed in (("standard", "random", 1), ("blitz", "mcts:sims=16", 2)):
            game = yinsh.Game(variant)
            state = game.new_initial_state()
            agent = yinsh.Agent(spec, seed=seed)
            agent.new_game(variant)
            while not state.is_terminal():
                index, stats = agent.choose_index(state.position)
                self.assertIn(index, state.legal_actions())
                agent.observe(state.position, index)
                state.apply_action(index)
                self.assertLess(len(state.history()), game.max_game_length())
            actions = [yinsh.action_text(a) for a in state.history()]
            self.check_replay(actions, state, variant)
            self.assertIn(state.returns(), ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0]))

    def test_play_between_two_agents(self):
        w, b = yinsh.Agent("ab:depth=1", seed=3), yinsh.Agent("random", seed=4)
        actions, stats, final = yinsh.play(w, b)
        self.assertEqual(len(actions), len(stats))
        self.check_replay(actions, yinsh.State(final))
        # an ab agent searches every decision it has a choice in
        self.assertTrue(all(st.searched for st, k in zip(stats, range(len(stats))) if k % 2 == 0))
        self.assertTrue(all(st.depth == 1 for st, k in zip(stats, range(len(stats))) if k % 2 == 0 and st.searched))

    def test_from_a_position(self):
        a = yinsh.Agent("random", seed=5)
        actions, _, final = yinsh.play(a, a, position=yinsh.Position(MOVES))
        self.assertTrue(final.is_over)
        self.assertEqual(run_yinsh("apply", MOVES, *actions).strip(), final.ypn)


if __name__ == "__main__":
    unittest.main()
