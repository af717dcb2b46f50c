"""The discipline module's records, one module per concept (architecture: discipline/).

- ``consequences``: what final games hand over (``GameConsequence``), read by the incident reports.
- ``protests``: protests with fees, deadlines and their audited workflow (9.1; R-50 to R-52).
- ``cases``: incident reports, confidential reports, committee cases and decisions (4.2 P, 7.1; R-53).
- ``suspensions``: suspensions and the games served towards them (8.2; R-53).
- ``appeals``: appeals to the IHTC General Assembly, then the FIRS Congress (9.2 A; R-54).
"""

from .appeals import Appeal, AppealLevel, AppealStatus
from .cases import (
    CASE_TRANSITIONS,
    Attachment,
    Case,
    CaseStatement,
    CaseStatus,
    CaseTransition,
    ConfidentialKind,
    ConfidentialReport,
    Decision,
    DecisionOutcome,
    IncidentReport,
    ReportStatus,
)
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
from .suspensions import ServedGame, Suspension, SuspensionKind, SuspensionStatus

__all__ = [
    "Appeal",
    "AppealLevel",
    "AppealStatus",
    "Attachment",
    "Case",
    "CASE_TRANSITIONS",
    "CaseStatement",
    "CaseStatus",
    "CaseTransition",
    "CLOSED_STATUSES",
    "ConfidentialKind",
    "ConfidentialReport",
    "ConsequenceKind",
    "Deadline",
    "DeadlineKind",
    "DeadlineStatus",
    "Decision",
    "DecisionOutcome",
    "FeeMethod",
    "FeeOutcome",
    "GameConsequence",
    "IncidentReport",
    "Protest",
    "ProtestAttachment",
    "ProtestKind",
    "ProtestStatus",
    "ProtestTransition",
    "ReportStatus",
    "ServedGame",
    "Suspension",
    "SuspensionKind",
    "SuspensionStatus",
]
