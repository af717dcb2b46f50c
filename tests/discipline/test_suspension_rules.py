"""The arithmetic of suspensions, without a database (8.2, 7.1, 6.4.19 H; R-53)."""

from __future__ import annotations

import datetime

import pytest

from discipline import suspension_rules as sr

T0 = datetime.datetime(2027, 7, 1, 10, tzinfo=datetime.UTC)


def at(hours):
    return T0 + datetime.timedelta(hours=hours)


def game(pk, hours, *, championship=1, final=False, forfeit=False):
    return sr.GameFacts(pk, championship, at(hours), final, forfeit=forfeit)


def terms(kind=sr.GAMES, *, games=1, served=0, ends_at=None, championship=1):
    return sr.Terms(
        kind=kind, championship_id=championship, offence_game_id=1, offence_start_at=T0,
        games_required=games if kind == sr.GAMES else None, ends_at=ends_at, games_served=served,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "article", "infraction", "expected"),
    [
        ("game_misconduct", "6.1.3 B", "", (sr.GAMES, 1, "8.2 A")),  # the major's game misconduct
        # 6.4.19 H: fighting's major and game misconduct (Annex C "5'+GM"): the next game the team plays.
        ("game_misconduct", "6.1.3 B", "fighting_starting", (sr.GAMES, 1, "8.2 A")),
        ("game_misconduct", "6.4.19 E", "fighting_intervening", None),  # a game misconduct alone: a report
        ("match", "6.4.19 G", "fighting_intent_to_injure", (sr.UNTIL_DECISION, None, "7.1")),
        ("match", "6.1.6", "attempt_to_injure", (sr.UNTIL_DECISION, None, "7.1")),
        ("match", "6.4.28 A, B", "physical_abuse_of_officials", (sr.REST_OF_TOURNAMENT, None, "8.2 C")),
        ("game_misconduct", "6.4.9 J", "interfering_with_official", None),  # a report, no automatic suspension
        ("gross_misconduct", "6.4.9 L", "", None),
        ("game_ejection", "6.1.7 B", "", None),
    ],
)
def test_what_a_consequence_suspends_provisionally_r_53(kind, article, infraction, expected):
    got = sr.provisional_terms(kind=kind, article=article, infraction=infraction)
    assert (None if got is None else (got.kind, got.games, got.article)) == expected
    if got is not None:
        assert got.description.startswith(f"Rule {got.article}:")


def test_the_next_game_is_blocked_and_the_offence_game_and_earlier_ones_are_not_8_2_a():
    open_one = terms()
    assert sr.blocks(open_one, game(2, 3), now=T0)
    assert not sr.blocks(open_one, game(1, 0), now=T0)  # the offence game itself
    assert not sr.blocks(open_one, game(0, -5), now=T0)  # a game before it
    assert not sr.blocks(terms(served=1), game(3, 6), now=T0)  # served: the game after is free


def test_a_bye_is_no_game_so_the_suspension_waits_for_the_teams_next_game_6_4_19_h():
    # Round 2 is the team's bye: nothing of the team becomes final, nothing is served; round 3 is blocked.
    assert sr.blocks(terms(served=0), game(9, 48), now=at(48))
    assert sr.blocks(terms(served=0), game(9, 48, championship=2), now=at(48))  # follows the person


def test_only_a_final_game_after_the_offence_counts_as_served():
    assert not sr.counts_as_served(terms(), game(2, 3, final=False))
    assert sr.counts_as_served(terms(), game(2, 3, final=True))
    assert not sr.counts_as_served(terms(), game(1, 0, final=True))  # the offence game
    assert not sr.counts_as_served(terms(served=1), game(3, 6, final=True))  # nothing left to serve
    assert not sr.counts_as_served(terms(sr.UNTIL_DECISION), game(2, 3, final=True))
    assert sr.is_served(terms(games=2, served=2)) and not sr.is_served(terms(games=2, served=1))


def test_a_forfeit_is_no_game_served_and_the_suspension_carries_over_to_the_next_game_played_r_55():
    # Round 2 ends by forfeit (8.1 B): final, after the offence, but no game was played, whichever team forfeited.
    forfeited = game(2, 24, final=True, forfeit=True)
    assert not sr.counts_as_served(terms(), forfeited)
    assert not sr.counts_as_served(terms(games=3, served=1), forfeited)
    assert not sr.is_served(terms())  # nothing counted: still in force
    # Round 3 is played: still blocked (the suspension carried over), and it is the game that counts.
    played = game(3, 48, final=True)
    assert sr.blocks(terms(), played, now=at(48))
    assert sr.counts_as_served(terms(), played)


def test_the_rest_of_the_tournament_blocks_that_championship_only():
    for kind in (sr.REST_OF_TOURNAMENT, sr.UNTIL_DECISION):
        assert sr.blocks(terms(kind), game(2, 3), now=T0)
        assert not sr.blocks(terms(kind), game(2, 3, championship=2), now=T0)
    assert sr.ends_with_championship(terms(sr.REST_OF_TOURNAMENT))
    assert not sr.ends_with_championship(terms(sr.UNTIL_DECISION))  # it waits for the committee


def test_a_period_blocks_games_starting_before_its_end():
    period = terms(sr.PERIOD, ends_at=at(24 * 365))
    assert sr.blocks(period, game(2, 24, championship=7), now=T0)
    assert not sr.blocks(period, game(3, 24 * 366, championship=7), now=T0)
    no_time = sr.GameFacts(4, 7, None)
    assert sr.blocks(period, no_time, now=at(1)) and not sr.blocks(period, no_time, now=at(24 * 400))
