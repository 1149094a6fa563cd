from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.shortcuts import redirect
from django.urls import reverse

from chat import uyeler, yonlendirme
from tenants import admin as tenants_admin
from tenants import ekip
from tenants.models import Kullanici, Musteri, Uyelik

from .models import SelfServisProje


@admin.register(SelfServisProje)
class SelfServisProjeAdmin(admin.ModelAdmin):
    list_display = ("kullanici", "musteri", "olusturulma")
    list_select_related = ("kullanici", "musteri")
    search_fields = ("kullanici__email", "musteri__firma_adi")
    date_hierarchy = "olusturulma"
    raw_id_fields = ("kullanici", "musteri")


# --- tenants, memberships and users: the admin's writes go through chat's actions (issue 40) ---
# `tenants/admin.py` registers these pages, but `tenants` cannot call up into `chat`, where a
# member's chats are handed back when it goes and the queue drains when a change makes room. The
# portal, above both, re-registers them with the writes routed through `chat.uyeler` and
# `chat.yonlendirme` (the same actions as the portal's pages and the API). A user's status edited
# here (`durum`) is not routed: the periodic `chat.atama_taramasi` frees or fills within its interval.
class _UyelikFormSet(BaseInlineFormSet):
    def clean(self):
        super().clean()
        for form in self.deleted_forms:
            uyelik = form.instance
            if uyelik.pk and uyelik.rol == Uyelik.Rol.SAHIP and ekip.son_sahip_mi(uyelik):
                raise ValidationError(ekip.SON_SAHIP_MESAJI)

    def delete_existing(self, obj, commit=True):
        if commit:
            uyeler.uyeyi_cikar(uyelik=obj)

    def save_existing(self, form, obj, commit=True):
        # A changed membership (order, role, muting, cap): saved, then the queue drains.
        uyelik = form.save(commit=False)
        return uyeler.uyeligi_kaydet(uyelik=uyelik) if commit else uyelik


class UyelikInline(tenants_admin.UyelikInline):
    formset = _UyelikFormSet


admin.site.unregister(Kullanici)
admin.site.unregister(Musteri)
admin.site.unregister(Uyelik)


@admin.register(Kullanici)
class KullaniciAdmin(tenants_admin.KullaniciAdmin):
    inlines = [UyelikInline]

    def delete_model(self, request, obj):
        uyeler.kullaniciyi_sil(kullanici=obj)

    def delete_queryset(self, request, queryset):
        for kullanici in queryset:
            uyeler.kullaniciyi_sil(kullanici=kullanici)


@admin.register(Musteri)
class MusteriAdmin(tenants_admin.MusteriAdmin):
    inlines = [UyelikInline]

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        # `tenants.services.musteri_duzenle` (checks, events, the audit log), then a new routing
        # mode drains the queue.
        degisen = {a: form.cleaned_data[a] for a in form.changed_data if a in tenants_admin.DUZENLENEN}
        yonlendirme.musteri_duzenle(musteri=obj, degisiklikler=degisen, kullanici=request.user)


@admin.register(Uyelik)
class UyelikAdmin(tenants_admin.UyelikAdmin):
    def delete_view(self, request, object_id, extra_context=None):
        # The last owner stays (CONTRACT 13): its delete page says so and leaves it. (Not through
        # has_delete_permission: the tenant's own delete checks it for every membership it takes.)
        uyelik = self.get_object(request, object_id)
        if uyelik is not None and uyelik.rol == Uyelik.Rol.SAHIP and ekip.son_sahip_mi(uyelik):
            self.message_user(request, ekip.SON_SAHIP_MESAJI, messages.ERROR)
            return redirect(reverse("admin:tenants_uyelik_change", args=[uyelik.pk]))
        return super().delete_view(request, object_id, extra_context)

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        uyeler.uyeligi_kaydet(uyelik=obj)

    def delete_model(self, request, obj):
        uyeler.uyeyi_cikar(uyelik=obj)

    def delete_queryset(self, request, queryset):
        for uyelik in queryset:
            uyeler.uyeyi_cikar(uyelik=uyelik)
