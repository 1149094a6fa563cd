from django.apps import AppConfig


class KisilerConfig(AppConfig):
    """Contacts (CONTRACT 25): a tenant's person behind one or more visitor ids, its typed
    attributes, merge, import and export.

    The write side (`models`, `services`) sits just above tenants: chat, tickets, context and the
    widget call `services.kisi_ziyaretci_bagla` / `kisi_kimlik_bagla` from their actions. Chats,
    tickets and context are reached through the contact's visitor ids (no foreign key to them), so
    a merge moves only those ids and everything follows. The app imports nothing of chat or tickets
    (layer 2.5 of `supportdesk/tests/test_ice_aktarma.py`): what reads a contact's chats and tickets
    (its figures, the REST views, the CSV import and export) is composed in `context`
    (`kisi_ozeti`, `api/kisi_views`, `kisi_aktarim`)."""

    name = "kisiler"
    verbose_name = "kişiler"
