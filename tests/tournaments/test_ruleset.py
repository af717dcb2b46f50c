"""Championship ruleset: defaults of rules-interpretation.md, round trip, validation naming the key."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest

from games.engine.ruleset import Ruleset as EngineRuleset
from tournaments.ruleset import ChampionshipRuleset, RulesetError
from tournaments.standings import PRESETS


def test_the_defaults_are_the_interpretation_decisions():
    ruleset = ChampionshipRuleset()
    roster = ruleset.roster
    assert (roster.min_skaters, roster.max_skaters, roster.min_goalkeepers, roster.max_goalkeepers) == (6, 14, 2, 2)
    assert (roster.max_alternates, roster.max_bench_officials) == (3, 5)
    assert ruleset.standings == PRESETS["firs-2017"]
    assert ruleset.eligibility.age_reference == "january_1"
    assert ruleset.eligibility.men_categories_admit_women is False
    game = ruleset.game
    assert (game.period_minutes, game.periods, game.overtime_minutes, game.shootout_shooters) == (20, 2, 10, 3)
    assert game.goal_ends_penalty == "first"
    assert game.differential_order == ("captain", "fewest_short", "last_entered")
    assert game.engine_parameters()["differential_order"] == ["captain", "fewest_short", "last_entered"]
    protests = ruleset.protests
    assert protests.administrative_confirm_window == timedelta(hours=1, minutes=30)
    assert protests.ruling_window == protests.federation_window == timedelta(hours=3)
    assert (protests.fee_amount, protests.fee_currency) == (Decimal("200"), "USD")
    assert (ruleset.appeals.general_assembly_days, ruleset.appeals.congress_days) == (None, None)


def test_it_round_trips_through_json():
    ruleset = ChampionshipRuleset.from_dict(
        {
            "standings": "iihf",
            "roster": {"min_goalkeepers": 1},
            "protests": {"fee_amount": "150.50", "fee_currency": "EUR"},
            "appeals": {"congress_days": 30},
        }
    )
    data = json.loads(json.dumps(ruleset.to_dict()))
    assert ChampionshipRuleset.from_dict(data) == ruleset
    assert data["standings"]["points"]["overtime_win"] == 2
    assert data["protests"]["fee_amount"] == "150.50"


def test_missing_keys_take_the_defaults():
    assert ChampionshipRuleset.from_dict({}) == ChampionshipRuleset()
    assert ChampionshipRuleset.from_dict(None) == ChampionshipRuleset()
    ruleset = ChampionshipRuleset.from_dict({"game": {"period_minutes": 15}})
    assert ruleset.game.period_minutes == 15
    assert ruleset.game.periods == 2


def test_a_preset_can_be_overridden_key_by_key():
    ruleset = ChampionshipRuleset.from_dict({"standings": {"preset": "iihf", "restart_after_partial_split": False}})
    assert ruleset.standings.points == PRESETS["iihf"].points
    assert ruleset.standings.restart_after_partial_split is False


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"scoring": {}}, "scoring"),
        ({"roster": {"max_players": 20}}, "roster.max_players"),
        ({"standings": {"points": {"bonus": 1}}}, "standings.points.bonus"),
        ({"standings": {"order": []}}, "standings.order"),
    ],
)
def test_it_refuses_unknown_keys(data, field):
    with pytest.raises(RulesetError, match="unknown parameter") as error:
        ChampionshipRuleset.from_dict(data)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("data", "field", "cites"),
    [
        ({"roster": {"max_skaters": -1}}, "roster.max_skaters", "R-04"),
        ({"roster": {"max_skaters": "14"}}, "roster.max_skaters", "R-04"),
        ({"roster": {"max_alternates": True}}, "roster.max_alternates", "R-06"),
        ({"roster": {"min_skaters": 15}}, "roster.min_skaters", "R-04"),
        ({"eligibility": {"age_reference": "birthday"}}, "eligibility.age_reference", "R-01"),
        ({"eligibility": {"men_categories_admit_women": "yes"}}, "eligibility.men_categories_admit_women", "R-02"),
        ({"eligibility": {"junior_min_age": 25}}, "eligibility.junior_min_age", "R-01"),
        ({"game": {"period_minutes": 0}}, "game.period_minutes", "R-11"),
        ({"game": {"goal_ends_penalty": "last"}}, "game.goal_ends_penalty", "R-23"),
        ({"game": {"differential_order": ["coin_toss"]}}, "game.differential_order", "R-61"),
        ({"game": {"differential_order": ["captain", "captain"]}}, "game.differential_order", "R-61"),
        ({"game": {"report_clock": "sundial"}}, "game.report_clock", "R-10"),
        ({"protests": {"ruling_minutes": 2.5}}, "protests.ruling_minutes", "R-51"),
        ({"protests": {"fee_amount": "lots"}}, "protests.fee_amount", "R-52"),
        ({"protests": {"fee_amount": "-5"}}, "protests.fee_amount", "R-52"),
        ({"protests": {"fee_currency": "usd"}}, "protests.fee_currency", "R-52"),
        ({"appeals": {"congress_days": 0}}, "appeals.congress_days", "R-54"),
        ({"standings": {"points": {"win": 2.5}}}, "standings.points.win", "R-41"),
        ({"standings": {"tiebreakers": ["coin_toss"]}}, "standings.tiebreakers", "R-42"),
        ({"standings": {"tiebreakers": ["shootout", "goals_for"]}}, "standings.tiebreakers", "9.3 G"),
        ({"standings": {"tiebreakers": ["wins", "wins"]}}, "standings.tiebreakers", "R-42"),
        ({"standings": {"restart_after_partial_split": 1}}, "standings.restart_after_partial_split", "R-42"),
        ({"standings": "uefa"}, "standings.preset", "firs-2017"),
    ],
)
def test_it_names_the_bad_key_and_value(data, field, cites):
    with pytest.raises(RulesetError) as error:
        ChampionshipRuleset.from_dict(data)
    assert error.value.field == field
    assert cites in error.value.message


def test_the_game_section_feeds_the_engine():
    """R-10: the engine counts tenths of a second."""
    game = ChampionshipRuleset.from_dict({"game": {"period_minutes": 15, "overtime_minutes": 5}}).game
    engine = EngineRuleset.from_dict(game.engine_parameters())
    assert (engine.period_length, engine.overtime_length, engine.periods) == (9000, 3000, 2)
