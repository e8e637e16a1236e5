#!/usr/bin/env python3
"""The figures of results/python.md (issue 56's targets), measured in one
run on this machine, in alternating rounds:

  1. the path's own cost: python -m yinsh.selfplay over a do-nothing
     evaluator (uniform priors, value 0) against `yinsh selfplay` of PUCT
     on eval/nets/pv32.nnue, both at the same settings (--sims, --batch,
     2 processes or threads): simulations a second, and a CPU second;
  2. with the torch example net (python/examples/torch_net.py, a fresh
     net): the net alone at batch --batch in as many processes at once
     (its leaves a second: what the net allows), then self-play in as
     many workers: its leaves a second, leaves an evaluation, games a
     minute, and the ratio to what the net alone allows; then again with
     its evaluator called on at most --eval-batch leaves at a time.

    /usr/bin/python3 scripts/python-bench.py [--rounds 2] [--games 64] [--sims 100] [--batch 64] [--eval-batch 64]

Needs numpy and torch (/usr/bin/python3 with Debian's python3-numpy and
python3-torch) and a build (build/yinsh, build/libyinsh.so). Prints a
Markdown report on stdout, progress on stderr."""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = [os.path.join(ROOT, "python"), os.path.join(ROOT, "python", "examples")]

NOTHING = '''import numpy as np
def evaluate(planes, mask):
    return mask, np.zeros(len(mask), np.float32)
'''

NET_ALONE = '''import sys, time, numpy as np, yinsh, torch_net
ev = torch_net.load(sys.argv[1]); batch = int(sys.argv[2]); seconds = float(sys.argv[3])
p = yinsh.Position()
planes = np.ascontiguousarray(np.broadcast_to(p.planes("actor").reshape(1, 17, 121), (batch, 17, 121)))
mask = np.ascontiguousarray(np.broadcast_to(p.legal_mask(), (batch, 2142)))
ev(planes, mask)
n, t0, c0 = 0, time.perf_counter(), time.process_time()
while time.perf_counter() - t0 < seconds:
    ev(planes, mask); n += batch
print(n, time.perf_counter() - t0, time.process_time() - c0)
'''


def say(text):
    print("python-bench: " + text, file=sys.stderr, flush=True)


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(PY + [e["PYTHONPATH"]] if e.get("PYTHONPATH") else PY)
    e["TORCH_THREADS"] = "1"
    return e


def timed(cmd, cwd):
    """Runs cmd: (wall seconds, CPU seconds of it and its children, stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit("python-bench: %s failed: %s" % (" ".join(cmd), p.stderr[-3000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stderr


def searched_sims(db, sims):
    """Simulations run: sims per searched decision (full searches only here)."""
    sys.path[:0] = PY
    import yinsh
    with yinsh.Database(db) as d:
        return sims * sum(1 for g in d.games() for r in g.rows if r.searched)


def net_share(stderr):
    """The evaluator's share of the play's CPU time, as the run's summary says it."""
    line = [l for l in stderr.splitlines() if l.startswith("the evaluator took ")][-1]
    return float(line.split("% of")[0].split("took ")[-1]) / 100  # said to 0.1%


def summary_of(stderr):
    """(leaves a second, leaves an evaluation, games a minute, leaves in all) of a run's summary line."""
    line = [l for l in stderr.splitlines() if l.startswith("run ")][-1]
    leaves = float(line.split(" leaves a second")[0].split(", ")[-1])
    per_call = float(line.split(" leaves an evaluation")[0].split(", ")[-1])
    gpm = float(line.split(" games a minute")[0].split(": ")[-1])
    seconds = float(line.split(" s: ")[0].split(" in ")[-1])
    return leaves, per_call, gpm, leaves * seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--torch-games", type=int, default=16)
    ap.add_argument("--sims", type=int, default=100)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--big-batch", type=int, default=256, help="the net alone again at about self-play's calls")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games-at-once", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=10, help="how long the net alone is timed")
    ap.add_argument("--seed", type=int, default=5601)
    ap.add_argument("--eval-batch", type=int, default=64,
                    help="self-play with the torch net again, its evaluator called on at most N leaves at a time "
                         "(--eval-batch of python -m yinsh.selfplay; 0: not)")
    args = ap.parse_args()
    yinsh_bin = os.path.join(ROOT, "build", "yinsh")
    tmp = tempfile.mkdtemp(prefix="python-bench-")
    with open(os.path.join(tmp, "nothing.py"), "w") as f:
        f.write(NOTHING)
    with open(os.path.join(tmp, "net_alone.py"), "w") as f:
        f.write(NET_ALONE)
    subprocess.run([sys.executable, "-c", "import torch_net; torch_net.new('net0.pt', seed=1)"], cwd=tmp, env=env(),
                   check=True)
    w = args.workers
    rows = {"nothing": [], "lab": [], "alone": [], "alone_big": [], "torch": [], "torch_chunked": []}
    for k in range(args.rounds):
        seed = args.seed + k
        say("round %d: the do-nothing evaluator" % k)
        db = os.path.join(tmp, "nothing-%d.db" % k)
        wall, cpu, err = timed([sys.executable, "-m", "yinsh.selfplay", "--evaluate", "nothing:evaluate", "--db", db,
                                "--run", "r", "--games", str(args.games), "--seed", str(seed), "--sims",
                                str(args.sims), "--batch", str(args.batch), "--games-at-once",
                                str(args.games_at_once), "--workers", str(w), "--opening", "random:4"], tmp)
        leaves, per_call, gpm, _ = summary_of(err)
        sims = searched_sims(db, args.sims)
        rows["nothing"].append((sims / wall, sims / cpu, leaves, per_call, wall, cpu))
        say("round %d: yinsh selfplay of PUCT on pv32" % k)
        db = os.path.join(tmp, "lab-%d.db" % k)
        wall, cpu, _ = timed([yinsh_bin, "selfplay", "--games", str(args.games), "--seed", str(seed), "--threads",
                              str(w), "--db", db, "--run", "r", "--store-visits", "--quiet", "--opening", "random:4",
                              "--agent",
                              "mcts:sims=%d,c=1.5,eval=net:%s,puct=1,batch=%d" % (
                                  args.sims, os.path.join(ROOT, "eval/nets/pv32.nnue"), args.batch)], tmp)
        sims = searched_sims(db, args.sims)
        rows["lab"].append((sims / wall, sims / cpu, wall, cpu))
        for batch, key in ((args.batch, "alone"), (args.big_batch, "alone_big")):
            say("round %d: the torch net alone at batch %d, %d processes at once" % (k, batch, w))
            procs = [subprocess.Popen([sys.executable, "net_alone.py", "net0.pt", str(batch), str(args.seconds)],
                                      cwd=tmp, env=env(), stdout=subprocess.PIPE, text=True) for _ in range(w)]
            outs = [p.communicate()[0].split() for p in procs]
            rows[key].append((sum(int(n) / float(t) for n, t, _ in outs),
                              sum(int(n) for n, _, _ in outs) / sum(float(c) for _, _, c in outs)))
        for key, chunk in (("torch", 0), ("torch_chunked", args.eval_batch)):
            if key == "torch_chunked" and not chunk:
                continue
            say("round %d: self-play with the torch net%s" % (k, ", --eval-batch %d" % chunk if chunk else ""))
            db = os.path.join(tmp, "%s-%d.db" % (key, k))
            wall, cpu, err = timed([sys.executable, "-m", "yinsh.selfplay", "--evaluate", "torch_net:load", "--net",
                                    "net0.pt", "--db", db, "--run", "r", "--games", str(args.torch_games), "--seed",
                                    str(seed), "--sims", str(args.sims), "--batch", str(args.batch),
                                    "--games-at-once", str(args.games_at_once), "--workers", str(w), "--temp", "1",
                                    "--temp-moves", "20", "--eval-batch", str(chunk)], tmp)
            leaves, per_call, gpm, total = summary_of(err)
            rows[key].append((leaves, per_call, gpm, total / cpu, wall, cpu, net_share(err)))
    med = lambda xs: statistics.median(xs)
    load = os.getloadavg()
    cpuinfo = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print("Measured %s on %s (%d cores; load average %.1f %.1f %.1f at the end: other work shared the machine),"
          " %d alternating rounds, medians:\n" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), cpuinfo,
                                                  os.cpu_count(), *load, args.rounds))
    print("`/usr/bin/python3 scripts/python-bench.py --rounds %d --games %d --torch-games %d --sims %d --batch %d "
          "--workers %d --games-at-once %d --seed %d --eval-batch %d`\n" % (args.rounds, args.games, args.torch_games,
                                                                          args.sims, args.batch, w, args.games_at_once,
                                                                          args.seed, args.eval_batch))
    print("| %d sims, batch %d, %d processes or threads | simulations/s | per CPU second | leaves an evaluation |" %
          (args.sims, args.batch, w))
    print("|---|--:|--:|--:|")
    print("| `python -m yinsh.selfplay`, do-nothing evaluator, %d games at once a process | %.0f | %.0f | %.0f |" % (
        args.games_at_once, med([r[0] for r in rows["nothing"]]), med([r[1] for r in rows["nothing"]]),
        med([r[3] for r in rows["nothing"]])))
    print("| `yinsh selfplay` of PUCT on pv32 (`--threads %d`) | %.0f | %.0f | %d (a search's batch) |" % (
        w, med([r[0] for r in rows["lab"]]), med([r[1] for r in rows["lab"]]), args.batch))
    alone = med([r[0] for r in rows["alone"]])
    print("\n| the torch example net, batch %d, %d processes | leaves/s | per CPU second | leaves an evaluation | "
          "games a minute | the evaluator's share of the play's CPU |" % (args.batch, w))
    print("|---|--:|--:|--:|--:|--:|")
    print("| the net alone (what it allows) | %.0f | %.0f | %d | | |" % (alone, med([r[1] for r in rows["alone"]]),
                                                                        args.batch))
    print("| the net alone at larger batches | %.0f | %.0f | %d | | |" % (
        med([r[0] for r in rows["alone_big"]]), med([r[1] for r in rows["alone_big"]]), args.big_batch))
    alone_cpu = med([r[1] for r in rows["alone"]])
    for key, label in (("torch", "`python -m yinsh.selfplay`"),
                       ("torch_chunked", "`python -m yinsh.selfplay --eval-batch %d`" % args.eval_batch)):
        if rows[key]:
            print("| %s | %.0f | %.0f | %.0f | %.1f | %.1f%% |" % (
                label, med([r[0] for r in rows[key]]), med([r[3] for r in rows[key]]),
                med([r[1] for r in rows[key]]), med([r[2] for r in rows[key]]),
                100 * med([r[6] for r in rows[key]])))
    for key, label in (("torch", "Self-play's"),
                       ("torch_chunked", "With --eval-batch %d, self-play's" % args.eval_batch)):
        if rows[key]:
            print("\n%s leaves a second are %.0f%% of the net alone's at batch %d, and a CPU second's %.0f%% "
                  "(the rounds: %s); against the net alone at batch %d, %.0f%% a CPU second." % (
                      label, 100 * med([r[0] for r in rows[key]]) / alone, args.batch,
                      100 * med([r[3] for r in rows[key]]) / alone_cpu,
                      ", ".join("%.0f%%" % (100 * t[3] / a[1]) for t, a in zip(rows[key], rows["alone"])),
                      args.big_batch, 100 * med([r[3] for r in rows[key]]) / med([r[1] for r in rows["alone_big"]])))
            print("Inside the play, the evaluator took %.1f%% of the processes' CPU time (the rounds: %s): the "
                  "search, the binding and the store added %.1f%% to the net's own cost, at its own calls and "
                  "leaves." % (100 * med([r[6] for r in rows[key]]),
                               ", ".join("%.1f%%" % (100 * r[6]) for r in rows[key]),
                               100 * (1 / med([r[6] for r in rows[key]]) - 1)))
    print("\nRaw rounds: %r" % rows)


if __name__ == "__main__":
    main()
