"""The IHTC's waiver queue, one article per waiting request with its decision form (R-03), built in Python with what
every row shares worked out once (portal.rows; issue 27). The page around it is ``federation/waiver_queue.html``."""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from portal.rows import date_formatter, fill, joined, sentence, url_pattern


def _errors(errors, element_id: str = "") -> SafeString | str:
    if not errors:
        return ""
    items = format_html_join("", "<li>{}</li>", ((error,) for error in errors))
    if element_id:
        return format_html('<div role="alert" id="{}"><ul class="errorlist">{}</ul></div>', element_id, items)
    return format_html('<div role="alert"><ul class="errorlist">{}</ul></div>', items)


def waiting_request_rows(request, rows) -> SafeString:
    """``rows``: (waiver request, its decision form) pairs; a refused decision's form carries its errors."""
    person_url = url_pattern("federation:person-detail")
    decide_url = url_pattern("federation:waiver-request-decide")
    when = date_formatter("SHORT_DATETIME_FORMAT")
    csrf = get_token(request)
    # Escaped once: format_html leaves safe strings as they are.
    label = {
        "code": gettext("Requirement to waive"),
        "category": gettext("Category"),
        "every category": gettext("every category"),
        "year": gettext("Championship year"),
        "every year": gettext("every year"),
        "justification": gettext("Justification"),
        "asked": gettext("Asked"),
        "reason": gettext("Reason"),
        "grant": gettext("Grant"),
        "refuse": gettext("Refuse"),
    }
    label = {key: conditional_escape(text) for key, text in label.items()}
    asked = gettext("by %(who)s on %(when)s")
    html = []
    for item, form in rows:
        pk = item.pk
        reason_errors = form.errors.get("decision_reason") if form.is_bound else None
        decision_errors = form.errors.get("decision") if form.is_bound else None
        reason = form["decision_reason"].value() if form.is_bound else ""
        invalid = format_html(' aria-invalid="true" aria-describedby="reason-{}-errors"', pk) if reason_errors else ""
        html.append(
            fill(
                '<li><article aria-labelledby="request-{pk}"><h3 id="request-{pk}"><a href="{person_url}">{first} {last}'
                '</a> <span class="muted">({federation})</span></h3><dl class="facts">'
                "<dt>{l_code}</dt><dd>{code}</dd><dt>{l_category}</dt><dd>{category}</dd>"
                "<dt>{l_year}</dt><dd>{year}</dd>"
                '<dt>{l_justification}</dt><dd><span class="their-words" translate="no">{justification}</span></dd>'
                "<dt>{l_asked}</dt><dd>{asked}</dd></dl>"
                '<form method="post" action="{decide_url}" novalidate>'
                '<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">{non_field}'
                '<div class="field{invalid_class}"><label for="reason-{pk}">{l_reason}</label>'
                '<textarea id="reason-{pk}" name="decision_reason" rows="2"{invalid}>{reason}</textarea>'
                "{reason_errors}{decision_errors}</div>"
                '<button type="submit" name="decision" value="grant">{l_grant}</button> '
                '<button type="submit" name="decision" value="refuse">{l_refuse}</button>'
                "</form></article></li>",
                pk=pk,
                person_url=person_url(item.person_id),
                first=item.person.first_name,
                last=item.person.last_name,
                federation=item.person.federation.name,
                l_code=label["code"],
                code=item.get_code_display(),
                l_category=label["category"],
                category=item.get_category_display() if item.category else label["every category"],
                l_year=label["year"],
                year=item.year or label["every year"],
                l_justification=label["justification"],
                justification=item.justification,
                l_asked=label["asked"],
                asked=sentence(asked, who=item.requested_by, when=when(item.requested_at)),
                decide_url=decide_url(pk),
                csrf=csrf,
                non_field=_errors(form.non_field_errors()) if form.is_bound else "",
                invalid_class=" invalid" if reason_errors else "",
                l_reason=label["reason"],
                invalid=invalid,
                reason=reason or "",
                reason_errors=_errors(reason_errors, f"reason-{pk}-errors"),
                decision_errors=_errors(decision_errors),
                l_grant=label["grant"],
                l_refuse=label["refuse"],
            )
        )
    return joined(html)
