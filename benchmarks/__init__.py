"""The benchmark suite of fivehundred: a development tool, not part of the wheel.

Run ``python -m benchmarks`` from a checkout (or ``nox -s bench``, ``bench_openspiel``,
``bench_compiled``, ``bench_server``). :mod:`benchmarks.suite` measures the public API
beside OpenSpiel's euchre; :mod:`benchmarks.server` measures the game server under load.
The sdist ships this directory; the wheels do not.
"""
