"""Swap is named swap wherever an action index becomes text: pass and swap
share index 1933 (docs/python.md), and only the position tells them
apart, so every text of an action played in a known position is named in
it: an agent's choice and its principal variation (PUCT's here), a database's
samples, a State's action_to_string, the last action a Position marks."""

import subprocess
import unittest

import yinsh
from helpers import BIN, CHILD_ENV, TempDir, yinsh as run_yinsh


def swapper(planes, mask):
    """Uniform priors but a heavy one on index 1933 (swap, or pass) where
    it is legal; values 1/2."""
    n = len(mask)
    rows = []
    for leaf in range(n):
        legal = [i for i in range(yinsh.ACTIONS) if mask[leaf, i]]
        rows.append({i: (1000.0 if i == yinsh.PASS else 1.0) for i in legal})
    return rows, [0.5] * n


def after_first_ring():
    p = yinsh.Position(variant="standard+swap")
    p.apply("e7")
    return p


class SwapIsSwap(unittest.TestCase):
    def test_puct_chooses_swap_and_plays_on(self):
        agent = yinsh.PuctAgent(swapper, sims=30, batch=4, seed=1)
        p = after_first_ring()
        action, stats = agent.choose(p)
        self.assertEqual(action, "swap")
        self.assertEqual(stats.pv[0], "swap")
        self.assertEqual(agent.search(p).stats.pv[0], "swap")
        # a game between two of them: the swap is played as any action
        actions, _, final = yinsh.play(agent, agent, variant="standard+swap")
        self.assertEqual(actions[1], "swap")
        self.assertTrue(final.is_over)
        agent.close()

    def test_action_to_string_and_back(self):
        s = yinsh.State(after_first_ring())
        self.assertEqual(s.action_to_string(yinsh.PASS), "swap")
        self.assertEqual(s.action_to_string(1, yinsh.PASS), "swap")
        self.assertEqual(s.string_to_action(s.action_to_string(yinsh.PASS)), yinsh.PASS)
        self.assertEqual(yinsh.action_text(yinsh.PASS), "pass", "by index alone, without a position")

    def test_apply_by_index_marks_swap(self):
        p = after_first_ring()
        p.apply(yinsh.PASS)
        self.assertEqual(p.ypn, "4/7/8/9/6B3/9/10/9/8/7/4 w P standard+swap")
        want = subprocess.run([BIN, "svg", p.ypn, "--last", "swap"], capture_output=True, text=True, check=True,
                              env=CHILD_ENV).stdout
        self.assertEqual(p.svg(), want)

    def test_database_samples_name_swap_as_yinsh_positions_does(self):
        tmp = TempDir()
        try:
            db = tmp.join("s.db")
            run_yinsh("selfplay", "--games", "30", "--agent", "random", "--variant", "standard+swap", "--seed", "2",
                      "--db", db, "--quiet", "--threads", "1")
            out = tmp.join("p.tsv")
            run_yinsh("positions", "--db", db, "--out", out, "--quiet")
            with open(out) as f:
                want = [line.split("\t")[1] for line in f]
            with yinsh.Database(db) as d:
                got = [s.action for s in d.positions()]
            self.assertEqual(got, want)
            self.assertIn("swap", got, "no game of the 30 swapped: the test needs one")
        finally:
            tmp.remove()


if __name__ == "__main__":
    unittest.main()
