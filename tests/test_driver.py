"""The table driver on a clock of plain numbers: pacing, bot jobs, results, the turn timer."""

from __future__ import annotations

from pokeroulette_tui.driver import AWAY_GRACE, Driver, Pace, Step, timeout_action
from pokeroulette_tui.engine.actions import Fold
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.table import SeatConfig, Table

RULES = RuleSet(betting="final_only")


def _table(*bots: str | None, rules: RuleSet = RULES, seed: int = 3) -> Table:
    seats = [SeatConfig(f"P{i}", bot) for i, bot in enumerate(bots)]
    return Table.create(rules, seats, seed=seed)


def _run(driver: Driver, now: float, until, *, answer_bots: bool = True,
         limit: int = 3000) -> tuple[float, Step]:
    """Play the table (humans take their last legal action, bots answer at once) until
    ``until(step)`` holds; returns the time and that step."""
    for _ in range(limit):
        step = driver.step(now)
        if until(step):
            return now, step
        if step.job is not None:
            job = step.job
            driver.bot_chose(job, job.bot.choose(job.view, job.legal))
        elif step.action is not None:
            driver.play(step.action, now)
        elif driver.table.waiting_for_human() is not None:
            seat = driver.table.waiting_for_human()
            driver.play(driver.table.legal(seat)[-1], now)
        elif driver.wakeup is not None:
            now = driver.wakeup
        elif driver.result_pending():
            driver.release(now)
        else:
            raise AssertionError("the table stopped")
    raise AssertionError("never happened")


def _until_human(driver: Driver, now: float) -> float:
    return _run(driver, now, lambda step: driver.table.waiting_for_human() is not None)[0]


def test_dealer_waits_for_its_pause_then_deals():
    d = Driver(_table(None, "random", "random"), Pace(delay=0.5), now=10.0)
    assert d.step(10.2) == Step() and d.wakeup == 10.5
    step = d.step(10.5)
    assert step.action is not None and step.action.seat is None
    d.play(step.action, 10.5)
    assert d.next_auto == 11.0  # every step starts the pause again


def test_bot_thinks_during_the_pause_and_plays_after_it():
    d = Driver(_table("simple", None, None), Pace(delay=1.0), now=0.0)
    now, step = _run(d, 0.0, lambda step: step.job is not None)
    job = step.job
    assert job is not None and job.stamp == len(d.table.actions) and d.thinking
    assert d.step(now) == Step()  # no second job while it thinks
    d.bot_chose(job, job.bot.choose(job.view, job.legal))
    assert d.step(now).action is None and d.wakeup == d.next_auto > now  # still the pause
    assert d.step(d.next_auto).action.seat == job.seat


def test_a_bot_answer_to_an_old_table_is_not_played():
    d = Driver(_table("simple", None, None, None), Pace(delay=0.0))
    now, step = _run(d, 0.0, lambda step: step.job is not None)
    job = step.job
    d.leave(2, now)  # a human leaves while the bot thinks
    d.bot_chose(job, job.legal[0])
    assert not d.thinking
    step = d.step(now)
    assert step.action is None and step.job is not None and step.job.stamp == job.stamp + 1


def test_a_failed_bot_is_played_like_the_timer():
    d = Driver(_table("simple", None, None), Pace(delay=0.0))
    _, step = _run(d, 0.0, lambda step: step.job is not None)
    d.bot_chose(step.job, None)
    assert d.step(0.0).action == timeout_action(d.table, step.job.seat)


def test_local_table_holds_the_result_until_released():
    d = Driver(_table(None, "random", "random", rules=PRESETS["classic"]), Pace(delay=0.0))
    now = 0.0
    for _ in range(3000):
        if d.result_pending():
            break
        step = d.step(now)
        if step.action is None:
            seat = d.table.waiting_for_human()
            d.play(Fold(seat=seat) if Fold(seat=seat) in d.table.legal(seat)
                   else d.table.legal(seat)[0], now)
            continue
        d.play(step.action, now)
    assert d.result_pending() and d.step(now + 100) == Step() and d.wakeup is None
    hand = d.table.state.hand_no
    d.release(now)
    assert not d.result_pending()
    d.play(d.step(now).action, now)
    assert d.table.state.hand_no == hand + 1


def test_network_table_pauses_after_a_hand_then_deals():
    d = Driver(_table(None, "random", "random", rules=PRESETS["classic"]),
               Pace(delay=0.0, hand_pause=4.0))
    now = 0.0
    for _ in range(3000):
        if d.table.state.phase == "hand_over":
            break
        step = d.step(now)
        if step.action is None:
            seat = d.table.waiting_for_human()
            d.play(d.table.legal(seat)[-1], now)
            continue
        d.play(step.action, now)
    assert not d.result_pending() and d.next_deal() == now + 4.0
    assert d.step(now + 3.9) == Step() and d.wakeup == now + 4.0
    assert d.step(now + 4.0).action.kind == "start_hand"


def test_turn_timer_plays_for_a_human_and_restarts_for_each_turn():
    d = Driver(_table(None, None, None), Pace(delay=0.0, turn_timeout=30.0))
    now = _until_human(d, 0.0)
    seat = d.table.waiting_for_human()
    assert d.deadline == now + 30.0
    assert d.step(now + 29.0) == Step() and d.wakeup == now + 30.0
    step = d.step(now + 30.0)
    assert step.timed_out == seat and step.action == timeout_action(d.table, seat)
    d.play(step.action, now + 30.0)
    assert d.deadline == now + 60.0  # the next seat gets a full turn
    assert d.turn_start == len(d.table.actions)


def test_away_seat_waits_a_grace_and_rearmed_when_back():
    d = Driver(_table(None, None, None), Pace(delay=0.2, turn_timeout=30.0, away_after=2))
    now = _until_human(d, 0.0)
    seat = d.table.waiting_for_human()
    d.table.state.timeouts[seat] = 2
    d.rearm(now)
    assert d.away(seat) and d.deadline == now + AWAY_GRACE
    d.table.state.timeouts[seat] = 0
    d.rearm(now)
    assert d.deadline == now + 30.0


def test_no_timer_without_a_timeout():
    d = Driver(_table(None, None, None), Pace(delay=0.0))
    now = _until_human(d, 0.0)
    assert d.deadline is None and d.step(now + 1e6) == Step() and d.wakeup is None
