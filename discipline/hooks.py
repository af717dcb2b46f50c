"""What the discipline app tells the apps above it; they register their handlers at start-up (``AppConfig.ready``).

See docs/architecture.md ("Asking upwards"). Each broadcast is sent inside the writing transaction and names the
apps that must handle it; a handler defers its side effects to the commit.
"""

from common.hooks import Broadcast

# webhooks: a protest was filed (9.1), with the protest's id.
protest_filed = Broadcast("discipline.protest_filed", answered_by=("webhooks",))
# webhooks: a protest was decided (upheld or rejected, 9.1 A), with the protest's id.
protest_decided = Broadcast("discipline.protest_decided", answered_by=("webhooks",))
# webhooks: a suspension was imposed, its terms changed, or it ended (served, ended, withdrawn, replaced,
# annulled; 8.2, R-53), with the suspension's id and status: whenever its teams are told (``suspensions.tell_about``,
# inside the change's transaction or just after it).
suspension_changed = Broadcast("discipline.suspension_changed", answered_by=("webhooks",))
