from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from dosyalar.api.serializers import DosyaSerializer
from supportdesk.core.fields import StrictCharField, StrictIntegerField, ZamanField
from supportdesk.core.girdi import ZIYARETCI_ID_MAX

from ..models import Ticket
from ..sla import sla_verisi


# --- output: each shape once, the same class builds the answer and describes it in the schema ---
class YanitSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    # Plain string in the schema: the chat message's `gonderen` has a third value (`sistem`), and
    # two enums of one field name make drf-spectacular warn (check --deploy must stay clean).
    gonderen = serializers.CharField(help_text="`ziyaretci` ya da `operator`")
    operator_id = serializers.IntegerField(allow_null=True)
    icerik = serializers.CharField()
    ekler = DosyaSerializer(many=True)
    zaman = ZamanField()


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


class TicketDetaySerializer(TicketSerializer):
    # Read from the selectors' prefetch (ordered replies with their attachments): no query per row.
    yanitlar = YanitSerializer(many=True)


class SlaSaatiSerializer(serializers.Serializer):
    hedef = serializers.CharField(allow_null=True, help_text="ISO 8601 UTC; null while paused")
    durum = serializers.ChoiceField(choices=["bekliyor", "karsilandi", "ihlal", "duraklatildi"])
    kalan_sn = serializers.IntegerField(allow_null=True, help_text="seconds to the due time while it runs (negative: late)")


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


class OperatorTicketSerializer(TicketSerializer):
    """The operator's ticket shape: the widget's plus `sla` (CONTRACT 17)."""

    sla = SlaAlani()


class OperatorTicketDetaySerializer(TicketDetaySerializer):
    sla = SlaAlani()


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

    def validate(self, attrs):
        bos = {"ad": "", "email": "", "oncelik": Ticket.Oncelik.NORMAL}
        return {k: bos.get(k) if v is None else v for k, v in attrs.items()}


class ZiyaretciYanitSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=ZIYARETCI_ID_MAX)
    icerik = StrictCharField(max_length=20000)
    ek_idleri = EkIdleriField()


class OperatorYanitSerializer(serializers.Serializer):
    icerik = StrictCharField(max_length=20000)
    ek_idleri = EkIdleriField(help_text="`POST /operator/upload` ile sizin yüklediğiniz, talebin projesindeki dosyalar.")
    durum = serializers.ChoiceField(choices=Ticket.Durum.values, required=False, allow_null=True)


class DurumSerializer(serializers.Serializer):
    durum = serializers.ChoiceField(choices=Ticket.Durum.values)


class OperatorTicketFiltreSerializer(serializers.Serializer):
    durum = serializers.ChoiceField(choices=Ticket.Durum.values, required=False)
    sla = serializers.ChoiceField(choices=["ihlal", "yaklasan"], required=False)
    siralama = serializers.ChoiceField(choices=["guncellenme", "olusturulma", "sla"], required=False)
    oncelik = serializers.ChoiceField(choices=Ticket.Oncelik.values, required=False)
    musteri_id = serializers.IntegerField(min_value=1, required=False)
    cursor = serializers.CharField(required=False)
    limit = serializers.IntegerField(required=False)
