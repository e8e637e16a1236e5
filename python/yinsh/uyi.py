"""Your own net as a UYI engine (docs/python.md, "Your net as an engine"):

    python -m yinsh.uyi --evaluate mynet:evaluate [--net FILE] [--sims 800] [--c 1.5] [--batch 64]

The lab's own engine server (`yinsh uyi`: the handshake, options, isready
during a search, stop, the clock policy, the seed) playing the lab's PUCT
over evaluate(planes, mask) -> (priors, values), as yinsh.PuctAgent takes
it, named MODULE:FUNCTION (with --net FILE, FUNCTION(FILE) makes it), on
standard input and output; so that `yinsh match --sprt`, tournaments and
studies gate and rate a researcher's net:

    build/yinsh match --a "uyi:name=mine;cmd=python3 -m yinsh.uyi --evaluate mynet:evaluate --sims 400" \\
        --b mcts:sims=400,c=1,eval=net:pv32.nnue,puct=1 --sprt 0,20,0.05,0.05 --games 2000 --store-visits

It announces the option `visits`: with --store-visits, `yinsh match` and
`selfplay` store its root visits as they store the lab's own searches'.
What the evaluator prints goes to standard error (standard output is the
protocol's). An evaluator that fails ends the engine, its reason on
standard error (the harness's log)."""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
from typing import List, Optional

from . import _lib
from ._evaluator import Evaluator, content_hash, load
from ._lib import lib
from .selfplay import agent_spec

lib.yinsh_uyi_serve.restype = ctypes.c_int
lib.yinsh_uyi_serve.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint64,
                                ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]


def serve(evaluator: str, net: Optional[str] = None, in_fd: int = 0, out_fd: Optional[int] = None,
          **settings) -> int:
    """Serves the engine on the descriptors (standard input and output by
    default, standard output then kept for the protocol alone): 0 after
    quit or the end of the input."""
    spec = agent_spec(evaluator, **settings)
    ev = Evaluator(load(evaluator, net))
    net_hash = content_hash(evaluator, net)
    if out_fd is None:
        # the protocol's own descriptor; what prints to standard output goes to standard error
        sys.stdout.flush()
        out_fd = os.dup(1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    err = _lib.err_buffer()
    rc = lib.yinsh_uyi_serve(in_fd, out_fd, _lib.encode(spec, "agent"), _lib.encode(evaluator, "evaluator"),
                             net_hash, ctypes.cast(ev.fn, ctypes.c_void_p), None, err)
    if rc < 0:
        _lib.raise_for(rc, err)
    return rc


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m yinsh.uyi", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--evaluate", required=True, metavar="MODULE:FUNCTION", help="the evaluator (or its factory)")
    ap.add_argument("--net", metavar="FILE", help="the net file: FUNCTION(FILE) makes the evaluator")
    ap.add_argument("--sims", type=int, default=800, help="simulations a search without a limit of go's (800)")
    ap.add_argument("--c", type=float, default=1.5, help="PUCT's constant (1.5)")
    ap.add_argument("--batch", type=int, default=64, help="leaves evaluated together (64)")
    ap.add_argument("--fpu", type=float, default=0.0, help="first-play urgency reduction (0)")
    ap.add_argument("--solver", action="store_true", help="prove wins and losses")
    args = ap.parse_args(argv)
    try:
        return serve(args.evaluate, args.net, sims=args.sims, c=args.c, batch=args.batch, fpu=args.fpu,
                     solver=args.solver)
    except _lib.UsageError as e:
        print("yinsh.uyi: %s" % e, file=sys.stderr)
        return 2
    except _lib.Error as e:
        print("yinsh.uyi: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
