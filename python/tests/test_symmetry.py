"""The board-shaped action layout and the 12 symmetries from Python
(yinsh.action_layout, yinsh.symmetries, Position.symmetric): the tables
read from the library, the layout a bijection, the symmetries a group, and
in positions of random games the image's legal actions the images of the
position's, its planes the position's moved cell by cell."""

import random
import unittest

import yinsh
from helpers import as_list


def rows(table):
    return [as_list(r) for r in table]


class Layout(unittest.TestCase):
    def test_every_index_has_one_slot_and_back(self):
        layout = yinsh.action_layout()
        channel, cell, slot, index = (as_list(t) for t in (layout.channel, layout.cell, layout.slot, layout.index))
        self.assertEqual(layout.channels, yinsh.CHANNELS)
        self.assertEqual((len(channel), len(cell), len(slot)), (yinsh.ACTIONS,) * 3)
        self.assertEqual(len(index), yinsh.CHANNELS * yinsh.CELLS)
        self.assertEqual(len(set(slot)), yinsh.ACTIONS)
        for i in range(yinsh.ACTIONS):
            self.assertEqual(slot[i], channel[i] * yinsh.CELLS + cell[i])
            self.assertEqual(index[slot[i]], i)
        self.assertEqual(sum(1 for i in index if i >= 0), yinsh.ACTIONS)

    def test_slots_by_hand(self):
        layout = yinsh.action_layout()
        channel, cell = as_list(layout.channel), as_list(layout.cell)
        cases = {"a2": (yinsh.CHANNEL_PLACE, 1), "e5-e8": (yinsh.CHANNEL_MOVE0 + 2, 48),
                 "e8-e5": (yinsh.CHANNEL_MOVE0 + 3 * yinsh.MOVE_SPAN + 2, 51), "pass": (yinsh.CHANNEL_PASS, 60),
                 "xe2-e6": (yinsh.CHANNEL_ROW0, 47), "xk7": (yinsh.CHANNEL_RING, 116)}
        for text, want in cases.items():
            i = yinsh.action_index(text)
            self.assertEqual((channel[i], cell[i]), want, text)


class Symmetries(unittest.TestCase):
    def test_a_group_with_inverses(self):
        sym = yinsh.symmetries()
        cell, action, channel, inverse = rows(sym.cell), rows(sym.action), rows(sym.channel), as_list(sym.inverse)
        self.assertEqual(len(cell), yinsh.SYMMETRIES)
        self.assertEqual(cell[0], list(range(yinsh.CELLS)))
        self.assertEqual(action[0], list(range(yinsh.ACTIONS)))
        for s in range(yinsh.SYMMETRIES):
            self.assertEqual(sorted(action[s]), list(range(yinsh.ACTIONS)))
            self.assertEqual(sorted(cell[s]), list(range(yinsh.CELLS)))
            v = inverse[s]
            self.assertEqual([action[v][action[s][i]] for i in range(yinsh.ACTIONS)], list(range(yinsh.ACTIONS)))
            self.assertEqual([channel[v][channel[s][c]] for c in range(yinsh.CHANNELS)], list(range(yinsh.CHANNELS)))
        # the layout turns with the board
        layout = yinsh.action_layout()
        lc, lcell = as_list(layout.channel), as_list(layout.cell)
        for s in range(yinsh.SYMMETRIES):
            for i in range(0, yinsh.ACTIONS, 7):
                j = action[s][i]
                self.assertEqual((lc[j], lcell[j]), (channel[s][lc[i]], cell[s][lcell[i]]))

    def test_legal_sets_onto_legal_sets_in_random_games(self):
        sym = yinsh.symmetries()
        cell = rows(sym.cell)
        rng = random.Random(34)
        checked = 0
        for g in range(6):
            p = yinsh.Position(variant="blitz" if g % 3 == 2 else "standard")
            while not p.is_over:
                if rng.random() < 0.25 or p.state not in "PM":
                    legal = p.legal_indices()
                    planes = as_list(p.planes(raw=True))
                    for s in range(yinsh.SYMMETRIES):
                        image = p.symmetric(s)
                        self.assertEqual(image.legal_indices(), yinsh.symmetric_indices(legal, s), (p.ypn, s))
                        moved = [0] * yinsh.OBSERVATION
                        for k in range(yinsh.PLANES):
                            base = k * yinsh.CELLS
                            for c in range(yinsh.CELLS):
                                moved[base + cell[s][c]] = planes[base + c]
                        self.assertEqual(as_list(image.planes(raw=True)), moved, (p.ypn, s))
                    checked += 1
                p.apply(rng.choice(p.legal_indices()))
        self.assertGreater(checked, 50)

    def test_refuses_a_symmetry_out_of_range(self):
        self.assertRaises(yinsh.UsageError, yinsh.Position().symmetric, yinsh.SYMMETRIES)
        self.assertRaises(yinsh.UsageError, yinsh.symmetric_indices, [0], -1)
        self.assertEqual(yinsh.Position().symmetric(3), yinsh.Position())


if __name__ == "__main__":
    unittest.main()
