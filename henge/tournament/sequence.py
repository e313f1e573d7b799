"""An anytime-valid confidence sequence for a bounded mean, by betting: when a decided match may stop."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

_BISECTIONS = 40


class BettingConfidenceSequence:
    """An anytime-valid confidence sequence for the mean of i.i.d. observations in [0, 1], by betting.

    The hedged capital process with predictable plug-in bets of Waudby-Smith and Ramdas, "Estimating
    means of bounded random variables by betting" (2023; arXiv:2010.09686). For every candidate
    mean ``m`` in [0, 1] two gamblers start with capital 1, one betting that the mean lies above ``m``
    and one that it lies below::

        K+_t(m) = prod_{i <= t} (1 + l+_i(m) (X_i - m)),    K-_t(m) = prod_{i <= t} (1 - l-_i(m) (X_i - m)),
        K_t(m)  = max(K+_t(m), K-_t(m)) / 2,

    with bets fixed before ``X_i`` is seen (``c``: ``truncation``, 1/2 by default)::

        l_i     = sqrt(2 log(2 / alpha) / (s2_{i-1} i log(1 + i))),
        l+_i(m) = min(l_i, c / m),    l-_i(m) = min(l_i, c / (1 - m)),
        mu_i    = (1/2 + sum_{j <= i} X_j) / (i + 1),    s2_i = (1/4 + sum_{j <= i} (X_j - mu_j)^2) / (i + 1),

    so ``s2_0 = 1/4``. The confidence sequence is the running intersection::

        C_t = {m : K_s(m) < 1 / alpha for every s <= t}.

    Why it holds: at the true mean every factor has expectation 1 given the past and is at least
    ``1 - c > 0``, so ``(K+_t + K-_t) / 2`` is a nonnegative martingale that starts at 1, and by Ville's
    inequality it (and ``K_t``, never larger) ever reaches ``1 / alpha`` with probability at most
    ``alpha``. Hence ``C_t`` holds the
    true mean at every ``t`` at once with probability at least ``1 - alpha``, and so at any stopping
    time, however it was chosen (a fixed-sample interval, bootstrap or normal, does not survive being
    checked after every observation). ``K+`` falls and ``K-`` rises with ``m``, so every ``C_t`` is an
    interval; its ends are found by bisection (:attr:`low` and :attr:`high`; ``intervals=False`` skips
    this). A point named in ``watch`` has its two capitals kept step by step, and :meth:`verdict` says
    whether, and which way, it has left the sequence: the test that decides a match.
    """

    def __init__(
        self,
        alpha: float = 0.05,
        *,
        truncation: float = 0.5,
        watch: Sequence[float] = (),
        intervals: bool = True,
    ) -> None:
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must lie strictly between 0 and 1, not {alpha}")
        if not 0.0 < truncation < 1.0:
            raise ValueError(f"truncation must lie strictly between 0 and 1, not {truncation}")
        for m in watch:
            if not 0.0 <= m <= 1.0:
                raise ValueError(f"a watched mean must lie in [0, 1], not {m}")
        self.alpha = alpha
        self.truncation = truncation
        self._threshold = math.log(2.0 / alpha)  # K+ / 2 >= 1 / alpha, and the same for K-
        self._observations: list[float] = []
        self._bets: list[float] = []
        self._sum = 0.0
        self._squares = 0.0
        self._variance = 0.25
        self._watched: dict[float, list[float]] = {float(m): [0.0, 0.0] for m in watch}
        self._verdicts: dict[float, str | None] = dict.fromkeys(self._watched)
        self._intervals = intervals
        self.low = 0.0
        """The lower end of the running intersection."""
        self.high = 1.0
        """The upper end of the running intersection."""

    @property
    def count(self) -> int:
        """Returns how many observations were seen."""
        return len(self._observations)

    @property
    def mean(self) -> float:
        """Returns the mean of the observations (nan before the first)."""
        return self._sum / self.count if self.count else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """Returns the running intersection (``low``, ``high``)."""
        return (self.low, self.high)

    def next_bet(self) -> float:
        """Returns the plug-in bet ``l_t`` for the next observation, from the observations before it."""
        t = self.count + 1
        return math.sqrt(2.0 * math.log(2.0 / self.alpha) / (self._variance * t * math.log1p(t)))

    def _up(self, bet: float, m: float) -> float:
        return bet if m <= 0.0 else min(bet, self.truncation / m)

    def _down(self, bet: float, m: float) -> float:
        return bet if m >= 1.0 else min(bet, self.truncation / (1.0 - m))

    def log_capital(self, m: float) -> tuple[float, float]:
        """Returns ``(log K+_t(m), log K-_t(m))`` over every observation so far."""
        return self._log_up(m), self._log_down(m)

    def _history(self) -> Iterator[tuple[float, float]]:
        return zip(self._observations, self._bets, strict=True)

    def _log_up(self, m: float) -> float:
        return math.fsum(math.log1p(self._up(bet, m) * (x - m)) for x, bet in self._history())

    def _log_down(self, m: float) -> float:
        return math.fsum(math.log1p(-self._down(bet, m) * (x - m)) for x, bet in self._history())

    def update(self, x: float) -> None:
        """Takes the next observation, which must lie in [0, 1]."""
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"observations must lie in [0, 1], not {x}")
        bet = self.next_bet()
        self._observations.append(x)
        self._bets.append(bet)
        for m, capital in self._watched.items():
            capital[0] += math.log1p(self._up(bet, m) * (x - m))
            capital[1] += math.log1p(-self._down(bet, m) * (x - m))
            if self._verdicts[m] is None:
                if capital[0] >= self._threshold:
                    self._verdicts[m] = "above"
                elif capital[1] >= self._threshold:
                    self._verdicts[m] = "below"
        t = self.count
        self._sum += x
        self._squares += (x - (0.5 + self._sum) / (t + 1)) ** 2
        self._variance = (0.25 + self._squares) / (t + 1)
        if self._intervals:
            self._narrow()

    def _narrow(self) -> None:
        """Moves the running ends inwards where this step's interval is narrower (bisection)."""
        if self._log_up(self.low) >= self._threshold:  # K+(1) <= 1, so the end lies below 1
            self.low = self._edge(self._log_up, 1.0, self.low)
        if self._log_down(self.high) >= self._threshold:  # K-(0) <= 1, so the end lies above 0
            self.high = self._edge(self._log_down, 0.0, self.high)

    def _edge(self, log_capital: Callable[[float], float], inside: float, outside: float) -> float:
        """Returns, by bisection, the end of the interval between ``inside`` (kept) and ``outside``
        (rejected: its capital reached the threshold)."""
        for _ in range(_BISECTIONS):
            middle = (inside + outside) / 2
            if log_capital(middle) >= self._threshold:
                outside = middle
            else:
                inside = middle
        return outside

    def verdict(self, m: float) -> str | None:
        """Returns ``"above"`` or ``"below"`` once the mean is known to lie above or below a watched ``m``."""
        if m not in self._verdicts:
            raise KeyError(f"{m} is not watched")
        return self._verdicts[m]
