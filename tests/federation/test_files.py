"""Passport scans: content checks by magic bytes and the guarded download view."""

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.files import MAX_SCAN_BYTES, check_scan_upload
from tests.factories import (
    PassportFactory,
    UserFactory,
    federation_staff,
    html_upload,
    international_staff,
    jpeg_upload,
    pdf_upload,
    png_upload,
)


@pytest.mark.parametrize(
    ("upload", "expected"),
    [(jpeg_upload, "image/jpeg"), (png_upload, "image/png"), (pdf_upload, "application/pdf")],
)
def test_it_accepts_jpeg_png_and_pdf_by_content(upload, expected):
    assert check_scan_upload(upload()) == expected


def test_it_recognises_the_content_not_the_name():
    # A real PNG named .pdf is a PNG.
    assert check_scan_upload(png_upload("passport.pdf")) == "image/png"


def test_it_refuses_html_renamed_png_naming_the_field():
    with pytest.raises(ValidationError) as caught:
        check_scan_upload(html_upload("passport.png", content_type="image/png"))
    assert "scan" in caught.value.error_dict
    assert "Only JPEG, PNG or PDF" in caught.value.messages[0]


def test_it_refuses_another_binary_format():
    gif = SimpleUploadedFile("scan.jpg", b"GIF89a" + b"\x00" * 64, content_type="image/jpeg")
    with pytest.raises(ValidationError, match="image/gif"):
        check_scan_upload(gif)


def test_it_refuses_a_file_over_five_megabytes():
    big = SimpleUploadedFile("scan.pdf", b"%PDF-1.4\n" + b"0" * MAX_SCAN_BYTES, content_type="application/pdf")
    with pytest.raises(ValidationError, match="limit is 5 MB"):
        check_scan_upload(big)


def test_it_accepts_a_file_of_exactly_five_megabytes():
    exact = SimpleUploadedFile("scan.pdf", b"%PDF-1.4\n".ljust(MAX_SCAN_BYTES, b"0"), content_type="application/pdf")
    assert check_scan_upload(exact) == "application/pdf"


def test_it_refuses_an_empty_file():
    with pytest.raises(ValidationError, match="empty"):
        check_scan_upload(SimpleUploadedFile("scan.png", b"", content_type="image/png"))


def test_it_names_the_field_it_is_told():
    with pytest.raises(ValidationError) as caught:
        check_scan_upload(html_upload(), field="prescription")
    assert list(caught.value.error_dict) == ["prescription"]


def test_it_leaves_the_file_readable_from_the_start():
    upload = jpeg_upload()
    check_scan_upload(upload)
    assert upload.read(3) == b"\xff\xd8\xff"


# --- The guarded view ------------------------------------------------------------------


@pytest.fixture
def passport_with_scan(db):
    passport = PassportFactory()
    passport.scan.save("upload", jpeg_upload(), save=False)
    passport.scan_content_type = "image/jpeg"
    passport.save()
    return passport


@pytest.mark.django_db
def test_staff_of_the_holders_federation_download_the_scan_as_an_attachment(client, passport_with_scan):
    client.force_login(federation_staff(passport_with_scan.person.federation))
    response = client.get(reverse("federation:passport-scan", args=[passport_with_scan.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="passport-{passport_with_scan.pk}.jpg"'
    assert response["Content-Type"] == "image/jpeg"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Cache-Control"] == "private, no-store"
    assert b"".join(response.streaming_content)[:3] == b"\xff\xd8\xff"


@pytest.mark.django_db
def test_international_staff_download_any_scan(client, passport_with_scan):
    client.force_login(international_staff())
    response = client.get(reverse("federation:passport-scan", args=[passport_with_scan.pk]))
    assert response.status_code == 200


@pytest.mark.django_db
def test_another_federations_scan_is_not_found(client, passport_with_scan):
    client.force_login(federation_staff())
    response = client.get(reverse("federation:passport-scan", args=[passport_with_scan.pk]))
    assert response.status_code == 404


@pytest.mark.django_db
def test_a_user_without_a_role_gets_not_found(client, passport_with_scan):
    client.force_login(UserFactory())
    response = client.get(reverse("federation:passport-scan", args=[passport_with_scan.pk]))
    assert response.status_code == 404


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_log_in(client, passport_with_scan):
    url = reverse("federation:passport-scan", args=[passport_with_scan.pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_a_passport_without_scan_is_not_found(client):
    passport = PassportFactory()
    client.force_login(federation_staff(passport.person.federation))
    assert client.get(reverse("federation:passport-scan", args=[passport.pk])).status_code == 404


@pytest.mark.django_db
def test_scans_are_stored_outside_media_root(settings, passport_with_scan):
    from pathlib import Path

    path = Path(passport_with_scan.scan.path)
    assert path.is_relative_to(Path(settings.PRIVATE_MEDIA_ROOT))
    assert not path.is_relative_to(Path(settings.MEDIA_ROOT))
    assert passport_with_scan.person.last_name not in path.name


@pytest.mark.django_db
def test_a_scan_missing_from_storage_is_not_found_rather_than_an_error(client):
    passport = PassportFactory(scan="passports/gone/missing", scan_content_type="image/png")
    client.force_login(federation_staff(passport.person.federation))
    assert client.get(reverse("federation:passport-scan", args=[passport.pk])).status_code == 404
