from django.urls import path
from django.views.generic import RedirectView

from .demo_views import DemoView

urlpatterns = [
    path("", RedirectView.as_view(url="/portal/", permanent=False)),
    path("demo/", DemoView.as_view(), name="demo"),
]
