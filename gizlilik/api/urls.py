from django.urls import path

from . import views

# `path`: a site may choose visitor ids with a slash in them; the export's route comes first, or
# the erasure's would take ".../disa-aktar" for a visitor id.
urlpatterns = [
    path("operator/ziyaretci/<path:ziyaretci_id>/disa-aktar", views.ZiyaretciDisaAktarView.as_view(),
         name="operator-ziyaretci-disa-aktar"),
    path("operator/ziyaretci/<path:ziyaretci_id>", views.ZiyaretciView.as_view(), name="operator-ziyaretci"),
]
