"""Tables written as CSV (UTF-8 with a byte order mark, which spreadsheets read as UTF-8) or XLSX, for downloads.

A cell a spreadsheet would take for a formula (text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) is written with a leading apostrophe in CSV: a downloaded list never runs what someone typed into a name.
Dates stay dates (XLSX cells of type date; ISO 8601 in CSV).
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable, Sequence

CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime.date):
        return value.isoformat()
    text = str(value)
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence]) -> bytes:
    """The table as CSV bytes."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_csv_cell(cell) for cell in header])
    for row in rows:
        writer.writerow([_csv_cell(cell) for cell in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def xlsx_bytes(header: Sequence[str], rows: Iterable[Sequence], *, title: str = "Sheet") -> bytes:
    """The table as an XLSX workbook of one sheet; text cells are stored as text, never as formulas."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31])

    def cells(values):
        out = []
        for value in values:
            cell = WriteOnlyCell(sheet, value="" if value is None else value)
            if isinstance(value, str):
                cell.data_type = "s"  # a name starting with "=" stays a name
            elif isinstance(value, datetime.date):
                cell.number_format = "yyyy-mm-dd"
            out.append(cell)
        return out

    sheet.append(cells([str(name) for name in header]))
    for row in rows:
        sheet.append(cells(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
