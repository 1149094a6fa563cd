from django.urls import path

from . import views

urlpatterns = [
    path("durdur/<str:token>", views.durdur, name="eposta-durdur"),
]
