"""What the federation app asks of the apps above it; they answer at start-up (``AppConfig.ready``).

See docs/architecture.md ("Asking upwards"). Each hook names the app that answers it.
"""

from common.hooks import Broadcast, Hook

# tournaments: a person's eligibility (1.1 B-G, R-01..R-03) in the championships that enter them, or an assumed
# one (``tournaments.selectors.person_eligibility``), for the person's page and the API.
person_eligibility = Hook("federation.person_eligibility", answered_by="tournaments")

# tournaments, games, discipline: two records of one person are merged (``federation.merge.person_merge``); each app
# re-points the rows it keeps about the duplicate (roster lines, line-ups, sanctions...) to the record kept. Each
# handler covers "app_label.Model.field" names: every ForeignKey to Person is covered by one
# (tests/federation/test_merge.py).
person_merge = Broadcast("federation.person_merge", answered_by=("tournaments", "games", "discipline"))

# webhooks: a fact a person's eligibility rests on changed (1.1 B-G, R-03: date of birth, gender, nationality, a
# passport, a waiver), inside the writing transaction; the handler works after the commit and tells the person's
# federation if the eligibility itself changed.
eligibility_facts_changed = Broadcast("federation.eligibility_facts_changed", answered_by=("webhooks",))
