"""More sentences made in code, said in the reader's language (issue 26): the equipment checks (3.2.2-3.2.8),
the federation register's refusals, the game scripts' refusals and a case's default title."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils.translation import override

from federation.equipment import (
    FaceProtection,
    GoalkeeperEquipmentMeasurements,
    StickMeasurements,
    check_certification,
    check_face_protection,
    check_goalkeeper_equipment,
    check_physician_device,
    check_stick,
)
from portal.i18n import say

# --- The equipment checks (federation/equipment.py) --------------------------------------------------------------


def test_a_stick_over_its_limit_is_said_in_french_and_spanish():
    (violation,) = check_stick(StickMeasurements(blade_max_width_mm=95))
    assert violation.message == "Rule 3.2.2 C: blade width at its widest point 95 mm exceeds the maximum of 90 mm."
    with override("fr"):
        assert say(violation.message) == (
            "Règle 3.2.2 C : largeur de la palette en son point le plus large de 95 mm, au-delà du maximum de 90 mm."
        )
    with override("es"):
        assert say(violation.message) == (
            "Regla 3.2.2 C: anchura de la pala en su punto más ancho de 95 mm, por encima del máximo de 90 mm."
        )


def test_a_blade_under_its_minimum_and_the_goalkeepers_findings_are_said_in_french():
    (narrow,) = check_stick(StickMeasurements(blade_min_width_mm=45))
    altered, apron = check_goalkeeper_equipment(
        GoalkeeperEquipmentMeasurements(leg_pads_altered=True, abdominal_apron_down_thighs=True)
    )
    with override("fr"):
        assert say(narrow.message) == (
            "Règle 3.2.2 C : largeur de la palette en son point le plus étroit de 45 mm, en dessous du minimum de 50 mm."
        )
        assert say(altered.message) == "Règle 3.2.5 E : les jambières du gardien ne doivent pas être modifiées."
        assert str(say(apron.message)).startswith("Règle 3.2.5 D : les protections abdominales")


def test_the_face_protection_refusal_is_said_in_french():
    (young,) = check_face_protection(
        date_of_birth=date(2010, 5, 1), game_date=date(2027, 7, 3), worn=FaceProtection.VISOR
    )
    (old,) = check_face_protection(date_of_birth=date(2000, 5, 1), game_date=date(2027, 7, 3), worn=FaceProtection.NONE)
    assert young.message.endswith("the player is 17 on 2027-07-03 and wears a visor.")
    with override("fr"):
        assert say(young.message).endswith("le joueur a 17 ans le 2027-07-03 et porte une visière.")
        assert say(old.message) == (
            "Règle 3.2.4 D / R-09 : les joueurs de 19 ans et plus portent au moins un casque avec visière ; "
            "le joueur a 27 ans le 2027-07-03 et porte aucune protection faciale."
        )


def test_the_certification_and_the_physicians_device_are_said_in_french():
    (helmet,) = check_certification(kind="helmet", certifications=["ASTM"])
    (mask,) = check_certification(kind="face_protection", certifications=[])
    (none,) = check_physician_device(ihtc_permission_date=None, game_date=date(2027, 7, 3))
    (late,) = check_physician_device(ihtc_permission_date=date(2027, 7, 4), game_date=date(2027, 7, 3))
    assert helmet.message == "Rule 3.2.6 A: a helmet must be HECC, CSA or CE approved; certifications given: ASTM."
    with override("fr"):
        assert say(helmet.message) == (
            "Règle 3.2.6 A : un casque doit être homologué HECC, CSA ou CE ; homologations indiquées : ASTM."
        )
        assert say(mask.message).startswith("Règle 3.2.6 A : une protection faciale doit être homologuée")
        assert say(none.message).endswith("aucune autorisation n'est enregistrée.")
        assert say(late.message).endswith("l'autorisation date du 2027-07-04, après le match du 2027-07-03.")
    with override("es"):
        assert say(helmet.message).startswith("Regla 3.2.6 A: un casco debe estar homologado")


@pytest.mark.django_db
def test_a_stored_inspections_violations_are_said_in_the_readers_language():
    from federation import services
    from federation.serializers import EquipmentInspectionSerializer
    from tests.factories import PersonFactory, international_staff

    inspection = services.equipment_inspection_record(
        person=PersonFactory(),
        kind="player_stick",
        measurements={"length_mm": 1600},
        inspected_by=international_staff(),
    )
    inspection.refresh_from_db()
    english = "Rule 3.2.2 C: stick length from the heel to the end of the shaft 1600 mm exceeds the maximum of 1570 mm."
    assert inspection.violations[0]["message"] == english
    assert EquipmentInspectionSerializer(inspection).data["violations"][0]["message"] == english
    with override("fr"):
        said = EquipmentInspectionSerializer(inspection).data["violations"][0]["message"]
    assert said == (
        "Règle 3.2.2 C : longueur de la crosse, du talon au bout du manche de 1600 mm, au-delà du maximum de 1570 mm."
    )


@pytest.mark.django_db
def test_an_equipment_approval_refused_is_said_in_french():
    from django.core.exceptions import ValidationError

    from federation import services

    with override("fr"), pytest.raises(ValidationError) as caught:
        services.check_equipment_approval(kind="helmet", certifications=[], approved=True)
    assert caught.value.message_dict["certifications"] == [
        "Règle 3.2.6 A : un casque doit être homologué HECC, CSA ou CE ; homologations indiquées : aucun."
    ]


# --- The federation register's refusals (federation/services.py) and a status that cannot change -----------------


@pytest.mark.django_db
def test_the_registers_refusals_are_said_in_french():
    from django.core.exceptions import ValidationError

    from federation import services

    with override("fr"):
        with pytest.raises(ValidationError) as caught:
            services.check_federation(level="national", country="")
        assert caught.value.message_dict["country"] == [
            "Règle 1.1 A : une fédération nationale est la fédération d'un pays ; indiquez son pays."
        ]
        with pytest.raises(ValidationError) as caught:
            services.check_waiver(code="age", reason=" ")
        assert caught.value.message_dict["reason"] == ["R-03 : une dérogation est enregistrée avec son motif."]
        assert caught.value.message_dict["code"][0].startswith("R-03 : seules les conditions de la règle 1.1 B")
        with pytest.raises(ValidationError) as caught:
            services.check_device_request(description="", physician="")
        assert caught.value.message_dict == {
            "description": ["Règle 3.2.8 C : décrivez l'équipement de protection."],
            "physician": ["Règle 3.2.8 C : nommez le médecin qui a prescrit l'équipement."],
        }
        with pytest.raises(ValidationError) as caught:
            services.check_inspection_measurements(kind="player_stick", measurements={"length_mm": "long"})
        assert caught.value.message_dict["measurements"] == ["length_mm doit être un nombre de millimètres."]


def test_a_status_that_cannot_change_is_said_in_french():
    from django.core.exceptions import ValidationError

    from federation import services

    with override("fr"), pytest.raises(ValidationError) as caught:
        services.check_device_transition(current="approved", target="rejected")
    (message,) = caught.value.message_dict["status"]
    assert message.startswith("Règle 3.2.8 C : une demande à l'état « ")
    assert "ne peut pas passer à l'état" in message


# --- The game scripts' refusals (games/engine/scripts.py) ---------------------------------------------------------


def test_a_game_scripts_refusal_is_said_in_french_and_spanish():
    from games.engine import ScriptError
    from games.engine.scripts import parse_script

    team = {"players": [4, 4], "goalkeepers": [1]}
    with pytest.raises(ScriptError) as caught:
        parse_script({"teams": {"home": team, "away": {"players": [5], "goalkeepers": [2]}}})
    assert caught.value.message == "Rule 3.2.9 D / R-06: teams.home.players repeats a number"
    with override("fr"):
        assert say(caught.value.message) == "Règle 3.2.9 D / R-06 : teams.home.players répète un numéro"
    with override("es"):
        assert say(caught.value.message) == "Regla 3.2.9 D / R-06: teams.home.players repite un número"
    with pytest.raises(ScriptError) as caught:
        parse_script({"expect": [{"at": "later"}]})
    with override("fr"):
        assert say(caught.value.message) == """expect[0] : 'at' vaut "end" ou {"period": n, "time": "mm:ss"}"""


# --- The pages' forms: every field's label in the reader's language -----------------------------------------------


def test_the_organisers_forms_are_labelled_in_french():
    from tournaments.views import BracketForm, GoalForm, ResultForm

    with override("fr"):
        goal = GoalForm.base_fields  # the fields as declared: their labels said when read
        assert [str(goal[name].label) for name in ("minute", "own_goal", "empty_net")] == [
            "Minute",
            "But contre son camp",
            "But vide",
        ]
        assert str(goal["minute"].help_text) == "Temps écoulé dans la période (R-10)."
        assert str(ResultForm.base_fields["home_goals"].label) == "Buts de l'équipe à domicile"
        bracket = BracketForm.base_fields
        assert str(bracket["placement"].label) == "Matchs de classement"
        assert [str(label) for _value, label in bracket["placement"].choices] == [
            "Toutes les places",
            "Troisième place seulement",
            "Aucun match de classement",
        ]


def test_the_federation_registers_choices_are_named_in_french():
    from federation.models import DeviceRequestStatus, EquipmentKind, Gender, InspectionKind

    with override("fr"):
        assert str(DeviceRequestStatus.APPROVED.label) == "Approuvée"
        assert str(InspectionKind.GOALKEEPER_STICK.label) == "Crosse de gardien (3.2.2 D)"
        assert str(EquipmentKind.HELMET.label) == "Casque"
        assert str(Gender.FEMALE.label) == "Féminin"
    assert str(DeviceRequestStatus.APPROVED.label) == "Approved"


def test_a_venues_unknown_field_is_refused_in_french():
    from django.core.exceptions import ValidationError

    from tournaments.services.venues import RINK_FIELDS, _check_known

    with override("fr"), pytest.raises(ValidationError) as caught:
        _check_known({"colour": "blue"}, RINK_FIELDS, "une piste")
    assert caught.value.message_dict == {
        "colour": ["Ce champ n'existe pas pour une piste (ou ne peut pas être modifié)."]
    }


# --- The rink check (tournaments/rinks.py, 2.1) -----------------------------------------------------------------


def test_a_rinks_problems_are_said_in_french():
    from tournaments.rinks import WORLD, RinkDimensions, check_rink

    found = {
        v.field: v.message for v in check_rink(RinkDimensions(length_m=45, width_m=20, board_height_m=1.5), level=WORLD)
    }
    assert found["board_height_m"] == "Rule 2.1 E: boards are 101 to 122 cm high, not 150 cm"
    with override("fr"):
        assert say(found["board_height_m"]) == "Règle 2.1 E : les bandes mesurent de 101 à 122 cm de haut, pas 150 cm"
        assert str(say(found["length_m"])).startswith(
            "Règle 2.1 C : un championnat du monde demande une piste d'au moins"
        )
    with override("es"):
        assert say(found["board_height_m"]) == "Regla 2.1 E: las vallas miden de 101 a 122 cm de alto, no 150 cm"
