"""The classroom's warm pool: refilled one page at a time in the lulls, templates compiled once.

Invariants held here on generated inputs: a warm page is never begun while a page view is being
served or within ``quiet`` seconds of one beginning, and never two at once; a template's
output is the same whether its code was compiled for this environment or kept from another,
and the code is compiled once however many environments load it, again only when its text
changes. Whether a refill delays a student on a real server is `bench_classroom.py`'s figure
(`--every`); the behaviour of the pool on a real server, `test_rush.py`'s.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.tooling.warm import ClassroomExporter, CompiledOnce, Lulls, ready


def run_alone(coroutine):
    """Run ``coroutine`` on an event loop of its own thread (a test before may have left this
    thread's loop marked running: the notebook tests' clients run in this process)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("serving", "since", "calm"),
    [
        (0, None, True),  # nothing ever served
        (1, 5.0, False),  # a page view under way, however long ago it began
        (0, 0.2, False),  # the last began 0.2 s ago: not yet a lull
        (0, 0.5, True),  # exactly the quiet time
        (2, 9.0, False),
    ],
)
def test_a_lull_is_no_page_view_served_and_none_begun_for_the_quiet_time(serving, since, calm):
    clock = Clock()
    lulls = Lulls(quiet=0.5, clock=clock)
    for _ in range(serving):
        lulls.began()
    if since is not None and serving == 0:
        lulls.began()
        lulls.ended()
    clock.now += since or 0.0
    assert lulls.calm() is calm


# a class's page views: (seconds after the start it begins, seconds it lasts)
VIEWS = st.lists(
    st.tuples(st.floats(0, 0.06, allow_nan=False), st.floats(0, 0.02, allow_nan=False)),
    max_size=6,
)


@settings(max_examples=25, deadline=None)
@given(views=VIEWS, refills=st.integers(1, 4), at_once=st.integers(1, 2))
def test_a_warm_page_is_begun_only_in_a_lull_and_never_more_than_at_once(views, refills, at_once):
    async def scenario() -> list[tuple[float, float, bool]]:
        loop = asyncio.get_running_loop()
        lulls = Lulls(quiet=0.01, clock=loop.time, poll=0.002, at_once=at_once)
        made: list[tuple[float, float, bool]] = []

        async def view(at: float, lasts: float) -> None:
            await asyncio.sleep(at)
            lulls.began()
            await asyncio.sleep(lasts)
            lulls.ended()

        async def refill() -> None:
            async with lulls.turn():
                begun, calm = loop.time(), lulls.calm()
                await asyncio.sleep(0.003)  # the page being made
                made.append((begun, loop.time(), calm))

        await asyncio.gather(*(view(a, b) for a, b in views), *(refill() for _ in range(refills)))
        return made

    made = run_alone(scenario())
    assert len(made) == refills
    assert all(calm for _, _, calm in made)  # begun in a lull, each one
    for begun, _, _ in made:  # never more than at_once being made at any moment
        assert sum(b <= begun < e for b, e, _ in made) <= at_once


@pytest.mark.parametrize(("cores", "want"), [(None, 1), (1, 1), (2, 1), (3, 2), (16, 15)])
def test_one_core_is_left_to_the_page_views(monkeypatch, cores, want):
    from claimlab.tooling import warm

    monkeypatch.setattr(warm.os, "cpu_count", lambda: cores)
    assert warm.builders() == want


def test_a_pool_gives_only_pages_made():
    async def scenario() -> list[bool]:
        loop = asyncio.get_running_loop()
        made, failed, making = loop.create_future(), loop.create_future(), loop.create_future()
        made.set_result({"kernel_id": "k"})
        failed.set_exception(RuntimeError("the classroom is full"))
        cancelled = loop.create_future()
        cancelled.cancel()
        out = [ready(made), ready(failed), ready(making), ready(cancelled)]
        failed.exception()  # retrieved: no warning at exit
        return out

    assert run_alone(scenario()) == [True, False, False, False]


# a template is a file's text: any character but a lone surrogate (no file can hold one)
TEXT = st.text(
    alphabet=st.characters(blacklist_characters="{}%#", blacklist_categories=("Cs",)),
    max_size=30,
)


class Counting(CompiledOnce):
    def __init__(self) -> None:
        super().__init__()
        self.compiled = 0

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled += 1
        super().dump_bytecode(bucket)


@settings(max_examples=30, deadline=None)
@given(before=TEXT, after=TEXT, value=TEXT, environments=st.integers(1, 4))
def test_a_template_is_compiled_once_and_renders_as_compiled_afresh(
    before, after, value, environments
):
    source = {
        "page.html": before + "{{ x }}" + after + "{% include 'part.html' %}",
        "part.html": "[{{ x }}]",
    }
    cache = Counting()
    outputs = []
    for _ in range(environments):
        env = jinja2.Environment(loader=jinja2.DictLoader(source), autoescape=True)
        env.bytecode_cache = cache
        outputs.append(env.get_template("page.html").render(x=value))
    fresh = jinja2.Environment(loader=jinja2.DictLoader(source), autoescape=True)
    assert set(outputs) == {fresh.get_template("page.html").render(x=value)}
    assert cache.compiled == 2  # the page and its part, once each, whatever the environments


def test_a_template_whose_text_changed_is_compiled_again():
    cache = Counting()
    for text, want in [("a {{ x }}", "a 1"), ("a {{ x }}", "a 1"), ("b {{ x }}", "b 1")]:
        env = jinja2.Environment(loader=jinja2.DictLoader({"t": text}))
        env.bytecode_cache = cache
        assert env.get_template("t").render(x=1) == want
    assert cache.compiled == 2


def test_the_classroom_exporter_shares_the_compiled_templates():
    from voila.exporter import VoilaExporter

    from claimlab.tooling.warm import COMPILED

    assert issubclass(ClassroomExporter, VoilaExporter)
    one, two = ClassroomExporter(), ClassroomExporter()
    assert one.environment is not two.environment
    assert one.environment.bytecode_cache is COMPILED is two.environment.bytecode_cache
