from django.urls import path

from . import views

urlpatterns = [
    path("context/customer-info", views.MusteriBilgisiView.as_view(), name="context-customer-info"),
    path("context/page-info", views.SayfaBilgisiView.as_view(), name="context-page-info"),
    path("context/error-log", views.HataLoguView.as_view(), name="context-error-log"),
    path("context/screenshot", views.EkranGoruntusuView.as_view(), name="context-screenshot"),
    # `operator/ziyaretci/<id>` (the profile, OperatorZiyaretciProfilView) is routed by gizlilik,
    # whose view adds the erasure's DELETE on the same path (CONTRACT 16, 18).
    path("operator/context/<path:ziyaretci_id>", views.OperatorBaglamView.as_view(), name="operator-context"),
]
