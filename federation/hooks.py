"""What the federation app asks of the apps above it; they answer at start-up (``AppConfig.ready``).

See docs/architecture.md ("Asking upwards"). Each hook names the app that answers it.
"""

from common.hooks import Hook

# tournaments: a person's eligibility (1.1 B-G, R-01..R-03) in the championships that enter them, or an assumed
# one (``tournaments.selectors.person_eligibility``), for the person's page and the API.
person_eligibility = Hook("federation.person_eligibility", answered_by="tournaments")
