"""Tournaments: many games between bots, seats rotated fairly, played in parallel, summarised.

**Seats.** With ``k`` agents at ``n`` seats every agent sits ``n // k``
times at each table, the ``n % k`` extra seats going to every subset of
agents in turn, and every distinct arrangement of those seats is played
(:func:`lineups`). A cycle of all lineups puts every agent in every seat
equally often. All games of one cycle share a seed, so the same deal is
played from every seat (the draws after the deal differ as play does).

**Reproducible.** Game ``i`` plays lineup ``i mod L`` with a seed drawn from
the tournament seed and ``i // L``; bots are made afresh for every game and
draw only from their seat's generator. The same seed and arguments give the
same games whatever the number of worker processes (only the timings
differ).

**Figures** per agent (:func:`summarize`): seats played, wins (a win shared
by ``m`` seats counts ``1/m`` to each), win rate per seat with a 95%
percentile bootstrap interval (whole games resampled, so seats of one game
stay together), mean return, an Elo rating fitted to every game
(:func:`elo_ratings`), and seconds per decision.

**Decided matches** (:func:`decided_match`) play a focal agent against one
or more opponents in blocks, one block being every seat arrangement once,
until an anytime-valid confidence sequence for the focal agent's mean return
per game (:class:`BettingConfidenceSequence`) lies wholly above or below its
fair share, or until a cap. The results file is rewritten after every block,
so a stopped match resumes where it stood.

The modules: ``games`` (the configuration, seats, seeds and playing the games), ``stats`` (the
figures and their table), ``sequence`` (the confidence sequence) and ``match`` (decided matches).
Everything public is re-exported here.
"""

from henge.tournament.games import (
    RESULTS_FORMAT,
    TournamentConfig,
    game_seed,
    lineups,
    play_game,
    run,
    tasks,
    win_shares,
)
from henge.tournament.match import (
    DECIDED_FORMAT,
    DECIDED_VERSION,
    DEFAULT_CAP_BLOCKS,
    MatchConfig,
    MatchResult,
    ResumeError,
    block_observation,
    block_tasks,
    decided_match,
    default_match_path,
    fair_share,
    match_lineups,
    run_match,
    write_json_atomic,
)
from henge.tournament.sequence import BettingConfidenceSequence
from henge.tournament.stats import (
    BOOTSTRAP_RESAMPLES,
    ELO_BASE,
    bootstrap_interval,
    elo_ratings,
    pairwise_scores,
    report,
    summarize,
    table,
)

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "DECIDED_FORMAT",
    "DECIDED_VERSION",
    "DEFAULT_CAP_BLOCKS",
    "ELO_BASE",
    "RESULTS_FORMAT",
    "BettingConfidenceSequence",
    "MatchConfig",
    "MatchResult",
    "ResumeError",
    "TournamentConfig",
    "block_observation",
    "block_tasks",
    "bootstrap_interval",
    "decided_match",
    "default_match_path",
    "elo_ratings",
    "fair_share",
    "game_seed",
    "lineups",
    "match_lineups",
    "pairwise_scores",
    "play_game",
    "report",
    "run",
    "run_match",
    "summarize",
    "table",
    "tasks",
    "win_shares",
    "write_json_atomic",
]
