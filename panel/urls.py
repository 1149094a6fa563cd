from django.urls import path

from . import views

urlpatterns = [
    path("", views.konsol, name="panel"),
]
