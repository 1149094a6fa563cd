"""A rule's conditions compiled once (issue 42): when the tenant's rules are loaded
(`otomasyon.onbellek`), each condition becomes a predicate on its field's folded values, with the
searched value folded then; an event folds each field it reads once (`motor.Baglam.katli`), so a
message against 50 rules folds its text once, not once per condition.

An event's rules (`OlayKurallari`) also carry a prefilter built then: the rules whose FIRST
condition is `esit`, `icerir` or `baslar` on one field form a group, tested at once on the event
(`esit`: one set of the folded values; `icerir`/`baslar`: one regular expression alternating the
folded values, escaped). A group that finds none of its values decides "does not hold" for all its
rules in one call; one that finds some lets its rules be checked one by one as before. Deciding that
none of 50 rules holds thus costs one test per group instead of 50 rules' predicates.

What a rule decides is unchanged (CONTRACT 23: all conditions hold; an empty list always holds):
a group's test is "some rule's first condition holds", exact for these three operations (`icermez`
and `esit_degil` first conditions, which usually hold, are never grouped). So are the reads: a
group reads its field when its first rule is reached, where that rule's first condition would
read it, and a field is read once per event either way (`Baglam.katli` keeps it)."""
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from supportdesk.core.katlama import katla

Yuklem = Callable[[list[str]], bool]
_GRUPLANAN = ("esit", "icerir", "baslar")


class KatliOkur(Protocol):
    def katli(self, alan: str) -> list[str]: ...


def kosul_derle(kosul: dict) -> Yuklem:
    """A condition as a predicate on its field's folded values (CONTRACT 23's operators)."""
    aranan = katla(str(kosul["deger"]))
    islem = kosul["islem"]
    if islem == "esit":
        return lambda degerler: aranan in degerler
    if islem == "esit_degil":
        return lambda degerler: aranan not in degerler
    if islem == "icerir":
        return lambda degerler: any(aranan in d for d in degerler)
    if islem == "icermez":
        return lambda degerler: not any(aranan in d for d in degerler)
    return lambda degerler: any(d.startswith(aranan) for d in degerler)  # baslar


def _grup_testi(islem: str, arananlar: list[str]) -> Yuklem:
    """True when some of `arananlar` satisfies `islem` on the folded values (a group's first conditions)."""
    if islem == "esit":
        kume = frozenset(arananlar)
        return lambda degerler: not kume.isdisjoint(degerler)
    # Longest first: an alternation stops at its first matching branch; which one does not matter
    # here (only whether one does), but this keeps the search from backtracking over prefixes.
    desen = re.compile("|".join(re.escape(a) for a in sorted(set(arananlar), key=len, reverse=True)))
    bul = desen.search if islem == "icerir" else desen.match  # match: at the start (baslar)
    return lambda degerler: any(bul(d) is not None for d in degerler)


@dataclass(frozen=True, slots=True)
class DerlenmisKural:
    id: int
    olay: str
    kosullar: tuple[tuple[str, Yuklem], ...]  # (field, predicate), in the rule's order
    eylemler: list[dict]
    ilk: tuple[str, str, str] | None = None  # the first condition: (field, operation, folded value)

    @classmethod
    def derle(cls, kural: dict) -> "DerlenmisKural":
        kosullar = kural["kosullar"]
        ilk = (kosullar[0]["alan"], kosullar[0]["islem"], katla(str(kosullar[0]["deger"]))) if kosullar else None
        return cls(id=kural["id"], olay=kural["olay"], eylemler=kural["eylemler"], ilk=ilk,
                   kosullar=tuple((k["alan"], kosul_derle(k)) for k in kosullar))

    def tutar(self, baglam: KatliOkur) -> bool:
        """Every condition holds (the first that does not stops the check: later fields unread)."""
        for alan, yuklem in self.kosullar:
            if not yuklem(baglam.katli(alan)):
                return False
        return True


class OlayKurallari:
    """A tenant's active rules for one event, in `sira` order, with the groups' prefilter."""

    __slots__ = ("kurallar", "idler", "_grubu", "_gruplar", "_adimlar")

    def __init__(self, kurallar: list[DerlenmisKural] | tuple[DerlenmisKural, ...]):
        self.kurallar = tuple(kurallar)
        self.idler = tuple(k.id for k in self.kurallar)  # recorded as they are when none holds
        anahtarlar: dict[tuple[str, str], int] = {}
        arananlar: list[list[str]] = []
        grubu: list[int] = []
        adimlar: list[tuple[int, int]] = []  # (position, group or -1): a group at its first rule's
        for konum, kural in enumerate(self.kurallar):
            if kural.ilk is None or kural.ilk[1] not in _GRUPLANAN:
                grubu.append(-1)
                adimlar.append((konum, -1))
                continue
            alan, islem, aranan = kural.ilk
            grup = anahtarlar.get((alan, islem))
            if grup is None:
                grup = anahtarlar[(alan, islem)] = len(arananlar)
                arananlar.append([])
                adimlar.append((konum, grup))
            arananlar[grup].append(aranan)
            grubu.append(grup)
        self._grubu, self._adimlar = tuple(grubu), tuple(adimlar)
        self._gruplar = tuple((alan, _grup_testi(islem, arananlar[g])) for (alan, islem), g in anahtarlar.items())

    def __len__(self) -> int:
        return len(self.kurallar)

    def __iter__(self) -> Iterator[DerlenmisKural]:
        return iter(self.kurallar)

    def _ilk_aday(self, baglam: KatliOkur, sonuclar: list[bool | None]) -> int:
        """The position of the first rule that may hold (every rule before it does not), or the
        number of rules: one step per group or ungrouped rule, in order, stopping at the first
        group that finds one of its values or ungrouped rule that holds. No rule's actions run
        meanwhile, so every field is read where the rule-by-rule check would read it."""
        for konum, grup in self._adimlar:
            if grup < 0:
                if self.kurallar[konum].tutar(baglam):
                    return konum
            else:
                alan, test = self._gruplar[grup]
                if test(baglam.katli(alan)):
                    sonuclar[grup] = True
                    return konum
                sonuclar[grup] = False
        return len(self.kurallar)

    def _sirayla(self, baglam: KatliOkur, sonuclar: list[bool | None], bas: int,
                 haric: tuple[int, ...]) -> Iterator[tuple[DerlenmisKural, bool]]:
        """Rule by rule from position `bas`; a group is tested at the first of its rules reached."""
        for konum in range(bas, len(self.kurallar)):
            kural = self.kurallar[konum]
            if kural.id in haric:
                continue
            grup = self._grubu[konum]
            if grup >= 0:
                sonuc = sonuclar[grup]
                if sonuc is None:
                    alan, test = self._gruplar[grup]
                    sonuc = sonuclar[grup] = test(baglam.katli(alan))
                if not sonuc:
                    yield kural, False
                    continue
            yield kural, kural.tutar(baglam)

    def degerlendir(self, baglam: KatliOkur, *, haric: tuple[int, ...] = ()) -> Iterator[tuple[DerlenmisKural, bool]]:
        """Each rule not in `haric`, in order, with whether its conditions hold, decided when it is
        reached (a generator: a rule's actions, run by the caller between two steps, come before
        the next rule reads a field it did not read yet). With rules left out (`haric`: a chain's),
        no step ahead: a group is tested at the first of its rules that runs, where that rule's
        check would read the field."""
        sonuclar: list[bool | None] = [None] * len(self._gruplar)
        bas = 0 if haric else self._ilk_aday(baglam, sonuclar)
        for kural in self.kurallar[:bas]:
            yield kural, False
        yield from self._sirayla(baglam, sonuclar, bas, haric)

    def biri_tutar(self, baglam: KatliOkur) -> bool:
        """Some rule's conditions hold (reads stop at the first that does)."""
        sonuclar: list[bool | None] = [None] * len(self._gruplar)
        bas = self._ilk_aday(baglam, sonuclar)
        return bas < len(self.kurallar) and any(tutar for _, tutar in self._sirayla(baglam, sonuclar, bas, ()))
