"""factory_boy factories for the models, so tests build what they need in one line."""

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, Player
from tournaments.models import Participant, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    is_staff = False
    password = factory.PostGenerationMethodCall("set_password", "pw-Stichliste-1")

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class StaffFactory(UserFactory):
    is_staff = True


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Skatclub {n}")
    slug = factory.Sequence(lambda n: f"skatclub-{n}")
    city = "Altenburg"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Spieler {n}")
    club = factory.SubFactory(ClubFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Turnier {n}")
    slug = factory.Sequence(lambda n: f"turnier-{n}")
    game = "skat"
    rules = factory.LazyFunction(dict)
    published = True


class ParticipantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Participant

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    start_number = factory.Sequence(lambda n: n + 1)
    checked_in = True
