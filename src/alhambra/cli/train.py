"""``alhambra train``: the value network's self-play training (extra ``train``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from .common import (
    app,
    console,
    fail,
)


@app.command(name="train")
def train_cmd(
    out: Annotated[
        Path, typer.Option("--out", help="The run's folder: data, checkpoint, log, weights, plot. An existing run there is resumed.")
    ] = Path("runs/value"),
    players: Annotated[str, typer.Option("--players", help="Player counts to learn, comma-separated (2 to 4).")] = "2,3,4",
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds of self-play and training (a resumed run goes on to this many).")] = 5,
    games: Annotated[int, typer.Option("--games", help="Self-play games per player count per round.")] = 300,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over all positions so far, per round.")] = 4,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer widths, comma-separated.")] = "128,64",
    lr: Annotated[float, typer.Option("--lr", help="AdamW's learning rate.")] = 1e-3,
    weight_decay: Annotated[float, typer.Option("--weight-decay", help="AdamW's weight decay.")] = 0.0,
    epsilon: Annotated[float, typer.Option("--epsilon", help="Share of random moves in self-play.")] = 0.1,
    sample_rate: Annotated[float, typer.Option("--sample-rate", help="Share of decisions recorded (every seat's view of each).")] = 0.25,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and of the networks' start.")] = 1,
    eval_games: Annotated[int, typer.Option("--eval-games", help="2-player games against mcts:hard after each round (0: none).")] = 16,
    eval_iterations: Annotated[
        int, typer.Option("--eval-iterations", help="Search iterations per move of both sides in those games.")
    ] = 100,
    residual: Annotated[
        bool,
        typer.Option("--residual/--outcome", help="Learn a correction of the hand-made leaf rewards (residual) or the win chances alone."),
    ] = False,
    search: Annotated[
        int, typer.Option("--search", help="Self-play moves chosen by an mcts:hard search of this many iterations (0: greedy).")
    ] = 0,
    search_target: Annotated[
        float,
        typer.Option("--search-target", help="Share of the mover's search value in the target, where a search chose the move (2 players)."),
    ] = 0.0,
    net_weight: Annotated[
        float | None,
        typer.Option("--net-weight", help="The network's share of a leaf in the evaluation games (default 1 residual, 0.5 outcome)."),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Processes playing the self-play games (the same data with any number; 0: every core).")
    ] = 1,
) -> None:
    """Learn the value network of mcts:learned from self-play (needs the extra 'train': PyTorch CPU)."""
    try:
        counts = tuple(int(p) for p in players.split(",") if p.strip())
        widths = tuple(int(h) for h in hidden.split(",") if h.strip())
    except ValueError:
        fail("--players and --hidden are comma-separated whole numbers")
    if not counts or any(p not in (2, 3, 4) for p in counts):
        fail("--players: counts from 2 to 4")
    if not widths or any(w < 1 for w in widths):
        fail("--hidden: at least one positive width")
    for name, value in (("--rounds", rounds), ("--games", games), ("--epochs", epochs)):
        if value < 1:
            fail(f"{name} must be at least 1")
    if not 0.0 <= epsilon <= 1.0 or not 0.0 < sample_rate <= 1.0:
        fail("--epsilon is in [0, 1] and --sample-rate in (0, 1]")
    if search < 0:
        fail("--search must be 0 (greedy self-play) or a number of iterations")
    if not 0.0 <= search_target <= 1.0 or (search_target > 0.0 and search == 0):
        fail("--search-target is in [0, 1] and needs --search (the values come from the searches)")
    if workers < 0:
        fail("--workers must be 0 (every core) or more")
    share = (1.0 if residual else 0.5) if net_weight is None else net_weight
    if not 0.0 <= share <= 1.0:
        fail("--net-weight is in [0, 1]")
    try:
        import torch  # noqa: F401
    except ImportError:
        fail("training needs PyTorch: pip install -e '.[train]' (PyTorch 2.13.0, CPU build)")
    from ..learning.train import TrainConfig, main_command, run

    cfg = TrainConfig(
        players=counts,
        rounds=rounds,
        games=games,
        epochs=epochs,
        hidden=widths,
        lr=lr,
        weight_decay=weight_decay,
        epsilon=epsilon,
        sample_rate=sample_rate,
        seed=seed,
        eval_games=eval_games,
        eval_iterations=eval_iterations,
        net_weight=share,
        residual=residual,
        search=search,
        search_target=search_target,
        workers=workers or os.cpu_count() or 1,
    )
    con = console()
    try:
        weights = run(out, cfg, main_command(), echo=lambda line: con.print(line, highlight=False))
    except ValueError as e:
        fail(str(e))
    con.print(f"weights: {weights} (ship them: copy to src/alhambra/bots/weights/value.npz)")
