"""The home page per role (issue 12, "A home for each role"): one function per section, each returning plain
data built from the owning app's selectors and access functions (no second version of any access rule)."""

from django.utils import timezone

from accounts.access import manages_entries
from discipline.access import cases_visible_to, is_committee, protests_visible_to
from discipline.models.protests import Deadline, DeadlineStatus
from discipline.selectors import report_queue, suspension_list
from games import services as game_services
from games.models import GameOfficial


def manager_section(user) -> dict | None:
    """A team manager's running protest deadlines (countdowns as on the protest page) and their people's
    suspensions in force."""
    if not manages_entries(user):
        return None
    managed = user.managed_entries.values("pk")
    deadlines = list(
        Deadline.objects.filter(
            protest__in=protests_visible_to(user).filter(entry__in=managed), status=DeadlineStatus.OPEN
        )
        .select_related("protest__entry", "protest__game__championship__venue")
        .order_by("due_at", "pk")
    )
    suspensions = list(suspension_list(user, filters={"status": "active"}).filter(entry__in=managed))
    return {"deadlines": deadlines, "suspensions": suspensions}


def official_section(user) -> dict | None:
    """A game official's next games (assignments), as "My games" lists them."""
    person_id = game_services.official_person_id(user)
    if person_id is None:
        return None
    rows = []
    for a in (
        GameOfficial.objects.filter(person_id=person_id, game__start_at__gte=timezone.now())
        .select_related("game__championship__venue", "game__home", "game__away")
        .order_by("game__start_at", "game__number")[:10]
    ):
        rows.append(
            {
                "assignment": a,
                "game": a.game,
                "local_start": timezone.localtime(a.game.start_at, a.game.championship.venue.zone),
            }
        )
    return {"games": rows}


def committee_section(user) -> dict | None:
    """The discipline committee's open incident reports (oldest first, with deadline) and open cases."""
    if not is_committee(user):
        return None
    return {
        "reports": list(report_queue(user)[:20]),
        "cases": list(cases_visible_to(user).exclude(status="decided").order_by("pk")[:20]),
    }


def sections_for(user) -> dict:
    if not user.is_authenticated:
        return {}
    return {
        "manager": manager_section(user),
        "official": official_section(user),
        "committee": committee_section(user),
        "server_now": timezone.now(),
    }
