"""A migration the test database has never applied (test_saglik: readiness with a pending migration)."""
from django.db import migrations


class Migration(migrations.Migration):
    operations = []
