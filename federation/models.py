from django.db import models
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords


class FederationLevel(models.TextChoices):
    INTERNATIONAL = "international", "International"
    CONTINENTAL = "continental", "Continental"
    NATIONAL = "national", "National"


class Federation(models.Model):
    """A governing body: FIRS at the top, continental bodies, national federations."""

    name = models.CharField(max_length=200, unique=True)
    short_name = models.CharField(max_length=20, blank=True)
    country = CountryField(blank=True, help_text="ISO 3166; empty for international and continental bodies.")
    level = models.CharField(max_length=16, choices=FederationLevel.choices)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="children")
    firs_affiliated = models.BooleanField("affiliated to FIRS", default=False, help_text="Rule 1.1 A")
    good_standing = models.BooleanField("in good standing", default=True, help_text="Rule 1.1 A")
    contact_name = models.CharField(max_length=200, blank=True)
    contact_email = models.EmailField(blank=True)
    contact_phone = models.CharField(max_length=40, blank=True)
    website = models.URLField(blank=True)
    address = models.TextField(blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["country"],
                condition=models.Q(level="national"),
                name="one_national_federation_per_country",
            ),
        ]

    def __str__(self):
        return self.name


class Gender(models.TextChoices):
    MALE = "M", "Male"
    FEMALE = "F", "Female"


class Person(models.Model):
    """Anyone the federations register: players, goalkeepers, officials, referees."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="people")
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    date_of_birth = models.DateField()
    gender = models.CharField(max_length=1, choices=Gender.choices)
    nationality = CountryField()
    is_player = models.BooleanField("player", default=False)
    is_goalkeeper = models.BooleanField("goalkeeper", default=False)
    is_team_official = models.BooleanField("team official", default=False)
    is_referee = models.BooleanField("referee", default=False)
    is_official = models.BooleanField("game official", default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name_plural = "people"
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self):
        return f"{self.last_name.upper()} {self.first_name}"


def passport_scan_path(instance, filename):
    # The stored name never reuses the uploaded name: it is not trusted.
    import uuid

    return f"passports/{instance.person_id or 'new'}/{uuid.uuid4().hex}"


def private_storage():
    from django.core.files.storage import storages

    return storages["private"]


class Passport(models.Model):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="passports")
    issuing_country = CountryField()
    number = models.CharField(max_length=40)
    expiry_date = models.DateField()
    scan = models.FileField(upload_to=passport_scan_path, storage=private_storage, blank=True)
    scan_content_type = models.CharField(max_length=100, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-expiry_date"]
        constraints = [
            models.UniqueConstraint(fields=["issuing_country", "number"], name="unique_passport_number"),
        ]

    def __str__(self):
        return f"{self.issuing_country.code} {self.number}"
