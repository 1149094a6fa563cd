"""The widget is one file with no imports, so it carries a copy of the console's ticket-reply
renderer (static/panel/bicim.js): both must stay the same code, or the console and the widget
would show one reply differently."""
from pathlib import Path

from django.conf import settings

STATIK = Path(settings.BASE_DIR) / "static"


def test_widget_holds_the_same_renderer_as_the_console():
    kaynak = (STATIK / "panel" / "bicim.js").read_text(encoding="utf-8")
    govde = kaynak[kaynak.index("const EN_DERIN"):].replace("export function", "function").strip()
    widget = (STATIK / "widget" / "widget.js").read_text(encoding="utf-8")
    kopya = widget[widget.index("  const EN_DERIN"):widget.index("  // --- /bicim.js ---")]
    assert "\n".join(satir.removeprefix("  ") for satir in kopya.split("\n")).strip() == govde
