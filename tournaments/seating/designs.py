"""Known repeat-free schedules: the affine plane of order q.

Terms:

- design: a schedule of rounds in which no pair of players meets twice.
- affine plane AG(2, q), q a prime power: q² points ``(x, y)`` over the field GF(q);
  its lines fall into q + 1 parallel classes (``x = c``, and ``y = m·x + b`` for each
  slope m), each class a partition of the points into q lines of q points, and two
  points lie on exactly one line. Read as players, lines as tables and classes as
  rounds, it seats q² players at tables of q for q + 1 rounds without a repeated pair:
  9 players in 3s for 4 rounds, 16 in 4s for 5, 25 in 5s for 6, 49 in 7s for 8.

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
    add, mul = _field(q)
    classes = [[[x * q + y for y in range(q)] for x in range(q)]]
    for m in range(q):
        classes.append([[x * q + add[mul[m][x]][b] for x in range(q)] for b in range(q)])
    return classes
