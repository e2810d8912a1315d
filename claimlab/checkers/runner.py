"""Running a checker over items: the cache first, then batches in bounded parallel, with retries.

Every item is asked ``repeats`` times (repeat 0, 1, ...). Cached verdicts are taken as they
are; the rest go to the checker in batches of its ``batch_size``, at most ``workers`` batches at
once, each tried up to ``retries`` more times after a timeout or a refused call, waiting
``backoff`` seconds, doubled each time. An answer that is not a verdict stops the run naming the
checker and the item. A checker that answers a batch at once (``python:``) has the batch's
answers read in full before any is kept (a bad one: nothing of that batch is stored), then
stored in one transaction (``--batch 1`` stores each verdict on its own); ``openai:`` asks one
item at a time. A command checker's answers are read line by line, each stored as it arrives:
a run killed half-way keeps every answer given, and a batch tried again after a failed call asks
only the items still unanswered.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any

from claimlab.checkers.backends import Checker
from claimlab.checkers.cache import VerdictCache, evidence_hash, identity, verdict_key
from claimlab.checkers.repeats import score_repeats
from claimlab.checkers.verdicts import (
    CheckerFailed,
    CheckerUnavailable,
    Item,
    Verdict,
    items_named,
    parse_verdict,
)
from claimlab.core.frozen import freeze
from claimlab.core.vocab import Status


@dataclass(frozen=True)
class RunOptions:
    """How a checker is run: parallel batches, timeouts, retries, progress."""

    workers: int = 4
    timeout: float = 60.0
    retries: int = 3
    backoff: float = 0.5
    batch_size: int | None = None  # None: the checker's own
    progress: Callable[[int], None] | None = None
    sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True)
class CheckRun:
    """Every item's verdicts (one per repeat), the calls made and the cache hits."""

    checker: Mapping[str, Any]
    verdicts: tuple[tuple[Verdict, ...], ...]  # [item][repeat]
    calls: int  # asks sent to the checker
    hits: int  # asks answered from the cache
    cache: str | None
    item_ids: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        freeze(self, "checker")

    @property
    def repeats(self) -> int:
        """How many times each item was asked."""
        return len(self.verdicts[0]) if self.verdicts else 0

    def final_labels(self) -> list[Status]:
        """Each item's label: its one verdict's, or with repeats its majority label.

        A tie has no majority: the item is NOT_IN_REFERENCE (the checker could not settle
        it), and the tie is listed in the repeats report.
        """
        if self.repeats <= 1:
            return [row[0].label for row in self.verdicts]
        report = score_repeats(self.item_ids, self.verdicts)
        return [i.majority or Status.NOT_IN_REFERENCE for i in report.items]

    def to_dict(self) -> dict[str, Any]:
        """What a command writes about the run (not the verdicts); repeats when asked again."""
        out = {**dict(self.checker), "cache": self.cache, "calls": self.calls, "hits": self.hits}
        if self.repeats > 1:
            out["repeats"] = score_repeats(self.item_ids, self.verdicts).to_dict()
        return out


def _call(
    checker: Checker,
    batch: Sequence[Item],
    options: RunOptions,
    store: Callable[[list[tuple[int, Verdict]]], None],
) -> list[Verdict]:
    """One batch, retried with backoff (only what is still unanswered); its verdicts stored.

    A try that fails once every item has its answer (a program that answered all, then exited
    with an error or outlived its time) leaves nothing to ask again: the batch is answered.

    A checker that streams (a command: :meth:`~claimlab.checkers.backends.CommandChecker.stream`)
    has each answer read as a verdict and stored as it arrives; any other's answers are read in
    full, every one as a verdict, before any is stored.
    """
    got: dict[int, Verdict] = {}
    stream = getattr(checker, "stream", None)
    for attempt in range(options.retries + 1):
        todo = [k for k in range(len(batch)) if k not in got]
        asked = [batch[k] for k in todo]
        try:
            if stream is None:
                answers = checker.check(asked, timeout=options.timeout)
            else:
                answers = stream(asked, timeout=options.timeout, on_answer=_keeper(
                    checker.name, batch, todo, got, store))  # fmt: skip
            break
        except CheckerUnavailable as err:
            if len(got) == len(batch):  # every answer came before the try failed: none to ask
                todo, answers = [], []
                break
            if attempt == options.retries:
                raise CheckerFailed(
                    f"no answer after {options.retries + 1} tries: {err}",
                    file=f"checker {checker.name}",
                    record=items_named([i.id for i in asked]),
                ) from err
            options.sleep(options.backoff * 2**attempt)
    fresh = [
        (k, parse_verdict(a, batch[k], checker.name))
        for k, a in zip(todo, answers, strict=True)
        if k not in got
    ]
    store(fresh)  # at once, before this worker asks for its next batch
    got.update(fresh)
    return [got[k] for k in range(len(batch))]


def _keeper(
    name: str,
    batch: Sequence[Item],
    todo: list[int],
    got: dict[int, Verdict],
    store: Callable[[list[tuple[int, Verdict]]], None],
) -> Callable[[int, object], None]:
    """What a streaming checker calls with each answer: read as a verdict, stored at once."""

    def keep(place: int, answer: object) -> None:
        k = todo[place]
        verdict = parse_verdict(answer, batch[k], name)
        store([(k, verdict)])
        got[k] = verdict

    return keep


def _storer(
    cache: VerdictCache | None, lock: threading.Lock, keys: Sequence[str], name: str
) -> Callable[[list[tuple[int, Item]]], Callable[[list[tuple[int, Verdict]]], None]]:
    """For a batch, the function that stores some of its verdicts (by place) in one transaction."""

    def for_batch(batch: list[tuple[int, Item]]) -> Callable[[list[tuple[int, Verdict]]], None]:
        def store(verdicts: list[tuple[int, Verdict]]) -> None:
            if cache is not None and verdicts:
                with lock:
                    cache.put_all([(keys[batch[k][0]], v) for k, v in verdicts], name)

        return store

    return for_batch


def _batches(jobs: Sequence[tuple[int, Item]], size: int) -> list[list[tuple[int, Item]]]:
    """Batches of at most ``size`` jobs, never holding one id twice.

    An answer names its item by id alone, so an item's repeats go to different batches (every
    first repeat before the second, each repeat's items in their order).
    """
    out: list[list[tuple[int, Item]]] = []
    current: list[tuple[int, Item]] = []
    ids: set[str] = set()
    for job in sorted(jobs, key=lambda job: job[1].repeat):
        if len(current) == size or job[1].id in ids:
            out.append(current)
            current, ids = [], set()
        current.append(job)
        ids.add(job[1].id)
    return [*out, current] if current else out


def _ask(
    checker: Checker,
    jobs: Sequence[tuple[int, Item]],
    keys: Sequence[str],
    cache: VerdictCache | None,
    options: RunOptions,
) -> dict[int, Verdict]:
    """Send the jobs not cached; store each batch's verdicts as they arrive."""
    found: dict[int, Verdict] = {}
    size = max(1, options.batch_size or checker.batch_size)
    store = _storer(cache, threading.Lock(), keys, checker.name)
    with ThreadPoolExecutor(max_workers=max(1, min(options.workers, checker.workers))) as pool:
        pending: dict[Future[list[Verdict]], list[tuple[int, Item]]] = {
            pool.submit(_call, checker, [i for _, i in b], options, store(b)): b
            for b in _batches(jobs, size)
        }
        order = {f: n for n, f in enumerate(pending)}
        while pending:
            done, _ = wait(pending, return_when=FIRST_EXCEPTION)
            for future in sorted(done, key=order.__getitem__):  # the earliest batch's error wins
                batch = pending.pop(future)
                if future.exception() is not None:
                    for other in pending:
                        other.cancel()
                    raise future.exception()  # type: ignore[misc]
                verdicts = future.result()
                found.update((slot, v) for (slot, _), v in zip(batch, verdicts, strict=True))
                if options.progress is not None:
                    options.progress(len(batch))
    return found


def _keys(who: Mapping[str, Any], asks: Sequence[Item]) -> list[str]:
    """Each ask's cache key (each distinct evidence hashed once)."""
    hashes: dict[int, str] = {}
    return [
        verdict_key(who, a, hashes.setdefault(id(a.passages), evidence_hash(a.passages)))
        for a in asks
    ]


def run_checker(
    items: Sequence[Item],
    checker: Checker,
    *,
    cache: VerdictCache | None = None,
    repeats: int = 1,
    options: RunOptions | None = None,
) -> CheckRun:
    """Every item checked ``repeats`` times, the cache first (see the module's note)."""
    options = options or RunOptions()
    who = identity(checker.name, checker.version, checker.parameters)
    cache = cache if checker.cached else None
    asks = [replace(item, repeat=r) for item in items for r in range(repeats)]
    keys = _keys(who, asks) if checker.cached else [str(n) for n in range(len(asks))]
    got: dict[int, Verdict] = {}
    if cache is not None:
        got = {n: v for n, k in enumerate(keys) if (v := cache.get(k)) is not None}
    if options.progress is not None and got:
        options.progress(len(got))
    first: dict[str, int] = {}  # the same claim on the same evidence is asked once a run
    jobs = [
        (n, ask) for n, ask in enumerate(asks) if n not in got and first.setdefault(keys[n], n) == n
    ]
    answered = _ask(checker, jobs, keys, cache, options)
    for n, k in enumerate(keys):
        if n not in got:
            got[n] = answered[first[k]]
    verdicts = tuple(tuple(got[n * repeats + r] for r in range(repeats)) for n in range(len(items)))
    return CheckRun(
        who,
        verdicts,
        calls=len(jobs),
        hits=len(asks) - len(jobs),  # from the cache, or the same ask earlier in the run
        cache=None if cache is None else str(cache.path),
        item_ids=tuple(i.id for i in items),
    )
