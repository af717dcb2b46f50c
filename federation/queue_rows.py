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


def _decision_form(*, action: str, csrf: str, status: str, kind: str, what: str, pk: int, label, form, text) -> str:
    """One item's Approve / Reject form of the approvals queue; ``form`` is the refused decision's, with its errors."""
    reason_errors = form.errors.get("reason") if form is not None else None
    ids = f"{what}-{pk}-reason"
    return fill(
        '<form method="post" action="{action}" class="decision">'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
        '<input type="hidden" name="status" value="{status}"><input type="hidden" name="kind" value="{kind}">'
        '{non_field}<label for="{ids}">{l_reason}</label>'
        '<textarea id="{ids}" name="reason" rows="2" maxlength="2000"{invalid}>{reason}</textarea>{reason_errors}'
        '<div class="buttons"><button type="submit" name="decision" value="approve">{l_approve}'
        '<span class="visually-hidden"> {label}</span></button> '
        '<button type="submit" name="decision" value="reject">{l_reject}'
        '<span class="visually-hidden"> {label}</span></button></div></form>',
        action=action,
        csrf=csrf,
        status=status,
        kind=kind,
        non_field=_errors(form.non_field_errors()) if form is not None else "",
        ids=ids,
        l_reason=text["reason (required)"],
        invalid=format_html(' aria-invalid="true" aria-describedby="{}-error"', ids) if reason_errors else "",
        reason=(form["reason"].value() or "") if form is not None else "",
        reason_errors=_errors([f"{text['reason']}: {error}" for error in reason_errors], f"{ids}-error")
        if reason_errors
        else "",
        l_approve=text["approve"],
        l_reject=text["reject"],
        label=label,
    )


def _approval_texts() -> dict:
    return {
        "reason (required)": gettext("Reason (required to reject)"),
        "reason": gettext("Reason"),
        "approve": gettext("Approve"),
        "reject": gettext("Reject"),
        "prescription": gettext("Prescription"),
        "approved": gettext("Approved"),
        "rejected": gettext("Rejected"),
        "no certification": gettext("none: Rule 3.2.6 A needs HECC, CSA or CE"),
    }


def device_request_rows(request, items, *, waiting: bool, status: str, kind: str) -> SafeString:
    """The approvals queue's device requests (3.2.8 C): the player, federation, device, prescription, when
    submitted, and the decision form (waiting) or the decision."""
    person_url = url_pattern("federation:person-detail")
    prescription_url = url_pattern("federation:device-prescription")
    decide_url = url_pattern("federation:approvals-device-decide")
    iso, short, day = date_formatter("c"), date_formatter("SHORT_DATETIME_FORMAT"), date_formatter("SHORT_DATE_FORMAT")
    text = _approval_texts()
    prescribed = gettext("Prescribed by %(physician)s")
    csrf = get_token(request) if waiting else ""
    html = []
    for item in items:
        if waiting:
            last = _decision_form(
                action=decide_url(item.pk),
                csrf=csrf,
                status=status,
                kind=kind,
                what="device",
                pk=item.pk,
                label=item.person,
                form=getattr(item, "decision_form", None),
                text=text,
            )
        else:
            last = fill(
                "{status}{decided}{by}{reason}",
                status=item.get_status_display(),
                decided=fill(' <time datetime="{iso}">{day}</time>', iso=iso(item.decided_at), day=day(item.decided_at))
                if item.decided_at
                else "",
                by=fill(" · {who}", who=item.decided_by) if item.decided_by else "",
                reason=fill('<br><span class="their-words" translate="no">{reason}</span>', reason=item.decision_reason)
                if item.decision_reason
                else "",
            )
        federation = item.person.federation
        html.append(
            fill(
                '<tr id="device-request-{pk}"><td><a href="{person_url}">{person}</a></td><td>{federation}</td>'
                '<td><span class="their-words" translate="no">{description}</span><br>'
                '<span class="muted">{prescribed}</span></td>'
                '<td><a href="{prescription_url}">{l_prescription}<span class="visually-hidden"> {person}</span></a></td>'
                '<td><time datetime="{submitted_iso}">{submitted}</time><br><span class="muted">{submitted_by}</span></td>'
                "<td>{last}</td></tr>",
                pk=item.pk,
                person_url=person_url(item.person_id),
                person=item.person,
                federation=federation.short_name or federation.name,
                description=item.description,
                prescribed=sentence(prescribed, physician=item.physician),
                prescription_url=prescription_url(item.pk),
                l_prescription=text["prescription"],
                submitted_iso=iso(item.submitted_at),
                submitted=short(item.submitted_at),
                submitted_by=item.submitted_by if item.submitted_by is not None else "",
                last=last,
            )
        )
    return joined(html)


def equipment_model_rows(request, items, *, waiting: bool, status: str, kind: str) -> SafeString:
    """The approvals queue's equipment models (3.2.6 A): kind, manufacturer, model, certifications, and the decision
    form (waiting) or the decision."""
    decide_url = url_pattern("federation:approvals-equipment-decide")
    iso, day = date_formatter("c"), date_formatter("SHORT_DATE_FORMAT")
    text = _approval_texts()
    csrf = get_token(request) if waiting else ""
    html = []
    for item in items:
        if waiting:
            last = _decision_form(
                action=decide_url(item.pk),
                csrf=csrf,
                status=status,
                kind=kind,
                what="equipment",
                pk=item.pk,
                label=item,
                form=getattr(item, "decision_form", None),
                text=text,
            )
        elif item.approved:
            last = fill(
                '{l_approved} <time datetime="{iso}">{day}</time>{by}',
                l_approved=text["approved"],
                iso=iso(item.approved_on),
                day=day(item.approved_on),
                by=fill(" · {who}", who=item.approved_by) if item.approved_by else "",
            )
        else:
            last = fill(
                '{l_rejected} <time datetime="{iso}">{day}</time>{by}<br>'
                '<span class="their-words" translate="no">{reason}</span>',
                l_rejected=text["rejected"],
                iso=iso(item.rejected_on),
                day=day(item.rejected_on),
                by=fill(" · {who}", who=item.rejected_by) if item.rejected_by else "",
                reason=item.rejection_reason,
            )
        certifications = joined(fill('<span class="tag">{c}</span>', c=c) for c in item.certifications or ()) or fill(
            '<span class="bad">{none}</span>', none=text["no certification"]
        )
        html.append(
            fill(
                '<tr id="equipment-model-{pk}"><td>{kind}</td><td>{manufacturer}</td><td>{model}</td>'
                "<td>{certifications}</td><td>{last}</td></tr>",
                pk=item.pk,
                kind=item.get_kind_display(),
                manufacturer=item.manufacturer,
                model=item.model_name,
                certifications=certifications,
                last=last,
            )
        )
    return joined(html)
