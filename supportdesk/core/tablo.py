"""Every CSV the service writes goes through here, so that no cell people wrote becomes a formula.

A spreadsheet program runs a cell beginning with `=`, `+`, `-` or `@` (and, after a tab or CR,
sometimes too) as a formula: a member's e-mail `=cmd|'/Ccalc'!A0@x.test` in a report was a command
on the reader's machine. OWASP's rule: such a text cell gets a leading `'`, which the program
shows as text and drops from the value. Numbers are left alone (they are ours, never text).

Two dialects: `makine` (comma, ".", for scripts, as documented in docs/api.md) and `excel` (what
a spreadsheet in a Turkish locale opens as columns: `;` between cells, "," as the decimal mark, a
UTF-8 BOM so the Turkish letters read right).
"""
import csv
from decimal import Decimal

FORMUL_BASLARI = ("=", "+", "-", "@", "\t", "\r")


def guvenli_hucre(deger):
    if isinstance(deger, str) and deger.startswith(FORMUL_BASLARI):
        return "'" + deger
    return deger


class GuvenliYazici:
    """`csv.writer` that neutralises every text cell (`guvenli_hucre`); `ondalik=","` writes
    floats and Decimals with a decimal comma (the `excel` dialect)."""

    def __init__(self, hedef, *, ayirici: str = ",", ondalik: str = "."):
        self._w = csv.writer(hedef, delimiter=ayirici)
        self._ondalik = ondalik

    def _hucre(self, deger):
        if isinstance(deger, (float, Decimal)) and self._ondalik != ".":
            return str(deger).replace(".", self._ondalik)
        return guvenli_hucre(deger)

    def writerow(self, satir):
        return self._w.writerow([self._hucre(d) for d in satir])

    def writerows(self, satirlar):
        for satir in satirlar:
            self.writerow(satir)
