"""Self-play of your own net into the lab's database (docs/python.md,
"Self-play of your own net"):

    python -m yinsh.selfplay --evaluate mynet:evaluate --db az.db --run r0 --games 1000 --seed 1 \\
        --sims 200 --batch 64 --temp 1 --temp-moves 20 --noise 0.25 --games-at-once 32 --workers 2

The evaluator is a Python function evaluate(planes, mask) -> (priors,
values), as yinsh.PuctAgent takes it, named MODULE:FUNCTION (the working
folder is on the import path); with --net FILE, FUNCTION(FILE) is called
once per process to make it (a factory that loads the net), and the
file's content hash is stored with the run (without --net, the module
file's). The lab's PUCT plays --games-at-once games at once in each of
--workers processes, their leaves evaluated together: one call of the
evaluator holds up to games-at-once x batch leaves. Every game is stored
in the run, with its visits, root values and search figures, as `yinsh
selfplay --store-visits` stores the lab's own; `yinsh report`, `view`,
`positions` and yinsh.data read it. Game i is the same whatever the
processes, the games at once, or a resume (--resume finishes a killed
run), for an evaluator that gives a position the same numbers in any
batch. Ctrl-C stops cleanly: the games stored stay, a resume plays the
rest."""

from __future__ import annotations

import argparse
import ctypes
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from typing import Any, Dict, List, Optional

from . import _lib
from ._evaluator import Evaluator, content_hash, load
from ._lib import lib

_P = ctypes.POINTER


class SelfplayConfigC(ctypes.Structure):
    _fields_ = [("db", ctypes.c_char_p), ("run", ctypes.c_char_p), ("evaluator", ctypes.c_char_p),
                ("net_hash", ctypes.c_uint64), ("resume", ctypes.c_int), ("agent", ctypes.c_char_p),
                ("games", ctypes.c_uint32), ("seed", ctypes.c_uint64), ("variant", ctypes.c_char_p),
                ("opening", ctypes.c_char_p), ("resign", ctypes.c_char_p), ("resign_check", ctypes.c_double),
                ("command", ctypes.c_char_p), ("join", ctypes.c_int), ("shard", ctypes.c_uint32),
                ("shards", ctypes.c_uint32)]


class SelfplayInfoC(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * _lib.NAME_LEN_C), ("agent", ctypes.c_char * _lib.SPEC_LEN_C),
                ("seed", ctypes.c_uint64), ("games", ctypes.c_uint32), ("todo", ctypes.c_uint32),
                ("stored", ctypes.c_uint32), ("played", ctypes.c_uint64), ("actions", ctypes.c_uint64),
                ("rounds", ctypes.c_uint64), ("leaves", ctypes.c_uint64), ("results", ctypes.c_uint64 * 4),
                ("resigned", ctypes.c_uint64), ("checked", ctypes.c_uint64), ("fired", ctypes.c_uint64),
                ("wrong", ctypes.c_uint64)]


for _name, _res, _args in (
        ("yinsh_selfplay_open", ctypes.c_int, [_P(ctypes.c_void_p), _P(SelfplayConfigC), ctypes.c_char_p]),
        ("yinsh_selfplay_play", ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p,
                                               ctypes.c_char_p]),
        ("yinsh_selfplay_stop", None, [ctypes.c_void_p]),
        ("yinsh_selfplay_get_info", None, [ctypes.c_void_p, _P(SelfplayInfoC)]),
        ("yinsh_selfplay_finish", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
        ("yinsh_selfplay_close", None, [ctypes.c_void_p])):
    if not hasattr(lib, _name):
        raise ImportError("libyinsh at %s is older than this package: it has no %s" % (_lib.path, _name))
    getattr(lib, _name).restype = _res
    getattr(lib, _name).argtypes = _args


def agent_spec(evaluator: str, sims: int = 200, c: float = 1.5, batch: int = 64, fpu: float = 0.0,
               temp: float = 0.0, temp_moves: int = 0, noise: float = 0.0, alpha: float = 0.3,
               pcr: Optional[str] = None, solver: bool = False) -> str:
    """The lab's spec of PUCT over the evaluator (docs/uyi.md has the keys),
    with what would pass silently refused as PuctAgent refuses it."""
    from .puct import _check_exploration
    pcr_pair = None
    if pcr is not None:
        p, sep, s = str(pcr).partition(":")
        try:
            pcr_pair = (float(p), int(s))
        except ValueError:
            raise _lib.UsageError(-2, "pcr %r: expected P:S (e.g. 0.25:40)" % (pcr,)) from None
        if not sep:
            raise _lib.UsageError(-2, "pcr %r: expected P:S (e.g. 0.25:40)" % (pcr,))
    _check_exploration(sims, noise, alpha, temp, temp_moves, pcr_pair, 0.0, 1, 0.0)
    parts = ["mcts:sims=%d" % sims, "c=%r" % float(c)]
    if solver:
        parts.append("solver=1")
    if temp:
        parts += ["temp=%r" % float(temp), "tempmoves=%d" % temp_moves]
    if noise:
        parts += ["noise=%r" % float(noise), "alpha=%r" % float(alpha)]
    if pcr_pair:
        parts.append("pcr=%r:%d" % pcr_pair)
    parts += ["puct=1", "batch=%d" % batch]
    if fpu:
        parts.append("fpu=%r" % float(fpu))
    parts.append("eval=fn:%s" % evaluator)
    return ",".join(parts)


class Selfplay:
    """A run of self-play opened in this process (the C handle):
    create, resume or join it, play, finish, close."""

    def __init__(self, db: str, run: str, evaluator: str, net_hash: int, resume: bool = False,
                 agent: Optional[str] = None, games: int = 0, seed: int = 0, variant: Optional[str] = None,
                 opening: Optional[str] = None, resign: Optional[str] = None, resign_check: float = 0.1,
                 command: str = "", join: bool = False, shard: int = 0, shards: int = 0) -> None:
        self._keep = [_lib.encode(x, what) if x is not None else None
                      for x, what in ((db, "db"), (run, "run"), (evaluator, "evaluator"), (agent, "agent"),
                                      (variant, "variant"), (opening, "opening"), (resign, "resign"),
                                      (command, "command"))]
        e = self._keep
        cfg = SelfplayConfigC(e[0], e[1], e[2], net_hash, int(resume), e[3], games, seed, e[4], e[5], e[6],
                              float(resign_check), e[7], int(join), shard, shards)
        h = ctypes.c_void_p()
        err = _lib.err_buffer()
        rc = lib.yinsh_selfplay_open(ctypes.byref(h), ctypes.byref(cfg), err)
        self._h = h
        if rc < 0:
            self.close()
            _lib.raise_for(rc, err)

    def info(self) -> Dict[str, Any]:
        i = SelfplayInfoC()
        lib.yinsh_selfplay_get_info(self._h, ctypes.byref(i))
        return {"name": _lib.text(i.name), "agent": _lib.text(i.agent), "seed": i.seed, "games": i.games,
                "todo": i.todo, "stored": i.stored, "played": i.played, "actions": i.actions, "rounds": i.rounds,
                "leaves": i.leaves, "white": i.results[1], "black": i.results[2], "draws": i.results[3],
                "resigned": i.resigned, "checked": i.checked, "fired": i.fired, "wrong": i.wrong}

    def play(self, evaluator: Evaluator, threads: int, progress: Any = None) -> None:
        """Plays this process's games (threads at once) in a thread of its
        own, so that this one sees Ctrl-C (then the play stops, keeping
        what was stored); progress(info) is called about every second."""
        err = _lib.err_buffer()
        result = []

        def body():
            result.append(lib.yinsh_selfplay_play(self._h, threads, ctypes.cast(evaluator.fn, ctypes.c_void_p),
                                                  None, err))

        t = threading.Thread(target=body, name="yinsh-selfplay", daemon=True)
        t.start()
        interrupted = False
        try:
            while t.is_alive():
                t.join(1.0)
                if progress is not None and t.is_alive():
                    progress(self.info())
        except KeyboardInterrupt:
            interrupted = True
            lib.yinsh_selfplay_stop(self._h)
            t.join()
        if evaluator.error is not None:
            raise evaluator.error
        if interrupted:
            raise KeyboardInterrupt
        if result and result[0] < 0:
            _lib.raise_for(result[0], err)

    def stop(self) -> None:
        lib.yinsh_selfplay_stop(self._h)

    def finish(self) -> bool:
        """Marks the run finished when every game is stored: True then."""
        return _lib.call(lib.yinsh_selfplay_finish, self._h) == 1

    def close(self, _close=lib.yinsh_selfplay_close) -> None:
        if getattr(self, "_h", None):
            _close(self._h)
            self._h = None

    __del__ = close


def _die_with_parent() -> None:
    """A worker ends when the process that started it does (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker(opts: Dict[str, Any], shard: int, shards: int, out: Any) -> None:
    """Worker shard of shards: joins the run, plays its slice, says how it went."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers
    try:
        evaluate = Evaluator(load(opts["evaluator"], opts["net"]), opts["eval_batch"])
        sp = Selfplay(opts["db"], opts["run"], opts["evaluator"], opts["net_hash"], join=True, shard=shard,
                      shards=shards)
        try:
            start = time.process_time()
            sp.play(evaluate, opts["games_at_once"], progress=lambda info: out.put(("progress", shard, info)))
            out.put(("done", shard, dict(sp.info(), cpu=time.process_time() - start, net_cpu=evaluate.cpu)))
        finally:
            sp.close()
    except BaseException as e:  # said to the parent, which stops the run
        out.put(("error", shard, "%s: %s" % (type(e).__name__, e)))
        raise


class _Progress:
    """The progress line on stderr (none with quiet)."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.quiet, self.start, self.shown = total, quiet, time.time(), False

    def __call__(self, infos: List[Dict[str, Any]]) -> None:
        if self.quiet:
            return
        played = sum(i["played"] for i in infos)
        rounds = sum(i["rounds"] for i in infos)
        leaves = sum(i["leaves"] for i in infos)
        took = max(time.time() - self.start, 1e-9)
        sys.stderr.write("\ryinsh.selfplay: %d/%d games, %.1f games/min, %.0f leaves/s, %.1f leaves a call  " % (
            played, self.total, 60 * played / took, leaves / took, leaves / rounds if rounds else 0))
        sys.stderr.flush()
        self.shown = True

    def end(self) -> None:
        if self.shown:
            sys.stderr.write("\n")


def run(evaluator: str, db: str, run: str, net: Optional[str] = None, resume: bool = False,
        agent: Optional[str] = None, games: int = 0, seed: int = 0, variant: Optional[str] = None,
        opening: Optional[str] = None, resign: Optional[str] = None, resign_check: float = 0.1,
        games_at_once: int = 32, workers: int = 1, quiet: bool = True, command: str = "",
        eval_batch: int = 0) -> Dict[str, Any]:
    """A self-play run (the module's docstring), played here or in workers:
    its figures (name, games, stored, played, actions, rounds, leaves,
    results, resignations, seconds, complete; cpu: the CPU seconds of the
    processes as they played, net_cpu: those spent in the evaluator)."""
    _lib.integer(games_at_once, "games at once", 1, 4096)
    _lib.integer(workers, "workers", 1, 256)
    _lib.integer(eval_batch, "the leaves of an evaluation (--eval-batch)", 0, 1 << 20)
    net_hash = content_hash(evaluator, net)
    evaluate = Evaluator(load(evaluator, net), eval_batch) if workers == 1 else None
    if net is not None:
        net = os.path.abspath(net)
    start = time.time()
    sp = Selfplay(db, run, evaluator, net_hash, resume=resume, agent=agent, games=games, seed=seed, variant=variant,
                  opening=opening, resign=resign, resign_check=resign_check, command=command)
    try:
        info = sp.info()
        if not quiet:
            sys.stderr.write("yinsh.selfplay: run %s in %s, seed %d, %s, %d games (%d to play), %d at once in %d "
                             "process%s\n" % (info["name"], db, info["seed"], info["agent"], info["games"],
                                              info["todo"], games_at_once, workers, "es" if workers > 1 else ""))
        progress = _Progress(info["todo"], quiet)
        try:
            if workers == 1:
                cpu = time.process_time()
                sp.play(evaluate, games_at_once, progress=lambda i: progress([i]))
                figures = [dict(sp.info(), cpu=time.process_time() - cpu, net_cpu=evaluate.cpu)]
            else:
                figures = _play_in_workers(dict(evaluator=evaluator, net=net, db=db, run=info["name"],
                                                net_hash=net_hash, games_at_once=games_at_once,
                                                eval_batch=eval_batch), workers, progress)
        finally:
            progress.end()
        complete = sp.finish()
        out = sp.info()
        for k in ("played", "actions", "rounds", "leaves", "resigned", "checked", "fired", "wrong"):
            out[k] = sum(f[k] for f in figures)
        for k in ("white", "black", "draws", "cpu", "net_cpu"):
            out[k] = sum(f[k] for f in figures)
        out["seconds"] = time.time() - start
        out["complete"] = complete
        return out
    finally:
        sp.close()


def _play_in_workers(opts: Dict[str, Any], workers: int, progress: Any) -> List[Dict[str, Any]]:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(opts, k + 1, workers, out), name="yinsh-selfplay-%d" % (k + 1))
             for k in range(workers)]
    for p in procs:
        p.start()
    latest: Dict[int, Dict[str, Any]] = {}
    done: Dict[int, Dict[str, Any]] = {}
    failure = None
    try:
        while len(done) < workers and failure is None:
            try:
                kind, shard, what = out.get(timeout=1.0)
            except queue.Empty:
                dead = [p for p in procs if not p.is_alive() and p.exitcode not in (0, None)]
                if dead and out.empty():
                    failure = "worker %s ended with status %s" % (dead[0].name, dead[0].exitcode)
                continue
            if kind == "error":
                failure = "worker %d of %d: %s" % (shard, workers, what)
            elif kind == "done":
                done[shard] = latest[shard] = what
            else:
                latest[shard] = what
                progress(list(latest.values()))
    except KeyboardInterrupt:
        for p in procs:
            p.terminate()
        for p in procs:
            p.join()
        raise
    if failure is not None:
        for p in procs:
            if p.is_alive():
                p.terminate()
    for p in procs:
        p.join()
    if failure is not None:
        raise _lib.Error(-1, failure)
    return [done[k] for k in sorted(done)]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m yinsh.selfplay", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("--evaluate", required=True, metavar="MODULE:FUNCTION", help="the evaluator (or its factory with --net)")
    ap.add_argument("--net", metavar="FILE", help="the net file: FUNCTION(FILE) makes the evaluator; its hash is stored")
    ap.add_argument("--db", required=True, help="the database (made when missing)")
    ap.add_argument("--run", required=True, help="the run's name")
    ap.add_argument("--resume", action="store_true", help="finish the stored run (its own plan and settings)")
    ap.add_argument("--games", type=int, help="the run's games (a new run)")
    ap.add_argument("--seed", type=int, help="the run's seed (a new run)")
    ap.add_argument("--variant", help="standard (default), blitz, ...")
    ap.add_argument("--opening", help="none (default), rings, or random:K")
    ap.add_argument("--sims", type=int, default=200, help="simulations a search (200)")
    ap.add_argument("--c", type=float, default=1.5, help="PUCT's constant (1.5)")
    ap.add_argument("--batch", type=int, default=64, help="leaves a search gathers between evaluations (64)")
    ap.add_argument("--fpu", type=float, default=0.0, help="an unvisited child's value: its parent's less this (0)")
    ap.add_argument("--temp", type=float, default=0.0, help="draw the action from visits^(1/T) ...")
    ap.add_argument("--temp-moves", type=int, default=0, help="... in the first N actions of a game")
    ap.add_argument("--noise", type=float, default=0.0, help="root Dirichlet noise's weight (0: none)")
    ap.add_argument("--alpha", type=float, default=0.3, help="its concentration (0.3)")
    ap.add_argument("--pcr", metavar="P:S", help="playout cap randomisation: full sims with probability P, else S")
    ap.add_argument("--solver", action="store_true", help="prove wins and losses")
    ap.add_argument("--resign", metavar="V:N", help="resign below value V at N consecutive decisions")
    ap.add_argument("--resign-check", type=float, default=0.1, help="the fraction of games played out (0.1)")
    ap.add_argument("--games-at-once", type=int, default=32, help="games played at once in a process (32)")
    ap.add_argument("--workers", type=int, default=1, help="processes (1)")
    ap.add_argument("--eval-batch", type=int, default=0, metavar="N",
                    help="give the evaluator the leaves gathered in calls of at most N (0, the default: all in one "
                         "call; a net on a CPU is often quicker at its own best batch, e.g. 64)")
    ap.add_argument("--quiet", action="store_true", help="no progress and no summary on stderr")
    args = ap.parse_args(argv)
    command = " ".join(["python", "-m", "yinsh.selfplay"] + (sys.argv[1:] if argv is None else list(argv)))
    try:
        if args.resume:
            fixed = [k for k in ("games", "seed", "variant", "opening", "resign", "pcr") if getattr(args, k) is not None]
            if fixed:
                ap.error("--resume plays the stored run's own plan: --%s goes without it" % fixed[0].replace("_", "-"))
            spec = None
        else:
            if args.games is None or args.seed is None:
                ap.error("a new run needs --games and --seed (or --resume)")
            spec = agent_spec(args.evaluate, args.sims, args.c, args.batch, args.fpu, args.temp, args.temp_moves,
                              args.noise, args.alpha, args.pcr, args.solver)
        out = run(args.evaluate, args.db, args.run, net=args.net, resume=args.resume, agent=spec,
                  games=args.games or 0, seed=args.seed or 0, variant=args.variant, opening=args.opening,
                  resign=args.resign, resign_check=args.resign_check, games_at_once=args.games_at_once,
                  workers=args.workers, quiet=args.quiet, command=command, eval_batch=args.eval_batch)
    except KeyboardInterrupt:
        print("yinsh.selfplay: interrupted: the games stored stay; --resume plays the rest", file=sys.stderr)
        return 130
    except _lib.UsageError as e:
        print("yinsh.selfplay: %s" % e, file=sys.stderr)
        return 2
    except _lib.Error as e:
        print("yinsh.selfplay: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:  # the evaluator's own: its traceback, then what became of the run
        import traceback
        traceback.print_exc()
        print("yinsh.selfplay: the evaluator raised %s: %s; the games stored stay, --resume plays the rest"
              % (type(e).__name__, e), file=sys.stderr)
        return 1
    if not args.quiet:
        minutes = out["seconds"] / 60
        print("run %s: %d games stored of %d%s; played now: %d games, %d actions in %.1f s: %.1f games a "
              "minute, %.0f leaves a second, %.1f leaves an evaluation (%d evaluations%s); W %d B %d D %d" % (
                  out["name"], out["stored"], out["games"], " (finished)" if out["complete"] else "", out["played"],
                  out["actions"], out["seconds"], out["played"] / minutes if minutes else 0,
                  out["leaves"] / out["seconds"] if out["seconds"] else 0,
                  out["leaves"] / out["rounds"] if out["rounds"] else 0, out["rounds"],
                  ", in calls of at most %d leaves" % args.eval_batch if args.eval_batch else "",
                  out["white"], out["black"],
                  out["draws"]), file=sys.stderr)
        if out["cpu"] > 0:
            print("the evaluator took %.1f%% of the CPU time of the play (%.1f of %.1f CPU s): the games a minute "
                  "are that share of what the evaluator alone allows" % (100 * out["net_cpu"] / out["cpu"],
                                                                          out["net_cpu"], out["cpu"]),
                  file=sys.stderr)
        if out["checked"] or out["resigned"]:
            print("resignation: %d games resigned, %d played out to check, the rule fired in %d of them, %d false"
                  % (out["resigned"], out["checked"], out["fired"], out["wrong"]), file=sys.stderr)
    return 0 if out["complete"] else 1


if __name__ == "__main__":
    sys.exit(main())
