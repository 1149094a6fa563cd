from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin

from . import services
from .models import Kullanici, Musteri, Uyelik


class UyelikInline(admin.TabularInline):
    model = Uyelik
    extra = 0
    autocomplete_fields = ["kullanici", "musteri"]
    fields = ["kullanici", "musteri", "rol", "sira", "sessize_alindi", "max_chat_per_tenant"]


@admin.register(Kullanici)
class KullaniciAdmin(UserAdmin):
    ordering = ["email"]
    list_display = ["email", "ad", "musteri", "durum", "is_active", "is_staff", "date_joined"]
    list_filter = ["is_active", "is_staff", "durum"]
    search_fields = ["email", "ad"]
    autocomplete_fields = ["musteri"]
    inlines = [UyelikInline]
    fieldsets = [
        (None, {"fields": ["email", "password", "ad", "musteri", "durum"]}),
        ("Yetkiler", {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]}),
        ("Tarihler", {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "password1", "password2"]})]


@admin.register(Musteri)
class MusteriAdmin(admin.ModelAdmin):
    list_display = ["id", "firma_adi", "aktif", "kimlik_dogrulama_zorunlu", "trial_bitis", "olusturulma"]
    list_filter = ["aktif", "kimlik_dogrulama_zorunlu"]
    search_fields = ["firma_adi", "api_key"]
    readonly_fields = ["api_key", "api_secret", "olusturulma"]
    inlines = [UyelikInline]
    actions = ["widget_anahtarini_yenile", "api_secret_yenile", "devre_disi_birak", "etkinlestir"]

    @admin.action(description="Projeyi devre dışı bırak (widget anahtarı hemen çalışmaz)")
    def devre_disi_birak(self, request, queryset):
        for musteri in queryset:
            services.musteri_aktiflik_ayarla(musteri=musteri, aktif=False)
        self.message_user(request, f"{queryset.count()} proje devre dışı bırakıldı.", messages.SUCCESS)

    @admin.action(description="Projeyi yeniden etkinleştir")
    def etkinlestir(self, request, queryset):
        for musteri in queryset:
            services.musteri_aktiflik_ayarla(musteri=musteri, aktif=True)
        self.message_user(request, f"{queryset.count()} proje etkinleştirildi.", messages.SUCCESS)

    @admin.action(description="Widget anahtarını yenile")
    def widget_anahtarini_yenile(self, request, queryset):
        for musteri in queryset:
            services.musteri_anahtar_yenile(musteri=musteri, hangisi="api_key")
        self.message_user(request, f"{queryset.count()} projenin widget anahtarı yenilendi.", messages.SUCCESS)

    @admin.action(description="API gizli anahtarını yenile")
    def api_secret_yenile(self, request, queryset):
        for musteri in queryset:
            services.musteri_anahtar_yenile(musteri=musteri, hangisi="api_secret")
        self.message_user(request, f"{queryset.count()} projenin gizli anahtarı yenilendi.", messages.SUCCESS)


@admin.register(Uyelik)
class UyelikAdmin(admin.ModelAdmin):
    list_display = ["kullanici", "musteri", "rol", "sira", "sessize_alindi", "max_chat_per_tenant"]
    list_filter = ["rol", "sessize_alindi"]
    search_fields = ["kullanici__email", "musteri__firma_adi"]
    autocomplete_fields = ["kullanici", "musteri"]
