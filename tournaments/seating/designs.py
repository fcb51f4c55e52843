"""Known repeat-free schedules: the affine planes of order q, Kirkman's fifteen
schoolgirls, a 1-rotational design of 28 players in fours, and the social golfers'
24 and 32 players in fours for 6 and 10 rounds.

Terms:

- design: a schedule of rounds in which no pair of players meets twice.
- affine plane AG(2, q), q a prime power: q² points ``(x, y)`` over the field GF(q);
  its lines fall into q + 1 parallel classes (``x = c``, and ``y = m·x + b`` for each
  slope m), each class a partition of the points into q lines of q points, and two
  points lie on exactly one line. Read as players, lines as tables and classes as
  rounds, it seats q² players at tables of q for q + 1 rounds without a repeated pair:
  9 players in 3s for 4 rounds, 16 in 4s for 5, 25 in 5s for 6, 49 in 7s for 8.

- affine space AG(k, q): the q^k points of GF(q)^k at tables of q, one round per
  direction ((q^k − 1)/(q − 1) rounds, e.g. 27 players in 3s for 13, 64 in 4s for 21,
  81 in 3s for 40): the lines of one direction partition the points, and two points lie
  on exactly one line.
- Kirkman's schoolgirl problem: 15 players in 3s for 7 rounds, each pair once (a
  Kirkman triple system; the table below is one of its seven solutions).
- 28 players in 4s for 9 rounds, each pair once (a resolvable design with blocks of 4):
  players are Z₉ × {0, 1, 2} and one fixed player ∞; the base round below, shifted by
  0..8 in Z₉ (∞ stays), gives the nine rounds. Its blocks cover every difference within
  and between the three levels exactly once, which is what makes each pair meet once.

- 32 players in 4s for 10 rounds (the social golfer problem, CSPLib 10, solved by
  A. Aguado in 2004): 31 others at three a round allow at most 10 rounds, and no design
  meets every pair (3 does not divide 31), so this schedule is kept as data
  (``GOLFERS_32``). The cosets of a partial spread of AG(5, 2) give only 9 rounds.
- 24 players in 4s for 6 rounds (``GOLFERS_24``): found offline by this package's own
  schedule search (``planned``) with a hundred times its budget, too slow for a draw.
- 33 players in 3s for 16 rounds: players Z₃₂ and ∞; the base round {∞, 0, 16}, five
  triples T and their shifts T + 16, shifted by 0..15. The five triples hold each
  distance 1..15 of Z₃₂ once, so every pair meets once.
- 3·q players in 3s for (3·q − 1)/2 rounds, q = 7, 13, 19, 31, 37, 43 (21 to 129
  players): players Z_q × {0, 1, 2}; (q − 1)/2 rounds are each one triple
  {(0, 0), (a, 1), (b, 2)} shifted by 0..q−1 (one player of each level per table), the
  other q are the base round below shifted by 0..q−1. Together they cover every
  difference within and between the levels once. From q = 19 on both are kept shorter:
  a multiplier m with m³ = 1 maps each to another, so only one of each three is written
  down.
- 40 players in 4s for 13 rounds: players Z₁₃ × {0, 1, 2} and ∞; the base round holds
  {∞, (0, 0), (0, 1), (0, 2)} and three tables B with their multiples 3·B and 9·B
  (3 has order 3 in Z₁₃, so each difference class is met once), shifted by 0..12.
- tripling (3·v players in 3s from v in 3s, v odd): players V × {0, 1, 2}. The design's
  (v − 1)/2 rounds are played on the three levels at once; then v rounds of tables
  {(a, 0), (a + b, 1), (a + 2b, 2)}, one round per b, meet every pair of different
  levels once (b is read from the two players' difference, 2 being invertible mod v).
  So 15 in 3s gives 45 in 3s for 22 rounds, 21 gives 63, 33 gives 99, 39 gives 117.

``resolvable_classes`` answers the schedule for a field and table size, or None.

Pure Python. Points are numbered ``x·q + y``; field elements are ints 0..q−1 whose
base-p digits are the coefficients of a polynomial over GF(p).
"""

from __future__ import annotations

from functools import cache

# q → (p, coefficients of a monic irreducible polynomial of degree k, lowest first)
_FIELDS = {2: (2, (0, 1)), 3: (3, (0, 1)), 4: (2, (1, 1, 1)), 5: (5, (0, 1)),
           7: (7, (0, 1)), 8: (2, (1, 1, 0, 1)), 9: (3, (1, 0, 1))}


def has_affine_plane(q: int) -> bool:
    """Whether this module builds AG(2, q) (the prime powers up to 9)."""
    return q in _FIELDS


@cache
def _field(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Addition and multiplication tables of GF(q)."""
    p, modulus = _FIELDS[q]
    degree = len(modulus) - 1

    def digits(a: int) -> list[int]:
        return [(a // p ** i) % p for i in range(degree)]

    def number(coefficients: list[int]) -> int:
        return sum(c * p ** i for i, c in enumerate(coefficients))

    def times(a: int, b: int) -> int:
        product = [0] * (2 * degree)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                product[i + j] = (product[i + j] + x * y) % p
        for top in range(2 * degree - 1, degree - 1, -1):  # reduce by the modulus
            factor = product[top]
            if factor:
                for i, c in enumerate(modulus):
                    product[top - degree + i] = (product[top - degree + i] - factor * c) % p
        return number(product[:degree])

    add = tuple(tuple(number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])
                      for b in range(q)) for a in range(q))
    mul = tuple(tuple(times(a, b) for b in range(q)) for a in range(q))
    return add, mul


def affine_classes(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of AG(2, q), each a list of q lines of q points.

    Class 0 is the lines ``x = c`` (line c holds points ``c·q .. c·q + q − 1``); class
    m + 1 the lines ``y = m·x + b``.
    """
    return affine_space_classes(q, 2)


# Kirkman's schoolgirls, players 0..14: 7 rounds of 5 tables of 3
KIRKMAN_15 = (
    ((0, 1, 2), (3, 7, 11), (4, 9, 14), (5, 10, 12), (6, 8, 13)),
    ((0, 3, 4), (1, 7, 9), (2, 12, 13), (5, 8, 14), (6, 10, 11)),
    ((0, 5, 6), (1, 8, 10), (2, 11, 14), (3, 9, 13), (4, 7, 12)),
    ((0, 7, 8), (1, 11, 13), (2, 4, 5), (3, 10, 14), (6, 9, 12)),
    ((0, 9, 10), (1, 12, 14), (2, 3, 6), (4, 8, 11), (5, 7, 13)),
    ((0, 11, 12), (1, 3, 5), (2, 8, 9), (4, 10, 13), (6, 7, 14)),
    ((0, 13, 14), (1, 4, 6), (2, 7, 10), (3, 8, 12), (5, 9, 11)),
)

# 28 players in fours: the base round over Z₉ × {0, 1, 2} ((a, level) pairs) and ∞
INFINITY = "inf"
BASE_28 = (
    (INFINITY, (0, 0), (0, 1), (0, 2)), ((1, 0), (8, 0), (7, 1), (5, 2)),
    ((2, 0), (4, 1), (5, 1), (1, 2)), ((3, 0), (6, 0), (7, 0), (8, 2)),
    ((4, 0), (8, 1), (2, 2), (7, 2)), ((5, 0), (1, 1), (3, 1), (6, 1)),
    ((2, 1), (3, 2), (4, 2), (6, 2)),
)


def rotational_classes(base, group: int, levels: int) -> list[list[list[int]]]:
    """The base round shifted by 0..group−1: point (a, level) is ``level·group + a``,
    ∞ is ``levels·group``."""
    def number(point, shift: int) -> int:
        if point == INFINITY:
            return levels * group
        a, level = point
        return level * group + (a + shift) % group
    return [[[number(point, shift) for point in block] for block in base]
            for shift in range(group)]


# triple systems over Z_q × {0, 1, 2}: q → (the transversals, each a round when shifted;
# the base round, shifted by 0..q−1)
LEVELLED_TRIPLES = {
    7: ((
        ((0, 0), (1, 1), (5, 2)), ((0, 0), (6, 1), (2, 2)), ((0, 0), (3, 1), (1, 2)),
    ), (
        ((0, 0), (0, 1), (6, 2)), ((0, 2), (1, 2), (3, 2)), ((1, 0), (5, 1), (5, 2)),
        ((1, 1), (2, 2), (6, 0)), ((2, 0), (3, 0), (5, 0)), ((2, 1), (4, 0), (4, 2)),
        ((3, 1), (4, 1), (6, 1)),
    )),
    13: ((
        ((0, 0), (0, 1), (1, 2)), ((0, 0), (1, 1), (5, 2)), ((0, 0), (2, 1), (11, 2)),
        ((0, 0), (12, 1), (10, 2)), ((0, 0), (4, 1), (4, 2)), ((0, 0), (9, 1), (3, 2)),
    ), (
        ((0, 0), (6, 2), (10, 0)), ((0, 1), (2, 1), (3, 1)), ((0, 2), (2, 2), (8, 2)),
        ((1, 0), (6, 0), (8, 0)), ((1, 1), (3, 0), (8, 1)), ((1, 2), (4, 2), (5, 2)),
        ((2, 0), (10, 2), (11, 0)), ((3, 2), (6, 1), (9, 0)), ((4, 0), (5, 0), (11, 1)),
        ((4, 1), (7, 2), (12, 1)), ((5, 1), (9, 1), (11, 2)), ((7, 0), (9, 2), (10, 1)),
        ((7, 1), (12, 0), (12, 2)),
    )),
}

# triple systems over Z_q × {0, 1, 2} fixed by a multiplier m of order 3 in Z_q: q → (m,
# base transversals, base triples); each stands for itself times 1, m and m², and the
# base round holds {(0, 0), (0, 1), (0, 2)} too (``multiplied_triples``)
MULTIPLIED_TRIPLES = {
    19: (7, (((0, 0), (1, 1), (2, 2)), ((0, 0), (2, 1), (1, 2)), ((0, 0), (4, 1), (6, 2))), (
        ((1, 0), (6, 1), (11, 2)), ((2, 0), (16, 0), (10, 0)), ((4, 0), (12, 1), (3, 2)),
        ((8, 0), (2, 1), (6, 2)), ((1, 1), (16, 1), (13, 1)), ((5, 2), (8, 2), (15, 2)),
    )),
    31: (5, (
        ((0, 0), (1, 1), (2, 2)), ((0, 0), (2, 1), (1, 2)), ((0, 0), (3, 1), (6, 2)),
        ((0, 0), (4, 1), (8, 2)), ((0, 0), (6, 1), (3, 2)),
    ), (
        ((1, 0), (13, 2), (17, 2)), ((2, 0), (21, 0), (14, 1)), ((3, 0), (25, 1), (17, 1)),
        ((4, 0), (26, 0), (22, 0)), ((8, 0), (26, 1), (12, 2)), ((11, 0), (16, 0), (7, 2)),
        ((2, 1), (18, 1), (14, 2)), ((3, 1), (27, 1), (29, 1)), ((4, 1), (6, 2), (18, 2)),
        ((1, 2), (19, 2), (24, 2)),
    )),
    37: (10, (
        ((0, 0), (1, 1), (2, 2)), ((0, 0), (2, 1), (1, 2)), ((0, 0), (3, 1), (5, 2)),
        ((0, 0), (5, 1), (3, 2)), ((0, 0), (6, 1), (9, 2)), ((0, 0), (7, 1), (14, 2)),
    ), (
        ((1, 0), (36, 1), (32, 1)), ((2, 0), (13, 0), (30, 2)), ((3, 0), (31, 0), (27, 2)),
        ((6, 0), (11, 0), (1, 1)), ((7, 0), (16, 1), (35, 1)), ((9, 0), (8, 2), (17, 2)),
        ((17, 0), (32, 0), (25, 0)), ((2, 1), (31, 1), (18, 2)), ((3, 1), (34, 2), (28, 2)),
        ((5, 1), (6, 1), (21, 1)), ((7, 1), (26, 2), (15, 2)), ((5, 2), (9, 2), (29, 2)),
    )),
    43: (6, (
        ((0, 0), (1, 1), (2, 2)), ((0, 0), (2, 1), (1, 2)), ((0, 0), (3, 1), (5, 2)),
        ((0, 0), (4, 1), (7, 2)), ((0, 0), (5, 1), (3, 2)), ((0, 0), (7, 1), (4, 2)),
        ((0, 0), (9, 1), (13, 2)),
    ), (
        ((1, 0), (26, 0), (21, 1)), ((2, 0), (15, 0), (42, 1)), ((3, 0), (31, 1), (26, 2)),
        ((5, 0), (21, 0), (31, 2)), ((7, 0), (19, 0), (17, 1)), ((9, 0), (16, 0), (20, 0)),
        ((13, 0), (1, 2), (9, 2)), ((14, 0), (3, 2), (35, 2)), ((1, 1), (24, 2), (20, 2)),
        ((2, 1), (9, 1), (33, 1)), ((3, 1), (19, 1), (29, 2)), ((4, 1), (13, 1), (34, 1)),
        ((5, 1), (10, 2), (39, 2)), ((5, 2), (42, 2), (21, 2)),
    )),
}


def multiplied(tables, q: int, m: int) -> list[tuple]:
    """Each table of points (a, level) over Z_q followed by itself times m and m² (m of
    order 3 in Z_q)."""
    return [tuple(((a * factor) % q, level) for a, level in table)
            for table in tables for factor in (1, m, m * m % q)]


def multiplied_triples(q: int) -> tuple[list, list]:
    """The transversals and the base round of ``MULTIPLIED_TRIPLES[q]`` written out, as
    ``LEVELLED_TRIPLES`` holds them."""
    m, transversals, triples = MULTIPLIED_TRIPLES[q]
    return multiplied(transversals, q, m), [((0, 0), (0, 1), (0, 2)),
                                            *multiplied(triples, q, m)]


# 40 players in fours: the base round over Z₁₃ × {0, 1, 2} and ∞: {∞, (0, 0), (0, 1),
# (0, 2)} and three tables B, each with 3·B and 9·B
BASE_40 = (
    (INFINITY, (0, 0), (0, 1), (0, 2)),
    *multiplied((((1, 0), (2, 0), (3, 1), (12, 1)), ((4, 0), (11, 0), (5, 2), (10, 2)),
                 ((2, 1), (8, 1), (3, 2), (7, 2))), 13, 3),
)


def shifted_round(table, group: int) -> list[list[int]]:
    """The round made of one table holding one player of each level, shifted by
    0..group−1 (point (a, level) is ``level·group + a``)."""
    return [[level * group + (a + shift) % group for a, level in table]
            for shift in range(group)]


def tripled_classes(classes: list[list[list[int]]], count: int) -> list[list[list[int]]]:
    """3·count players in threes from a design of ``count`` (odd) players in threes:
    player (a, level) is ``level·count + a`` (see the module's terms)."""
    together = [[[level * count + a for a in table] for level in range(3) for table in tables]
                for tables in classes]
    across = [[[a, count + (a + b) % count, 2 * count + (a + 2 * b) % count]
               for a in range(count)] for b in range(count)]
    return together + across


# 32 players in fours for 10 rounds, each pair at most once: per round, eight tables
# written as four-letter words (A..P are players 0..15, a..p players 16..31)
GOLFERS_32 = (
    "ABCD EFGH IJKL MNOP abcd efgh ijkl mnop", "AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO",
    "Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn", "AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN",
    "AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn", "AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP",
    "AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp", "AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm",
    "AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp", "AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo",
)


# 24 players in fours for 6 rounds, each pair at most once (written as ``GOLFERS_32``)
GOLFERS_24 = (
    "ABCD EFGH IJKL MNOP abcd efgh", "AHbh BFKa CLPe DIOf ENdg GJMc",
    "AFOg BLdh CGIN DEMb HJae KPcf", "AJNf BHOc CKMh DFde EIPa GLbg",
    "AGPd BNbe CEJO DHKg FIch LMaf", "AEKe BJPg CFbf DLNc GOah HIMd",
)


def lettered_classes(rounds) -> list[list[list[int]]]:
    """Rounds written as lines of words, a word a table: A..P are players 0..15 and
    a, b, … the players from 16 on."""
    def number(letter: str) -> int:
        return ord(letter) - ord("A") if letter.isupper() else 16 + ord(letter) - ord("a")
    return [[[number(c) for c in word] for word in line.split()] for line in rounds]


# 33 players in threes: the five base triples over Z₃₂ (see the module's terms)
BASE_33 = ((1, 2, 4), (3, 10, 14), (5, 11, 29), (6, 15, 25), (7, 12, 24))


def half_rotational_classes(base, group: int) -> list[list[list[int]]]:
    """Players Z_group and ∞ (numbered ``group``): the round {∞, 0, h}, the base
    triples and their shifts by h = group/2, shifted by 0..h−1."""
    half = group // 2
    first = [[group, 0, half], *[list(t) for t in base],
             *[[(x + half) % group for x in t] for t in base]]
    return [[[x if x == group else (x + shift) % group for x in table] for table in first]
            for shift in range(half)]


def affine_space_classes(q: int, k: int) -> list[list[list[int]]]:
    """The parallel classes of AG(k, q): for each direction (a nonzero vector whose last
    nonzero coordinate is 1) the lines ``p + t·d``. Point (x₀, …, x_{k−1}) is numbered
    Σ xᵢ·q^i; for k = 2 these are ``affine_classes`` exactly (class, line and point order)."""
    add, mul = _field(q)
    points = [[(n // q ** i) % q for i in range(k)] for n in range(q ** k)]

    def number(vector) -> int:
        return sum(x * q ** i for i, x in enumerate(vector))

    directions = [d for d in points
                  if any(d) and d[max(i for i, x in enumerate(d) if x)] == 1]
    classes = []
    for d in directions:
        seen: set[int] = set()
        lines = []
        for p in points:
            if number(p) in seen:
                continue
            line = [number([add[p[i]][mul[t][d[i]]] for i in range(k)]) for t in range(q)]
            seen.update(line)
            lines.append(line)
        classes.append(lines)
    return classes


def _power_of(count: int, q: int) -> int | None:
    k, n = 0, 1
    while n < count:
        n, k = n * q, k + 1
    return k if n == count and k >= 2 else None


def resolvable_classes(count: int, size: int) -> list[list[list[int]]] | None:
    """A repeat-free schedule of ``count`` players at tables of ``size``: its rounds,
    each a list of tables of player numbers 0..count−1; None when none is known."""
    if count == size * size and has_affine_plane(size):
        return affine_classes(size)
    if has_affine_plane(size) and size > 2 and _power_of(count, size):
        return affine_space_classes(size, _power_of(count, size))
    if (count, size) == (33, 3):
        return half_rotational_classes(BASE_33, 32)
    if size == 3 and count % 3 == 0 and count // 3 in {*LEVELLED_TRIPLES,
                                                       *MULTIPLIED_TRIPLES}:
        q = count // 3
        transversals, base = LEVELLED_TRIPLES.get(q) or multiplied_triples(q)
        return [shifted_round(table, count // 3) for table in transversals] \
            + rotational_classes(base, count // 3, 3)
    if (count, size) == (40, 4):
        return rotational_classes(BASE_40, 13, 3)
    if (count, size) == (15, 3):
        return [[list(table) for table in tables] for tables in KIRKMAN_15]
    if (count, size) == (28, 4):
        return rotational_classes(BASE_28, 9, 3)
    if (count, size) == (32, 4):
        return lettered_classes(GOLFERS_32)
    if (count, size) == (24, 4):
        return lettered_classes(GOLFERS_24)
    if size == 3 and count % 2 and count > 9 and count % 3 == 0:
        smaller = resolvable_classes(count // 3, 3)
        if smaller is not None:
            return tripled_classes(smaller, count // 3)
    return None
