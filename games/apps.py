from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # The tournaments app asks these of the games app (tournaments.hooks; docs/architecture.md).
        from games import access, live, viewers
        from games.engine.penalty_index import get_infraction
        from games.models import GameSheet, SheetStatus
        from tournaments import hooks

        def game_sheet_final(game_id):
            status = GameSheet.objects.filter(game_id=game_id).values_list("status", flat=True).first()
            return None if status is None else status == SheetStatus.FINAL

        hooks.game_sheet_final.register(game_sheet_final)
        hooks.can_enter_game_events.register_attribute(access, "can_enter_game_events")
        hooks.publish_game_final.register_attribute(live, "publish_game_final")
        hooks.game_live_board.register_attribute(viewers, "live_board")
        hooks.get_infraction.register(get_infraction)
        # A merge of two records of one person moves the games' rows about the duplicate (federation.merge).
        from federation.merge import register_person_fields
        from games.models import GameOfficial, LineupOfficial, LineupPlayer, OfficialAccount, SheetSignature

        register_person_fields(
            "games",
            [
                (GameOfficial, "person"),
                (OfficialAccount, "person"),
                (LineupPlayer, "person"),
                (LineupOfficial, "person"),
                (SheetSignature, "person"),
            ],
        )
