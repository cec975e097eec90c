from enum import StrEnum


class LocaleTag(StrEnum):
    DE = "de"
    EN = "en"
    ES = "es"
    FR = "fr"
    IT = "it"
    JA = "ja"
    NL = "nl"
    PL = "pl"
    PT_BR = "pt-BR"
    ZH_HANS = "zh-Hans"

    def __str__(self) -> str:
        return str(self.value)
