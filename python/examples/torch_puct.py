"""PUCT over a torch policy+value net (docs/python.md, "PUCT with your own
net"): a small convolutional net, untrained, plugged into yinsh.PuctAgent
as its evaluator. The net alone is timed on batches of leaves, then it
plays a game against itself and the search is timed: leaves per second.

    /usr/bin/python3 python/examples/torch_puct.py [--sims 200] [--batch 64] [--plies N]

Needs numpy and torch (Debian: apt-get install python3-numpy python3-torch,
the /usr/bin/python3 they install into). The net sees the observation
planes (17 x 121, the actor's view) as 17 x 11 x 11; its policy head is
board-shaped: a 1x1 convolution to the layout's 60 channels, whose
2142 slots (yinsh.action_layout()) are the actions' logits; its value
head gives the side to act's expected score through a sigmoid."""

import argparse
import time

import numpy as np
import torch
from torch import nn

import yinsh


class Net(nn.Module):
    def __init__(self, channels: int = 32, layers: int = 3) -> None:
        super().__init__()
        trunk = [nn.Conv2d(yinsh.PLANES, channels, 3, padding=1), nn.ReLU()]
        for _ in range(layers - 1):
            trunk += [nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU()]
        self.trunk = nn.Sequential(*trunk)
        self.policy = nn.Conv2d(channels, yinsh.CHANNELS, 1)
        self.value = nn.Sequential(nn.Conv2d(channels, 2, 1), nn.ReLU(), nn.Flatten(),
                                   nn.Linear(2 * yinsh.CELLS, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
        # action index -> its slot in the flattened (60, 11, 11) output
        self.register_buffer("slot", torch.tensor(list(yinsh.action_layout().slot), dtype=torch.long))

    def forward(self, x: torch.Tensor):
        h = self.trunk(x)
        logits = self.policy(h).flatten(1)[:, self.slot]  # (n, 2142)
        return logits, self.value(h).squeeze(1)


def make_evaluator(net: Net):
    """The callback: the library's arrays in (no copy), priors and values out."""
    def evaluate(planes: np.ndarray, mask: np.ndarray):
        n = planes.shape[0]
        x = torch.from_numpy(planes).view(n, yinsh.PLANES, yinsh.GRID, yinsh.GRID)
        with torch.inference_mode():
            logits, value = net(x)
            logits = logits.masked_fill(torch.from_numpy(mask) == 0, float("-inf"))
            priors = torch.softmax(logits, dim=1)
        return priors.numpy(), value.numpy()
    return evaluate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sims", type=int, default=200, help="simulations per action (200)")
    ap.add_argument("--batch", type=int, default=64, help="leaves per evaluation (64)")
    ap.add_argument("--threads", type=int, default=1, help="search threads (1)")
    ap.add_argument("--torch-threads", type=int, default=1,
                    help="torch's threads (1: on a shared machine torch's OpenMP threads wait on each other; "
                         "issue 56 measured 2,089 leaves/s with 1 against 172 with every core)")
    ap.add_argument("--channels", type=int, default=32, help="the net's width (32)")
    ap.add_argument("--plies", type=int, default=0, help="stop the game after this many actions (0: play it out)")
    ap.add_argument("--seconds", type=float, default=3, help="how long the net alone is timed (3)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    net = Net(args.channels).eval()
    evaluate = make_evaluator(net)

    # the net alone, on batches of the start's planes and legal mask
    pos = yinsh.Position()
    planes = np.ascontiguousarray(np.broadcast_to(pos.planes("actor").reshape(1, yinsh.PLANES, yinsh.CELLS),
                                                  (args.batch, yinsh.PLANES, yinsh.CELLS)))
    mask = np.ascontiguousarray(np.broadcast_to(pos.legal_mask(), (args.batch, yinsh.ACTIONS)))
    evaluate(planes, mask)  # warm
    n, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < args.seconds:
        evaluate(planes, mask)
        n += args.batch
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    print("the net alone: %.0f leaves/s in batches of %d, %.0f per CPU second (torch %s, %d threads)" %
          (n / took, args.batch, n / cpu, torch.__version__, torch.get_num_threads()), flush=True)

    # a game of self-play (the first --plies actions of it, if given), with
    # exploration in its first 10 actions; the search's leaves per second
    agent = yinsh.PuctAgent(evaluate, sims=args.sims, batch=args.batch, threads=args.threads, c=1.5, temp=1,
                            temp_moves=10, noise=0.25, seed=args.seed)
    agent.new_game()
    actions, took, cpu = [], 0.0, 0.0
    while not pos.is_over and (args.plies == 0 or len(actions) < args.plies):
        start, cpu0 = time.perf_counter(), time.process_time()
        action, stats = agent.choose(pos)
        took += time.perf_counter() - start
        cpu += time.process_time() - cpu0
        agent.observe(pos, action)
        pos.apply(action)
        actions.append(action)
    end = "%s (%s)" % pos.outcome if pos.is_over else "not over"
    print("%d actions (%s): %s" % (len(actions), end, " ".join(actions[:12]) + (" ..." if len(actions) > 12 else "")))
    print("the search: %d leaves in %.1f s, %.0f leaves/s, %.0f per CPU second (sims %d, batch %d, threads %d)" %
          (agent.leaves, took, agent.leaves / took, agent.leaves / cpu, args.sims, args.batch, args.threads))


if __name__ == "__main__":
    main()
