#!/usr/bin/env python3
"""How much of what a search knows can a network learn? Measured on a training run's data.

    python benchmarks/search_distillation.py RUN_FOLDER [--epochs 15]

Reads the 2-player positions of an ``alhambra train --search N`` run (``data/p2_r*.npz``:
features, outcomes, the hand-made leaf rewards and the mover's search value) and prints, on the
held-out tenth of the games (as the training holds them out):

- the cross-entropy of the hand-made rewards against the search value, and the entropy of the
  search value itself (the floor: a predictor that knew the search exactly);
- both against the outcome (does the search know more than the hand-made value?);
- for a few residual networks (the hand-made logits plus a learned correction, trained on the
  search value as target): the best held-out loss against the search value, and its loss against
  the outcome. The share of the gap between the hand-made value and the floor that a network
  closes is what a learned leaf could add to the search.

Needs PyTorch (the extra ``train``).
"""

from __future__ import annotations

import argparse
import glob
import sys
from pathlib import Path

import numpy as np


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="the folder of an alhambra train --search run")
    ap.add_argument("--epochs", type=int, default=15)
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("needs PyTorch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    files = sorted(glob.glob(str(args.run / "data" / "p2_r*.npz")))
    if not files:
        print(f"no 2-player data in {args.run}/data", file=sys.stderr)
        return 2
    parts = [np.load(f) for f in files]
    if any("q" not in d.files for d in parts):
        print("the run's data has no search values (train it with --search N)", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    x = np.concatenate([d["x"] for d in parts]).astype(np.float32)
    y, g = np.concatenate([d["y"] for d in parts]), np.concatenate([d["game"] for d in parts])
    hand, q = np.concatenate([d["hand"] for d in parts]), np.concatenate([d["q"] for d in parts])
    known = ~np.isnan(q).any(axis=1)
    x, y, g, hand, q = x[known], y[known], g[known], hand[known], q[known]
    val = torch.from_numpy(g % 10 == 0)
    tr = ~val
    X, Y, Q = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(q)
    B = torch.from_numpy(np.log(np.maximum(hand, 1e-9)).astype(np.float32))

    def ce(logp: torch.Tensor, target: torch.Tensor) -> float:
        return float(-(target * logp).sum(dim=1).mean())

    hand_q = ce(torch.log_softmax(B[val], 1), Q[val])
    floor = ce(torch.log(Q[val].clamp(min=1e-9)), Q[val])
    print(f"{len(files)} data file(s), {len(x)} positions with a search value, {int(val.sum())} held out")
    print(f"against the search value: hand-made {hand_q:.4f}, floor (the search's own entropy) {floor:.4f}")
    hand_y = ce(torch.log_softmax(B[val], 1), Y[val])
    print(f"against the outcome:      hand-made {hand_y:.4f}, search value {ce(torch.log(Q[val].clamp(min=1e-9)), Y[val]):.4f}")
    print("residual network (hidden, lr, weight decay): best held-out loss against the search value,")
    print("its loss against the outcome, the share of the gap to the floor it closes")
    for hidden, lr, wd in (((), 1e-3, 0.0), ((64, 32), 1e-3, 0.01), ((128,), 3e-4, 0.01)):
        torch.manual_seed(0)
        layers: list[torch.nn.Module] = []
        width = x.shape[1]
        for h in hidden:
            layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
            width = h
        last = torch.nn.Linear(width, 2)
        torch.nn.init.zeros_(last.weight)
        torch.nn.init.zeros_(last.bias)
        model = torch.nn.Sequential(*layers, last)
        opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)
        best = (hand_q, 0, ce(torch.log_softmax(B[val], 1), Y[val]))
        Xt, Qt, Bt = X[tr], Q[tr], B[tr]
        for epoch in range(1, args.epochs + 1):
            perm = torch.randperm(len(Xt))
            for i in range(0, len(Xt), 256):
                idx = perm[i : i + 256]
                loss = -(Qt[idx] * torch.log_softmax(model(Xt[idx]) + Bt[idx], 1)).sum(dim=1).mean()
                opt.zero_grad()
                torch.autograd.backward(loss)
                opt.step()
            with torch.no_grad():
                logp = torch.log_softmax(model(X[val]) + B[val], 1)
                v = ce(logp, Q[val])
                if v < best[0]:
                    best = (v, epoch, ce(logp, Y[val]))
        closed = (hand_q - best[0]) / (hand_q - floor) if hand_q > floor else 0.0
        print(f"  {hidden!s:10} {lr:g} {wd:g}: {best[0]:.4f} (epoch {best[1]}), outcome {best[2]:.4f}, {closed:.0%} of the gap")
    return 0


if __name__ == "__main__":
    sys.exit(main())
