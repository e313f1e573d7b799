"""The bot ``dmc``: a network trained by deep Monte-Carlo self-play, greedy over the legal actions.

``dmc`` plays the weights shipped with henge for the game and player count it is asked to play
(``henge/agents/weights/<game>_<players>p.npz``: :func:`shipped` lists them); ``dmc:PATH.npz``
plays a file of its own, as :command:`henge train` writes. The file is a ``henge-policy`` file
(:mod:`henge.agents.policy`) whose outputs are the learned values of each action id for the seat
to move, read from that seat's information-state tensor alone; the bot plays the legal action
valued highest, the lowest id among equals, with no search and no use of the decision's generator.
How the weights are trained: :mod:`henge.agents.dmc_train`.
"""

from __future__ import annotations

from pathlib import Path

from henge.agents.policy import PolicyAgent
from henge.core import Decision

NAME = "dmc"
WEIGHTS = Path(__file__).resolve().parent / "weights"


def shipped() -> dict[tuple[str, int], Path]:
    """Returns the shipped weights by (game id, player count)."""
    found: dict[tuple[str, int], Path] = {}
    for path in sorted(WEIGHTS.glob("*_*p.npz")):
        game_id, _, count = path.stem.rpartition("_")
        if count[:-1].isdigit():
            found[(game_id, int(count[:-1]))] = path
    return found


def weights_for(game_id: str, players: int | None = None) -> Path:
    """Returns the shipped weights for ``game_id`` at ``players`` (the only count shipped when None);
    raises ValueError naming the games and counts that have weights."""
    have = shipped()
    counts = sorted(n for g, n in have if g == game_id)
    if players is None and len(counts) == 1:
        players = counts[0]
    if players is not None and (game_id, players) in have:
        return have[(game_id, players)]
    listed = ", ".join(f"{g} {n}p" for g, n in sorted(have)) or "none"
    at = f" at {players} players" if players is not None else ""
    raise ValueError(
        f"dmc has no weights for {game_id}{at}; games with weights: {listed} (or name a file: dmc:PATH.npz)"
    )


class DMCAgent:
    """Plays the legal action the trained network values highest (see the module docstring)."""

    needs_samples = False

    def __init__(self, path: str = "", *, name: str | None = None) -> None:
        self.path = path
        self.name = name or (f"{NAME}:{path}" if path else NAME)
        self._players: dict[tuple[str, int], PolicyAgent] = {}
        if path:
            self._fixed: PolicyAgent | None = PolicyAgent(path, name=self.name)
        else:
            self._fixed = None

    def agent_for(self, game_id: str, players: int) -> PolicyAgent:
        """Returns the network that plays ``game_id`` at ``players``: the named file, or the shipped weights."""
        if self._fixed is not None:
            return self._fixed
        key = (game_id, players)
        found = self._players.get(key)
        if found is None:
            found = self._players[key] = PolicyAgent(str(weights_for(game_id, players)), name=self.name)
        return found

    def check(self, game_id: str, players: int | None = None, options: dict | None = None) -> None:
        """Raises ValueError unless this bot has weights that fit ``game_id`` (at ``players`` with ``options``)."""
        if self._fixed is not None:
            self._fixed.policy.check_game(game_id, players, options)
            return
        path = weights_for(game_id, players)
        PolicyAgent(str(path), name=self.name).policy.check_game(game_id, players, options)

    def choose(self, decision: Decision) -> int:
        """Returns the legal action with the highest learned value (the lowest id among equals)."""
        return self.agent_for(decision.game_id, int(decision.observation["players"])).choose(decision)
