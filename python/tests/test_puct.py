"""PuctAgent: PUCT over an evaluator written in Python, with numpy or
without (the evaluators here are pure Python over memoryviews or arrays):
the arrays it is handed, its priors read at the legal indices, a game
played, an exception in it raised from the search."""

import unittest

import yinsh
from helpers import MOVES, START, as_list

ACTIONS, PLANES, CELLS = yinsh.ACTIONS, yinsh.PLANES, yinsh.CELLS
OWN_REMOVED, OTHER_REMOVED = 13, 14


def rows(a, n, width):
    """n rows of width numbers from a numpy array or a memoryview."""
    flat = as_list(a) if hasattr(a, "reshape") else a.tolist()
    if flat and isinstance(flat[0], list):
        flat = [x for row in flat for x in (row if not isinstance(row[0], list) else sum(row, []))]
    return [flat[i * width:(i + 1) * width] for i in range(n)]


class Recorder:
    """Uniform priors (None), a value from the rings taken off; records
    every leaf's planes and legal indices."""

    def __init__(self):
        self.calls, self.leaves = 0, []

    def __call__(self, planes, mask):
        n = len(planes)
        self.calls += 1
        values = []
        for p, m in zip(rows(planes, n, PLANES * CELLS), rows(mask, n, ACTIONS)):
            legal = [i for i, x in enumerate(m) if x]
            self.leaves.append((p, legal))
            own, other = (sum(p[k * CELLS:(k + 1) * CELLS]) for k in (OWN_REMOVED, OTHER_REMOVED))
            values.append(0.5 + 0.1 * (own - other) / CELLS)
        return None, values


class Puct(unittest.TestCase):
    def test_the_arrays_are_the_leaves(self):
        ev = Recorder()
        agent = yinsh.PuctAgent(ev, sims=40, batch=8, seed=1)
        p = yinsh.Position(MOVES)
        r = agent.search(p)
        self.assertEqual(ev.leaves[0][1], p.legal_indices(), "the first leaf is the root, its mask the legal actions")
        self.assertEqual(ev.leaves[0][0], as_list(p.planes("actor")), "its planes in the actor's view")
        self.assertEqual(len(ev.leaves), agent.leaves)
        self.assertLessEqual(len(ev.leaves), 40)
        self.assertEqual(r.stats.sims, 40)
        self.assertEqual(sum(r.visits.values()) + 1, r.stats.visits)
        self.assertEqual(sorted(r.visits), list(r.visits), "ascending by index")
        self.assertTrue(set(r.visits) <= set(p.legal_indices()))
        self.assertEqual(r.visits[r.action], max(r.visits.values()))
        self.assertEqual(r.stats.pv[0], yinsh.action_text(r.action))
        self.assertAlmostEqual(sum(yinsh.visit_policy(r.visits).values()), 1.0)

    def test_priors_are_read_at_the_legal_indices(self):
        # every prior on e5, as a dict of one index: the root gives e5 all its visits
        e5 = yinsh.action_index("e5")

        def evaluate(planes, mask):
            return [{e5: 1.0} for _ in range(len(mask))], [0.5] * len(mask)

        r = yinsh.PuctAgent(evaluate, sims=30, batch=4).search(yinsh.Position(START))
        self.assertEqual(r.action, e5)
        self.assertEqual(r.visits, {e5: 29})

        # rows of 2142 weights: the same with the weight on a2
        a2 = yinsh.action_index("a2")

        def dense(planes, mask):
            return [[1.0 if i == a2 else 0.0 for i in range(ACTIONS)] for _ in range(len(mask))], [0.5] * len(mask)

        self.assertEqual(yinsh.PuctAgent(dense, sims=10, batch=2).search(yinsh.Position(START)).action, a2)

    def test_plays_a_game(self):
        agent = yinsh.PuctAgent(Recorder(), sims=24, batch=8, temp=1, temp_moves=10, noise=0.25, seed=3)
        actions, stats, final = yinsh.play(agent, agent)
        self.assertTrue(final.is_over)
        self.assertEqual(len(actions), len(stats))
        self.assertTrue(all(st.searched and st.sims == 24 for st in stats))
        self.assertTrue(any(st.visits > 24 for st in stats), "the tree kept across actions")
        agent.close()
        self.assertRaises(yinsh.ClosedError, agent.search, final)

    def test_an_exception_in_evaluate_is_raised(self):
        calls = []

        def evaluate(planes, mask):
            calls.append(len(mask))
            if len(calls) == 3:
                raise ZeroDivisionError("the net divided by zero")
            return None, [0.5] * len(mask)

        agent = yinsh.PuctAgent(evaluate, sims=50, batch=4)
        p = yinsh.Position(MOVES)
        with self.assertRaises(ZeroDivisionError) as e:
            agent.search(p)
        self.assertIn("divided by zero", str(e.exception))
        self.assertEqual(len(calls), 3, "the search stopped at the failing call")
        agent.new_game()
        self.assertEqual(agent.search(p).stats.sims, 50, "and searches again afterwards")

    def test_bad_answers_are_errors(self):
        def short(planes, mask):
            return None, [0.5]

        def nan(planes, mask):
            return None, [float("nan")] * len(mask)

        def not_a_pair(planes, mask):
            return 0.5

        p = yinsh.Position(MOVES)
        with self.assertRaises(ValueError):
            yinsh.PuctAgent(short, sims=20, batch=4).search(p)
        with self.assertRaises(yinsh.Error) as e:
            yinsh.PuctAgent(nan, sims=20).search(p)
        self.assertIn("the evaluator gave", str(e.exception))
        self.assertRaises(TypeError, yinsh.PuctAgent(not_a_pair, sims=20).search, p)
        self.assertRaises(yinsh.UsageError, yinsh.PuctAgent, short, sims=0)
        self.assertRaises(yinsh.UsageError, yinsh.PuctAgent, short, batch=2000)
        self.assertRaises(TypeError, yinsh.PuctAgent, None)


if __name__ == "__main__":
    unittest.main()


def white_loses(planes, mask):
    """Every leaf says White loses: 0.02 for White to act, 0.98 for Black
    (plane 5, 'black acts', is 1 at every point when Black acts)."""
    n = len(planes)
    values = []
    for p in rows(planes, n, PLANES * CELLS):
        black = sum(p[5 * CELLS:6 * CELLS]) > 0
        values.append(0.98 if black else 0.02)
    return None, values


class Settings(unittest.TestCase):
    """What PuctAgent took silently is refused, and what selfplay has it has
    too: playout cap randomisation and resignation (issue 56)."""

    def test_silent_settings_are_refused(self):
        ev = Recorder()
        for bad in (dict(alpha=0), dict(alpha=-1), dict(temp=1), dict(temp=1, temp_moves=0), dict(temp_moves=10),
                    dict(noise=1.5), dict(pcr=(0.5, 40)), dict(pcr=(1.5, 5)), dict(pcr=(0.5, 0)),
                    dict(resign=1.0), dict(resign=0.1, resign_moves=0), dict(resign=0.1, resign_check=2)):
            with self.assertRaises(ValueError, msg=str(bad)):
                yinsh.PuctAgent(ev, sims=40, **bad)
        self.assertRaises(TypeError, yinsh.PuctAgent, ev, pcr=5)
        agent = yinsh.PuctAgent(ev, sims=40, temp=1, temp_moves=10, noise=0.25)
        self.assertEqual(agent.settings["alpha"], 0.3)  # the default, said

    def test_playout_cap_randomisation(self):
        p = yinsh.Position(MOVES)
        always = yinsh.PuctAgent(Recorder(), sims=40, batch=4, pcr=(0.0, 6), seed=2)
        r = always.search(p)
        self.assertEqual((r.stats.sims, r.full), (6, False))
        never = yinsh.PuctAgent(Recorder(), sims=40, batch=4, pcr=(1.0, 6), seed=2)
        r = never.search(p)
        self.assertEqual((r.stats.sims, r.full), (40, True))
        half = yinsh.PuctAgent(Recorder(), sims=40, batch=4, pcr=(0.5, 6), seed=3)
        seen = set()
        for _ in range(12):
            half.new_game()
            r = half.search(p)
            self.assertIn(r.stats.sims, (6, 40))
            self.assertEqual(r.full, r.stats.sims == 40)
            seen.add(r.full)
        self.assertEqual(seen, {True, False})
        self.assertTrue(yinsh.PuctAgent(Recorder(), sims=40).search(p).full)

    def test_resignation_ends_the_game(self):
        agent = yinsh.PuctAgent(white_loses, sims=16, batch=4, resign=0.1, resign_moves=3)
        game = yinsh.play(agent, agent)
        actions, stats, final = game
        self.assertEqual(len(actions), 4, "White resigns at its third searched decision")
        self.assertFalse(final.is_over)
        self.assertEqual((game.resigned, game.result, game.reason), ("white", "black", "resign"))
        self.assertEqual(agent.resign_fired, None)
        # the same rule in a game that the check plays out: it would have fired at ply 4
        checked = yinsh.PuctAgent(white_loses, sims=16, batch=4, resign=0.1, resign_moves=3, resign_check=1.0)
        game = yinsh.play(checked, checked, position=yinsh.Position(START))
        self.assertIsNone(game.resigned)
        self.assertTrue(game[2].is_over)
        self.assertEqual(checked.resign_fired, 4)
        # no rule: the game is played out
        plain = yinsh.play(yinsh.PuctAgent(white_loses, sims=16, batch=4), yinsh.PuctAgent(white_loses, sims=16))
        self.assertIsNone(plain.resigned)
        self.assertEqual(plain.reason, plain[2].outcome[1])
