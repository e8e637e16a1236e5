"""One call at a time on an Agent or a PuctAgent (docs/python.md, "One
call at a time"): a call made while another of the same object runs,
from another thread or from the search's own evaluate, raises BusyError;
close() during a call closes the object at once and leaves its release
to the call, which returns as it would have. Nothing is freed under a
search. The calls that once crashed or hung the interpreter run in a
process of their own (test_boundary.run_python)."""

import threading
import unittest

import yinsh
from helpers import MOVES
from test_boundary import run_python


class FromEvaluate(unittest.TestCase):
    """evaluate calling back into its own PuctAgent."""

    def agent(self, inside):
        """A PuctAgent whose evaluate calls inside(agent) once, on its
        second call, and keeps what that raised."""
        seen = {}

        def evaluate(planes, mask):
            seen["calls"] = seen.get("calls", 0) + 1
            if seen["calls"] == 2:
                try:
                    inside(agent)
                except BaseException as e:  # kept for the test, not raised into the search
                    seen["raised"] = e
            return None, [0.5] * len(mask)

        agent = yinsh.PuctAgent(evaluate, sims=40, batch=4, seed=1)
        return agent, seen

    def test_search_observe_and_new_game_are_busy(self):
        p = yinsh.Position(MOVES)
        for inside in (lambda a: a.search(p), lambda a: a.choose(p), lambda a: a.observe(p, p.legal_indices()[0]),
                       lambda a: a.new_game()):
            agent, seen = self.agent(inside)
            r = agent.search(p)
            self.assertEqual(r.stats.sims, 40, "the search went on as it would have")
            self.assertIsInstance(seen.get("raised"), yinsh.BusyError)
            self.assertEqual(seen["raised"].name, "busy")
            self.assertIn("the PUCT agent is busy", str(seen["raised"]))
            self.assertGreater(agent.search(p).stats.visits, 40, "the tree kept: the new game did not happen")
            agent.close()

    def test_busy_raised_inside_stops_the_search_when_not_caught(self):
        p = yinsh.Position(MOVES)

        def evaluate(planes, mask):
            agent.search(p)
            return None, [0.5] * len(mask)

        agent = yinsh.PuctAgent(evaluate, sims=40)
        self.assertRaises(yinsh.BusyError, agent.search, p)

    def test_close_inside_evaluate(self):
        p = yinsh.Position(MOVES)
        agent, seen = self.agent(lambda a: a.close())
        r = agent.search(p)
        self.assertNotIn("raised", seen)
        self.assertEqual(r.stats.sims, 40, "the search answered")
        self.assertRaises(yinsh.ClosedError, agent.search, p)
        agent.close()  # again: nothing

    def test_in_a_process_of_its_own(self):
        # the C search freed under itself before: a crash, or a search
        # that never ended
        rc, last = run_python("""
p = yinsh.Position(%r)
def evaluate(planes, mask):
    agent.close()
    return None, [0.5] * len(mask)
agent = yinsh.PuctAgent(evaluate, sims=200, batch=8)
print("answered", agent.search(p).stats.sims)
""" % MOVES)
        self.assertEqual((rc, last), (0, "answered 200"))


class FromAnotherThread(unittest.TestCase):
    def test_a_choice_in_a_thread_while_the_agent_is_closed(self):
        rc, last = run_python("""
import threading
p = yinsh.Position(%r)
a = yinsh.Agent("mcts:sims=200000", seed=1)
got = {}
def choose():
    got["started"] = True
    got["choice"] = a.choose(p)
t = threading.Thread(target=choose)
t.start()
while "started" not in got:
    pass
busy = None
while t.is_alive() and busy is None:
    try:
        a.observe(p, p.legal_indices()[0])
    except yinsh.BusyError as e:
        busy = e
assert busy is not None, "the choice ended before another call met it"
try:
    a.choose(p)
except yinsh.BusyError:
    pass
else:
    raise AssertionError("a second choice was not refused")
a.close()
try:
    a.new_game()
except yinsh.ClosedError:
    pass
t.join()
print("chose", got["choice"][1].sims, repr(a))
""" % MOVES)
        self.assertEqual((rc, last), (0, "chose 200000 <yinsh.Agent, closed>"))

    def test_two_threads_searching_one_puct_agent(self):
        inside, go = threading.Event(), threading.Event()

        def evaluate(planes, mask):
            inside.set()
            go.wait(30)
            return None, [0.5] * len(mask)

        agent = yinsh.PuctAgent(evaluate, sims=30, batch=4)
        p = yinsh.Position(MOVES)
        got = {}
        t = threading.Thread(target=lambda: got.setdefault("r", agent.search(p)))
        t.start()
        self.assertTrue(inside.wait(30))
        with self.assertRaises(yinsh.BusyError):
            agent.search(p)
        with self.assertRaises(yinsh.BusyError):
            agent.new_game()
        agent.close()
        go.set()
        t.join()
        self.assertEqual(got["r"].stats.sims, 30)
        self.assertRaises(yinsh.ClosedError, agent.search, p)


if __name__ == "__main__":
    unittest.main()
