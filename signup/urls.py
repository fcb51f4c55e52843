"""Sign-up's routes: the public sign-up form, the door poster's form and the cancel page
(in the ``pages`` namespace), and the console's check-in page and door desk (in
``console``); ``config.urls`` mounts them beside tournaments'."""

from django.urls import path

from signup.pages import checkin, door, registration

urlpatterns = [
    path("me/<str:token>/cancel/", registration.cancel_page, name="me-cancel"),
    path("p/<slug:slug>/register/", registration.register_page, name="register"),
    path("p/<slug:slug>/door/", door.door_page, name="door"),
]

console_urlpatterns = checkin.urlpatterns + door.urlpatterns
