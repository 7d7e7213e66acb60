"""The messages of Django and DRF that the API answers with, for our own catalog.

Django looks a message up in ``LOCALE_PATHS`` before any installed app's catalog, so a message
listed here (with ``gettext_noop``: extraction puts it in locale/*/LC_MESSAGES/django.po, the
code does nothing with it) is answered in our translation, whatever DRF's or Django's own
catalogs hold (and they hold nothing for Lao or Cebuano). Each msgid is exactly the library's
text, placeholders included: DRF's are ``str.format`` ones (``{max_length}``), Django's
``%(name)s`` or ``%d``; a translation keeps them as they are.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext

#: DRF: fields' and serializers' ``default_error_messages``, exceptions' ``default_detail``,
#: pagination's and validators' messages.
DRF_MESSAGES = (
    gettext_noop("This field is required."),  # rest_framework.fields.Field[required]
    gettext_noop("This field may not be null."),  # rest_framework.fields.Field[null]
    gettext_noop("Must be a valid boolean."),  # rest_framework.fields.BooleanField[invalid]
    gettext_noop("Not a valid string."),  # rest_framework.fields.CharField[invalid]
    gettext_noop("This field may not be blank."),  # rest_framework.fields.CharField[blank]
    gettext_noop(
        "Ensure this field has no more than {max_length} characters."
    ),  # rest_framework.fields.CharField[max_length]
    gettext_noop(
        "Ensure this field has at least {min_length} characters."
    ),  # rest_framework.fields.CharField[min_length]
    gettext_noop("Enter a valid email address."),  # rest_framework.fields.EmailField[invalid]
    gettext_noop(
        "This value does not match the required pattern."
    ),  # rest_framework.fields.RegexField[invalid]
    gettext_noop(
        'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'
    ),  # rest_framework.fields.SlugField[invalid]
    gettext_noop(
        'Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.'
    ),  # rest_framework.fields.SlugField[invalid_unicode]
    gettext_noop("Enter a valid URL."),  # rest_framework.fields.URLField[invalid]
    gettext_noop("Must be a valid UUID."),  # rest_framework.fields.UUIDField[invalid]
    gettext_noop("A valid integer is required."),  # rest_framework.fields.IntegerField[invalid]
    gettext_noop(
        "Ensure this value is less than or equal to {max_value}."
    ),  # rest_framework.fields.IntegerField[max_value]
    gettext_noop(
        "Ensure this value is greater than or equal to {min_value}."
    ),  # rest_framework.fields.IntegerField[min_value]
    gettext_noop(
        "String value too large."
    ),  # rest_framework.fields.IntegerField[max_string_length]
    gettext_noop("A valid number is required."),  # rest_framework.fields.FloatField[invalid]
    gettext_noop(
        "Integer value too large to convert to float"
    ),  # rest_framework.fields.FloatField[overflow]
    gettext_noop(
        "Ensure that there are no more than {max_digits} digits in total."
    ),  # rest_framework.fields.DecimalField[max_digits]
    gettext_noop(
        "Ensure that there are no more than {max_decimal_places} decimal places."
    ),  # rest_framework.fields.DecimalField[max_decimal_places]
    gettext_noop(
        "Ensure that there are no more than {max_whole_digits} digits before the decimal point."
    ),  # rest_framework.fields.DecimalField[max_whole_digits]
    gettext_noop(
        "Datetime has wrong format. Use one of these formats instead: {format}."
    ),  # rest_framework.fields.DateTimeField[invalid]
    gettext_noop(
        "Expected a datetime but got a date."
    ),  # rest_framework.fields.DateTimeField[date]
    gettext_noop(
        'Invalid datetime for the timezone "{timezone}".'
    ),  # rest_framework.fields.DateTimeField[make_aware]
    gettext_noop("Datetime value out of range."),  # rest_framework.fields.DateTimeField[overflow]
    gettext_noop(
        "Date has wrong format. Use one of these formats instead: {format}."
    ),  # rest_framework.fields.DateField[invalid]
    gettext_noop(
        "Expected a date but got a datetime."
    ),  # rest_framework.fields.DateField[datetime]
    gettext_noop(
        "Time has wrong format. Use one of these formats instead: {format}."
    ),  # rest_framework.fields.TimeField[invalid]
    gettext_noop(
        '"{input}" is not a valid choice.'
    ),  # rest_framework.fields.ChoiceField[invalid_choice]
    gettext_noop(
        'Expected a list of items but got type "{input_type}".'
    ),  # rest_framework.fields.MultipleChoiceField[not_a_list]
    gettext_noop(
        "This selection may not be empty."
    ),  # rest_framework.fields.MultipleChoiceField[empty]
    gettext_noop("This list may not be empty."),  # rest_framework.fields.ListField[empty]
    gettext_noop(
        "Ensure this field has at least {min_length} elements."
    ),  # rest_framework.fields.ListField[min_length]
    gettext_noop(
        "Ensure this field has no more than {max_length} elements."
    ),  # rest_framework.fields.ListField[max_length]
    gettext_noop(
        'Expected a dictionary of items but got type "{input_type}".'
    ),  # rest_framework.fields.DictField[not_a_dict]
    gettext_noop("This dictionary may not be empty."),  # rest_framework.fields.DictField[empty]
    gettext_noop("Value must be valid JSON."),  # rest_framework.fields.JSONField[invalid]
    gettext_noop(
        "Invalid data. Expected a dictionary, but got {datatype}."
    ),  # rest_framework.serializers.Serializer[invalid]
    gettext_noop(
        'Invalid pk "{pk_value}" - object does not exist.'
    ),  # rest_framework.relations.PrimaryKeyRelatedField[does_not_exist]
    gettext_noop(
        "Incorrect type. Expected pk value, received {data_type}."
    ),  # rest_framework.relations.PrimaryKeyRelatedField[incorrect_type]
    gettext_noop("Malformed request."),  # rest_framework.exceptions.ParseError
    gettext_noop(
        "Incorrect authentication credentials."
    ),  # rest_framework.exceptions.AuthenticationFailed
    gettext_noop(
        "Authentication credentials were not provided."
    ),  # rest_framework.exceptions.NotAuthenticated
    gettext_noop(
        "You do not have permission to perform this action."
    ),  # rest_framework.exceptions.PermissionDenied
    gettext_noop("Not found."),  # rest_framework.exceptions.NotFound
    gettext_noop('Method "{method}" not allowed.'),  # rest_framework.exceptions.MethodNotAllowed
    gettext_noop(
        "Could not satisfy the request Accept header."
    ),  # rest_framework.exceptions.NotAcceptable
    gettext_noop(
        'Unsupported media type "{media_type}" in request.'
    ),  # rest_framework.exceptions.UnsupportedMediaType
    gettext_noop("Request was throttled."),  # rest_framework.exceptions.Throttled
    gettext_noop("Invalid input."),  # rest_framework.exceptions.ValidationError
    gettext_noop(
        "Expected available in {wait} second."
    ),  # rest_framework.exceptions.Throttled.extra_detail_singular
    gettext_noop(
        "Expected available in {wait} seconds."
    ),  # rest_framework.exceptions.Throttled.extra_detail_plural
    gettext_noop(
        "Invalid page."
    ),  # rest_framework.pagination.PageNumberPagination.invalid_page_message
    gettext_noop(
        "Invalid cursor"
    ),  # rest_framework.pagination.CursorPagination.invalid_cursor_message
    gettext_noop("This field must be unique."),  # rest_framework.validators.UniqueValidator.message
)

#: Django: form fields (django-filter's filters are form fields), validators, the username
#: validator and the password validators (docs/api.md, "Passwords").
DJANGO_MESSAGES = (
    gettext_noop("Enter a whole number."),  # django.forms.IntegerField[invalid]
    gettext_noop("Enter a number."),  # django.forms.FloatField[invalid]
    gettext_noop("Enter a valid date."),  # django.forms.DateField[invalid]
    gettext_noop("Enter a valid date/time."),  # django.forms.DateTimeField[invalid]
    gettext_noop(
        "Select a valid choice. %(value)s is not one of the available choices."
    ),  # django.forms.ChoiceField[invalid_choice]
    gettext_noop("Enter a list of values."),  # django.forms.MultipleChoiceField[invalid_list]
    gettext_noop(
        "Ensure this value is less than or equal to %(limit_value)s."
    ),  # django.core.validators.MaxValueValidator
    gettext_noop(
        "Ensure this value is greater than or equal to %(limit_value)s."
    ),  # django.core.validators.MinValueValidator
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),  # django.contrib.auth.validators.UnicodeUsernameValidator
    gettext_noop(
        "The password is too similar to the %(verbose_name)s."
    ),  # UserAttributeSimilarityValidator
    gettext_noop("This password is too common."),  # CommonPasswordValidator
    gettext_noop("This password is entirely numeric."),  # NumericPasswordValidator
)


def plural_messages() -> tuple[str, ...]:
    """Django's messages with a plural form (``ngettext``: the catalog holds both forms), as
    the active language gives them for a count of 2."""
    return (
        # MinimumLengthValidator
        ngettext(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
            2,
        ),
        ngettext(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
            2,
        ),
    )
