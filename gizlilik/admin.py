from django.contrib import admin

from .models import BekleyenDosyaSilme


@admin.register(BekleyenDosyaSilme)
class BekleyenDosyaSilmeAdmin(admin.ModelAdmin):
    list_display = ("ad", "olusturulma")
    readonly_fields = ("ad", "olusturulma")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
