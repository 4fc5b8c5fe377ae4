"""What the benchmarks share: a timing read off a program's output, and the
median of repeated runs."""
import statistics


def timing(out):
    """The program prints its number alone on a line; wrappers (heaptrack,
    the session) may print their own lines around it."""
    for line in reversed(out.splitlines()):
        try:
            return float(line)
        except ValueError:
            continue
    raise RuntimeError('no timing in the output: ' + out[-300:])


def median(fn, runs):
    return statistics.median(fn() for _ in range(runs))
