"""Rink measurements (2.1 A-F): each limit per level at the boundary and just beyond."""

from decimal import Decimal

import pytest

from tournaments.rinks import (
    ADVICE,
    ERROR,
    RinkDimensions,
    RinkError,
    check_rink,
    needs_dimension_notice,
    rink_errors,
)


def rink(length=50, width=25, **kwargs):
    return RinkDimensions(length_m=length, width_m=width, **kwargs)


def errors(dimensions, level):
    return [(v.field, v.article) for v in rink_errors(dimensions, level=level)]


def test_a_world_size_rink_fits_every_level():
    for level in ("world", "international", "continental", "national"):
        assert check_rink(rink(board_height_m=1.07, corner_radius_m=5), level=level) == ()


@pytest.mark.parametrize("level", ["world", "international"])
@pytest.mark.parametrize(
    ("length", "width", "expected"),
    [
        (50, 25, []),
        (49.99, 25, [("length_m", "2.1 C")]),
        (50, 24.99, [("width_m", "2.1 C")]),
        (60, 30, []),
        (60.01, 30, [("length_m", "2.1 B")]),
        (60, 30.01, [("width_m", "2.1 B")]),
        (39.99, 25, [("length_m", "2.1 B")]),
    ],
)
def test_world_and_international_events_need_at_least_50_by_25_metres(level, length, width, expected):
    """2.1 C: minimum 50 x 25 m; 2.1 B: at most 60 x 30 m."""
    assert errors(rink(length, width), level) == expected


@pytest.mark.parametrize(
    ("length", "width", "expected"),
    [
        (44, 22, []),
        (43.99, 22, [("length_m", "2.1 C")]),
        (44, 21.99, [("width_m", "2.1 C")]),
        (60, 30, []),
        (60.01, 30.01, [("length_m", "2.1 B"), ("width_m", "2.1 B")]),
    ],
)
def test_continental_events_need_at_least_44_by_22_metres(length, width, expected):
    """2.1 C: the continental minimum is 44 x 22 m."""
    assert errors(rink(length, width), "continental") == expected


@pytest.mark.parametrize(
    ("length", "width", "expected"),
    [
        (40, 20, []),
        (39.99, 20, [("length_m", "2.1 B")]),
        (40, 19.99, [("width_m", "2.1 B")]),
        (60, 30, []),
        (60.01, 30, [("length_m", "2.1 B")]),
        (60, 30.01, [("width_m", "2.1 B")]),
    ],
)
def test_national_rinks_are_40_to_60_by_20_to_30_metres(length, width, expected):
    """2.1 B."""
    assert errors(rink(length, width), "national") == expected


def test_the_message_names_the_rule_and_the_measure():
    (violation,) = rink_errors(rink(49.5, 25), level="world")
    assert violation.message == "Rule 2.1 C: a World Championship needs a rink at least 50 m long, not 49.5 m"


@pytest.mark.parametrize(
    ("height", "ok"),
    [(1.01, True), (1.0, False), (Decimal("1.009"), False), (1.22, True), (1.221, False), (1.07, True)],
)
def test_boards_are_101_to_122_cm_high(height, ok):
    """2.1 E."""
    found = errors(rink(board_height_m=height), "national")
    assert found == ([] if ok else [("board_height_m", "2.1 E")])


@pytest.mark.parametrize(("radius", "advised"), [(5, False), (4, False), (6, False), (3.99, True), (6.01, True)])
def test_corners_of_about_five_metres_are_advised_not_refused(radius, advised):
    """2.1 E: "approximately 5 meters"; outside 4-6 m the check advises."""
    found = check_rink(rink(corner_radius_m=radius), level="world")
    assert [(v.field, v.severity) for v in found] == ([("corner_radius_m", ADVICE)] if advised else [])


def test_a_rink_far_from_one_to_two_is_advised():
    """2.1 B: width versus length about 1:2, as much as possible."""
    found = check_rink(rink(40, 30), level="national")
    assert [(v.field, v.article, v.severity) for v in found] == [("width_m", "2.1 B", ADVICE)]
    assert check_rink(rink(44, 22), level="national") == ()


@pytest.mark.parametrize("surface", ["sport_tile", "wood", "asphalt", "cement"])
def test_the_listed_surfaces_are_allowed(surface):
    """2.1 A."""
    assert check_rink(rink(surface=surface), level="world") == ()


def test_another_surface_needs_ihtc_approval():
    """2.1 A: "any appropriate surface approved by the IHTC"."""
    assert errors(rink(surface="other"), "world") == [("surface", "2.1 A")]
    assert check_rink(rink(surface="other", surface_approved_by_ihtc=True), level="world") == ()


def test_a_smaller_rink_for_an_international_competition_needs_its_dimensions_announced():
    """2.1 F: a continental event on a rink under 50 x 25 m: the invitation includes its dimensions."""
    found = check_rink(rink(44, 22), level="continental")
    assert [(v.article, v.severity) for v in found] == [("2.1 F", ADVICE)]
    assert needs_dimension_notice(rink(49, 25))
    assert not needs_dimension_notice(rink(50, 25))


def test_errors_and_advice_are_told_apart():
    found = check_rink(rink(45, 30, board_height_m=1.3), level="world")
    assert {v.severity for v in found} == {ERROR, ADVICE}
    assert [v.field for v in rink_errors(rink(45, 30, board_height_m=1.3), level="world")] == [
        "length_m",
        "board_height_m",
    ]


@pytest.mark.parametrize(
    ("dimensions", "level", "field"),
    [
        (rink(), "galactic", "level"),
        (rink(0, 25), "world", "length_m"),
        (rink("fifty", 25), "world", "length_m"),
        (rink(board_height_m=-1), "world", "board_height_m"),
        (rink(surface="ice"), "world", "surface"),
    ],
)
def test_it_refuses_input_it_cannot_measure(dimensions, level, field):
    with pytest.raises(RinkError) as error:
        check_rink(dimensions, level=level)
    assert error.value.field == field
