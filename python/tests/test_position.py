"""Positions and actions from Python against the yinsh binary and the
hand-worked values of docs/python.md (the planes and mask of ROW_SIX)."""

import subprocess
import unittest

import yinsh
from helpers import BIN, CHILD_ENV, MOVES, ROW_SIX, START, as_list, rules_positions, yinsh as run_yinsh


class LegalActions(unittest.TestCase):
    def test_equal_yinsh_legal_on_the_rules_positions(self):
        cases = rules_positions()
        self.assertGreater(len(cases), 100)
        for where, ypn in cases:
            want = run_yinsh("legal", ypn).split()
            p = yinsh.Position(ypn)
            self.assertEqual(p.legal_actions(), want, where)
            indices = p.legal_indices()
            self.assertEqual([yinsh.action_text(i) for i in indices], want, where)
            self.assertEqual(indices, sorted(indices), where)
            mask = as_list(p.legal_mask())
            self.assertEqual(len(mask), yinsh.ACTIONS)
            self.assertEqual([i for i, m in enumerate(mask) if m], indices, where)
            self.assertEqual(p.ypn, ypn, where)

    def test_every_index_has_a_text_and_back(self):
        for i in range(yinsh.ACTIONS):
            self.assertEqual(yinsh.action_index(yinsh.action_text(i)), i)
        self.assertRaises(yinsh.UsageError, yinsh.action_text, yinsh.ACTIONS)
        self.assertRaises(yinsh.UsageError, yinsh.action_index, "e5-f7")
        self.assertEqual(yinsh.action_index("xe6-e2"), yinsh.ROW0 + 62)


class Positions(unittest.TestCase):
    def test_start_apply_and_the_binary(self):
        p = yinsh.Position()
        self.assertEqual(p.ypn, START)
        self.assertEqual((p.actor, p.state, p.variant, p.removed, p.pool), (yinsh.WHITE, "P", "standard", (0, 0), 51))
        actions = ["h6", "g6", "g8", "c6", "e10", "f8", "g11", "e9", "h11", "d7"]
        for a in actions[:5]:
            p.apply(a)
        for a in actions[5:]:
            p.apply(p.index(a))
        self.assertEqual(p.ypn, MOVES)
        self.assertEqual(run_yinsh("apply", START, *actions).strip(), MOVES)
        self.assertEqual(yinsh.Position(variant="blitz").ypn, START.replace("standard", "blitz"))
        self.assertEqual(yinsh.Position(MOVES), p)
        self.assertEqual(hash(yinsh.Position(MOVES)), hash(p))

    def test_illegal_actions_leave_the_position(self):
        p = yinsh.Position(MOVES)
        with self.assertRaises(yinsh.UsageError) as e:
            p.apply("e5")
        self.assertIn("illegal", str(e.exception))
        self.assertEqual(e.exception.name, "usage")
        self.assertRaises(yinsh.UsageError, p.apply, yinsh.PASS)
        self.assertRaises(yinsh.UsageError, p.apply, -1)
        self.assertEqual(p.ypn, MOVES)
        with self.assertRaises(yinsh.UsageError) as e:
            yinsh.Position("4/7/8/9/10/9/10/9/8/7/4 b P standard")
        self.assertIn("actor", str(e.exception))
        self.assertRaises(yinsh.UsageError, yinsh.Position, variant="chess")

    def test_child_and_copy(self):
        p = yinsh.Position(MOVES)
        c = p.child("e10-b7")
        self.assertEqual(p.ypn, MOVES)
        self.assertNotEqual(c, p)
        self.assertEqual(c.ypn, run_yinsh("apply", MOVES, "e10-b7").strip())
        self.assertEqual(p.copy(), p)

    def test_a_hashed_position_never_changes(self):
        p = yinsh.Position(MOVES)
        self.assertFalse(p.frozen)
        seen = {p: "here"}
        self.assertTrue(p.frozen)
        with self.assertRaises(yinsh.FrozenError) as e:
            p.apply("e10-b7")
        self.assertIsInstance(e.exception, TypeError)
        self.assertIsInstance(e.exception, yinsh.Error)
        self.assertIn("hashed", str(e.exception))
        self.assertEqual(p.ypn, MOVES)
        self.assertEqual(seen[p], "here")  # not lost in its dict
        self.assertEqual(seen[yinsh.Position(MOVES)], "here")
        # a child and a copy are new positions, free to change
        c = p.child("e10-b7")
        self.assertNotIn(c, seen)
        q = p.copy()
        self.assertFalse(q.frozen)
        q.apply("e10-b7")
        self.assertEqual(q, c)
        self.assertEqual(seen, {yinsh.Position(MOVES): "here"})
        # a set's member too, and a game's state goes on with its own position
        members = {yinsh.Position()}
        state = yinsh.Game().new_initial_state()
        members.add(state.clone().position)
        state.apply_action(yinsh.action_index("e5"))
        self.assertEqual(len(members), 1)

    def test_outcome(self):
        self.assertIsNone(yinsh.Position(MOVES).outcome)
        won = yinsh.Position("W2B/W6/8/9/2w7/3b5/10/9/8/6B/2B1 w - standard")
        self.assertEqual(won.outcome, ("white", "three-rings"))
        self.assertTrue(won.is_over)
        self.assertEqual(won.legal_actions(), [])
        self.assertEqual(won.state, "-")


class Planes(unittest.TestCase):
    """docs/python.md's worked example: ROW_SIX seen by the actor (White)."""

    def test_hand_worked_planes_and_mask(self):
        p = yinsh.Position(ROW_SIX)
        raw = as_list(p.planes(raw=True))
        self.assertEqual(len(raw), 17 * 121)

        def cells(plane, value=1):
            return [c for c in range(121) if raw[plane * 121 + c] == value]

        points = [c for c in range(121) if raw[4 * 121 + c]]
        self.assertEqual(len(points), 85)
        self.assertEqual(cells(0), [1, 11, 59, 116, 117])  # a2 b1 f5 k7 k8
        self.assertEqual(cells(1), [4, 17, 109, 118, 119])  # a5 b7 j11 k9 k10
        self.assertEqual(cells(2), [45, 46, 47, 48, 49, 50])  # e2..e7
        self.assertEqual(cells(3), [])
        self.assertEqual(cells(5), [])  # White acts
        for plane in range(6, 13):
            self.assertEqual(cells(plane), points if plane == 8 else [], plane)  # state R
        self.assertEqual(cells(13, 0), list(range(121)))
        self.assertEqual(cells(15, 45), points)  # 45 markers in the pool
        self.assertEqual(cells(16, 0), list(range(121)))
        f = as_list(p.planes())
        self.assertAlmostEqual(f[15 * 121 + 59], 45 / 51, places=6)
        self.assertEqual(f[0 * 121 + 59], 1.0)
        # Black's view: the colours swapped
        black = as_list(p.planes(view="black", raw=True))
        self.assertEqual([c for c in range(121) if black[c]], [4, 17, 109, 118, 119])
        self.assertEqual([c for c in range(121) if black[3 * 121 + c]], [45, 46, 47, 48, 49, 50])
        mask = as_list(p.legal_mask())
        self.assertEqual([i for i, m in enumerate(mask) if m], [1996, 1998])  # xe2-e6, xe3-e7
        self.assertRaises(yinsh.UsageError, p.planes, view="grey")

    def test_shape_with_numpy(self):
        planes = yinsh.Position(ROW_SIX).planes()
        if hasattr(planes, "shape"):
            self.assertEqual(planes.shape, (17, 11, 11))
            self.assertEqual(str(planes.dtype), "float32")
            self.assertEqual(planes[0, 5, 4], 1.0)  # f5: column f, row 5
        else:
            self.assertEqual(planes.typecode, "f")
            self.assertEqual(len(planes), 2057)


class Pictures(unittest.TestCase):
    def test_svg_is_yinsh_svg(self):
        p = yinsh.Position(MOVES)
        want = subprocess.run([BIN, "svg", MOVES, "--size", "300"], capture_output=True, text=True, check=True,
                              env=CHILD_ENV).stdout
        self.assertEqual(p.svg(size=300), want)
        c = p.child("e10-b7")
        marked = subprocess.run([BIN, "svg", c.ypn, "--last", "e10-b7"], capture_output=True, text=True,
                                check=True, env=CHILD_ENV).stdout
        self.assertEqual(c._repr_svg_(), marked)
        self.assertRaises(yinsh.UsageError, p.svg, last="e5-e8")


if __name__ == "__main__":
    unittest.main()


class Variants(unittest.TestCase):
    """The rule options of docs/rules.md §9: swap shares the index of pass."""

    def test_swap_after_the_first_ring(self):
        p = yinsh.Position(variant="standard+swap")
        self.assertEqual(p.variant, "standard+swap")
        p.apply("e7")
        self.assertEqual(p.legal_actions()[-1], "swap")
        self.assertEqual(len(p.legal_indices()), 85)
        self.assertEqual(p.index("swap"), yinsh.PASS)
        self.assertEqual(yinsh.action_text(yinsh.PASS, p), "swap")
        self.assertEqual(yinsh.action_text(yinsh.PASS), "pass")
        p.apply("swap")
        self.assertEqual(p.ypn, "4/7/8/9/6B3/9/10/9/8/7/4 w P standard+swap")
        self.assertNotIn("swap", p.legal_actions())

    def test_svg_after_a_swap(self):
        p = yinsh.Position(variant="standard+swap")
        p.apply("e7")
        p.apply("swap")
        want = subprocess.run([BIN, "svg", p.ypn, "--last", "swap"], capture_output=True, text=True, check=True,
                              env=CHILD_ENV).stdout
        self.assertIn(">last: swap<", want)
        self.assertEqual(p.svg(), want)
        self.assertEqual(p._repr_svg_(), want)

    def test_names(self):
        self.assertEqual(yinsh.Position(variant="blitz+swap+draw-odds").variant, "blitz+swap+draw-odds")
        self.assertEqual(yinsh.Position(variant="blitz").variant, "blitz")
        self.assertRaises(yinsh.UsageError, yinsh.Position, variant="standard+swop")
