"""One form of address: the app says "Sie", but the German catalog of Django REST
framework says "du" ("Gib eine gültige E-Mail Adresse an.", "Stelle sicher, dass …").

The msgids below are DRF's own (the e-mail one is Django's too); ``locale/de`` gives them
"Sie" and wins over an installed app's catalog (``LOCALE_PATHS``). They are listed here
so that ``makemessages`` keeps those entries (an msgid no source names would go obsolete).
``tests/api/test_form_of_address.py`` checks every "du" message of DRF's catalog.
"""

from django.utils.translation import gettext_noop as _

DRF_MESSAGES = (
    _("Ensure that there are no more than {max_decimal_places} decimal places."),
    _("Ensure that there are no more than {max_digits} digits in total."),
    _("Ensure that there are no more than {max_whole_digits} digits before the decimal "
      "point."),
    _("Ensure this field has at least {min_length} characters."),
    _("Ensure this field has no more than {max_length} characters."),
    _("Ensure this filename has at most {max_length} characters (it has {length})."),
    _("Ensure this value is greater than or equal to {min_value}."),
    _("Ensure this value is less than or equal to {max_value}."),
    _('Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or '
      'hyphens.'),
    _('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    _("Enter a valid URL."),
    _("Enter a valid email address."),
    _("Upload a valid image. The file you uploaded was either not an image or a corrupted "
      "image."),
)
