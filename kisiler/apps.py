from django.apps import AppConfig


class KisilerConfig(AppConfig):
    """Contacts (CONTRACT 25): a tenant's person behind one or more visitor ids, its typed
    attributes, merge, import and export.

    The write side (`models`, `services`) sits just above tenants: chat, tickets, context and the
    widget call `services.kisi_ziyaretci_bagla` / `kisi_kimlik_bagla` from their actions. Chats,
    tickets and context are reached through the contact's visitor ids (no foreign key to them), so
    a merge moves only those ids and everything follows; the read side (`selectors`) counts chats
    and tickets and so imports their models (read-only, never their services)."""

    name = "kisiler"
    verbose_name = "kişiler"
