"""Forms of sign-up: the public sign-up form, the door's, and the director's sign-up
settings. They validate input; the services (``signup.services``) do the writing."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.forms import ClubChoiceField, refused_not_cut

DOOR_KEY = re.compile(r"[A-Za-z0-9_-]{20,64}")


class RegistrationSettingsForm(forms.Form):
    """Sign-up settings of a tournament (``registrations.registration_configure``)."""

    open = forms.BooleanField(label=_("Registration open (on the public page)"),
                              required=False)
    cap = forms.IntegerField(label=_("Places (empty: no limit)"), required=False,
                             min_value=1, max_value=10_000)
    deadline = forms.DateTimeField(
        label=_("Registration deadline"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    check_in = forms.BooleanField(label=_("Check-in at the door: only checked-in players "
                                          "are drawn"), required=False)
    release_at = forms.DateTimeField(
        label=_("Release the places of those not checked in at"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    walk_in = forms.BooleanField(label=_("Walk-ins: a sign-up at the door (door poster) "
                                         "is checked in at once"), required=False)


class SignUpForm(forms.Form):
    """The public sign-up form. ``website`` is a honeypot: hidden from people, a bot
    that fills it is refused."""

    name = forms.CharField(label=_("Your name"), max_length=120)
    club = ClubChoiceField(label=_("Club"), queryset=Club.objects.none(),
                                  required=False, empty_label=_("no club (ohne Verein)"))
    club_name = forms.CharField(label=_("or another club"), max_length=120, required=False)
    email = forms.EmailField(label=_("E-mail (optional, for the confirmation)"),
                             required=False, max_length=254)
    publication = forms.ChoiceField(label=_("Name on public pages"), choices=[])
    website = forms.CharField(required=False, max_length=200, label=_("Leave this empty"))

    def __init__(self, *args, clubs=None, **kwargs):
        from clubs.models import Player

        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()
        self.fields["publication"].choices = Player.Publication.choices
        self.fields["publication"].initial = Player.Publication.FULL
        refused_not_cut(self, "name", "club_name")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The name must not be blank."))
        return name

    def clean(self):
        data = super().clean()
        # the list starts on the host club: a club typed beside it is the one meant
        # ("or another club"), and makes no one a member of the host club
        if (data.get("club_name") or "").strip():
            data["club"] = None
        return data


class DoorForm(SignUpForm):
    """The door form: the sign-up form with a one-time key (``door_key``, hidden, new with
    every page) that tells a double tap of the same form from another phone's sign-up."""

    door_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def clean_door_key(self):
        key = self.cleaned_data["door_key"]
        # a key the page did not make is no key (the field is nobody's to fill in)
        return key if DOOR_KEY.fullmatch(key) else ""
