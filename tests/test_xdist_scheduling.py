"""tests/_xdist_scheduling.QuickGroupScheduling decides as pytest-xdist's own ``--dist loadgroup`` scheduler does.

Both schedulers are driven through the same run with stand-in workers: the same collection (single tests, groups
of several sizes, a parametrised test whose id holds an ``@``), the same worker finishing its oldest pending test at
each step, chosen at random, and a worker removed half-way (its pending tests go back to the queue). After every
event the two must have sent the same indices to the same workers, shut down the same workers, and agree on
``has_pending``, ``tests_finished`` and each worker's pending count.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

pytest.importorskip("xdist")
from _xdist_scheduling import QuickGroupScheduling  # noqa: E402
from xdist.scheduler import LoadGroupScheduling  # noqa: E402


class _Worker:
    """What the schedulers use of a WorkerController: the indices sent, and a shutdown flag."""

    def __init__(self, name: str) -> None:
        self.name, self.sent, self.shutting_down = name, [], False
        self.gateway = SimpleNamespace(id=name)

    def send_runtest_some(self, indices) -> None:
        self.sent.append(list(indices))

    def shutdown(self) -> None:
        self.shutting_down = True

    def __repr__(self) -> str:
        return self.name


def _config(n_workers: int):
    option = SimpleNamespace(loadscopereorder=False, debug=False)
    return SimpleNamespace(getvalue=lambda name: [f"{n_workers}*popen"] if name == "tx" else None, option=option)


def _collection(rng: random.Random) -> list[str]:
    ids = []
    for m in range(12):
        for k in range(rng.randint(1, 40)):
            group = rng.choice([None, None, f"g{m % 4}", "big"])
            ids.append(f"tests/test_m{m}.py::test_{k}" + (f"@{group}" if group else ""))
    ids.append("tests/test_at.py::test_p[a@b]")  # an "@" inside the parameters is not a group
    return ids


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n_workers", [2, 3])
def test_the_same_decisions_as_the_stock_scheduler(seed, n_workers):
    collection = _collection(random.Random(seed))
    runs = []
    for scheduler_class in (LoadGroupScheduling, QuickGroupScheduling):
        rng = random.Random(seed)
        scheduler = scheduler_class(_config(n_workers))
        workers = [_Worker(f"gw{i}") for i in range(n_workers)]
        for worker in workers:
            scheduler.add_node(worker)
            scheduler.add_node_collection(worker, collection)
        scheduler.schedule()
        done: dict[str, set[int]] = {w.name: set() for w in workers}
        trace = []
        removed = False
        for step in range(10 * len(collection)):
            live = [w for w in workers if w in scheduler.assigned_work]
            pending = {w: [i for batch in w.sent for i in batch if i not in done[w.name]] for w in live}
            busy = [w for w in live if pending[w]]
            trace.append(
                (
                    [(w.name, [list(b) for b in w.sent], w.shutting_down) for w in workers],
                    scheduler.has_pending,
                    scheduler.tests_finished,
                    [scheduler._pending_of(scheduler.assigned_work[w]) for w in live],
                )
            )
            if not busy:
                break
            if not removed and step == len(collection) // 2 and len(live) > 1:
                gone = rng.choice(live)
                trace.append(("removed", gone.name, scheduler.remove_node(gone)))
                removed = True
                scheduler.schedule()  # the stock flow hands the returned work to the other workers
                continue
            worker = rng.choice(busy)
            index = pending[worker][0]
            done[worker.name].add(index)
            scheduler.mark_test_complete(worker, index)
        runs.append(trace)
        # every test was handed out, and (but for the removed worker's) run once
        sent = [i for w in workers for batch in w.sent for i in batch]
        assert set(sent) == set(range(len(collection)))
    assert runs[0] == runs[1]
