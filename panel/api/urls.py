from django.urls import path

from . import views

urlpatterns = [
    path("operator/dashboard", views.DashboardView.as_view(), name="operator-dashboard"),
]
