"""Equipment checks (Rule 3.2.2, 3.2.4 D, 3.2.5, 3.2.6 A, 3.2.8, R-09): database-free tests of the pure core."""

from datetime import date

import pytest

from federation.equipment import (
    CERTIFICATION_BODIES,
    ELBOW_PAD_LIMITS,
    GOALKEEPER_EQUIPMENT_LIMITS,
    GOALKEEPER_STICK_LIMITS,
    STICK_LIMITS,
    ElbowPadMeasurements,
    FaceProtection,
    GoalkeeperEquipmentMeasurements,
    StickMeasurements,
    check_certification,
    check_elbow_pads,
    check_face_protection,
    check_goalkeeper_equipment,
    check_physician_device,
    check_stick,
    required_face_protection,
)

# --- the limits as data, with the rulebook's metric figures ----------------------------------


def bounds(limits):
    return {limit.field: (limit.article, limit.min_mm, limit.max_mm) for limit in limits}


def test_stick_limits_are_those_of_3_2_2_c():
    assert bounds(STICK_LIMITS) == {
        "length_mm": ("3.2.2 C", None, 1570),  # 1.57 m heel to the end of the shaft
        "blade_length_mm": ("3.2.2 C", None, 320),  # 32 cm heel to the end of the blade
        "blade_min_width_mm": ("3.2.2 C", 50, None),  # at least 5 cm wide at any point
        "blade_max_width_mm": ("3.2.2 C", None, 90),  # at most 9 cm wide at any point
        "heel_width_mm": ("3.2.2 C", 50, 90),
    }


def test_goalkeeper_stick_limits_are_those_of_3_2_2_d_with_the_shaft_limit_of_c():
    assert bounds(GOALKEEPER_STICK_LIMITS) == {
        "length_mm": ("3.2.2 C", None, 1570),
        "blade_length_mm": ("3.2.2 D", None, 390),  # 39 cm
        "blade_max_width_mm": ("3.2.2 D", None, 130),  # 13 cm except at the heel
        "heel_width_mm": ("3.2.2 D", None, 140),  # 14 cm at the heel
    }


def test_goalkeeper_equipment_limits_are_those_of_3_2_5_c_and_e():
    assert bounds(GOALKEEPER_EQUIPMENT_LIMITS) == {
        "glove_padding_width_mm": ("3.2.5 C", None, 200),  # 20 cm
        "glove_padding_length_mm": ("3.2.5 C", None, 400),  # 40 cm
        "leg_pad_width_mm": ("3.2.5 E", None, 300),  # 30 cm
    }


def test_every_limit_names_a_field_of_its_measurements():
    for limits, cls in [
        (STICK_LIMITS, StickMeasurements),
        (GOALKEEPER_STICK_LIMITS, StickMeasurements),
        (GOALKEEPER_EQUIPMENT_LIMITS, GoalkeeperEquipmentMeasurements),
        (ELBOW_PAD_LIMITS, ElbowPadMeasurements),
    ]:
        assert {limit.field for limit in limits} <= set(cls.__dataclass_fields__)


# --- each maximum at the boundary passes, one millimetre over fails ----------------------------

MAXIMA = [
    (False, "length_mm", 1570, "3.2.2 C"),
    (False, "blade_length_mm", 320, "3.2.2 C"),
    (False, "blade_max_width_mm", 90, "3.2.2 C"),
    (False, "heel_width_mm", 90, "3.2.2 C"),
    (True, "length_mm", 1570, "3.2.2 C"),
    (True, "blade_length_mm", 390, "3.2.2 D"),
    (True, "blade_max_width_mm", 130, "3.2.2 D"),
    (True, "heel_width_mm", 140, "3.2.2 D"),
]


@pytest.mark.parametrize(("goalkeeper", "field", "limit", "article"), MAXIMA)
def test_a_stick_exactly_at_its_maximum_passes(goalkeeper, field, limit, article):
    assert check_stick(StickMeasurements(goalkeeper=goalkeeper, **{field: limit})) == ()


@pytest.mark.parametrize(("goalkeeper", "field", "limit", "article"), MAXIMA)
def test_a_stick_one_millimetre_over_its_maximum_fails_naming_its_article(goalkeeper, field, limit, article):
    (violation,) = check_stick(StickMeasurements(goalkeeper=goalkeeper, **{field: limit + 1}))
    assert violation.field == field
    assert violation.article == article
    assert violation.limit_mm == limit
    assert violation.measured_mm == limit + 1
    assert violation.message.startswith(f"Rule {article}: ")
    assert f"{limit + 1} mm exceeds the maximum of {limit} mm" in violation.message


MINIMA = [
    ("blade_min_width_mm", 50),
    ("heel_width_mm", 50),
]


@pytest.mark.parametrize(("field", "limit"), MINIMA)
def test_a_floor_players_blade_exactly_at_the_minimum_width_passes(field, limit):
    assert check_stick(StickMeasurements(**{field: limit})) == ()


@pytest.mark.parametrize(("field", "limit"), MINIMA)
def test_a_floor_players_blade_one_millimetre_under_the_minimum_width_fails(field, limit):
    (violation,) = check_stick(StickMeasurements(**{field: limit - 1}))
    assert violation.field == field
    assert violation.article == "3.2.2 C"
    assert violation.limit_mm == limit
    assert violation.measured_mm == limit - 1
    assert f"{limit - 1} mm is below the minimum of {limit} mm" in violation.message


def test_the_stick_message_names_the_measure_the_value_the_limit_and_the_article():
    (violation,) = check_stick(StickMeasurements(blade_max_width_mm=95))
    assert violation.message == "Rule 3.2.2 C: blade width at its widest point 95 mm exceeds the maximum of 90 mm."


def test_a_goalkeepers_blade_has_no_minimum_width():
    assert check_stick(StickMeasurements(goalkeeper=True, blade_min_width_mm=30, heel_width_mm=30)) == ()


def test_a_goalkeepers_stick_blade_would_be_too_wide_for_a_floor_player():
    m = {"blade_length_mm": 380, "blade_max_width_mm": 125, "heel_width_mm": 135}
    assert check_stick(StickMeasurements(goalkeeper=True, **m)) == ()
    assert {v.field for v in check_stick(StickMeasurements(**m))} == {
        "blade_length_mm",
        "blade_max_width_mm",
        "heel_width_mm",
    }


def test_fractions_of_a_millimetre_over_the_limit_fail_and_are_shown():
    (violation,) = check_stick(StickMeasurements(blade_length_mm=320.5))
    assert "320.5 mm exceeds the maximum of 320 mm" in violation.message


def test_an_unmeasured_stick_has_no_violation():
    assert check_stick(StickMeasurements()) == ()
    assert check_stick(StickMeasurements(goalkeeper=True)) == ()


def test_a_stick_with_several_faults_reports_them_all():
    m = StickMeasurements(length_mm=1600, blade_length_mm=330, blade_min_width_mm=45, blade_max_width_mm=92)
    violations = check_stick(m)
    assert [v.field for v in violations] == ["length_mm", "blade_length_mm", "blade_min_width_mm", "blade_max_width_mm"]
    assert all(v.article == "3.2.2 C" for v in violations)


@pytest.mark.parametrize("value", [0, -5])
def test_a_measurement_must_be_a_positive_number_of_millimetres(value):
    with pytest.raises(ValueError, match="blade_length_mm"):
        StickMeasurements(blade_length_mm=value)


# --- goalkeeper equipment (3.2.5) ----------------------------------------------------------

GOALKEEPER_MAXIMA = [
    ("glove_padding_width_mm", 200, "3.2.5 C"),
    ("glove_padding_length_mm", 400, "3.2.5 C"),
    ("leg_pad_width_mm", 300, "3.2.5 E"),
]


@pytest.mark.parametrize(("field", "limit", "article"), GOALKEEPER_MAXIMA)
def test_goalkeeper_equipment_exactly_at_its_maximum_passes(field, limit, article):
    assert check_goalkeeper_equipment(GoalkeeperEquipmentMeasurements(**{field: limit})) == ()


@pytest.mark.parametrize(("field", "limit", "article"), GOALKEEPER_MAXIMA)
def test_goalkeeper_equipment_one_millimetre_over_fails_naming_its_article(field, limit, article):
    (violation,) = check_goalkeeper_equipment(GoalkeeperEquipmentMeasurements(**{field: limit + 1}))
    assert violation.field == field
    assert violation.article == article
    assert violation.limit_mm == limit
    assert violation.measured_mm == limit + 1
    assert violation.message.startswith(f"Rule {article}: ")
    assert f"{limit + 1} mm exceeds the maximum of {limit} mm" in violation.message


def test_the_leg_pad_message_reads_as_the_rule():
    (violation,) = check_goalkeeper_equipment(GoalkeeperEquipmentMeasurements(leg_pad_width_mm=305))
    assert violation.message == (
        "Rule 3.2.5 E: extreme width of the goalkeeper's leg pad 305 mm exceeds the maximum of 300 mm."
    )


def test_altered_leg_pads_are_refused():
    (violation,) = check_goalkeeper_equipment(
        GoalkeeperEquipmentMeasurements(leg_pad_width_mm=280, leg_pads_altered=True)
    )
    assert violation.field == "leg_pads_altered"
    assert violation.article == "3.2.5 E"


def test_an_abdominal_apron_down_the_thighs_is_refused():
    (violation,) = check_goalkeeper_equipment(GoalkeeperEquipmentMeasurements(abdominal_apron_down_thighs=True))
    assert violation.article == "3.2.5 D"
    assert "prohibited" in violation.message


def test_goalkeeper_equipment_with_several_faults_reports_them_all():
    m = GoalkeeperEquipmentMeasurements(
        glove_padding_width_mm=210, glove_padding_length_mm=410, leg_pad_width_mm=320, leg_pads_altered=True
    )
    assert [(v.field, v.article) for v in check_goalkeeper_equipment(m)] == [
        ("glove_padding_width_mm", "3.2.5 C"),
        ("glove_padding_length_mm", "3.2.5 C"),
        ("leg_pad_width_mm", "3.2.5 E"),
        ("leg_pads_altered", "3.2.5 E"),
    ]


def test_legal_goalkeeper_equipment_passes():
    m = GoalkeeperEquipmentMeasurements(glove_padding_width_mm=195, glove_padding_length_mm=390, leg_pad_width_mm=279)
    assert check_goalkeeper_equipment(m) == ()


# --- elbow pads (3.2.8 A note) --------------------------------------------------------------


def test_an_elbow_pad_covering_of_12_5_mm_passes_and_thinner_is_dangerous():
    assert check_elbow_pads(ElbowPadMeasurements(soft_covering_mm=12.5)) == ()
    (violation,) = check_elbow_pads(ElbowPadMeasurements(soft_covering_mm=11.5))
    assert violation.article == "3.2.8 A"
    assert "11.5 mm is below the minimum of 12.5 mm" in violation.message


# --- face protection (3.2.4 D, R-09) ------------------------------------------------------------

BORN = date(2008, 5, 10)  # turns 19 on 10 May 2027


@pytest.mark.parametrize(
    ("game_date", "required"),
    [
        (date(2027, 5, 9), FaceProtection.FULL_FACE),  # the day before the 19th birthday: 18
        (date(2027, 5, 10), FaceProtection.VISOR),  # the 19th birthday
        (date(2027, 5, 11), FaceProtection.VISOR),  # the day after
        (date(2020, 1, 1), FaceProtection.FULL_FACE),
        (date(2040, 1, 1), FaceProtection.VISOR),
    ],
)
def test_required_face_protection_turns_on_the_19th_birthday_r09(game_date, required):
    assert required_face_protection(date_of_birth=BORN, game_date=game_date) == required


def test_a_29_february_child_needs_full_face_until_1_march_of_a_non_leap_year():
    born = date(2008, 2, 29)
    assert required_face_protection(date_of_birth=born, game_date=date(2027, 2, 28)) == FaceProtection.FULL_FACE
    assert required_face_protection(date_of_birth=born, game_date=date(2027, 3, 1)) == FaceProtection.VISOR


def test_it_refuses_a_visor_the_day_before_the_19th_birthday():
    (violation,) = check_face_protection(date_of_birth=BORN, game_date=date(2027, 5, 9), worn=FaceProtection.VISOR)
    assert violation.field == "face_protection"
    assert violation.article == "3.2.4 D"
    assert violation.message == (
        "Rule 3.2.4 D / R-09: players under 19 on the game date must wear full-face protection attached to the "
        "helmet; born 2008-05-10, the player is 18 on 2027-05-09 and wears a visor."
    )


@pytest.mark.parametrize("game_date", [date(2027, 5, 10), date(2027, 5, 11)])
def test_it_accepts_a_visor_on_and_after_the_19th_birthday(game_date):
    assert check_face_protection(date_of_birth=BORN, game_date=game_date, worn=FaceProtection.VISOR) == ()


@pytest.mark.parametrize("game_date", [date(2027, 5, 9), date(2027, 5, 10), date(2027, 5, 11)])
def test_full_face_protection_is_always_enough(game_date):
    assert check_face_protection(date_of_birth=BORN, game_date=game_date, worn=FaceProtection.FULL_FACE) == ()


@pytest.mark.parametrize("game_date", [date(2027, 5, 9), date(2027, 5, 10), date(2027, 5, 11)])
def test_it_refuses_no_face_protection_at_any_age(game_date):
    (violation,) = check_face_protection(date_of_birth=BORN, game_date=game_date, worn=FaceProtection.NONE)
    assert violation.article == "3.2.4 D"
    assert "wears no face protection" in violation.message


def test_an_adult_without_visor_is_told_the_visor_requirement():
    (violation,) = check_face_protection(date_of_birth=BORN, game_date=date(2030, 1, 1), worn=FaceProtection.NONE)
    assert violation.message == (
        "Rule 3.2.4 D / R-09: players 19 and over must wear at least a helmet with a visor; the player is 21 on "
        "2030-01-01 and wears no face protection."
    )


def test_face_protection_accepts_the_stored_string_value():
    assert check_face_protection(date_of_birth=BORN, game_date=date(2027, 5, 9), worn="full_face") == ()


# --- certification (3.2.6 A) -------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["helmet", "face_protection", "goalkeeper_mask"])
@pytest.mark.parametrize("body", CERTIFICATION_BODIES)
def test_it_accepts_each_approval_body_for_each_kind(kind, body):
    assert check_certification(kind=kind, certifications=[body]) == ()


def test_it_accepts_an_approval_among_other_marks_and_ignores_case_and_spaces():
    assert check_certification(kind="helmet", certifications=["ASTM", " ce "]) == ()


@pytest.mark.parametrize(
    ("kind", "certifications", "text"),
    [
        ("helmet", [], "a helmet must be HECC, CSA or CE approved; certifications given: none."),
        (
            "face_protection",
            ["ASTM"],
            "a face protection must be HECC, CSA or CE approved; certifications given: ASTM.",
        ),
        (
            "goalkeeper_mask",
            ["NOCSAE", "", "ASTM"],
            "a goalkeeper's face mask must be HECC, CSA or CE approved; certifications given: NOCSAE, ASTM.",
        ),
    ],
)
def test_it_refuses_equipment_without_an_approved_certification(kind, certifications, text):
    (violation,) = check_certification(kind=kind, certifications=certifications)
    assert violation.field == "certifications"
    assert violation.article == "3.2.6 A"
    assert violation.message == f"Rule 3.2.6 A: {text}"


def test_it_refuses_an_unknown_kind_of_equipment():
    with pytest.raises(ValueError, match="unknown equipment kind"):
        check_certification(kind="skates", certifications=["CE"])


# --- physician-prescribed device (3.2.8 C) -----------------------------------------------------


def test_a_physician_device_without_ihtc_permission_is_refused():
    (violation,) = check_physician_device(ihtc_permission_date=None, game_date=date(2027, 7, 10))
    assert violation.field == "ihtc_permission_date"
    assert violation.article == "3.2.8 C"
    assert "none is recorded" in violation.message


def test_a_physician_device_permitted_after_the_game_is_refused():
    (violation,) = check_physician_device(ihtc_permission_date=date(2027, 7, 11), game_date=date(2027, 7, 10))
    assert "given on 2027-07-11, after the game on 2027-07-10" in violation.message


@pytest.mark.parametrize("permitted", [date(2027, 7, 10), date(2027, 6, 1)])
def test_a_physician_device_permitted_on_or_before_the_game_day_is_accepted(permitted):
    assert check_physician_device(ihtc_permission_date=permitted, game_date=date(2027, 7, 10)) == ()
