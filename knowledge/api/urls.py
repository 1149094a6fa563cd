from django.urls import path

from . import views as v

urlpatterns = [
    path("widget/kb/search", v.KbSearchView.as_view(), name="widget-kb-search"),
    path("widget/kb/categories", v.KbCategoriesView.as_view(), name="widget-kb-categories"),
    path("widget/kb/article/<str:slug>", v.KbArticleView.as_view(), name="widget-kb-article"),
    path("widget/campaigns", v.CampaignsView.as_view(), name="widget-campaigns"),
]
