"""Rosters and line-ups (3.1.1, 3.1.2, 3.2.9, 5.1, 5.4 F; R-04..R-07): database-free."""

import pytest

from tournaments.rosters import (
    GOALKEEPER,
    PLAYER,
    RosterLimits,
    RosterLine,
    check_jersey_number,
    check_lineup,
    check_lineup_change,
    check_roster,
    check_roster_change,
    check_roster_room,
    roster_capacity,
    roster_room,
)


def roster(skaters=10, goalkeepers=2, captains=1, alternates=2):
    lines = [RosterLine(person_id=f"p{i}", number=str(i + 1), position=PLAYER) for i in range(skaters)]
    lines += [RosterLine(person_id=f"g{i}", number=str(90 + i), position=GOALKEEPER) for i in range(goalkeepers)]
    marked = []
    for i, line in enumerate(lines):
        if line.position == PLAYER and i < captains:
            line = RosterLine(line.person_id, line.number, PLAYER, captain=True)
        elif line.position == PLAYER and captains <= i < captains + alternates:
            line = RosterLine(line.person_id, line.number, PLAYER, alternate=True)
        marked.append(line)
    return marked


def articles(problems):
    return [p.article for p in problems]


@pytest.mark.parametrize("number", ["1", "7", "10", "99"])
def test_it_accepts_numbers_from_1_to_99(number):
    assert check_jersey_number(number) is None


@pytest.mark.parametrize("number", ["0", "100", "07", "00", "", "7a", "-1", " 7", "٣"])
def test_it_rejects_numbers_outside_1_to_99_or_with_a_leading_zero(number):
    """3.2.9 C: 1-99, no "0" in front, digits only."""
    problem = check_jersey_number(number)
    assert problem is not None
    assert (problem.field, problem.article) == ("number", "3.2.9 C")
    assert problem.message.startswith("Rule 3.2.9 C: numbers are 1-99 without a leading zero")


def test_it_names_the_number_without_its_leading_zero():
    assert '"7", not "07"' in check_jersey_number("07").message


def test_a_complete_roster_has_no_problems():
    assert check_roster(roster()) == ()


@pytest.mark.parametrize(("skaters", "ok"), [(5, False), (6, True), (14, True), (15, False)])
def test_it_needs_6_to_14_floor_players(skaters, ok):
    """3.1.1 A / R-04."""
    problems = check_roster(roster(skaters=skaters))
    assert (problems == ()) is ok
    if not ok:
        assert [(p.field, p.article) for p in problems] == [("lines", "3.1.1 A")]
        assert "R-04" in problems[0].message


@pytest.mark.parametrize(("goalkeepers", "ok"), [(1, False), (2, True), (3, False)])
def test_it_needs_exactly_two_goalkeepers(goalkeepers, ok):
    """3.1.1 A wins over the Terminology page (R-04)."""
    problems = check_roster(roster(goalkeepers=goalkeepers))
    assert (problems == ()) is ok
    if not ok:
        assert "exactly 2 goalkeepers are needed" in problems[0].message


@pytest.mark.parametrize(("captains", "ok"), [(0, False), (1, True), (2, False)])
def test_it_needs_exactly_one_captain(captains, ok):
    """3.1.2 A / R-06."""
    problems = check_roster(roster(captains=captains))
    assert (problems == ()) is ok
    if not ok:
        assert [(p.field, p.article) for p in problems] == [("captain", "3.1.2 A")]


@pytest.mark.parametrize(("alternates", "ok"), [(0, True), (3, True), (4, False)])
def test_it_allows_at_most_three_alternates(alternates, ok):
    """3.1.2 B, 3.2.9 E / R-06."""
    problems = check_roster(roster(alternates=alternates))
    assert (problems == ()) is ok
    if not ok:
        assert [(p.field, p.article) for p in problems] == [("alternate", "3.1.2 B")]


def test_it_rejects_duplicate_numbers_on_the_second_line():
    """3.2.9 D: no two members of a team wear the same number."""
    lines = roster()
    lines[3] = RosterLine(lines[3].person_id, "1", PLAYER)
    problems = check_roster(lines)
    assert [(p.field, p.article, p.line) for p in problems] == [("number", "3.2.9 D", 3)]
    assert "already worn by line 1" in problems[0].message


def test_a_clash_names_the_other_line_by_its_label_when_it_has_one():
    """A file's rows are named as the spreadsheet shows them, not by their place in a list (3.2.9 D, 3.1.1 A)."""
    lines = [RosterLine("p1", "9", label="row 2"), RosterLine("p2", "9"), RosterLine("p1", "10")]
    messages = [p.message for p in check_roster(lines, complete=False)]
    assert messages == [
        "Rule 3.2.9 D: number 9 is already worn by row 2",
        "Rule 3.1.1 A: this person is already on row 2",
    ]


def test_it_rejects_a_leading_zero_on_the_line_that_has_it():
    lines = roster()
    lines[4] = RosterLine(lines[4].person_id, "07", PLAYER)
    problems = check_roster(lines)
    assert [(p.field, p.article, p.line) for p in problems] == [("number", "3.2.9 C", 4)]


@pytest.mark.parametrize("mark", ["captain", "alternate"])
def test_a_goalkeeper_can_be_neither_captain_nor_alternate(mark):
    """3.1.2 C / R-06."""
    lines = roster(captains=1 if mark == "alternate" else 0)
    lines[-1] = RosterLine(lines[-1].person_id, lines[-1].number, GOALKEEPER, **{mark: True})
    problems = check_roster(lines)
    assert ("3.1.2 C", mark) in [(p.article, p.field) for p in problems]


def test_a_player_is_not_both_captain_and_alternate():
    lines = roster(alternates=0)
    lines[0] = RosterLine(lines[0].person_id, lines[0].number, PLAYER, captain=True, alternate=True)
    assert articles(check_roster(lines)) == ["3.2.9 E"]


def test_a_person_is_listed_once():
    lines = roster()
    lines[5] = RosterLine(lines[0].person_id, "55", PLAYER)
    problems = check_roster(lines)
    assert [(p.field, p.line) for p in problems] == [("person_id", 5)]


def test_an_incomplete_roster_only_checks_the_maxima():
    assert check_roster(roster(skaters=2, goalkeepers=0, captains=0), complete=False) == ()
    assert articles(check_roster(roster(skaters=15), complete=False)) == ["3.1.1 A"]


def test_limits_are_ruleset_parameters():
    limits = RosterLimits(min_goalkeepers=1)
    assert check_roster(roster(goalkeepers=1), limits=limits) == ()


def test_a_roster_holds_14_floor_players_and_2_goalkeepers_r_04():
    assert roster_capacity() == 16
    assert roster_capacity(RosterLimits(max_skaters=10, max_goalkeepers=3)) == 13
    assert roster_room(on_roster=10) == 6
    assert roster_room(on_roster=20) == 0


@pytest.mark.parametrize(
    ("new_lines", "on_roster", "ok"), [(16, 0, True), (17, 0, False), (6, 10, True), (7, 10, False)]
)
def test_a_file_of_players_must_fit_the_room_left_on_the_roster_r_04(new_lines, on_roster, ok):
    problem = check_roster_room(new_lines, on_roster=on_roster)
    assert (problem is None) is ok
    if problem is not None:
        assert problem.article == "3.1.1 A"
        assert str(problem) == (
            "Rule 3.1.1 A: a roster holds at most 16 players (14 floor players and 2 goalkeepers, R-04); "
            f"it has {on_roster}, so at most {16 - on_roster} can be added"
        )


@pytest.mark.parametrize("kind", ["add", "substitute"])
def test_players_can_be_added_before_the_first_game(kind):
    assert check_roster_change(first_game_started=False, kind=kind) is None


@pytest.mark.parametrize("kind", ["add", "substitute"])
def test_the_roster_is_frozen_once_the_first_game_started(kind):
    """3.1.1 B / R-05."""
    problem = check_roster_change(first_game_started=True, kind=kind)
    assert (problem.field, problem.article) == ("person_id", "3.1.1 B")
    assert "R-05" in problem.message


def test_a_player_can_be_removed_before_the_first_game_and_not_after_it_3_1_1_b():
    """3.1.1 B / R-05: once the first game has started the roster is frozen, a removal included."""
    assert check_roster_change(first_game_started=False, kind="remove") is None
    problem = check_roster_change(first_game_started=True, kind="remove")
    assert (problem.field, problem.article) == ("person_id", "3.1.1 B")
    assert problem.message.startswith("Rule 3.1.1 B:") and "frozen" in problem.message


@pytest.mark.parametrize("started", [False, True])
def test_a_number_change_needs_ihtc_approval(started):
    """3.2.9 D / R-05: after registration, with the IHTC's written approval only."""
    problem = check_roster_change(first_game_started=started, kind="number_change")
    assert (problem.field, problem.article) == ("number", "3.2.9 D")
    assert check_roster_change(first_game_started=started, kind="number_change", number_change_approved=True) is None


def test_a_number_can_change_freely_before_registration():
    assert check_roster_change(first_game_started=False, kind="number_change", registered=False) is None


def test_it_refuses_an_unknown_change_kind():
    with pytest.raises(ValueError, match="kind"):
        check_roster_change(first_game_started=False, kind="trade")


def lineup_check(lines, **kwargs):
    kwargs.setdefault("roster_person_ids", {line.person_id for line in lines})
    return check_lineup(lines, **kwargs)


def test_a_lineup_from_the_roster_has_no_problems():
    assert lineup_check(roster(skaters=14), bench_officials=[f"o{i}" for i in range(5)]) == ()


def test_a_lineup_allows_at_most_14_floor_players_and_2_goalkeepers():
    """R-07."""
    assert articles(lineup_check(roster(skaters=15))) == ["5.1 A"]
    problems = lineup_check(roster(goalkeepers=3))
    assert [p.article for p in problems] == ["5.1 A"]
    assert "at most 2 goalkeepers" in problems[0].message


def test_a_lineup_only_lists_players_of_the_registered_roster():
    """5.1 B / R-07."""
    lines = roster()
    problems = check_lineup(lines, roster_person_ids={line.person_id for line in lines[1:]})
    assert [(p.field, p.article, p.line) for p in problems] == [("person_id", "5.1 B", 0)]


def test_a_suspended_player_cannot_be_on_the_lineup():
    lines = roster()
    problems = lineup_check(lines, suspensions={"p3": "next game after a major + game misconduct (6.4.19 H)"})
    assert [(p.field, p.line) for p in problems] == [("person_id", 3)]
    assert "suspended" in problems[0].message
    assert "major + game misconduct (6.4.19 H)" in problems[0].message


def test_a_suspended_team_official_cannot_sit_on_the_bench():
    problems = lineup_check(roster(), bench_officials=["o1", "o2"], suspensions={"o2": "8.2 C"})
    assert [(p.field, p.article, p.line) for p in problems] == [("bench_officials", "8.2 A", 1)]


def test_a_line_off_the_roster_reports_5_1_b_only():
    lines = [*roster(), RosterLine("stranger", "")]
    problems = lineup_check(lines, roster_person_ids={line.person_id for line in lines[:-1]})
    assert [(p.field, p.article) for p in problems] == [("person_id", "5.1 B")]


@pytest.mark.parametrize(("skaters", "goalkeepers", "ok"), [(4, 1, True), (5, 1, False), (4, 2, False), (3, 0, True)])
def test_the_starting_line_up_is_at_most_four_floor_players_and_a_goalkeeper(skaters, goalkeepers, ok):
    """5.3 A, B."""
    lines = roster(skaters=6, goalkeepers=2)
    floor = [line.person_id for line in lines if line.position == "player"][:skaters]
    nets = [line.person_id for line in lines if line.position == "goalkeeper"][:goalkeepers]
    problems = lineup_check(lines, starting_person_ids=floor + nets)
    assert (problems == ()) is ok
    if not ok:
        assert articles(problems) == ["5.3 A"]


@pytest.mark.parametrize(("officials", "ok"), [(5, True), (6, False)])
def test_at_most_five_officials_sit_on_the_bench(officials, ok):
    """5.4 F / R-07."""
    problems = lineup_check(roster(), bench_officials=[f"o{i}" for i in range(officials)])
    assert (problems == ()) is ok
    if not ok:
        assert [(p.field, p.article) for p in problems] == [("bench_officials", "5.4 F")]


def test_a_lineup_marks_a_captain_or_alternate():
    """3.1.2 B, 4.3: the captain or, when absent, an alternate acts for the team."""
    assert articles(lineup_check(roster(captains=0, alternates=0))) == ["3.1.2 B"]
    assert lineup_check(roster(captains=0, alternates=1)) == ()


def test_a_lineup_cannot_change_after_the_start():
    """5.1 C / R-07."""
    assert check_lineup_change(game_started=False) is None
    assert check_lineup_change(game_started=True).article == "5.1 C"


def test_an_injured_goalkeeper_is_replaced_from_the_lineup_only():
    """5.1 C: the replacement must already be on the list."""
    assert check_lineup_change(game_started=True, replaces_injured_goalkeeper=True, already_on_lineup=True) is None
    problem = check_lineup_change(game_started=True, replaces_injured_goalkeeper=True, already_on_lineup=False)
    assert (problem.field, problem.article) == ("person_id", "5.1 C")
