"""Input checks and output shapes of the chat API (CONTRACT 3).

Output is built by the plain `*_verisi` functions (the hot polling path stays cheap); the
Serializer classes beside them describe the same shapes for the OpenAPI schema and validate input.
"""
import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from dosyalar.api.serializers import DosyaSerializer as EkSerializer
from dosyalar.api.serializers import dosya_verisi
from supportdesk.core.dil import dilde, widget_dili
from supportdesk.core.erteleme import ertelendi_verisi
from supportdesk.core.fields import StrictBooleanField, StrictCharField, StrictIntegerField, ZamanField, utc_iso
from tenants.api.serializers import EtiketKisaSerializer
from tenants.ayarlar import mesai_verisi
from tenants.etiketler import etiket_kisa_verisi
from tickets.api.serializers import SlaSaatiSerializer
from tickets.models import Ticket

from ..adimlar import TEMSILCI
from ..models import OTOMATIK_YANIT, Mesaj, Oturum
from ..selectors import GORUNUMLER
from ..services import operator_gorunen_adi
from ..sla import sla_verisi


# --- output --------------------------------------------------------------------------------
def _zaman(value):
    return utc_iso(value)


def oturum_verisi(oturum: Oturum) -> dict:
    """A chat as operators see it: with its labels (CONTRACT 16; lists prefetch them, no query per
    row), its team (CONTRACT 22), the ticket an operator made of it and its first-response clock
    (CONTRACT 24, from the row alone). The widget's shape (`widget_oturum_verisi`) never carries them."""
    return {**_oturum_ortak(oturum), "etiketler": [etiket_kisa_verisi(e) for e in oturum.etiketler.all()],
            "ekip_id": oturum.ekip_id,  # CONTRACT 22: operators' shape only
            "ertelendi_kadar": ertelendi_verisi(oturum),
            "ticket_id": ticket_id(oturum), "sla": sla_verisi(oturum)}


def ticket_id(oturum: Oturum) -> int | None:
    # Lists and frames join it in (`selectors.ticket_idli`, `_ticket_id`); else one indexed read.
    if hasattr(oturum, "_ticket_id"):
        return oturum._ticket_id
    return Oturum.objects.filter(pk=oturum.pk).values_list("ticket__id", flat=True).first()


def _oturum_ortak(oturum: Oturum) -> dict:
    return {
        "id": oturum.id,
        "musteri_id": oturum.musteri_id,
        "ziyaretci_id": oturum.ziyaretci_id,
        "ziyaretci_adi": oturum.ziyaretci_adi,
        "kanal": oturum.kanal,
        "durum": oturum.durum,
        "operator_id": oturum.operator_id,
        "baslangic": _zaman(oturum.baslangic),
        "kabul_zamani": _zaman(oturum.kabul_zamani),
        "bitis_zamani": _zaman(oturum.bitis_zamani),
        "kapatan": oturum.kapatan,
        "puan": oturum.puan,
        "puan_yorumu": oturum.puan_yorumu,
        "son_mesaj": oturum.son_mesaj,
        "okunmamis": oturum.okunmamis,
        "ticket_onerisi": oturum.ticket_onerildi is not None and oturum.durum == Oturum.Durum.BEKLIYOR,
    }


def widget_oturum_verisi(oturum: Oturum, *, sira_no: int | None, cevrimici_operator: bool) -> dict:
    """The visitor's view: the session plus its place in the queue and whether anyone is online."""
    return {**_oturum_ortak(oturum), "sira_no": sira_no, "cevrimici_operator": cevrimici_operator,
            # issue 39: the read marks of the visitor's messages survive a reload
            "operator_son_okunan": oturum.operator_son_okunan}


def widget_mesai_verisi(musteri, request, *, simdi=None) -> dict:
    """`data.mesai` (CONTRACT 15) in the widget's language (CONTRACT 19: the tenant's `dil`,
    `otomatik` following the browser), as the widget's own words are, not in the request's.
    `simdi`: the instant a service of the same request decided at (else now)."""
    with dilde(widget_dili(musteri, request)):
        return mesai_verisi(musteri, simdi)


def mesaj_verisi(mesaj: Mesaj, *, request=None) -> dict:
    return {
        "id": mesaj.id,
        "oturum_id": mesaj.oturum_id,
        "gonderen": mesaj.gonderen,
        "operator_id": mesaj.operator_id,
        "operator_adi": _operator_adi(mesaj),
        "operator_avatar": _operator_avatar(mesaj),
        "icerik": mesaj.icerik,
        "ek": _ek_verisi(mesaj, request=request),
        "zaman": _zaman(mesaj.zaman),
        # CONTRACT 16: an internal note is never given to a visitor, so the widget only ever sees false.
        "ozel": mesaj.ozel,
    }


def _operator_adi(mesaj: Mesaj) -> str | None:
    # Lists carry the name joined in (`_operator_adi`, selectors.mesaj_sayfasi); a message just
    # written carries its operator object. Either way no query per message.
    if mesaj.gonderen != Mesaj.Gonderen.OPERATOR:
        # A rule's canned response (CONTRACT 23) is sent from `sistem`'s name "Otomatik yanıt".
        return str(OTOMATIK_YANIT) if mesaj.otomatik else None
    if hasattr(mesaj, "_operator_adi"):
        return (mesaj._operator_adi or "").strip() or str(TEMSILCI)
    return operator_gorunen_adi(mesaj.operator) if mesaj.operator_id else str(TEMSILCI)


def _operator_avatar(mesaj: Mesaj) -> str | None:
    # The avatar address the operator set in `/portal/hesap` (issue 39: the widget shows it beside
    # the name); null on other messages and when none is set. Joined like the name.
    if mesaj.gonderen != Mesaj.Gonderen.OPERATOR:
        return None
    if hasattr(mesaj, "_operator_avatar"):
        return mesaj._operator_avatar or None
    return (mesaj.operator.avatar or None) if mesaj.operator_id else None


def _ek_verisi(mesaj: Mesaj, *, request=None) -> dict | None:
    # The same `url` as the upload's own answer (absolute with the request: the widget runs on
    # the tenants' sites).
    return None if mesaj.ek_id is None else dosya_verisi(mesaj.ek, request=request)


def hazir_yanit_verisi(yanit) -> dict:
    return {"id": yanit.id, "musteri_id": yanit.musteri_id, "kisayol": yanit.kisayol, "baslik": yanit.baslik,
            "icerik": yanit.icerik}


class ChatSlaSerializer(serializers.Serializer):
    ilk_yanit = SlaSaatiSerializer(allow_null=True)


class _OturumOrtakSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    musteri_id = serializers.IntegerField()
    ziyaretci_id = serializers.CharField()
    ziyaretci_adi = serializers.CharField()
    # Plain strings in the schema (values in help_text): enum components of the same values
    # in other apps would collide in drf-spectacular's naming.
    kanal = serializers.CharField(help_text="widget | api")
    durum = serializers.CharField(help_text="bekliyor | aktif | kapandi")
    operator_id = serializers.IntegerField(allow_null=True)
    baslangic = ZamanField()
    kabul_zamani = ZamanField(allow_null=True)
    bitis_zamani = ZamanField(allow_null=True)
    kapatan = serializers.CharField(allow_null=True, help_text="ziyaretci | operator | sistem")
    puan = serializers.IntegerField(allow_null=True, min_value=1, max_value=5)
    puan_yorumu = serializers.CharField()
    son_mesaj = serializers.CharField(allow_null=True)
    okunmamis = serializers.IntegerField()
    ticket_onerisi = serializers.BooleanField(
        help_text=gettext_lazy("Sohbet bekliyor, projede uzun süredir çevrimiçi kimse yok: ziyaretçiye destek talebi bırakması "
                  "önerildi (`POST /widget/chat/ticket`)."))


class OturumSerializer(_OturumOrtakSerializer):
    etiketler = EtiketKisaSerializer(many=True, help_text=gettext_lazy("Sohbetin etiketleri (yalnızca operatörlere)."))
    ekip_id = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Sohbetin ekibi; null: tüm proje."))
    ertelendi_kadar = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Erteleme (CONTRACT 24): bu zamana dek, `ziyaretci` (ziyaretçi yazana dek) "
                                                "ya da null."))
    ticket_id = serializers.IntegerField(allow_null=True, help_text=gettext_lazy(
        "Bir operatörün bu sohbetten oluşturduğu destek talebi (`POST /operator/chat/{id}/ticket`); yoksa null."))
    sla = ChatSlaSerializer(help_text=gettext_lazy("Sohbetin ilk yanıt hedefi (`chat_ilk_yanit_sn`), talebin "
                                                   "`sla.ilk_yanit` biçiminde."))


class WidgetOturumSerializer(_OturumOrtakSerializer):
    sira_no = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Sıradaki yeri (1 = sıradaki); beklemiyorsa "
                                                                               "null."))
    cevrimici_operator = serializers.BooleanField(help_text=gettext_lazy("Projenin çevrimiçi (ya da meşgul) operatörü var mı."))
    operator_son_okunan = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("Operatörün okuduğu son mesajın id'si (operatör soketinin `okundu` "
                                                "çerçevesi); hiç bildirmediyse null."))


class MesajSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    oturum_id = serializers.IntegerField()
    gonderen = serializers.CharField(help_text="ziyaretci | operator | sistem")
    operator_id = serializers.IntegerField(allow_null=True)
    operator_adi = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Operatör mesajında operatörün görünen adı (ad yoksa \"Temsilci\"); bir kuralın "
                                                "otomatik yanıtında (`sistem`) \"Otomatik yanıt\"; diğerlerinde null."))
    operator_avatar = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Operatör mesajında operatörün avatar adresi (http(s)); yoksa ve diğer "
                                                "mesajlarda null."))
    icerik = serializers.CharField(help_text=gettext_lazy("Düz metin; hiçbir yerde HTML olarak işlenmez."))
    ek = EkSerializer(allow_null=True)
    zaman = ZamanField()
    ozel = serializers.BooleanField(help_text=gettext_lazy("İç not (yalnızca operatörler görür; ziyaretçiye hiçbir yoldan "
                                                           "ulaşmaz)."))


class HazirYanitSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    musteri_id = serializers.IntegerField()
    kisayol = serializers.CharField()
    baslik = serializers.CharField()
    icerik = serializers.CharField()


# --- input ---------------------------------------------------------------------------------
class ChatBaslatSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=128)
    ad = StrictCharField(required=False, allow_blank=True, allow_null=True, max_length=100)
    email = StrictCharField(required=False, allow_blank=True, allow_null=True, max_length=254)
    mesaj = StrictCharField(required=False, allow_null=True, trim_whitespace=False, allow_blank=True,
                            help_text=gettext_lazy("İsteğe bağlı ilk mesaj (1-5000 karakter)."))
    kanal = serializers.ChoiceField(choices=Oturum.Kanal.values, required=False, default=Oturum.Kanal.WIDGET)
    ekip_id = StrictIntegerField(required=False, allow_null=True, min_value=1,
                                 help_text=gettext_lazy("İsteğe bağlı: ziyaretçinin seçtiği ekip (`widget/init`'in "
                                                        "`ekipler` listesinden; değilse 400)."))


class WidgetOturumIstekSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=128)
    oturum_id = StrictIntegerField(min_value=1)


class WidgetMesajSerializer(WidgetOturumIstekSerializer):
    icerik = StrictCharField(allow_blank=True, trim_whitespace=False, help_text=gettext_lazy("1-5000 karakter düz metin."))
    ek_id = StrictIntegerField(required=False, allow_null=True, min_value=1)


_VEKIL = re.compile("[\ud800-\udfff]")


def widget_mesaj_hizli(data) -> dict | None:
    """`WidgetMesajSerializer`'s `validated_data` for a body it certainly accepts, without the
    serializer (its fields are deep-copied per instance: the visitor's message is the widget's
    hottest write, issue 41); None for anything else, which the serializer then checks and refuses
    with its own messages. Only ever stricter than the serializer (asserted against it,
    chat/tests/test_widget_mesaj_dogrulama.py)."""
    if type(data) is not dict:
        return None
    ziyaretci_id, oturum_id, icerik = data.get("ziyaretci_id"), data.get("oturum_id"), data.get("icerik")
    if (type(ziyaretci_id) is not str or not 0 < len(ziyaretci_id.strip()) <= 128
            or not ziyaretci_id.isprintable()):
        return None  # CharField(max_length=128): trimmed, not blank; no NUL nor surrogate
    if type(oturum_id) is not int or oturum_id < 1:
        return None
    if type(icerik) is not str or "\x00" in icerik or (not icerik.isascii() and _VEKIL.search(icerik)):
        return None  # CharField's NUL and surrogate validators
    veri = {"ziyaretci_id": ziyaretci_id.strip(), "oturum_id": oturum_id, "icerik": icerik}
    if "ek_id" in data:
        ek_id = data["ek_id"]
        if ek_id is not None and (type(ek_id) is not int or ek_id < 1):
            return None
        veri["ek_id"] = ek_id
    return veri


class PuanSerializer(WidgetOturumIstekSerializer):
    puan = StrictIntegerField(min_value=1, max_value=5)
    yorum = StrictCharField(required=False, allow_blank=True, allow_null=True, max_length=1000)


class OperatorMesajSerializer(serializers.Serializer):
    icerik = StrictCharField(allow_blank=True, trim_whitespace=False, help_text=gettext_lazy("1-5000 karakter düz metin."))
    ek_id = StrictIntegerField(required=False, allow_null=True, min_value=1,
                               help_text=gettext_lazy("`POST /operator/upload` ile sizin yüklediğiniz, sohbetin projesindeki "
                                                      "dosya."))
    ozel = StrictBooleanField(required=False, default=False,
                                    help_text=gettext_lazy("İç not: ziyaretçiye gitmez, durumu değiştirmez, sohbeti üstlenmez."))
    bahsedilenler = serializers.ListField(
        child=StrictIntegerField(min_value=1), required=False, default=list, max_length=50,
        help_text=gettext_lazy("Notta anılan operatörlerin id'leri (projenin üyeleri; değilse 404). Yalnızca `ozel` ile."))


class OturumEtiketlerAyarlaSerializer(serializers.Serializer):
    etiket_idleri = serializers.JSONField(help_text=gettext_lazy("Sohbetin projesindeki etiketlerin id'leri (tüm liste)."))


class ChatTicketSerializer(serializers.Serializer):
    konu = StrictCharField(max_length=200)
    oncelik = serializers.ChoiceField(choices=Ticket.Oncelik.values, required=False, allow_null=True)


class AktarSerializer(serializers.Serializer):
    operator_id = StrictIntegerField(allow_null=True, min_value=1, required=False,
                                     help_text=gettext_lazy("Hedef operatör (sohbetin projesinin üyesi); null: sıraya geri al."))
    ekip_id = StrictIntegerField(allow_null=True, min_value=1, required=False,
                                 help_text=gettext_lazy("Ya da hedef ekip (sohbetin projesinin ekibi; değilse 400): sohbet "
                                                        "ekibin kuyruğuna ve atamasına döner. null: tüm proje."))

    def validate(self, attrs):
        # CONTRACT 22: a team is the alternative to an operator, never both.
        if ("operator_id" in attrs) == ("ekip_id" in attrs):
            raise serializers.ValidationError({"operator_id": _("`operator_id` ya da `ekip_id`, yalnızca biri verilmeli.")})
        return attrs


class MesajlarSorguSerializer(serializers.Serializer):
    sonra = serializers.IntegerField(required=False, min_value=0, help_text=gettext_lazy("Bu mesaj id'sinden sonrakiler."))


class OturumlarSorguSerializer(serializers.Serializer):
    durum = serializers.ChoiceField(choices=Oturum.Durum.values, required=False)
    gorunum = serializers.ChoiceField(choices=list(GORUNUMLER), required=False)
    musteri_id = serializers.IntegerField(required=False, min_value=1)
    etiket_id = serializers.IntegerField(required=False, min_value=1)
    q = serializers.CharField(required=False, min_length=1, max_length=200)
    ekip_id = serializers.CharField(required=False, help_text=gettext_lazy("Bir ekip id'si, `benim` ya da `yok`."))


class HazirYanitSorguSerializer(serializers.Serializer):
    musteri_id = serializers.IntegerField(required=False, min_value=1)
    q = serializers.CharField(required=False, allow_blank=True, max_length=100)

