"""What the tournaments app asks of the apps above it; they answer at start-up (``AppConfig.ready``).

See docs/architecture.md ("Asking upwards"). Each hook names the app that answers it.
"""

from common.hooks import Broadcast, Hook

# games: whether a game's live sheet is final (4.2 O / 4.3 A): None when the game has no sheet (one row read).
game_sheet_final = Hook("tournaments.game_sheet_final", answered_by="games")
# games: an open live sheet's state as the live pages read it (status label, period, score, the live page's address);
# None when the game has no open sheet or its result is recorded.
game_live_board = Hook("tournaments.game_live_board", answered_by="games")
# games: whether a user may enter a game's events and finalize it from its sheet (the officials' table, 4.3-4.5).
can_enter_game_events = Hook("tournaments.can_enter_game_events", answered_by="games")
# games: tell the championship's open results and standings pages that a game became final (the live push).
publish_game_final = Hook("tournaments.publish_game_final", answered_by="games")
# games: the penalty index line of an infraction code (Annex C); raises KeyError for an unknown code.
get_infraction = Hook("tournaments.get_infraction", answered_by="games")
# discipline: count a game that became final towards its teams' people's suspensions (8.2, R-53).
count_served_games = Hook("tournaments.count_served_games", answered_by="discipline")
# reports: queue the official game report of a final game once the transaction commits.
game_report_on_commit = Hook("tournaments.game_report_on_commit", answered_by="reports")
# webhooks: a game became final, or its final result was amended (both paths: staff's entry, the sheet's), inside
# the writing transaction; the handler tells the teams' federations after the commit.
game_final = Broadcast("tournaments.game_final", answered_by=("webhooks",))
