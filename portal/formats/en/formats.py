"""The portal's English formats (issue 26): international English, as the rules are written and the rink clock
reads, rather than Django's United States defaults (month first, "6:30 p.m."): a day before its month, the 24-hour
clock, and ISO 8601 for the short date, which no reader of the member federations misreads. Numbers keep Django's
English separators; French and Spanish use Django's own formats (07/12/2026, 7 décembre 2026, 18:30)."""

DATE_FORMAT = "j F Y"  # 7 December 2026
SHORT_DATE_FORMAT = "Y-m-d"  # 2026-12-07
DATETIME_FORMAT = "j M Y, H:i"  # 7 Dec 2026, 18:30
SHORT_DATETIME_FORMAT = "Y-m-d H:i"  # 2026-12-07 18:30
TIME_FORMAT = "H:i"  # 18:30
MONTH_DAY_FORMAT = "j F"  # 7 December
YEAR_MONTH_FORMAT = "F Y"  # December 2026
