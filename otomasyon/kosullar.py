"""A rule's conditions compiled once (issue 42): when the tenant's rules are loaded
(`otomasyon.onbellek`), each condition becomes a predicate on its field's folded values, with the
searched value folded then; an event folds each field it reads once (`motor.Baglam.katli`), so a
message against 50 rules folds its text once, not once per condition."""
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from supportdesk.core.katlama import katla

Yuklem = Callable[[list[str]], bool]


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


@dataclass(frozen=True, slots=True)
class DerlenmisKural:
    id: int
    olay: str
    kosullar: tuple[tuple[str, Yuklem], ...]  # (field, predicate), in the rule's order
    eylemler: list[dict]

    @classmethod
    def derle(cls, kural: dict) -> "DerlenmisKural":
        return cls(id=kural["id"], olay=kural["olay"], eylemler=kural["eylemler"],
                   kosullar=tuple((k["alan"], kosul_derle(k)) for k in kural["kosullar"]))

    def tutar(self, baglam: KatliOkur) -> bool:
        """Every condition holds (the first that does not stops the check: later fields unread)."""
        return all(yuklem(baglam.katli(alan)) for alan, yuklem in self.kosullar)
