"""The rating update of games.md §10.1, pure Python (no Django): Plackett–Luce in the
Weng–Lin framework, from the ``openskill`` package.

Terms: a *result* is one finished sheet seen as a ranking of the players who played it
(``Result``: the players and their sheet scores); a *state* is a player's ``(mu, sigma,
sheets)`` — the skill estimate, its uncertainty and how many results made it. Everyone
starts at ``mu = 25``, ``sigma = 25/3``; a result moves the states of its players only.
The shown *rating* is ``round(1000 + 40 × (mu − 3 × sigma))``: a conservative estimate, so
a new player shows 1000 and a rating rises only with evidence.

Why Plackett–Luce (measured in ``bench/README.md``): it rates a table of 3 to 5 in about
25 µs with ties (equal scores share a rank) handled by the model, is deterministic (no
sampling), and openskill's defaults (``beta = 25/6``, ``tau = 25/300``, ``kappa =
0.0001``) are the Weng–Lin paper's; ``tau`` adds a little uncertainty before every
result, so ten years of weekly evenings do not freeze a rating. Its parameters are fixed
here, in one place, as a documented choice.

Replaying the same results in the same order from the same states gives bit-for-bit
the same floats — the incremental update (from the first affected result on) and a full
recompute therefore store equal numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)


@dataclass(frozen=True)
class State:
    """A player's rating in one game after some results."""

    mu: float = MU
    sigma: float = SIGMA
    sheets: int = 0

    @property
    def rating(self) -> int:
        return display(self.mu, self.sigma)


NEW = State()


@dataclass(frozen=True)
class Result:
    """One rated sheet: ``players`` (ids) and their ``scores`` in the same order;
    ``key`` orders results (event date, round, table, sheet id)."""

    key: str
    players: tuple[int, ...]
    scores: tuple[int, ...]


def display(mu: float, sigma: float) -> int:
    """The one number a person reads: ``round(1000 + 40 × (mu − 3 × sigma))``."""
    return round(1000 + 40 * (mu - 3 * sigma))


def ranks(scores: Sequence[int], *, lower_is_better: bool) -> list[int]:
    """Competition ranks (1 best; equal scores share the better rank: 1, 2, 2, 4)."""
    signed = [s if lower_is_better else -s for s in scores]
    return [1 + sum(1 for other in signed if other < mine) for mine in signed]


def expected_ranks(states: Sequence[State]) -> list[float]:
    """The mean rank the model predicts for each player at a table (games.md §11):
    ``1 + Σ_j P(j finishes ahead of i)``, each pair's chance from the model's own
    ``predict_win`` of the two; equals expect ``(n + 1) / 2``."""
    ratings = [_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in states]
    expected = [1.0] * len(states)
    for i in range(len(ratings)):
        for j in range(i + 1, len(ratings)):
            p_i, p_j = _MODEL.predict_win([[ratings[i]], [ratings[j]]])
            expected[i] += p_j
            expected[j] += p_i
    return expected


def rate(states: Sequence[State], scores: Sequence[int], *,
         lower_is_better: bool) -> list[State]:
    """The players' states after one result (same order as given)."""
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in states]
    rated = _MODEL.rate(teams, ranks=ranks(scores, lower_is_better=lower_is_better))
    after = [State(team[0].mu, team[0].sigma, s.sheets + 1)
             for team, s in zip(rated, states, strict=True)]
    if len(set(scores)) == 1 and len({(s.mu, s.sigma) for s in states}) == 1:
        # equals who all tie: the model's change of mu is zero; the floating-point sum
        # behind it can leave 1e-18 of dust, which §10.1's property does not allow
        after = [State(s.mu, a.sigma, a.sheets) for s, a in zip(states, after, strict=True)]
    return after


def replay(results: Iterable[Result], start: Mapping[int, State], *,
           lower_is_better: bool) -> Iterator[tuple[Result, list[State]]]:
    """Apply ``results`` in the order given, from ``start`` (players not in it are new);
    yields each result with its players' states after it. ``start`` is not changed."""
    current = dict(start)
    for result in results:
        if len(result.players) < 2:
            continue  # nobody to be ranked against
        after = rate([current.get(p, NEW) for p in result.players], result.scores,
                     lower_is_better=lower_is_better)
        current.update(zip(result.players, after, strict=True))
        yield result, after


def final_states(results: Iterable[Result], start: Mapping[int, State] | None = None, *,
                 lower_is_better: bool) -> dict[int, State]:
    """Every player's state after all ``results``."""
    states = dict(start or {})
    for result, after in replay(results, states, lower_is_better=lower_is_better):
        states.update(zip(result.players, after, strict=True))
    return states
