"""Train a small learning agent on a rule file, with numpy only.

A linear softmax policy (one weight vector per action of the game's action
catalogue, over the observation vector the environment derives from the
rule file) learns by REINFORCE to play Last Card (docs/examples) in seat 0
against a uniformly random player, through rulekit's PettingZoo
environment.  Nothing in this script knows the game: the rule file gives
the actions, the observation and the reward.  Every ``--every`` episodes
the policy is measured over ``--eval``
matches against random, playing as it learns (sampling its actions: at
first, uniformly at random); the learning curve goes to a PNG (with
matplotlib) and a CSV.

    pip install -e '.[rl]' matplotlib
    python examples/train_last_card.py                 # about a minute
    python examples/train_last_card.py --episodes 200 --every 50 --eval 50 --out /tmp/curve

Random play wins about half the matches from seat 0; the curve should rise
well above that.
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

import rulekit.rl

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "docs" / "examples" / "last_card.yaml"
ME = "player_0"


class LinearPolicy:
    """logits = W @ observation + b, over the legal actions only."""

    def __init__(self, n_actions: int, n_features: int, rng: np.random.Generator, lr: float):
        self.W = np.zeros((n_actions, n_features))
        self.b = np.zeros(n_actions)
        self.rng, self.lr = rng, lr

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.W @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        p = self.probs(x, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))

    def learn(self, steps: list[tuple], advantage: float) -> None:
        """REINFORCE: raise the log-probability of the actions taken in
        proportion to how much better than usual the episode went."""
        for x, mask, a in steps:
            grad = -self.probs(x, mask)
            grad[a] += 1.0
            self.W += self.lr * advantage * np.outer(grad, x)
            self.b += self.lr * advantage * grad


def features(observation: np.ndarray) -> np.ndarray:
    """The observation squashed into [0, 1) (counts such as a pile's size
    would otherwise swamp the 0/1 card bits), and a constant."""
    x = observation.astype(np.float64)
    return np.append(x / (1.0 + np.abs(x)), 1.0)


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def episode(env, policy: LinearPolicy, rng: np.random.Generator, seed: int,
            greedy: bool = False) -> tuple[float, list[tuple]]:
    """One match: the policy in seat 0, random in seat 1; its reward and steps."""
    env.reset(seed=seed)
    steps, reward = [], 0.0
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        if agent == ME:
            reward = r if term or trunc else reward
        if term or trunc:
            env.step(None)
            continue
        x, mask = features(obs["observation"]), obs["action_mask"]
        if agent == ME:
            a = policy.act(x, mask, greedy)
            steps.append((x, mask, a))
        else:
            a = random_legal(mask, rng)
        env.step(a)
    return reward, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=600)
    ap.add_argument("--every", type=int, default=50, help="episodes between measurements")
    ap.add_argument("--eval", type=int, default=200, help="matches per measurement")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "last_card_curve"),
                    help="where to write OUT.png and OUT.csv")
    args = ap.parse_args()

    env = rulekit.rl.env(GAME, players=2)
    env.reset(seed=args.seed)
    n_actions = env.action_space(ME).n
    n_features = env.observation_space(ME)["observation"].shape[0] + 1
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(n_actions, n_features, rng, args.lr)

    def measure() -> float:
        wins = sum(episode(env, policy, rng, 10**6 + i)[0] > 0 for i in range(args.eval))
        return wins / args.eval

    curve = [(0, measure())]
    print(f"episode     0: win rate {curve[-1][1]:.1%} against random")
    baseline = 0.0
    for ep in range(1, args.episodes + 1):
        reward, steps = episode(env, policy, rng, args.seed * 10**7 + ep)
        policy.learn(steps, reward - baseline)
        baseline += 0.05 * (reward - baseline)
        if ep % args.every == 0:
            curve.append((ep, measure()))
            print(f"episode {ep:5d}: win rate {curve[-1][1]:.1%} against random")

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".csv"), "w", newline="") as f:
        csv.writer(f).writerows([("episodes", "win_rate")] + curve)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"wrote {out.with_suffix('.csv')} (install matplotlib for the PNG)")
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([e for e, _ in curve], [w for _, w in curve], marker="o", label="linear policy (REINFORCE)")
    ax.axhline(0.5, color="grey", linestyle="--", label="random play")
    ax.set(xlabel="training matches", ylabel="win rate against random", ylim=(0, 1),
           title="Last Card, seat 0, learned from the rule file alone")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out.with_suffix(".png"), dpi=100)
    print(f"wrote {out.with_suffix('.png')} and {out.with_suffix('.csv')}")


if __name__ == "__main__":
    main()
