"""``alhambra train``: fit the value network of ``mcts:learned`` from self-play (PyTorch, CPU).

A run lives in one folder and goes in rounds. Every round:

1. plays ``games`` self-play games per player count through the research API
   (:mod:`alhambra.learning.selfplay`; moves by the greedy evaluation, or with ``search`` by an
   ``mcts:hard`` search of that many iterations) and saves their positions
   (``data/p{n}_r{k}.npz``: features, outcomes, the hand-made leaf rewards, the searches'
   values);
2. trains each player count's network for ``epochs`` passes over all positions so far (one game
   in ten is held out for the validation loss), with Adam and the cross-entropy between the
   predicted win chances and the target: the outcome, with ``search_target`` of the mover's
   search value mixed in where a search chose the move (two players). A ``residual`` network's chances are the softmax of
   its outputs plus the logarithms of the hand-made rewards: it learns a correction of
   mcts:hard's own leaf evaluation and starts at none (its last layer zero); the log gives the
   hand-made rewards' own held-out loss beside it (against the target and the outcome alone);
3. exports the weights (``value_r{k}.npz``, numpy only, with the configuration, the data
   counts and the commit; ``value.npz`` is the latest) and saves a checkpoint
   (``checkpoint.pt``: networks, optimisers, the round);
4. plays ``eval_games`` two-player games of ``mcts`` with the new network against ``mcts:hard``
   at the same fixed iteration budget (the deals fixed for the whole run, each played from both
   seats) and logs the score.

Everything goes to ``train.log`` (one JSON object per line: the command, the configuration,
data counts, losses, evaluation results) and ``curve.png`` (the learning curve). Run it again
with the same folder to resume after the last finished round (more ``--rounds`` go further).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import MctsBot, make_bot
from ..bots.base import Budget, EventLog, observe
from ..bots.greedy import TUNED_WEIGHTS
from ..bots.mcts import MctsSettings
from ..engine import apply, new_game
from ..state import GameConfig
from ..tournament import wilson
from .selfplay import Batch, play_games

__all__ = ["TrainConfig", "evaluate", "run"]


@dataclass(frozen=True)
class TrainConfig:
    """The settings of a training run (``alhambra train --help`` describes each)."""

    players: tuple[int, ...] = (2, 3, 4)
    rounds: int = 5
    games: int = 300
    epochs: int = 4
    hidden: tuple[int, ...] = (128, 64)
    lr: float = 1e-3
    weight_decay: float = 0.0
    batch: int = 256
    epsilon: float = 0.1
    sample_rate: float = 0.25
    seed: int = 1
    eval_games: int = 16
    eval_iterations: int = 100
    net_weight: float = 0.5
    residual: bool = False
    search: int = 0
    search_target: float = 0.0
    workers: int = 1
    """Processes that play the self-play games (the data are the same with any number)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def same_run(self, other: TrainConfig) -> bool:
        """Could a run of ``other`` be continued with these settings? (all but the rounds,
        the evaluation and the workers equal)."""
        keep = {"rounds", "eval_games", "eval_iterations", "workers", "extra"}
        a = {k: v for k, v in dataclasses.asdict(self).items() if k not in keep}
        b = {k: v for k, v in dataclasses.asdict(other).items() if k not in keep}
        return a == b


def _commit() -> str:
    """The commit of this checkout, ``+changes`` when the package's code differs from it."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, cwd=Path(__file__).parent)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ":(top)src", ":(top)pyproject.toml", ":(top)setup.py"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
        )
        return out.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class _Log:
    def __init__(self, path: Path, echo: Callable[[str], None]) -> None:
        self.path = path
        self.echo = echo

    def __call__(self, kind: str, **data: Any) -> None:
        rec = {"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "event": kind, **data}
        with self.path.open("a") as f:
            f.write(json.dumps(rec) + "\n")
        self.echo(f"{kind}: " + ", ".join(f"{k}={v}" for k, v in data.items() if k not in ("config", "command")))


def _model(inputs: int, hidden: tuple[int, ...], outputs: int) -> Any:
    import torch.nn as nn

    layers: list[Any] = []
    width = inputs
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, outputs))
    return nn.Sequential(*layers)


def _load_data(folder: Path, n: int, upto: int) -> Batch:
    xs, ys, gs, hs, qs = [], [], [], [], []
    for k in range(1, upto + 1):
        path = folder / "data" / f"p{n}_r{k}.npz"
        with np.load(path) as d:
            if "hand" not in d.files:
                raise ValueError(f"{path} was written before positions kept their hand-made rewards; use a new folder")
            xs.append(d["x"].astype(np.float32))
            ys.append(d["y"])
            gs.append(d["game"])
            hs.append(d["hand"])
            qs.append(d["q"] if "q" in d.files else np.full_like(d["y"], np.nan))
    return Batch(np.concatenate(xs), np.concatenate(ys), np.concatenate(gs), np.concatenate(hs), np.concatenate(qs))


def targets(batch: Batch, share: float) -> Any:
    """The training targets: the outcome, and where the mover's search valued the position
    (``Batch.q``), ``share`` of that value mixed in (a search's estimate is far less noisy than
    one game's result)."""
    y = batch.y.astype(np.float32)
    if share <= 0.0:
        return y
    known = ~np.isnan(batch.q).any(axis=1)
    out = y.copy()
    out[known] = (1.0 - share) * y[known] + share * batch.q[known]
    return out


def _base(batch: Batch, residual: bool) -> Any:
    """The logits a residual network corrects (value_net.hand_logits of each row), else zeros."""
    import torch

    if not residual:
        return torch.zeros((len(batch.y), batch.y.shape[1]))
    return torch.from_numpy(np.log(np.maximum(batch.hand.astype(np.float64), 1e-9)).astype(np.float32))


def _held_out(model: Any, xv: Any, yv: Any, bv: Any) -> tuple[float, float]:
    """The held-out cross-entropy and how often the most likely winner is a winner (``bv``: the
    logits added to the network's)."""
    import torch

    model.eval()
    with torch.no_grad():
        logp = torch.log_softmax(model(xv) + bv, dim=1)
        vl = float(-(yv * logp).sum(dim=1).mean()) if len(xv) else float("nan")
        ac = float((logp.argmax(dim=1) == yv.argmax(dim=1)).float().mean()) if len(xv) else float("nan")
    model.train()
    return vl, ac


def _hand_loss(yv: Any, bv: Any) -> float:
    """The held-out cross-entropy of the hand-made rewards alone (normalised to sum to 1)."""
    import torch

    if not len(yv):
        return float("nan")
    logp = torch.log_softmax(bv, dim=1)
    return float(-(yv * logp).sum(dim=1).mean())


def _export(path: Path, models: dict[int, Any], meta: dict[str, Any]) -> None:
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
    for n, model in models.items():
        linear = [m for m in model if hasattr(m, "weight")]
        for i, m in enumerate(linear):
            arrays[f"p{n}/w{i}"] = m.weight.detach().numpy().T.astype(np.float32)
            arrays[f"p{n}/b{i}"] = m.bias.detach().numpy().astype(np.float32)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def evaluate(weights: str, games: int, iterations: int, seed: int, net_weight: float = 0.5) -> dict[str, Any]:
    """Two-player games of ``mcts`` with the network ``weights`` against ``mcts:hard`` at
    ``iterations`` per move each (deals ``seed, seed+1, ...``, each played from both seats)."""
    config = GameConfig(players=2)
    wins = 0.0
    margins: list[int] = []
    for g in range(games):
        deal, swap = divmod(g, 2)
        learned = MctsBot(
            "learned",
            dataclasses.replace(
                MctsSettings(opponent_pw_c=0.3, weights=TUNED_WEIGHTS),
                iterations=iterations,
                seconds=None,
                value_net=weights,
                net_weight=net_weight,
            ),
        )
        hard = make_bot(f"mcts:hard@iterations={iterations}+seconds=none")
        bots = [learned, hard] if swap == 0 else [hard, learned]
        me = 0 if swap == 0 else 1
        rngs = [random.Random(f"{seed}/{deal}/{swap}/{s}") for s in range(2)]
        state, events = new_game(config, seed + deal)
        log = EventLog()
        log.extend(events)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            bot = bots[seat]
            action = bot.choose(observe(state, seat, tuple(log.for_seat(seat))), Budget(iterations, None), rngs[seat])
            state, events = apply(state, action, seat)
            log.extend(events)
        s = list(state.scores)
        wins += 1.0 if s[me] > s[1 - me] else 0.5 if s[me] == s[1 - me] else 0.0
        margins.append(s[me] - s[1 - me])
    lo, hi = wilson(wins, games) if games else (0.0, 0.0)
    return {
        "games": games,
        "iterations": iterations,
        "score": wins / games if games else 0.0,
        "wilson": [lo, hi],
        "mean_margin": float(np.mean(margins)) if margins else 0.0,
    }


def run(folder: Path, cfg: TrainConfig, command: str, echo: Callable[[str], None] = print) -> Path:
    """Run (or resume) a training run in ``folder``; return the latest exported weights."""
    import torch

    torch.set_num_threads(1)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "data").mkdir(exist_ok=True)
    log = _Log(folder / "train.log", echo)
    ckpt_path = folder / "checkpoint.pt"
    models: dict[int, Any] = {}
    opts: dict[int, Any] = {}
    start = 1
    sizes: dict[int, int] = {}
    from ..bots.value_net import feature_map

    for n in cfg.players:
        sizes[n] = feature_map(GameConfig(players=n)).size
    torch.manual_seed(cfg.seed)
    for n in cfg.players:
        models[n] = _model(sizes[n], cfg.hidden, n)
        if cfg.residual:  # a correction starts at none: the hand-made rewards as they are
            last = models[n][-1]
            torch.nn.init.zeros_(last.weight)
            torch.nn.init.zeros_(last.bias)
        opts[n] = torch.optim.AdamW(models[n].parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    if ckpt_path.exists():
        ck = torch.load(ckpt_path, weights_only=False)
        old = TrainConfig(**{**ck["config"], "players": tuple(ck["config"]["players"]), "hidden": tuple(ck["config"]["hidden"])})
        if not cfg.same_run(old):
            raise ValueError(f"{folder} holds a run with other settings ({old}); use a new folder")
        for n in cfg.players:
            models[n].load_state_dict(ck["models"][n])
            opts[n].load_state_dict(ck["opts"][n])
        torch.set_rng_state(ck["torch_rng"])
        start = ck["round"] + 1
        log("resume", round=start, rounds=cfg.rounds)
    else:
        log("start", command=command, config=dataclasses.asdict(cfg), features={str(n): s for n, s in sizes.items()}, commit=_commit())
    latest = folder / "value.npz"
    for rnd in range(start, cfg.rounds + 1):
        t0 = time.perf_counter()
        counts: dict[str, int] = {}
        for n in cfg.players:
            path = folder / "data" / f"p{n}_r{rnd}.npz"
            if not path.exists():
                base = cfg.seed * 1_000_000 + n * 100_000 + rnd * 1000
                batch = play_games(
                    GameConfig(players=n), [base + i for i in range(cfg.games)], cfg.epsilon, cfg.sample_rate, cfg.search, cfg.workers
                )
                tmp = path.with_suffix(".tmp.npz")
                np.savez_compressed(tmp, x=batch.x.astype(np.float16), y=batch.y, game=batch.game, hand=batch.hand, q=batch.q)
                tmp.replace(path)
            with np.load(path) as d:
                counts[str(n)] = len(d["y"])
        t_play = time.perf_counter() - t0
        log("selfplay", round=rnd, games_per_count=cfg.games, positions=counts, seconds=round(t_play, 1))
        t1 = time.perf_counter()
        losses: dict[str, Any] = {}
        for n in cfg.players:
            data = _load_data(folder, n, rnd)
            val = data.game % 10 == 0
            target = targets(data, cfg.search_target)
            xt, yt = torch.from_numpy(data.x[~val]), torch.from_numpy(target[~val])
            xv, yv = torch.from_numpy(data.x[val]), torch.from_numpy(target[val])
            yo = torch.from_numpy(data.y[val])  # the outcomes alone
            base_all = _base(data, cfg.residual)
            bt, bv = base_all[torch.from_numpy(~val)], base_all[torch.from_numpy(val)]
            model, opt = models[n], opts[n]

            # the epoch with the best held-out loss is kept (positions of one game share their
            # outcome: a network soon learns games by heart; this stops it at its best)
            best: tuple[float, float, float | None, Any, int] = (*_held_out(model, xv, yv, bv), None, copy.deepcopy(model.state_dict()), 0)
            model.train()
            for epoch in range(1, cfg.epochs + 1):
                perm = torch.randperm(len(xt))
                total = 0.0
                for i in range(0, len(xt), cfg.batch):
                    idx = perm[i : i + cfg.batch]
                    logp = torch.log_softmax(model(xt[idx]) + bt[idx], dim=1)
                    loss = -(yt[idx] * logp).sum(dim=1).mean()
                    opt.zero_grad()
                    torch.autograd.backward(loss)
                    opt.step()
                    total += loss.item() * len(idx)
                vl, ac = _held_out(model, xv, yv, bv)
                if not vl >= best[0]:
                    best = (vl, ac, total / max(1, len(xt)), copy.deepcopy(model.state_dict()), epoch)
            vloss, acc, last, state, kept = best
            model.load_state_dict(state)
            model.eval()
            losses[str(n)] = {
                "train_positions": len(xt),
                "val_positions": len(xv),
                "train_loss": None if last is None else round(last, 4),  # None: no epoch beat the network it had
                "epoch_kept": kept,
                "val_loss": round(vloss, 4),
                "uniform_loss": round(math.log(n), 4),
                "hand_loss": round(_hand_loss(yv, _base(data, True)[torch.from_numpy(val)]), 4),
                "val_outcome_loss": round(_held_out(model, xv, yo, bv)[0], 4),
                "hand_outcome_loss": round(_hand_loss(yo, _base(data, True)[torch.from_numpy(val)]), 4),
                "val_winner_accuracy": round(acc, 4),
            }
        log("train", round=rnd, losses=losses, seconds=round(time.perf_counter() - t1, 1))
        meta = {
            "mode": "residual" if cfg.residual else "outcome",
            "command": command,
            "config": dataclasses.asdict(cfg),
            "round": rnd,
            "positions": {str(n): losses[str(n)]["train_positions"] + losses[str(n)]["val_positions"] for n in cfg.players},
            "commit": _commit(),
            "torch": torch.__version__,
            "sections": list(__import__("alhambra.bots.value_net", fromlist=["SECTIONS"]).SECTIONS),
        }
        exported = folder / f"value_r{rnd}.npz"
        _export(exported, models, meta)
        _export(latest, models, meta)
        torch.save(
            {
                "config": dataclasses.asdict(cfg),
                "round": rnd,
                "models": {n: m.state_dict() for n, m in models.items()},
                "opts": {n: o.state_dict() for n, o in opts.items()},
                "torch_rng": torch.get_rng_state(),
            },
            ckpt_path.with_suffix(".tmp"),
        )
        ckpt_path.with_suffix(".tmp").replace(ckpt_path)
        if cfg.eval_games > 0:
            t2 = time.perf_counter()
            res = evaluate(str(exported), cfg.eval_games, cfg.eval_iterations, cfg.seed * 7919, cfg.net_weight)
            log("eval", round=rnd, opponent="mcts:hard", **res, seconds=round(time.perf_counter() - t2, 1))
        log("round", round=rnd, seconds=round(time.perf_counter() - t0, 1))
        plot(folder / "train.log", folder / "curve.png")
    log("done", rounds=cfg.rounds, weights=str(latest))
    return latest


def plot(log_path: Path, out: Path) -> bool:
    """Draw the learning curve of a run's log (validation loss per player count, score
    against mcts:hard with Wilson intervals) as a PNG; False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    recs = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
    train = [r for r in recs if r["event"] == "train"]
    evals = [r for r in recs if r["event"] == "eval"]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for n in sorted({k for r in train for k in r["losses"]}):
        xs = [r["round"] for r in train if n in r["losses"]]
        a.plot(xs, [r["losses"][n]["val_loss"] for r in train if n in r["losses"]], marker="o", label=f"{n} players")
        a.axhline(train[0]["losses"][n]["uniform_loss"], ls=":", lw=0.8, color=a.lines[-1].get_color())
    a.xaxis.get_major_locator().set_params(integer=True)
    a.set_xlabel("round")
    a.set_ylabel("validation cross-entropy (dotted: no knowledge)")
    a.set_title("value network loss")
    a.legend()
    if evals:
        xs = [r["round"] for r in evals]
        ys = [r["score"] for r in evals]
        lo = [r["score"] - r["wilson"][0] for r in evals]
        hi = [r["wilson"][1] - r["score"] for r in evals]
        b.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3)
        b.axhline(0.5, ls=":", color="grey")
        b.set_ylim(0, 1)
        start = next((r for r in recs if r["event"] == "start"), None)
        share = start["config"].get("net_weight", 0.5) if start else 0.5
        b.set_title(f"vs mcts:hard, 2 players, {evals[-1]['iterations']} iterations each, net weight {share}", fontsize=10)
        b.xaxis.get_major_locator().set_params(integer=True)
        b.set_xlabel("round")
        b.set_ylabel("score (95% Wilson interval)")
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return True


def main_command() -> str:
    """The command line of this process (for the log)."""
    return " ".join(["alhambra", *sys.argv[1:]]) if sys.argv else "alhambra train"
