"""The AlphaZero loop for a researcher's net (docs/python.md, "A loop for
your own net"), as scripts/puct-loop.sh runs it for the lab's own:

    python -m yinsh.loop --net-module torch_net --dir loop --rounds 3 --games 200 --sims 50

Round k: self-play of the best net so far into DIR/loop.db (run rK, by
python -m yinsh.selfplay), the module's train() on the positions of the
last --window rounds (yinsh.data) from the best net, a gate of the
candidate against the best by SPRT (`yinsh match` of two python -m
yinsh.uyi engines), which promotes it when H1 is accepted, and a match of
the round's best net against each fixed anchor (--anchor, the lab's own
agents), its Elo with its interval. The module gives new(path, seed),
load(path) (the evaluator, as --evaluate MODULE:load --net PATH takes it)
and train(db, runs, init, out, seed). Each step is skipped when its
output is there (a self-play run resumed when it was stopped), so the
same command again resumes a stopped loop. The figures of each round go
to DIR/loop.md (a table with each step's seconds and the gate's
decision), DIR/loop.json and the picture DIR/elo.svg (Elo by round
against each anchor, with its interval)."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

from . import selfplay as _selfplay
from .db import Database


def _yinsh_binary(given: Optional[str]) -> str:
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(os.path.dirname(os.path.dirname(here)), "build", "yinsh")
    return built if os.path.exists(built) else (shutil.which("yinsh") or built)


class Loop:
    def __init__(self, args: argparse.Namespace) -> None:
        self.a = args
        self.dir = os.path.abspath(args.dir)
        os.makedirs(self.dir, exist_ok=True)
        self.db = os.path.join(self.dir, "loop.db")
        self.state_path = os.path.join(self.dir, "loop.json")
        self.yinsh = _yinsh_binary(args.yinsh)
        self.state: Dict[str, Any] = {"best": 0, "rounds": []}
        if os.path.exists(self.state_path):
            with open(self.state_path) as f:
                self.state = json.load(f)
        sys.path.insert(0, os.getcwd())
        import importlib
        self.module = importlib.import_module(args.net_module)

    def net(self, k: int) -> str:
        return os.path.join(self.dir, "net%d.pt" % k)

    def save(self) -> None:
        tmp = self.state_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.state, f, indent=1)
        os.replace(tmp, self.state_path)

    def say(self, text: str) -> None:
        if not self.a.quiet:
            print("yinsh.loop: " + text, file=sys.stderr, flush=True)

    def engine(self, name: str, net: str) -> str:
        cmd = shlex.split(self.a.python) if self.a.python else [sys.executable]
        cmd += ["-m", "yinsh.uyi", "--evaluate", "%s:load" % self.a.net_module, "--net", net,
               "--sims", str(self.a.sims), "--c", str(self.a.c), "--batch", str(self.a.batch)]
        return "uyi:name=%s;cmd=%s;dir=%s" % (name, " ".join(shlex.quote(w) for w in cmd), os.getcwd())

    def match(self, a: str, b: str, games: int, seed: int, out: str, sprt: Optional[str] = None) -> Dict[str, Any]:
        """A match's JSON summary, kept in out (read again when it is there)."""
        if os.path.exists(out):
            with open(out) as f:
                return json.load(f)
        cmd = [self.yinsh, "match", "--a", a, "--b", b, "--games", str(games), "--seed", str(seed), "--no-db",
               "--threads", str(self.a.threads), "--json", "--quiet", "--engine-logs", os.path.join(self.dir, "logs")]
        if sprt:
            cmd += ["--sprt", sprt]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("yinsh match failed (%d): %s" % (p.returncode, p.stderr.strip()[-2000:]))
        tmp = out + ".tmp"
        with open(tmp, "w") as f:
            f.write(p.stdout)
        os.replace(tmp, out)
        return json.loads(p.stdout)

    def round(self, k: int) -> Dict[str, Any]:
        a = self.a
        rounds = self.state["rounds"]
        row = rounds[k] if k < len(rounds) else {"round": k}
        best = self.state["best"] if k >= len(rounds) else row["net"]
        row["net"] = best
        run = "r%d" % k
        # 1. self-play of the best net
        t0 = time.time()
        with Database(self.db) if os.path.exists(self.db) else _Nothing() as d:
            stored = {r.name: r for r in d.runs()} if d else {}
        if run not in stored or not stored[run].finished:
            self.say("round %d: self-play of net%d, %d games" % (k, best, a.games))
            spec = _selfplay.agent_spec("%s:load" % a.net_module, a.sims, a.c, a.batch, temp=a.temp,
                                        temp_moves=a.temp_moves, noise=a.noise, alpha=a.alpha)
            out = _selfplay.run("%s:load" % a.net_module, self.db, run, net=self.net(best), resume=run in stored,
                                agent=None if run in stored else spec, games=a.games, seed=a.seed + k,
                                games_at_once=a.games_at_once, workers=a.workers, quiet=a.quiet,
                                command="python -m yinsh.loop (round %d)" % k, eval_batch=a.eval_batch)
            row["selfplay_s"] = row.get("selfplay_s", 0) + round(out["seconds"], 1)
            row["leaves_per_call"] = round(out["leaves"] / out["rounds"], 1) if out["rounds"] else 0
            row["leaves_per_s"] = round(out["leaves"] / out["seconds"]) if out["seconds"] else 0
            rounds[k:k + 1] = [row]
            self.save()
        # 2. train the candidate from the best, on the window's rounds
        cand = os.path.join(self.dir, "net%d-candidate.pt" % (k + 1))
        if not os.path.exists(cand):
            window = ["r%d" % j for j in range(max(0, k - a.window + 1), k + 1)]
            self.say("round %d: training on %s" % (k, ", ".join(window)))
            t0 = time.time()
            losses = self.module.train(self.db, window, self.net(best), cand, seed=a.seed + k)
            row["train_s"] = round(time.time() - t0, 1)
            row["losses"] = {key: round(v, 4) if isinstance(v, float) else v for key, v in losses.items()}
            rounds[k:k + 1] = [row]
            self.save()
        # 3. the gate: the candidate against the best, by SPRT
        t0 = time.time()
        gate = self.match(self.engine("candidate", cand), self.engine("net%d" % best, self.net(best)), a.gate_games,
                          a.seed + 100 + k, os.path.join(self.dir, "gate%d.json" % k), sprt=a.bounds)
        if "gate_s" not in row:
            row["gate_s"] = round(gate.get("time_s", time.time() - t0), 1)
        accepted = gate["sprt"]["accepted"]
        row["gate"] = {"games": gate["games"], "score": gate["a_score"]["value"], "elo": gate["elo"]["value"],
                       "elo_ci95": gate["elo"]["ci95"], "llr": gate["sprt"]["llr"], "accepted": accepted}
        if accepted == "H1" and row.get("promoted") is None:
            shutil.copyfile(cand, self.net(k + 1))
            self.state["best"] = k + 1
        row["promoted"] = accepted == "H1"
        row["best_after"] = self.state["best"]
        rounds[k:k + 1] = [row]
        self.save()
        # 4. the best net against the fixed anchors
        row["anchors"] = {}
        for i, anchor in enumerate(a.anchors):
            t0 = time.time()
            m = self.match(self.engine("net%d" % row["best_after"], self.net(row["best_after"])), anchor,
                           a.anchor_games, a.seed + 1000 * (k + 1) + i,  # new games each round
                           os.path.join(self.dir, "anchor%d-%d.json" % (k, i)))
            row["anchors"][anchor] = {"score": m["a_score"]["value"], "score_ci95": m["a_score"]["ci95"],
                                      "elo": m["elo_games"]["value"], "elo_ci95": m["elo_games"]["ci95"],
                                      "games": m["games"], "s": round(m.get("time_s", time.time() - t0), 1)}
        rounds[k:k + 1] = [row]
        self.save()
        return row

    def run(self) -> None:
        if not os.path.exists(self.net(0)):
            self.module.new(self.net(0), seed=self.a.seed)
        for k in range(self.a.rounds):
            self.round(k)
            self.report()

    def report(self) -> None:
        lines = ["| round | net | self-play s | leaves a call | leaves/s | positions | train s | losses (policy, value) "
                 "| gate s | gate: candidate's score, Elo (95% CI), LLR | promoted | best after | " +
                 " | ".join("vs %s: Elo (95%% CI)" % x for x in self.a.anchors) + " |",
                 "|---" * (12 + len(self.a.anchors)) + "|"]
        for r in self.state["rounds"]:
            g, lo = r.get("gate", {}), r.get("losses", {})
            ci = g.get("elo_ci95") or [None, None]
            cells = [str(r["round"]), "net%d" % r["net"], str(r.get("selfplay_s", "")), str(r.get("leaves_per_call", "")),
                     str(r.get("leaves_per_s", "")), str(lo.get("positions", "")), str(r.get("train_s", "")),
                     "%s, %s" % (lo.get("policy", ""), lo.get("value", "")), str(r.get("gate_s", "")),
                     "%s, %s (%s to %s), %s after %s games" % (_f(g.get("score")), _f(g.get("elo")),
                                                               "-inf" if ci[0] is None else _f(ci[0]),
                                                               "+inf" if ci[1] is None else _f(ci[1]),
                                                               _f(g.get("llr")), g.get("games")),
                     {"H1": "yes (H1)", "H0": "no (H0)"}.get(g.get("accepted"), "no (no decision)"),
                     "net%s" % r.get("best_after", "")]
            for x in self.a.anchors:
                m = r.get("anchors", {}).get(x)
                lo, hi = m["elo_ci95"] if m and m["elo_ci95"] else (None, None)
                cells.append("%s (%s to %s), %s games" % (_f(m["elo"]), "-inf" if lo is None else _f(lo),
                                                         "+inf" if hi is None else _f(hi), m["games"])
                             if m else "")
            lines.append("| " + " | ".join(cells) + " |")
        tmp = os.path.join(self.dir, "loop.md.tmp")
        with open(tmp, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, os.path.join(self.dir, "loop.md"))
        self.picture()

    def picture(self) -> None:
        """DIR/elo.svg: the best net's Elo against each anchor by round (gnuplot)."""
        data = os.path.join(self.dir, "elo.dat")
        with open(data, "w") as f:
            for i, x in enumerate(self.a.anchors):
                f.write("# %s\n" % x)
                for r in self.state["rounds"]:
                    m = r.get("anchors", {}).get(x)
                    if m and m["elo"] is not None and m["elo_ci95"]:
                        # an interval open at one end (a score of 0 or 1 within it): the bar stops at the estimate
                        lo, hi = (m["elo"] if b is None else b for b in m["elo_ci95"])
                        f.write("%d %g %g %g\n" % (r["round"], m["elo"], lo, hi))
                f.write("\n\n")
        gnuplot = shutil.which("gnuplot")
        if not gnuplot:
            return
        plots = ", ".join("'%s' index %d using 1:2:3:4 with yerrorlines title 'vs %s'" % (data, i, x.replace("_", "\\\\_"))
                          for i, x in enumerate(self.a.anchors))
        script = ("set terminal svg size 640,400; set output '%s'; set xlabel 'round'; set ylabel 'Elo (95%% CI)'; "
                  "set key top left; set xtics 1; set offsets 0.3, 0.3, 0, 0; plot %s"
                  % (os.path.join(self.dir, "elo.svg"), plots))
        subprocess.run([gnuplot, "-e", script], capture_output=True)


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _f(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return "%.0f" % x if abs(x) >= 100 else "%.3g" % x
    return str(x)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m yinsh.loop", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--net-module", required=True, help="the module of new, load and train (on the import path)")
    ap.add_argument("--dir", required=True, help="the loop's folder: its database, nets, matches and figures")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=200, help="self-play games a round (200)")
    ap.add_argument("--sims", type=int, default=50, help="simulations a search, in self-play and the matches (50)")
    ap.add_argument("--c", type=float, default=1.5)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--temp", type=float, default=1.0)
    ap.add_argument("--temp-moves", type=int, default=20)
    ap.add_argument("--noise", type=float, default=0.25)
    ap.add_argument("--alpha", type=float, default=0.3)
    ap.add_argument("--window", type=int, default=3, help="the rounds a candidate learns from (3)")
    ap.add_argument("--gate-games", type=int, default=200, help="the gate's most games (200)")
    ap.add_argument("--bounds", default="0,30,0.05,0.05", help="the gate's SPRT (0,30,0.05,0.05)")
    ap.add_argument("--anchor", action="append", dest="anchors", metavar="SPEC",
                    help="a fixed opponent, a spec of the lab's (repeat it; default: random and mcts:sims=50)")
    ap.add_argument("--anchor-games", type=int, default=40)
    ap.add_argument("--games-at-once", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--eval-batch", type=int, default=0, metavar="N",
                    help="self-play's evaluator calls of at most N leaves (0: all gathered; python -m yinsh.selfplay)")
    ap.add_argument("--threads", type=int, default=2, help="games at once in the matches (2)")
    ap.add_argument("--seed", type=int, default=5600)
    ap.add_argument("--yinsh", help="the yinsh binary (default: the build's)")
    ap.add_argument("--python", metavar="CMD",
                    help="the command that starts the engines' interpreter, e.g. a virtual environment's python "
                         "(default: this interpreter)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    args.anchors = args.anchors or ["random", "mcts:sims=50"]
    Loop(args).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
