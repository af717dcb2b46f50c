"""What the documents' services ask of the module above them, answered at start-up (``ReportsConfig.ready``).

``reports.services`` finds or makes a document and queues its render; ``reports.tasks`` (the Celery tasks, whose
bodies are the services' render) sits above it and answers how a render is queued. See docs/architecture.md
("Asking upwards"): the same pattern as between apps, inside one app.
"""

from __future__ import annotations

from common.hooks import Hook

# reports.tasks: queue the render of the document of this id (``render_document.delay``).
queue_document_render = Hook("reports.queue_document_render", answered_by="reports (reports.tasks)")
