"""Eligibility (Rule 1.1 B-G, R-01, R-02, R-03): database-free tests of the pure core."""

from datetime import date

import pytest

from federation.eligibility import (
    DEFAULT_RULES,
    NO_PASSPORT,
    PASSPORT_EXPIRED,
    TOO_OLD,
    TOO_YOUNG,
    WRONG_GENDER,
    WRONG_NATIONALITY,
    Category,
    ChampionshipFacts,
    EligibilityRules,
    PassportFacts,
    PersonFacts,
    WaiverFacts,
    age_on,
    check_eligibility,
    check_eligibility_all_categories,
    reference_date,
)

# A championship in July 2027 entered by the Swiss federation: R-01 computes
# ages on 1 January 2027.
START = date(2027, 7, 10)
END = date(2027, 7, 17)
FIRST_DAY_RULES = EligibilityRules(age_reference="first_day")


def championship(category=Category.SENIOR_MEN, *, start=START, end=END, team="CH"):
    return ChampionshipFacts(category=category, start_date=start, end_date=end, team_country=team)


def person(born=date(1995, 5, 5), gender="M", nationality="CH", passports=None):
    if passports is None:
        passports = (PassportFacts("CH", date(2030, 1, 1)),)
    return PersonFacts(date_of_birth=born, gender=gender, nationality=nationality, passports=tuple(passports))


def gender_for(category):
    return "F" if category.is_women else "M"


def codes(result):
    return sorted(r.code for r in result.reasons)


# --- age_on -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("born", "on", "age"),
    [
        (date(2000, 6, 15), date(2020, 6, 14), 19),
        (date(2000, 6, 15), date(2020, 6, 15), 20),
        (date(2000, 6, 15), date(2020, 6, 16), 20),
        (date(2000, 1, 1), date(2000, 1, 1), 0),
        (date(2000, 12, 31), date(2001, 1, 1), 0),
    ],
)
def test_age_on_counts_whole_years(born, on, age):
    assert age_on(born, on) == age


@pytest.mark.parametrize(
    ("on", "age"),
    [
        (date(2027, 2, 28), 18),  # non-leap year: the birthday is 1 March
        (date(2027, 3, 1), 19),
        (date(2028, 2, 28), 19),
        (date(2028, 2, 29), 20),  # leap year: the birthday is 29 February itself
    ],
)
def test_age_on_gives_a_29_february_child_the_birthday_on_1_march_in_non_leap_years(on, age):
    assert age_on(date(2008, 2, 29), on) == age


def test_age_on_refuses_a_date_before_birth():
    with pytest.raises(ValueError):
        age_on(date(2010, 5, 1), date(2010, 4, 30))


# --- reference date (R-01) ------------------------------------------------------


def test_reference_date_is_1_january_of_the_championship_year_under_r01():
    assert reference_date(championship()) == date(2027, 1, 1)


def test_reference_date_is_the_championships_first_day_with_the_first_day_parameter():
    assert reference_date(championship(), FIRST_DAY_RULES) == START


def test_reference_date_follows_the_year_of_the_first_day_when_a_championship_spans_new_year():
    c = championship(start=date(2026, 12, 28), end=date(2027, 1, 3))
    assert reference_date(c) == date(2026, 1, 1)


def test_rules_refuse_an_unknown_age_reference():
    with pytest.raises(ValueError, match="R-01"):
        EligibilityRules(age_reference="birthday")


def test_rules_refuse_an_unknown_passport_date():
    with pytest.raises(ValueError, match="R-03"):
        EligibilityRules(passport_valid_on="whenever")


# --- categories ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "label", "is_women", "band", "article"),
    [
        (Category.JUNIOR_MEN, "Junior Men", False, (14, 19), "1.1 C"),
        (Category.JUNIOR_WOMEN, "Junior Women", True, (14, 19), "1.1 D"),
        (Category.SENIOR_WOMEN, "Senior Women", True, (15, None), "1.1 E"),
        (Category.SENIOR_MEN, "Senior Men", False, (15, None), "1.1 F"),
        (Category.MASTERS_MEN, "Masters Men", False, (38, None), "1.1 G"),
        (Category.MASTERS_WOMEN, "Masters Women", True, (38, None), "1.1 G"),
    ],
)
def test_each_category_has_its_label_gender_age_band_and_article(category, label, is_women, band, article):
    assert category.label == label
    assert category.is_women is is_women
    assert category.age_band() == band
    assert category.article == article


def test_category_age_band_follows_the_ruleset_parameters():
    rules = EligibilityRules(junior_min_age=13, junior_max_age=17, senior_min_age=16, masters_min_age=35)
    assert Category.JUNIOR_WOMEN.age_band(rules) == (13, 17)
    assert Category.SENIOR_MEN.age_band(rules) == (16, None)
    assert Category.MASTERS_WOMEN.age_band(rules) == (35, None)


# --- age limits at each birthday boundary (1.1 C-G, R-01) --------------------------

# (category, date of birth, expected reason code or None) with ages on 1 January 2027.
AGE_BOUNDARIES = [
    # Junior minimum 14 (1.1 C-D): turns 14 on 1 January 2027 -> eligible; on 2 January -> too young.
    (Category.JUNIOR_MEN, date(2012, 12, 31), None),
    (Category.JUNIOR_MEN, date(2013, 1, 1), None),
    (Category.JUNIOR_MEN, date(2013, 1, 2), TOO_YOUNG),
    (Category.JUNIOR_WOMEN, date(2013, 1, 1), None),
    (Category.JUNIOR_WOMEN, date(2013, 1, 2), TOO_YOUNG),
    # Junior "not yet 20": turned 20 on 31 December 2026 -> too old; turns 20 on 1 January 2027 -> too old
    # (20 on the reference date); turns 20 on 2 January 2027 -> still 19, eligible.
    (Category.JUNIOR_MEN, date(2006, 12, 31), TOO_OLD),
    (Category.JUNIOR_MEN, date(2007, 1, 1), TOO_OLD),
    (Category.JUNIOR_MEN, date(2007, 1, 2), None),
    (Category.JUNIOR_WOMEN, date(2007, 1, 1), TOO_OLD),
    (Category.JUNIOR_WOMEN, date(2007, 1, 2), None),
    # Senior minimum 15 (1.1 E-F).
    (Category.SENIOR_MEN, date(2011, 12, 31), None),
    (Category.SENIOR_MEN, date(2012, 1, 1), None),
    (Category.SENIOR_MEN, date(2012, 1, 2), TOO_YOUNG),
    (Category.SENIOR_WOMEN, date(2012, 1, 1), None),
    (Category.SENIOR_WOMEN, date(2012, 1, 2), TOO_YOUNG),
    # Seniors have no maximum.
    (Category.SENIOR_MEN, date(1950, 1, 1), None),
    # Masters minimum 38, no maximum (1.1 G).
    (Category.MASTERS_MEN, date(1988, 12, 31), None),
    (Category.MASTERS_MEN, date(1989, 1, 1), None),
    (Category.MASTERS_MEN, date(1989, 1, 2), TOO_YOUNG),
    (Category.MASTERS_WOMEN, date(1989, 1, 1), None),
    (Category.MASTERS_WOMEN, date(1989, 1, 2), TOO_YOUNG),
    (Category.MASTERS_WOMEN, date(1940, 6, 1), None),
]


@pytest.mark.parametrize(("category", "born", "expected"), AGE_BOUNDARIES)
def test_age_limits_at_the_birthday_boundaries_on_1_january_r01(category, born, expected):
    result = check_eligibility(person(born=born, gender=gender_for(category)), championship(category))
    assert codes(result) == ([expected] if expected else [])
    assert result.eligible is (expected is None)


def test_a_player_too_young_is_told_the_limit_the_reference_date_and_the_age():
    result = check_eligibility(person(born=date(2013, 1, 2)), championship(Category.JUNIOR_MEN))
    (reason,) = result.reasons
    assert reason.article == "1.1 C"
    assert reason.field == "date_of_birth"
    assert reason.message == (
        "Rule 1.1 C / R-01: Junior Men players must be at least 14 on 1 January 2027; born 2013-01-02, the player is 13."
    )


def test_a_junior_too_old_is_told_the_not_yet_20_limit():
    result = check_eligibility(person(born=date(2007, 1, 1), gender="F"), championship(Category.JUNIOR_WOMEN))
    (reason,) = result.reasons
    assert reason.article == "1.1 D"
    assert reason.message == (
        "Rule 1.1 D / R-01: Junior Women players must not yet be 20 on 1 January 2027; born 2007-01-01, "
        "the player is 20."
    )


def test_a_player_born_after_the_reference_date_is_too_young_not_an_error():
    result = check_eligibility(person(born=date(2027, 3, 1)), championship(Category.SENIOR_MEN))
    assert codes(result) == [TOO_YOUNG]
    assert "not yet born" in result.reasons[0].message


# The "first_day" variant: ages on 10 July 2027, the championship's first day.
FIRST_DAY_BOUNDARIES = [
    (Category.JUNIOR_MEN, date(2013, 7, 10), None),  # turns 14 on the first day
    (Category.JUNIOR_MEN, date(2013, 7, 11), TOO_YOUNG),  # turns 14 the day after
    (Category.JUNIOR_MEN, date(2007, 7, 10), TOO_OLD),  # turns 20 on the first day
    (Category.JUNIOR_MEN, date(2007, 7, 11), None),  # turns 20 during the championship: still 19 on the first day
    (Category.SENIOR_WOMEN, date(2012, 7, 10), None),
    (Category.SENIOR_WOMEN, date(2012, 7, 11), TOO_YOUNG),
    (Category.MASTERS_MEN, date(1989, 7, 10), None),
    (Category.MASTERS_MEN, date(1989, 7, 11), TOO_YOUNG),
]


@pytest.mark.parametrize(("category", "born", "expected"), FIRST_DAY_BOUNDARIES)
def test_age_limits_with_the_first_day_reference_parameter(category, born, expected):
    result = check_eligibility(
        person(born=born, gender=gender_for(category)), championship(category), rules=FIRST_DAY_RULES
    )
    assert codes(result) == ([expected] if expected else [])


def test_the_first_day_variant_names_the_first_day_in_the_message():
    result = check_eligibility(person(born=date(2013, 7, 11)), championship(Category.JUNIOR_MEN), rules=FIRST_DAY_RULES)
    assert "on 10 July 2027, the championship's first day" in result.reasons[0].message


def test_a_player_eligible_on_1_january_can_be_too_young_on_the_first_day_and_vice_versa():
    # Born 1 March 2012: 14 on 1 January 2027 (too young for Seniors), 15 on 10 July 2027.
    p = person(born=date(2012, 3, 1))
    assert codes(check_eligibility(p, championship(Category.SENIOR_MEN))) == [TOO_YOUNG]
    assert check_eligibility(p, championship(Category.SENIOR_MEN), rules=FIRST_DAY_RULES).eligible


@pytest.mark.parametrize(
    ("born", "category", "expected"),
    [
        (date(2012, 2, 29), Category.SENIOR_MEN, [TOO_YOUNG]),  # 14 on 1 January 2027
        (date(2008, 2, 29), Category.JUNIOR_MEN, []),  # 18 on 1 January 2027
        (date(1988, 2, 29), Category.MASTERS_MEN, []),  # 38 on 1 January 2027
    ],
)
def test_a_leap_day_birthday_counts_whole_years_on_1_january(born, category, expected):
    assert codes(check_eligibility(person(born=born), championship(category))) == expected


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        (date(2027, 2, 28), [TOO_YOUNG]),  # still 14 on 28 February 2027: birthday is 1 March
        (date(2027, 3, 1), []),  # 15 on 1 March 2027
        (date(2028, 2, 28), []),  # 15 already in 2028 (16 on 29 February)
    ],
)
def test_a_29_february_child_turns_15_on_1_march_of_a_non_leap_year_with_the_first_day_reference(start, expected):
    c = championship(Category.SENIOR_MEN, start=start, end=start)
    p = person(born=date(2012, 2, 29), passports=[PassportFacts("CH", date(2030, 1, 1))])
    assert codes(check_eligibility(p, c, rules=FIRST_DAY_RULES)) == expected


def test_age_limits_follow_the_ruleset_parameters():
    rules = EligibilityRules(masters_min_age=35)
    p = person(born=date(1992, 1, 1))  # 35 on 1 January 2027
    assert codes(check_eligibility(p, championship(Category.MASTERS_MEN))) == [TOO_YOUNG]
    assert check_eligibility(p, championship(Category.MASTERS_MEN), rules=rules).eligible


# --- gender (R-02) -------------------------------------------------------------


@pytest.mark.parametrize("category", [Category.JUNIOR_MEN, Category.SENIOR_MEN, Category.MASTERS_MEN])
def test_it_rejects_a_woman_in_a_mens_category_by_default(category):
    born = date(2010, 6, 1) if category.is_junior else date(1980, 6, 1)
    result = check_eligibility(person(born=born, gender="F"), championship(category))
    assert codes(result) == [WRONG_GENDER]
    assert result.reasons[0].field == "gender"
    assert "R-02" in result.reasons[0].message
    assert "male players only" in result.reasons[0].message


@pytest.mark.parametrize("category", [Category.JUNIOR_MEN, Category.SENIOR_MEN, Category.MASTERS_MEN])
def test_it_admits_a_woman_in_a_mens_category_when_the_ruleset_allows_it(category):
    born = date(2010, 6, 1) if category.is_junior else date(1980, 6, 1)
    rules = EligibilityRules(men_categories_admit_women=True)
    assert check_eligibility(person(born=born, gender="F"), championship(category), rules=rules).eligible


@pytest.mark.parametrize("admit_women", [False, True])
@pytest.mark.parametrize("category", [Category.JUNIOR_WOMEN, Category.SENIOR_WOMEN, Category.MASTERS_WOMEN])
def test_it_rejects_a_man_in_a_womens_category_whatever_the_parameter(category, admit_women):
    born = date(2010, 6, 1) if category.is_junior else date(1980, 6, 1)
    rules = EligibilityRules(men_categories_admit_women=admit_women)
    result = check_eligibility(person(born=born, gender="M"), championship(category), rules=rules)
    assert codes(result) == [WRONG_GENDER]
    assert result.reasons[0].message == (
        f"Rule {category.article} / R-02: {category.label} admits female players only; the player is recorded as male."
    )


def test_a_man_in_a_mens_category_is_eligible():
    assert check_eligibility(person(gender="M"), championship(Category.SENIOR_MEN)).eligible


# --- nationality and passport (1.1 B, R-03) -------------------------------------------


def test_a_passport_expiring_on_the_championships_last_day_is_valid():
    p = person(passports=[PassportFacts("CH", END)])
    assert check_eligibility(p, championship()).eligible


def test_it_rejects_a_passport_expiring_the_day_before_the_last_day():
    p = person(passports=[PassportFacts("CH", date(2027, 7, 16))])
    result = check_eligibility(p, championship())
    assert codes(result) == [PASSPORT_EXPIRED]
    (reason,) = result.reasons
    assert reason.article == "1.1 B"
    assert reason.field == "passports"
    assert reason.message == (
        "Rule 1.1 B / R-03: the player's passport of CH expires on 2027-07-16, before 2027-07-17, "
        "the championship's last day, on which it must still be valid."
    )


def test_it_rejects_a_passport_expired_long_before_the_championship():
    p = person(passports=[PassportFacts("CH", date(2020, 1, 1))])
    assert codes(check_eligibility(p, championship())) == [PASSPORT_EXPIRED]


def test_the_passport_date_can_be_the_first_day_by_parameter():
    rules = EligibilityRules(passport_valid_on="first_day")
    p = person(passports=[PassportFacts("CH", START)])
    assert check_eligibility(p, championship(), rules=rules).eligible
    assert codes(check_eligibility(p, championship())) == [PASSPORT_EXPIRED]


def test_one_valid_passport_of_the_teams_country_is_enough_among_several():
    p = person(
        passports=[
            PassportFacts("CH", date(2019, 1, 1)),
            PassportFacts("FR", date(2035, 1, 1)),
            PassportFacts("CH", date(2031, 1, 1)),
        ]
    )
    assert check_eligibility(p, championship()).eligible


def test_several_expired_passports_of_the_teams_country_name_the_latest_expiry():
    p = person(passports=[PassportFacts("CH", date(2019, 1, 1)), PassportFacts("CH", date(2027, 7, 1))])
    result = check_eligibility(p, championship())
    assert codes(result) == [PASSPORT_EXPIRED]
    assert "expires on 2027-07-01" in result.reasons[0].message


def test_it_rejects_a_player_without_any_passport():
    result = check_eligibility(person(passports=[]), championship())
    assert codes(result) == [NO_PASSPORT]
    assert result.reasons[0].message == (
        "Rule 1.1 B / R-03: a player needs a passport of CH, the country the team represents; the player has none."
    )


def test_a_valid_passport_of_another_country_does_not_count_for_the_team_country():
    p = person(passports=[PassportFacts("FR", date(2035, 1, 1))])
    result = check_eligibility(p, championship())
    assert codes(result) == [NO_PASSPORT]
    assert "(passports held: FR)" in result.reasons[0].message


def test_it_rejects_a_player_of_another_nationality():
    p = person(nationality="FR", passports=[PassportFacts("CH", date(2035, 1, 1))])
    result = check_eligibility(p, championship())
    assert codes(result) == [WRONG_NATIONALITY]
    (reason,) = result.reasons
    assert reason.article == "1.1 B"
    assert reason.field == "nationality"
    assert "nationality FR differs from CH" in reason.message


def test_a_foreign_player_with_only_their_own_passport_gets_both_reasons():
    p = person(nationality="FR", passports=[PassportFacts("FR", date(2035, 1, 1))])
    assert codes(check_eligibility(p, championship())) == sorted([NO_PASSPORT, WRONG_NATIONALITY])


def test_country_codes_are_compared_without_case():
    p = person(nationality="ch", passports=[PassportFacts("ch", date(2035, 1, 1))])
    assert check_eligibility(p, championship(team="CH")).eligible


# --- several reasons at once -----------------------------------------------------------


def test_it_returns_every_reason_at_once_never_only_the_first():
    # A 12-year-old French boy with an expired Swiss passport, entered in Swiss Senior Women.
    p = PersonFacts(
        date_of_birth=date(2014, 6, 1),
        gender="M",
        nationality="FR",
        passports=(PassportFacts("CH", date(2026, 1, 1)),),
    )
    result = check_eligibility(p, championship(Category.SENIOR_WOMEN))
    assert codes(result) == sorted([TOO_YOUNG, WRONG_GENDER, WRONG_NATIONALITY, PASSPORT_EXPIRED])
    assert not result.eligible
    assert all(r.message.startswith("Rule 1.1") for r in result.reasons)


def test_a_junior_can_be_too_old_and_without_passport_at_once():
    result = check_eligibility(person(born=date(2000, 1, 1), passports=[]), championship(Category.JUNIOR_MEN))
    assert codes(result) == sorted([TOO_OLD, NO_PASSPORT])


# --- waivers (R-03) ------------------------------------------------------------------


def waiver(code, reason="Dual national, cleared by the IHTC", approved_by="IHTC Committee"):
    return WaiverFacts(code=code, reason=reason, approved_by=approved_by)


def test_a_waiver_moves_its_reason_to_waived_and_makes_the_player_eligible():
    p = person(nationality="FR")
    w = waiver(WRONG_NATIONALITY)
    result = check_eligibility(p, championship(), waivers=[w])
    assert result.eligible
    assert result.reasons == ()
    ((reason, by),) = result.waived
    assert reason.code == WRONG_NATIONALITY
    assert by is w


def test_a_waiver_for_a_different_code_does_not_help():
    p = person(passports=[PassportFacts("CH", date(2027, 1, 1))])
    result = check_eligibility(p, championship(), waivers=[waiver(NO_PASSPORT)])
    assert not result.eligible
    assert codes(result) == [PASSPORT_EXPIRED]
    assert result.waived == ()


def test_a_waiver_clears_only_its_own_reason_among_several():
    p = person(nationality="FR", passports=[])
    result = check_eligibility(p, championship(), waivers=[waiver(NO_PASSPORT)])
    assert codes(result) == [WRONG_NATIONALITY]
    assert [r.code for r, _ in result.waived] == [NO_PASSPORT]


def test_waivers_for_every_1_1_b_reason_make_the_player_eligible():
    p = person(nationality="FR", passports=[PassportFacts("CH", date(2020, 1, 1))])
    result = check_eligibility(p, championship(), waivers=[waiver(WRONG_NATIONALITY), waiver(PASSPORT_EXPIRED)])
    assert result.eligible
    assert sorted(r.code for r, _ in result.waived) == sorted([WRONG_NATIONALITY, PASSPORT_EXPIRED])


@pytest.mark.parametrize(
    ("code", "p", "category"),
    [
        (TOO_YOUNG, person(born=date(2020, 1, 1)), Category.SENIOR_MEN),
        (TOO_OLD, person(born=date(1990, 1, 1)), Category.JUNIOR_MEN),
        (WRONG_GENDER, person(gender="M"), Category.SENIOR_WOMEN),
    ],
)
def test_a_waiver_never_clears_an_age_or_gender_reason(code, p, category):
    result = check_eligibility(p, championship(category), waivers=[waiver(code)])
    assert codes(result) == [code]
    assert result.waived == ()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"code": "nonsense"}, "unknown"),
        ({"code": NO_PASSPORT, "reason": "  "}, "R-03"),
        ({"code": NO_PASSPORT, "approved_by": ""}, "R-03"),
    ],
)
def test_a_waiver_needs_a_known_code_its_reason_and_who_granted_it(kwargs, match):
    values = {"reason": "Passport renewal pending", "approved_by": "IHTC Committee", **kwargs}
    with pytest.raises(ValueError, match=match):
        WaiverFacts(**values)


# --- all categories for the person page ------------------------------------------------


def test_all_categories_gives_one_result_per_category():
    # A 16-year-old Swiss girl in 2027.
    p = person(born=date(2010, 5, 5), gender="F")
    results = check_eligibility_all_categories(p, start_date=START, end_date=END, team_country="CH")
    assert set(results) == set(Category)
    assert results[Category.JUNIOR_WOMEN].eligible
    assert results[Category.SENIOR_WOMEN].eligible
    assert results[Category.MASTERS_WOMEN].codes == {TOO_YOUNG}
    assert results[Category.JUNIOR_MEN].codes == {WRONG_GENDER}
    assert results[Category.SENIOR_MEN].codes == {WRONG_GENDER}
    assert results[Category.MASTERS_MEN].codes == {TOO_YOUNG, WRONG_GENDER}


def test_all_categories_applies_rules_and_waivers_to_every_category():
    p = person(born=date(2010, 5, 5), gender="F", passports=[])
    results = check_eligibility_all_categories(
        p,
        start_date=START,
        end_date=END,
        team_country="CH",
        rules=EligibilityRules(men_categories_admit_women=True),
        waivers=iter([waiver(NO_PASSPORT)]),  # a one-shot iterable must serve every category
    )
    assert results[Category.JUNIOR_MEN].eligible
    assert results[Category.JUNIOR_WOMEN].eligible
    assert all(r.code == NO_PASSPORT for res in results.values() for r, _ in res.waived)
    assert all(res.waived for res in results.values())


def test_default_rules_are_r01_r02_r03():
    assert DEFAULT_RULES.age_reference == "january_1"
    assert (DEFAULT_RULES.junior_min_age, DEFAULT_RULES.junior_max_age) == (14, 19)
    assert DEFAULT_RULES.senior_min_age == 15
    assert DEFAULT_RULES.masters_min_age == 38
    assert DEFAULT_RULES.men_categories_admit_women is False
    assert DEFAULT_RULES.passport_valid_on == "last_day"


def test_a_championship_cannot_end_before_it_starts():
    with pytest.raises(ValueError):
        championship(start=END, end=START)
