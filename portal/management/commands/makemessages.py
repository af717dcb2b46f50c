"""``makemessages`` that also collects the stored texts' messages (issue 26): ``said("...")`` and
``said_in("context", "...")`` of ``common.text``, besides Django's own keywords."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=said", "--keyword=said_in:1c,2"]
