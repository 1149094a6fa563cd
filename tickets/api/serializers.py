from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from dosyalar.api.serializers import DosyaSerializer
from supportdesk.core.erteleme import ertelendi_verisi
from supportdesk.core.fields import StrictBooleanField, StrictCharField, StrictIntegerField, ZamanField
from supportdesk.core.girdi import ZIYARETCI_ID_MAX
from tenants.api.serializers import EtiketKisaSerializer

from ..models import Ticket
from ..selectors import GORUNUMLER
from ..sla import SIRA as SLA_SIRA
from ..sla import sla_verisi


# --- output: each shape once, the same class builds the answer and describes it in the schema ---
class YanitSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    # Plain string in the schema: the chat message's `gonderen` has a third value (`sistem`), and
    # two enums of one field name make drf-spectacular warn (check --deploy must stay clean).
    gonderen = serializers.CharField(help_text=gettext_lazy("`ziyaretci` ya da `operator`"))
    operator_id = serializers.IntegerField(allow_null=True)
    operator_adi = serializers.SerializerMethodField(
        help_text=gettext_lazy("Operatör yanıtında operatörün görünen adı (ad yoksa \"Temsilci\"); diğerlerinde null."))
    operator_avatar = serializers.SerializerMethodField(
        help_text=gettext_lazy("Operatör yanıtında operatörün avatar adresi (http(s)); yoksa ve diğer yanıtlarda null."))
    icerik = serializers.CharField()
    ekler = DosyaSerializer(many=True)
    zaman = ZamanField()
    ozel = serializers.BooleanField(help_text=gettext_lazy("İç not (yalnızca operatörler görür; ziyaretçiye hiçbir yoldan "
                                                           "ulaşmaz)."))


    # What a visitor sees of the operator who replied (issue 39), as on a chat message: its display
    # name, never its e-mail ("Temsilci" without one), and the avatar set in `/portal/hesap`.
    def get_operator_adi(self, yanit) -> str | None:
        if yanit.operator_id is None:
            # A rule's reply or note (CONTRACT 23) has no operator: the system's name.
            return str(OTOMATIK_YANIT) if yanit.gonderen == "operator" else None
        return (yanit.operator.ad or "").strip() or str(TEMSILCI)

    def get_operator_avatar(self, yanit) -> str | None:
        return (yanit.operator.avatar or None) if yanit.operator_id else None


OTOMATIK_YANIT = gettext_lazy("Otomatik yanıt")
TEMSILCI = gettext_lazy("Temsilci")  # an operator without a display name, as visitors see it


class TicketSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    musteri_id = serializers.IntegerField()
    ziyaretci_id = serializers.CharField()
    konu = serializers.CharField()
    durum = serializers.ChoiceField(choices=Ticket.Durum.values)
    oncelik = serializers.ChoiceField(choices=Ticket.Oncelik.values)
    ad = serializers.CharField()
    email = serializers.CharField()
    olusturulma = ZamanField()
    guncellenme = ZamanField()
    oturum_id = serializers.IntegerField(allow_null=True, help_text=gettext_lazy(
        "Bir operatörün bu talebi oluşturduğu sohbet (`POST /operator/chat/{id}/ticket`); yoksa null."))


class TicketDetaySerializer(TicketSerializer):
    # Read from the selectors' prefetch (ordered replies with their attachments): no query per row.
    yanitlar = YanitSerializer(many=True)


class SlaSaatiSerializer(serializers.Serializer):
    hedef = serializers.CharField(allow_null=True, help_text="ISO 8601 UTC; null while paused")
    durum = serializers.ChoiceField(choices=["bekliyor", "karsilandi", "ihlal", "duraklatildi"])
    kalan_sn = serializers.IntegerField(allow_null=True, help_text="seconds to the due time while it runs (negative: late); "
                                                                      "while paused, the seconds it had left")


class SlaDurumuSerializer(serializers.Serializer):
    ilk_yanit = SlaSaatiSerializer(allow_null=True)
    sonraki_yanit = SlaSaatiSerializer(allow_null=True)
    cozum = SlaSaatiSerializer(allow_null=True)


class _SlaAlani(serializers.Field):
    """The operator shape's `sla` (CONTRACT 17), from the ticket row alone (tickets.sla)."""

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, ticket):
        return sla_verisi(ticket)


@extend_schema_field(SlaDurumuSerializer)
class SlaAlani(_SlaAlani):
    pass



def operator_adi(kullanici) -> str | None:
    """How a colleague is named to operators: its display name, else its e-mail."""
    if kullanici is None:
        return None
    return (kullanici.ad or "").strip() or kullanici.email


class OperatorTicketSerializer(TicketSerializer):
    """A ticket as operators see it (CONTRACT 16): its owner and labels too, and
    `sla` (CONTRACT 17, from the row alone). Lists select the owner
    and prefetch the labels (`selectors.operator_ticket_list`): no query per row."""

    operator_id = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Sorumlu operatör (projenin üyesi) ya da "
                                                                                   "null."))
    operator_adi = serializers.SerializerMethodField()
    etiketler = serializers.SerializerMethodField()
    ekip_id = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Talebin ekibi; null: tüm proje."))

    def get_operator_adi(self, ticket) -> str | None:
        return operator_adi(ticket.operator) if ticket.operator_id else None

    sla = SlaAlani()
    ertelendi_kadar = serializers.SerializerMethodField(
        help_text=gettext_lazy("Erteleme (CONTRACT 24): bu zamana dek, `ziyaretci` (ziyaretçi yazana dek) ya da null."))

    def get_etiketler(self, ticket) -> list[dict]:
        return EtiketKisaSerializer(ticket.etiketler.all(), many=True).data

    def get_ertelendi_kadar(self, ticket) -> str | None:
        return ertelendi_verisi(ticket)


class OperatorTicketDetaySerializer(OperatorTicketSerializer):
    yanitlar = YanitSerializer(many=True)


# --- requests ----------------------------------------------------------------------------------
class EkIdleriField(serializers.ListField):
    def __init__(self, **kwargs):
        super().__init__(child=StrictIntegerField(min_value=1), max_length=10, required=False, allow_null=True, **kwargs)


class TicketOlusturSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=ZIYARETCI_ID_MAX)
    konu = StrictCharField(max_length=200)
    mesaj = StrictCharField(max_length=20000)
    # Optional fields may also be JSON null, meaning "not given" (as in chat/start).
    ad = StrictCharField(max_length=150, required=False, allow_blank=True, allow_null=True, default="")
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, allow_null=True, default="")
    oncelik = serializers.ChoiceField(choices=Ticket.Oncelik.values, required=False, allow_null=True,
                                      default=Ticket.Oncelik.NORMAL)
    ek_idleri = EkIdleriField()
    ekip_id = StrictIntegerField(required=False, allow_null=True, min_value=1,
                                 help_text=gettext_lazy("İsteğe bağlı: ziyaretçinin seçtiği ekip (`widget/init`'in "
                                                        "`ekipler` listesinden; değilse 400)."))

    def validate(self, attrs):
        bos = {"ad": "", "email": "", "oncelik": Ticket.Oncelik.NORMAL}
        return {k: bos.get(k) if v is None else v for k, v in attrs.items()}


class ZiyaretciYanitSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=ZIYARETCI_ID_MAX)
    icerik = StrictCharField(max_length=20000)
    ek_idleri = EkIdleriField()


class OperatorYanitSerializer(serializers.Serializer):
    icerik = StrictCharField(max_length=20000)
    ek_idleri = EkIdleriField(help_text=gettext_lazy("`POST /operator/upload` ile sizin yüklediğiniz, talebin projesindeki "
                                                     "dosyalar."))
    durum = serializers.ChoiceField(choices=Ticket.Durum.values, required=False, allow_null=True)
    ozel = StrictBooleanField(required=False, default=False,
                              help_text=gettext_lazy("İç not: ziyaretçiye gitmez (e-posta dahil), durumu değiştirmez; kapalı "
                                                     "talepte de olur."))
    bahsedilenler = serializers.ListField(
        child=StrictIntegerField(min_value=1), required=False, default=list, max_length=50,
        help_text=gettext_lazy("Notta anılan operatörlerin id'leri (projenin üyeleri; değilse 404). Yalnızca `ozel` ile."))

    def validate(self, attrs):
        if attrs.get("ozel") and attrs.get("durum"):
            raise serializers.ValidationError({"durum": _("İç not durumu değiştirmez.")})
        if attrs.get("bahsedilenler") and not attrs.get("ozel"):
            raise serializers.ValidationError({"bahsedilenler": _("Yalnızca iç notta (ozel: true) operatör anılabilir.")})
        return attrs


class TicketDuzenleSerializer(serializers.Serializer):
    operator_id = StrictIntegerField(required=False, allow_null=True, min_value=1,
                                     help_text=gettext_lazy("Sorumlu operatör (talebin projesinin üyesi; değilse 404) ya da "
                                                            "null."))
    oncelik = serializers.ChoiceField(choices=Ticket.Oncelik.values, required=False)
    ekip_id = StrictIntegerField(required=False, allow_null=True, min_value=1,
                                 help_text=gettext_lazy("Talebin ekibi (projesinin ekibi; değilse 400): ekibin atamasına "
                                                        "döner. null: tüm proje."))

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError({"genel": _("`operator_id`, `oncelik` ya da `ekip_id` verilmeli.")})
        return attrs


class TicketEtiketlerAyarlaSerializer(serializers.Serializer):
    etiket_idleri = serializers.JSONField(help_text=gettext_lazy("Talebin projesindeki etiketlerin id'leri (tüm liste)."))


class DurumSerializer(serializers.Serializer):
    durum = serializers.ChoiceField(choices=Ticket.Durum.values)


# `siralama` of `GET /operator/tickets` -> (cursor fields, newest first?); `sla`: the nearest due
# time first, then the tickets without a running clock (CONTRACT 16, 17; paged by tickets.sla.sla_sayfala).
SIRALAMALAR: dict[str, tuple[tuple[str, ...], bool]] = {
    "guncellenme": (("guncellenme", "id"), True),
    "olusturulma": (("olusturulma", "id"), True),
    "sla": (SLA_SIRA, False),
}


class OperatorIdFiltreField(serializers.CharField):
    """`operator_id` of the ticket list: an id, `ben` (the caller) or `yok` (no owner)."""

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        if data in ("ben", "yok"):
            return data
        if not (data.isascii() and data.isdigit()) or not 0 < int(data) < 2**63:
            raise serializers.ValidationError(_("Bir operatör id'si, `ben` ya da `yok` olmalı."))
        return int(data)


class OperatorTicketFiltreSerializer(serializers.Serializer):
    durum = serializers.ChoiceField(choices=Ticket.Durum.values, required=False)
    sla = serializers.ChoiceField(choices=["ihlal", "yaklasan"], required=False)
    oncelik = serializers.ChoiceField(choices=Ticket.Oncelik.values, required=False)
    musteri_id = serializers.IntegerField(min_value=1, required=False)
    operator_id = OperatorIdFiltreField(required=False)
    etiket_id = serializers.IntegerField(min_value=1, required=False)
    ekip_id = serializers.CharField(required=False, help_text=gettext_lazy("Bir ekip id'si, `benim` ya da `yok`."))
    q = serializers.CharField(required=False, min_length=1, max_length=200)
    siralama = serializers.ChoiceField(choices=list(SIRALAMALAR), required=False, default="guncellenme")
    gorunum = serializers.ChoiceField(choices=list(GORUNUMLER), required=False)
    cursor = serializers.CharField(required=False)
    limit = serializers.IntegerField(required=False)
