"""Plays a game, draws it, and loads a database into arrays.

    python3 python/examples/play_and_load.py [--db PATH] [--out DIR]

From the source tree after a build (cmake --build build): the package is
found beside this folder and the library in build/. The game is
alpha-beta at depth 2 (White) against MCTS with 200 simulations (Black);
its final position goes to DIR/final.svg and every position to
DIR/ply-NNN.svg (open them in a browser; in a notebook a Position shows
itself). The database (default results/yinsh.db; `yinsh selfplay --games
200 --agent mcts:sims=50 --db /tmp/x.db` makes one) is loaded whole:
planes, actions, results and the search's values, ready for training.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import yinsh  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", default="results/yinsh.db", help="a Yinsh Lab database (default results/yinsh.db)")
    ap.add_argument("--out", default="play-and-load", help="the folder for the pictures (default play-and-load)")
    args = ap.parse_args()

    # a game between two agents, each action with its search's figures
    white, black = yinsh.Agent("ab:depth=2", seed=1), yinsh.Agent("mcts:sims=200", seed=2)
    actions, stats, final = yinsh.play(white, black)
    result, reason = final.outcome
    print("%s (White) against %s (Black): %d actions, %s (%s)" %
          (white.spec, black.spec, len(actions), "a draw" if result == "draw" else result + " won", reason))
    searched = [s for s in stats if s.searched]
    print("  %d decisions searched; the first: %s, value %.2f, %d visits, principal variation %s" %
          (len(searched), actions[stats.index(searched[0])], searched[0].value, searched[0].visits,
           " ".join(searched[0].pv[:4])))

    # drawn: every position, the action that led there marked
    os.makedirs(args.out, exist_ok=True)
    pos = yinsh.Position()
    for ply, action in enumerate(actions, 1):
        pos.apply(action)
        with open(os.path.join(args.out, "ply-%03d.svg" % ply), "w") as f:
            f.write(pos.svg())
    with open(os.path.join(args.out, "final.svg"), "w") as f:
        f.write(final.svg(last=actions[-1]))
    print("  drawn: %s/final.svg and %d positions" % (args.out, len(actions)))

    # the same game in OpenSpiel's shape
    state = yinsh.Game().new_initial_state()
    for a in actions:
        assert state.legal_actions_mask()[yinsh.action_index(a)]
        state.apply_action(yinsh.action_index(a))
    print("  replayed as a State: returns %s" % state.returns())

    # a database loaded into arrays
    if not os.path.exists(args.db):
        print("no database at %s: make one with `yinsh selfplay --games 200 --agent mcts:sims=50 --db %s`" %
              (args.db, args.db))
        return
    with yinsh.Database(args.db) as db:
        data = db.load()
    n = len(data["z"])
    shape = data["planes"].shape if hasattr(data["planes"], "shape") else (len(data["planes"]),)
    searched = sum(1 for s in data["searched"] if s)
    print("%s: %d positions of %d games: planes %s, actions, z (mean %.3f), %d searched values" %
          (args.db, n, (max(data["game"]) + 1) if n else 0, shape, sum(data["z"]) / max(n, 1), searched))


if __name__ == "__main__":
    main()
