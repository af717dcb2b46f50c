"""The discipline module's records, one module per concept (architecture: discipline/).

- ``consequences``: what final games hand over (``GameConsequence``), read by the incident reports.
- ``protests``: protests with fees, deadlines and their audited workflow (9.1; R-50 to R-52).
- ``cases``: incident reports, committee cases and decisions, suspensions, appeals (4.2 P, 7.1, 8.2, 9.2; R-53, R-54).
"""

from .consequences import ConsequenceKind, GameConsequence
from .protests import (
    CLOSED_STATUSES,
    Deadline,
    DeadlineKind,
    DeadlineStatus,
    FeeMethod,
    FeeOutcome,
    Protest,
    ProtestAttachment,
    ProtestKind,
    ProtestStatus,
    ProtestTransition,
)

__all__ = [
    "CLOSED_STATUSES",
    "ConsequenceKind",
    "Deadline",
    "DeadlineKind",
    "DeadlineStatus",
    "FeeMethod",
    "FeeOutcome",
    "GameConsequence",
    "Protest",
    "ProtestAttachment",
    "ProtestKind",
    "ProtestStatus",
    "ProtestTransition",
]
