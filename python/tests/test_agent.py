"""Agents by spec from Python: choices, their figures, seeds, errors."""

import unittest

import yinsh
from helpers import MOVES, engine_cmd


class Agents(unittest.TestCase):
    def test_best_searches_to_depth_five(self):
        a = yinsh.Agent("best")
        self.assertTrue(a.spec.startswith("ab:depth=5"), a.spec)
        p = yinsh.Position(MOVES)
        action, st = a.choose(p)
        self.assertIn(action, p.legal_actions())
        self.assertTrue(st.searched)
        self.assertEqual(st.depth, 5)
        self.assertEqual(st.legal, 54)
        self.assertGreater(st.visits, 0)
        self.assertTrue(0 <= st.value <= 1)
        self.assertEqual(st.root_value, st.value)  # alpha-beta's score is the root's
        self.assertEqual(st.pv[0], action)
        a.close()
        a.close()

    def test_mcts_figures(self):
        with yinsh.Agent("mcts:sims=100", seed=1) as a:
            self.assertEqual(a.spec, "mcts:sims=100,c=1,rollout=random")
            action, st = a.choose(yinsh.Position(MOVES))
            self.assertGreaterEqual(st.visits, 100)
            self.assertEqual(st.sims, 100)
            self.assertGreater(st.chosen_visits, 0)
            self.assertEqual(st.depth, len(st.pv))
            self.assertEqual(st.pv[0], action)
            # the position's value: the root's mean over its visits, not
            # the chosen child's
            self.assertTrue(0 <= st.root_value <= 1)
            self.assertNotEqual(st.root_value, st.value)

    def test_the_same_seed_the_same_choices(self):
        def game(seed):
            a = yinsh.Agent("mcts:sims=20", seed=seed)
            return yinsh.play(a, a)[0]

        self.assertEqual(game(7), game(7))
        self.assertNotEqual(game(7), game(8))

    def test_a_forced_action_is_not_searched(self):
        # tests/data/moves.txt, case pass: White's only action
        p = yinsh.Position("WWWW/1BBBBB1/8/9/4w5/4b4/10/9/8/7/4 w M standard")
        action, st = yinsh.Agent("mcts:sims=50").choose(p)
        self.assertEqual((action, st.legal, st.searched, st.visits, st.pv, st.root_value), ("pass", 1, False, 0, [], 0))
        random_stats = yinsh.Agent("random").choose(yinsh.Position(MOVES))[1]
        self.assertFalse(random_stats.searched)
        self.assertEqual(random_stats.visits, 0)

    def test_bad_specs(self):
        with self.assertRaises(yinsh.UsageError) as e:
            yinsh.Agent("mcts:sims=x")
        self.assertIn("sims", str(e.exception))
        self.assertRaises(yinsh.UsageError, yinsh.Agent, "frobnicate")
        self.assertRaises(yinsh.UsageError, yinsh.Agent("random").choose,
                          yinsh.Position("W2B/W6/8/9/2w7/3b5/10/9/8/6B/2B1 w - standard"))

    def test_an_external_engine_follows_its_game(self):
        engine = yinsh.Agent("uyi:name=self;cmd=%s" % engine_cmd("uyi", "--agent", "random"), seed=1)
        local = yinsh.Agent("random", seed=2)
        actions, stats, final = yinsh.play(engine, local)
        self.assertTrue(final.is_over)
        with self.assertRaises(yinsh.UsageError) as e:
            engine.choose(yinsh.Position(MOVES))
        self.assertIn("observe", str(e.exception))
        engine.close()


if __name__ == "__main__":
    unittest.main()
