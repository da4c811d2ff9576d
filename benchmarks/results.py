"""What a benchmark is given and what it finds: the types every measurement shares.

:mod:`benchmarks.suite` runs the measurements and :mod:`benchmarks.server` is one
of them; both build on these types, so neither imports the other's module to
read them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_SECONDS",
    "DEFAULT_SEED",
    "BenchConfig",
    "Figure",
    "Measurement",
    "Result",
]

#: Seconds each probe runs for in each round unless ``--seconds`` says otherwise.
DEFAULT_SECONDS: Final = 1.0
#: Interleaved rounds (the median is reported) unless ``--rounds`` says otherwise.
DEFAULT_ROUNDS: Final = 7
#: The seed of every probe's ``random.Random`` unless ``--seed`` says otherwise.
DEFAULT_SEED: Final = 500


@dataclass(frozen=True, slots=True)
class BenchConfig:
    """What every measurement is given: its time budget, its rounds and its seed."""

    #: Wall-clock seconds each probe runs for in each round (at least one unit always runs).
    seconds: float = DEFAULT_SECONDS
    #: Seed of the ``random.Random`` each probe makes for itself.
    seed: int = DEFAULT_SEED
    #: How many interleaved rounds; each figure is the median over them.
    rounds: int = DEFAULT_ROUNDS


@dataclass(frozen=True, slots=True)
class Figure:
    """One measured number (the median of its rounds), with its levels if it has any."""

    #: Machine key, e.g. ``"hands_per_second"`` (stable: used in the JSON output).
    key: str
    #: Human label, e.g. ``"hands/s"``.
    label: str
    value: float
    #: The value wanted; ``None`` when this figure has no target.
    target: float | None = None
    #: The value it must at least reach; ``None`` when there is no such floor.
    must: float | None = None
    #: True for a time per call (smaller is better), False for a rate.
    lower_is_better: bool = False
    #: Decimal places shown in the text report.
    digits: int = 0
    #: The value in each round, in order (``value`` is their median).
    rounds: tuple[float, ...] = ()

    def _reaches(self, level: float | None) -> bool | None:
        if level is None:
            return None
        return self.value <= level if self.lower_is_better else self.value >= level

    @property
    def meets_target(self) -> bool | None:
        """Whether the value reaches the target; ``None`` when there is no target."""
        return self._reaches(self.target)

    @property
    def meets_must(self) -> bool | None:
        """Whether the value reaches the ``must`` floor; ``None`` when there is none."""
        return self._reaches(self.must)


@dataclass(frozen=True, slots=True)
class Result:
    """What one measurement found: its figures, or why it was skipped."""

    #: Machine key, e.g. ``"random_hands"`` (stable: used in the JSON output).
    name: str
    #: One line for a person: what was measured.
    title: str
    figures: tuple[Figure, ...] = ()
    #: How many timed units (hands, calls) ran, and in how many timed seconds, all rounds.
    count: int = 0
    elapsed: float = 0.0
    #: Why nothing was measured, or ``None`` when it was.
    skipped: str | None = None
    #: Further facts worth printing (e.g. the OpenSpiel version), as label → text.
    notes: Mapping[str, str] = field(default_factory=dict)
    #: Whether the text report shows each figure's range over the rounds.
    spread: bool = False

    def figure(self, key: str) -> Figure:
        """The figure with this key; ``KeyError`` if there is none."""
        for figure in self.figures:
            if figure.key == key:
                return figure
        raise KeyError(f"{self.name} has no figure {key!r}")


#: A benchmark: given the config and the results measured before it (by name), it
#: returns its results (one, or ours and euchre's side by side).
Measurement: TypeAlias = Callable[[BenchConfig, Mapping[str, Result]], Sequence[Result]]
