from django.urls import path

from . import views

urlpatterns = [
    path("widget/init", views.WidgetInitView.as_view(), name="widget-init"),
]
