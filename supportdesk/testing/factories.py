import factory

from tenants.models import Kullanici, Musteri, Uyelik

TEST_SIFRE = "Gizli-Sifre-2026"


class MusteriFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Musteri

    firma_adi = factory.Sequence(lambda n: f"Firma {n}")


class KullaniciFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Kullanici
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"kullanici{n}@ornek.com")
    password = factory.PostGenerationMethodCall("set_password", TEST_SIFRE)

    @factory.post_generation
    def _kaydet(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class UyelikFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Uyelik

    kullanici = factory.SubFactory(KullaniciFactory)
    musteri = factory.SubFactory(MusteriFactory)
    rol = Uyelik.Rol.OPERATOR
