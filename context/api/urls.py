from django.urls import path

from . import views

urlpatterns = [
    path("context/customer-info", views.MusteriBilgisiView.as_view(), name="context-customer-info"),
    path("context/page-info", views.SayfaBilgisiView.as_view(), name="context-page-info"),
    path("context/error-log", views.HataLoguView.as_view(), name="context-error-log"),
    path("context/screenshot", views.EkranGoruntusuView.as_view(), name="context-screenshot"),
    # `path`: a site may choose visitor ids with a slash in them.
    path("operator/ziyaretci/<path:ziyaretci_id>", views.OperatorZiyaretciProfilView.as_view(),
         name="operator-ziyaretci-profil"),
    path("operator/context/<path:ziyaretci_id>", views.OperatorBaglamView.as_view(), name="operator-context"),
]
