"""The tables' views the pages were made from, kept a while (issue 28, bounded in bytes by issue 53).

After a move every open page of a table asks for its view at once; one reads it and the
others reuse it (app.py), for up to a minute (its clocks move on without a new version).
A view holds the table's whole told log: a 320-step Cradle game's is about 290 KB in
memory, a new game's a few KB. So the views are kept by what they weigh, not by their
number: the newest used are kept in at most `limit` bytes (`[web] view_cache_mb`, 64 by
default: more than 200 open pages of long games at once), the oldest used go first.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from collections.abc import Hashable

from ..service.pages import TableView

#: What the kept views may weigh in all, by default.
VIEW_BYTES = 64 * 1024 * 1024


#: The memory a view takes per byte of it pickled: Python's objects weigh more than their
#: pickle (a 197-step Cradle view: 207 KB of objects, counted one by one with
#: `sys.getsizeof`, against 73 KB pickled, 2.8 times). Pickling it takes 0.6 ms, counting
#: its objects 4.5 ms: the pickle, scaled, is the weight.
MEMORY_PER_BYTE = 3


def weight(view: TableView) -> int:
    """About the memory a view takes (its pickle's bytes, scaled): every entry and label in
    it counted once per view (story entries two seats' views share are counted in each:
    the bound errs on the safe side)."""
    return MEMORY_PER_BYTE * len(pickle.dumps(view, pickle.HIGHEST_PROTOCOL))


class Views:
    """Views by key ((table, version, seat)), the most recently used first to stay."""

    def __init__(self, limit: int = VIEW_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._kept: OrderedDict[Hashable, tuple[TableView, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> TableView | None:
        kept = self._kept.get(key)
        if kept is None:
            return None
        self._kept.move_to_end(key)
        return kept[0]

    def put(self, key: Hashable, view: TableView) -> None:
        """Keep `view`, letting the least recently used go until all fit (a view heavier than
        the whole budget is not kept: the next page reads it again)."""
        old = self._kept.pop(key, None)
        if old is not None:
            self.size -= old[1]
        size = weight(view)
        if size > self.limit:
            return
        self._kept[key] = (view, size)
        self.size += size
        while self.size > self.limit:
            _, (_, gone) = self._kept.popitem(last=False)
            self.size -= gone
