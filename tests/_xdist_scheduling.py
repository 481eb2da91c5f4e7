"""pytest-xdist's ``--dist loadgroup`` scheduler with its bookkeeping in constant time per test.

pytest-xdist 3.8's scope schedulers count a worker's pending tests by scanning every work unit the worker was
ever given (``LoadScopeScheduling._pending_of``), once for each finished test and again on each turn of the
controller's event loop, and find each test's index with ``list.index`` over the whole collection. Under
``--dist loadgroup`` every test outside a group is a work unit of its own (about 7,000 here), so the controller
did work quadratic in the number of tests, on a core the workers need.

``QuickGroupScheduling`` keeps, for each worker, the number of its pending tests and a map from node id to
index, and otherwise leaves the stock scheduler's decisions alone: the same units in the same order, the same
"at most two pending tests" refill rule (tests/test_xdist_scheduling.py checks it against the stock scheduler).
tests/conftest.py installs it through the ``pytest_xdist_make_scheduler`` hook.
"""

from __future__ import annotations

from xdist.scheduler import LoadGroupScheduling


class QuickGroupScheduling(LoadGroupScheduling):
    """``LoadGroupScheduling`` with a pending count per worker and a node-id index per worker."""

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self._pending: dict[int, tuple[dict, int]] = {}  # id(workload) -> (workload, its pending tests)
        self._indices: dict[object, dict[str, int]] = {}  # worker -> {node id: index in its collection}

    def _count(self, workload: dict, change: int) -> None:
        held, count = self._pending.get(id(workload), (workload, 0))
        if held is not workload:  # a workload of a removed worker whose id was reused
            count = 0
        self._pending[id(workload)] = (workload, count + change)

    def _pending_of(self, workload: dict) -> int:
        held = self._pending.get(id(workload))
        if held is None or held[0] is not workload:  # a workload this scheduler never counted: count it
            return super()._pending_of(workload)
        return held[1]

    def mark_test_complete(self, node, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        workload = self.assigned_work[node]
        if not workload[self._split_scope(nodeid)][nodeid]:
            self._count(workload, -1)
        super().mark_test_complete(node, item_index, duration)

    def _assign_work_unit(self, node) -> None:
        scope, work_unit = self.workqueue.popitem(last=False)
        workload = self.assigned_work.setdefault(node, {})
        workload[scope] = work_unit
        pending = [nodeid for nodeid, completed in work_unit.items() if not completed]
        self._count(workload, len(pending))
        index = self._indices.get(node)
        if index is None:
            index = self._indices[node] = {nodeid: i for i, nodeid in enumerate(self.registered_collections[node])}
        node.send_runtest_some([index[nodeid] for nodeid in pending])

    def remove_node(self, node):
        self._indices.pop(node, None)
        return super().remove_node(node)
