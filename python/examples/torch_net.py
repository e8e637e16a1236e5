"""A researcher's own policy and value net, in torch, as the lab's Python
entry points take it (docs/python.md, "A loop for your own net"): small
enough to train and play on two cores.

    load(path)                  the evaluator of the net in path (a factory: --evaluate torch_net:load --net PATH)
    new(path, seed)             a fresh net written to path
    train(db, runs, init, out)  the net of init trained on the positions of runs (yinsh.data), written to out

The net: the observation planes (17 x 11 x 11) through a 3x3 convolution
and 2 residual blocks of 32 channels; a board-shaped policy head (a 1x1
convolution to the 60 channels of the action layout, whose 2142 slots are
the logits, masked and softmaxed); a value head (a 1x1 convolution, two
linear layers, a sigmoid: the side to act's expected score). Needs numpy
and torch (Debian: apt-get install python3-numpy python3-torch).

    python3 -m yinsh.loop --net-module torch_net --dir loop --rounds 3   # (python/examples on the path)
"""

import os

import numpy as np
import torch
from torch import nn

import yinsh

torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))  # one per process: the workers are the parallelism


class Block(nn.Module):
    def __init__(self, ch: int) -> None:
        super().__init__()
        self.a = nn.Conv2d(ch, ch, 3, padding=1)
        self.b = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return torch.relu(x + self.b(torch.relu(self.a(x))))


class Net(nn.Module):
    def __init__(self, channels: int = 32, blocks: int = 2) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(yinsh.PLANES, channels, 3, padding=1), nn.ReLU())
        self.blocks = nn.Sequential(*[Block(channels) for _ in range(blocks)])
        self.policy = nn.Conv2d(channels, yinsh.CHANNELS, 1)
        self.value = nn.Sequential(nn.Conv2d(channels, 2, 1), nn.ReLU(), nn.Flatten(),
                                   nn.Linear(2 * yinsh.CELLS, 64), nn.ReLU(), nn.Linear(64, 1))
        # action index -> its slot in the flattened (60, 11, 11) policy output
        self.register_buffer("slot", torch.tensor(np.asarray(yinsh.action_layout().slot), dtype=torch.long))

    def forward(self, x):
        h = self.blocks(self.stem(x))
        return self.policy(h).flatten(1)[:, self.slot], self.value(h).squeeze(1)  # logits (n, 2142), value logit


def _read(path: str) -> Net:
    net = Net()
    net.load_state_dict(torch.load(path, map_location="cpu"))
    return net.eval()


def load(path: str):
    """The evaluator of the net in path: the library's arrays in, priors
    (a masked softmax) and values (a sigmoid) out."""
    net = _read(path)

    def evaluate(planes, mask):
        n = planes.shape[0]
        x = torch.from_numpy(planes).view(n, yinsh.PLANES, yinsh.GRID, yinsh.GRID)
        with torch.inference_mode():
            logits, value = net(x)
            logits = logits.masked_fill(torch.from_numpy(mask) == 0, float("-inf"))
            return torch.softmax(logits, dim=1).numpy(), torch.sigmoid(value).numpy()
    return evaluate


def _save(net: Net, out: str) -> None:
    tmp = "%s.%d.tmp" % (out, os.getpid())
    torch.save(net.state_dict(), tmp)
    os.replace(tmp, out)  # whole or not at all


def new(out: str, seed: int = 0) -> None:
    """A fresh net, its weights drawn from seed, written to out."""
    torch.manual_seed(seed)
    _save(Net(), out)


def train(db: str, runs, init: str, out: str, seed: int = 0, epochs: int = 2, batch_size: int = 256,
          lr: float = 1e-3, value_blend: float = 0.5) -> dict:
    """The net of init trained on the positions of runs of db (yinsh.data:
    shuffled, turned by the symmetries), its loss the policy's
    cross-entropy against the visits (where they are stored) plus the
    value's against the blend of result and root value; written to out.
    Returns the last epoch's mean losses."""
    import yinsh.data
    torch.manual_seed(seed)
    net = _read(init).train()
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-4)
    loader = yinsh.data.Loader(db, runs=list(runs), batch_size=batch_size, value_blend=value_blend, seed=seed)
    losses = {}
    for epoch in range(epochs):
        total = {"policy": 0.0, "value": 0.0, "batches": 0}
        for b in loader.batches(epoch):
            x = torch.from_numpy(b["planes"])
            mask = torch.from_numpy(b["mask"]) != 0
            target = torch.from_numpy(b["policy"])
            has = torch.from_numpy(b["has_policy"])
            logits, value = net(x)
            logp = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
            policy_loss = -(target * logp).sum(1)[has].mean() if has.any() else logits.sum() * 0
            value_loss = nn.functional.binary_cross_entropy_with_logits(value, torch.from_numpy(b["value_target"]))
            loss = policy_loss + value_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            total["policy"] += float(policy_loss)
            total["value"] += float(value_loss)
            total["batches"] += 1
        losses = {k: total[k] / max(total["batches"], 1) for k in ("policy", "value")}
        losses["positions"] = len(loader)
    _save(net.eval(), out)
    return losses
