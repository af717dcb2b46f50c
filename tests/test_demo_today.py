"""The demo world happens today (issue 25): its dates follow the day it is built, on the venue's clock, and its live
game is played through the officials' console service, each entry stored once, resumed after a kill.

The timeline is plain arithmetic (``demo.timeline``), checked at two frozen days, one of them the day Europe/Rome
moves to summer time; one world is built at that frozen moment (``manage.py demo --now``) and checked around it,
then its live game is played to its end by the feeder (``demo.live``) at no pace, killed half-way and started again.
"""

from __future__ import annotations

import datetime
import zoneinfo

import pytest

from demo import data, live
from demo.timeline import REFERENCE_START, Timeline
from tests.demo_world import FAST_HASHERS, private_storages, run_demo

# `make test` runs the unit suite on PostgreSQL and the tests marked `sqlite` again on SQLite, the embedded default
# of `make run`: the demo world is what a new user loads on it, every morning.
pytestmark = pytest.mark.sqlite

ROME = zoneinfo.ZoneInfo("Europe/Rome")
UTC = datetime.UTC
# 12:00 in Rome on 28 March 2027, the day summer time starts (02:00 CET -> 03:00 CEST): yesterday was CET.
DST_DAY = datetime.datetime(2027, 3, 28, 12, 0, tzinfo=ROME)
# An ordinary winter day, late in the evening in Rome (already the next day in UTC+).
WINTER_DAY = datetime.datetime(2026, 12, 7, 21, 40, tzinfo=ROME)


@pytest.mark.parametrize("now", [DST_DAY, WINTER_DAY], ids=["dst-change", "winter"])
def test_the_timeline_puts_the_championship_around_the_venues_today(now):
    timeline = Timeline(now.astimezone(UTC), "Europe/Rome")
    today = now.date()
    assert timeline.today == today
    assert timeline.start == today - datetime.timedelta(days=1)  # yesterday's games are the first day's
    assert timeline.day(REFERENCE_START) == timeline.start
    assert timeline.day(data.CHAMPIONSHIP.pool_days[1]) == today
    # A slot's wall-clock time stays the venue's, whatever the offset that day (CET yesterday, CEST today).
    for written in data.CHAMPIONSHIP.pool_days:
        start = timeline.local(written, datetime.time(19, 0)).astimezone(ROME)
        assert (start.date(), start.hour, start.minute) == (timeline.day(written), 19, 0)
    # The hearing: tomorrow at 10:00 on the venue's clock.
    hearing = timeline.hearing_at.astimezone(ROME)
    assert (hearing.date(), hearing.hour) == (today + datetime.timedelta(days=1), 10)
    # The live game began ten minutes ago; the recent one ended an hour ago; the others later, on a quarter hour.
    assert timeline.now - timeline.live_face_off == datetime.timedelta(minutes=10)
    assert timeline.now - timeline.recent_end == datetime.timedelta(hours=1)
    later = timeline.later_today(2).astimezone(ROME)
    assert later.minute % 15 == 0 and datetime.timedelta(hours=2) <= later - now < datetime.timedelta(
        hours=2, minutes=15
    )


def test_on_the_dst_day_yesterday_was_cet_and_tomorrow_is_cest():
    timeline = Timeline(DST_DAY.astimezone(UTC), "Europe/Rome")
    assert timeline.local(REFERENCE_START, datetime.time(19, 0)) == datetime.datetime(2027, 3, 27, 18, 0, tzinfo=UTC)
    assert timeline.hearing_at == datetime.datetime(2027, 3, 29, 8, 0, tzinfo=UTC)


def test_a_naive_now_is_refused():
    with pytest.raises(ValueError, match="aware"):
        Timeline(datetime.datetime(2027, 3, 28, 12, 0))


class FakeClock:
    """The feeder's clock: starts at ``start`` and moves on by each sleep (and a second a reading)."""

    def __init__(self, start: datetime.datetime):
        self.now = start

    def __call__(self) -> datetime.datetime:
        self.now += datetime.timedelta(seconds=1)
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


class Killed(Exception):
    pass


@pytest.mark.django_db
def test_a_world_built_on_the_dst_day_happens_around_it_and_its_live_game_is_played_once(
    monkeypatch, settings, tmp_path
):
    from discipline.models import Case, Deadline, DeadlineStatus, Protest, Suspension
    from games.models import GameSheet, SheetEvent, SheetStatus
    from tournaments.models import Championship, Game, GameStatus
    from tournaments.selectors import standings_for_pool

    settings.PASSWORD_HASHERS = FAST_HASHERS
    private_storages(monkeypatch, tmp_path / "private")
    now = DST_DAY.astimezone(UTC)
    output = run_demo("--now", now.isoformat(), logins_file=tmp_path / "logins.txt")
    assert "Happening now" in output

    championship = Championship.objects.get()
    today = DST_DAY.date()
    yesterday = today - datetime.timedelta(days=1)
    assert championship.name == "2027 Inline Hockey World Championship - Senior Men"
    assert championship.start_date == yesterday
    pool_games = Game.objects.filter(pool__isnull=False)
    by_day: dict[datetime.date, list[Game]] = {}
    for game in pool_games:
        by_day.setdefault(game.start_at.astimezone(ROME).date(), []).append(game)
    # Yesterday's games final; today's: one ended an hour ago (final), one live, two still to play later today.
    assert all(g.status == GameStatus.FINAL for g in by_day[yesterday])
    todays = sorted(by_day[today], key=lambda g: g.start_at)
    assert [g.status for g in todays] == [GameStatus.FINAL, GameStatus.SCHEDULED, GameStatus.SCHEDULED,
                                          GameStatus.SCHEDULED]  # fmt: skip
    recent, game = todays[0], live.live_game()
    assert game == todays[1] and game.start_at == now - datetime.timedelta(minutes=10)
    assert all(g.start_at > now for g in todays[2:])
    assert recent.finalized_at == now - datetime.timedelta(hours=1)
    # The protest on the game that ended an hour ago: its fee due in half an hour (9.1 B), the answer in hours.
    protest = Protest.objects.get(game=recent)
    due = {d.kind: d.due_at - now for d in Deadline.objects.filter(protest=protest, status=DeadlineStatus.OPEN)}
    assert due == {"protest": datetime.timedelta(minutes=30), "answer": datetime.timedelta(hours=2, minutes=45)}
    # The hearing is tomorrow at 10:00 on the venue's clock (summer time now); a suspension waits for a next game.
    hearing = Case.objects.exclude(hearing_at=None).get().hearing_at.astimezone(ROME)
    assert (hearing.date(), hearing.hour) == (today + datetime.timedelta(days=1), 10)
    suspension = Suspension.objects.get(kind="games", games_required=2)
    assert Game.objects.filter(status=GameStatus.SCHEDULED, start_at__gt=now, home=suspension.entry).exists() or (
        Game.objects.filter(status=GameStatus.SCHEDULED, start_at__gt=now, away=suspension.entry).exists()
    )

    # The feeder plays the rest, killed after five entries, then started again: every entry stored once.
    def played() -> dict[str, int]:
        return {row.team: row.played for row in standings_for_pool(game.pool).rows}

    before = played()
    prebuilt = len(data.LIVE_GAME_ENTRIES)
    assert live.pending(game) == list(range(prebuilt, len(live.steps())))
    clock = FakeClock(now)
    said: list[str] = []

    def killed_after_five(line: str) -> None:
        said.append(line)
        if len(said) > 5:
            raise Killed

    with pytest.raises(Killed):
        live.play(pace=1.0, clock=clock, sleep=clock.sleep, say=killed_after_five)
    assert SheetEvent.objects.filter(sheet__game=game).count() == prebuilt + 5
    # A resend of a stored entry is acknowledged by the service, not stored again.
    answer = live.send(game, prebuilt, now=clock())
    assert [a.duplicate for a in answer.acknowledged] == [True]
    assert live.play(pace=1.0, clock=clock, sleep=clock.sleep, say=said.append) == len(live.steps()) - prebuilt - 5
    events = list(SheetEvent.objects.filter(sheet__game=game).values_list("event_id", flat=True))
    assert len(events) == len(set(events)) == len(live.steps())
    # At real pace: the first period's 12:29 still to play, plus its stoppages, half time and the second period.
    assert clock.now - now > datetime.timedelta(minutes=40)
    # Ended, signed on the table's device: final, its result in the standings.
    game.refresh_from_db()
    assert GameSheet.objects.get(game=game).status == SheetStatus.FINAL
    assert game.status == GameStatus.FINAL and (game.home_goals, game.away_goals) == (3, 1)
    after = played()
    assert {team: after[team] - before[team] for team in after} == {
        team: int(team in (game.home.name, game.away.name)) for team in after
    }
    # Started again after the end: nothing to play, nothing stored.
    assert live.play(pace=1.0, clock=clock, sleep=clock.sleep, say=said.append) == 0
