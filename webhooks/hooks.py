"""What the webhooks' services ask of the module above them, answered at start-up (``WebhooksConfig.ready``).

``webhooks.services`` records deliveries; ``webhooks.tasks`` (the Celery tasks, whose bodies are the services'
attempts) sits above it and answers how a delivery is queued. The same pattern as ``reports.hooks``.
"""

from __future__ import annotations

from common.hooks import Hook

# webhooks.tasks: queue the delivery of this id (``deliver.delay``).
queue_delivery = Hook("webhooks.queue_delivery", answered_by="webhooks (webhooks.tasks)")
