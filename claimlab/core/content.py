"""What a sentence states: its content words and its numbers, compared as values.

A claim *carries* a sentence when it holds what the sentence says, not merely some of its
letters. Two things are read from a text:

* **numbers, dates and amounts as values.** Digits of any script (``7``, ``๗``), a decimal
  point or comma (``5.00`` = ``5``, Turkish ``2,10`` = ``2.1``), a separator followed by
  exactly three digits as thousands (``1,000`` = ``1.000`` = ``1000``), a date or time as its
  parts (``2026-03-01`` is 2026, 3 and 1; ``18:45`` is 18 and 45), and the number words of the
  text's language (English ``seven``, Turkish ``yedi``; ``one`` and ``bir`` are left out, being
  also the article). ``7`` ≠ ``14`` however alike they look.
* **content words**: the words after Unicode NFC and case folding, short function words of
  English and Turkish left out (``the``, ``of``, ``ve``, ``ile``, ...; negations and
  quantifiers such as ``not``, ``no``, ``least``, ``az`` stay: they change what is said). Two
  words match when they are equal or, both of 4 letters or more, share their first 4 (a
  suffix or a consonant change: Turkish ``talebi`` and ``talep``, ``pensioner`` and
  ``pensioners``); in Hangul 2 syllables. A run of a script written without spaces (Thai,
  Chinese, Japanese) counts by its character trigrams.

It is a rule, not a model: it cannot see a paraphrase with other words ("goes" and "is sent"),
which is why a sentence needs only half of its content words from its claims (but every
number).
"""

from __future__ import annotations

import re
import unicodedata

STOPWORDS = frozenset(
    """
    a an the of to in on at for by with from into onto as and or but if than then so
    is are was were be been being am it its this that these those there here which who whom
    whose what when where how do does did has have had will would shall should can could may
    might must i you he she we they me him her us them my your his our their
    ve ile veya ya da de ki bu şu o bir için gibi ise mi mı mu mü olarak olan çok daha her
    """.split()
)  # fmt: skip
# kept on purpose (they change what a sentence says): not no nothing never none least most
# only all any en az hiç yok değil

NUMBER_WORDS = {
    "en": dict(zip(
        "zero two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
        "eighty ninety hundred thousand million".split(),
        [0, *range(2, 21), 30, 40, 50, 60, 70, 80, 90, 100, 1000, 1_000_000], strict=True,
    )),
    "tr": dict(zip(
        "sıfır iki üç dört beş altı yedi sekiz dokuz on yirmi otuz kırk elli altmış yetmiş "
        "seksen doksan yüz bin milyon".split(),
        [0, *range(2, 11), 20, 30, 40, 50, 60, 70, 80, 90, 100, 1000, 1_000_000], strict=True,
    )),
}  # fmt: skip

ONE = {"en": "one", "tr": "bir"}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"\w+")
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff]+")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
STEM = 4


_OTHER_DIGIT = re.compile(r"(?![0-9])\d")  # a decimal digit of another script


def _digits(text: str) -> str:
    """Digits of any script as ASCII digits (``๗`` → ``7``).

    Examples:
        >>> _digits("๙ ชั่วโมง, ٤ weeks, 12")
        '9 ชั่วโมง, 4 weeks, 12'
    """
    if text.isascii():
        return text
    return _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group())), text)


def _canonical(whole: str, fraction: str = "") -> str:
    """A value written without leading or trailing zeros: ``007.50`` → ``7.5``, ``5.00`` → ``5``."""
    whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def _values(token: str) -> list[str]:
    """One written number as values (usually one; a section number "1.2.3" as its parts).

    A separator followed by exactly 3 digits marks thousands (``1,000`` = ``1.000``); with
    both ``.`` and ``,`` the last one is the decimal point (``1,000.50`` = ``1.000,50``).
    """
    seps = re.findall(r"[.,]", token)
    parts = re.split(r"[.,]", token)
    if not seps:
        return [_canonical(token)]
    if len(set(seps)) == 2:
        last = max(token.rfind("."), token.rfind(","))
        return [_canonical(re.sub(r"[.,]", "", token[:last]), token[last + 1 :])]
    if len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:]):
        return [_canonical("".join(parts))]
    if len(parts) == 2:
        return [_canonical(parts[0], parts[1])]
    return [_canonical(p) for p in parts]


def numbers(text: str, language: str = "en") -> frozenset[str]:
    """The numbers of a text as values, each written canonically (digits, dates, number words).

    Examples:
        >>> sorted(numbers("costs 5.00, not 2,10; since 2026-03-01"), key=float)
        ['1', '2.1', '3', '5', '2026']
        >>> numbers("1,000 or 1.000") == numbers("1000")
        True
        >>> sorted(numbers("en az yedi gün, on beş kişi, bir oda", "tr"), key=float)
        ['7', '15']
        >>> sorted(numbers("two hundred and twenty one"), key=float)
        ['21', '200']
        >>> numbers("๙ สัปดาห์") == numbers("9 weeks") == numbers("nine weeks")
        True
        >>> sorted(numbers("−18 or eksi 4, not 5-18")), sorted(numbers("7 pm, 오전 7시"))
        (['-18', '-4', '18', '5'], ['07:00', '19:00', '7'])
        >>> numbers("12 March 2024") == numbers("2024-03-12") == numbers("12 Mart 2024", "tr")
        True
        >>> numbers("2만 원"), sorted(numbers("5 degrees below zero")), numbers("2 may enter")
        (frozenset({'20000'}), ['-5', '0'], frozenset({'2'}))
    """
    plain = _digits(unicodedata.normalize("NFC", text))
    found: set[str] = set()
    for m in _NUMBER.finditer(plain):
        values = _values(m.group())
        if len(values) == 1 and plain[m.end() : m.end() + 1] in _KO_SCALE:  # 2만 원: 20000
            values = [_canonical(str(int(float(values[0]) * _KO_SCALE[plain[m.end()]])))]
        if len(values) == 1 and _negative(plain, m.start(), m.end()):
            values = [f"-{values[0]}"]
        found.update(values)
    found.update(_clock_times(plain))
    found.update(_months(plain))
    words = NUMBER_WORDS.get(language, {})
    if words:
        found.update(_word_numbers(_WORD.findall(plain.casefold()), words, language))
    return frozenset(found)


_MINUS = frozenset("-\u2212\u2013")  # hyphen-minus, minus sign, en dash
_SIGN_WORD = re.compile(r"(?:\bminus|\beksi|영하|마이너스|ติดลบ|ลบ)\s*$", re.IGNORECASE)
_BELOW_ZERO = re.compile(
    r"\s*(?:°\s*[cf]?\s*|degrees?\s*(?:celsius\s*|fahrenheit\s*)?|derece\s*)?"
    r"(?:below\s+zero|sıfırın\s+altında)",
    re.IGNORECASE,
)
_KO_SCALE = {"천": 1_000, "만": 10_000, "억": 100_000_000}
_MONTH_NAMES = (
    "january february march april may june july august september october november december",
    "jan feb mar apr may jun jul aug sep oct nov dec",
    "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",
    "มกราคม กุมภาพันธ์ มีนาคม เมษายน พฤษภาคม มิถุนายน กรกฎาคม สิงหาคม กันยายน ตุลาคม พฤศจิกายน ธันวาคม",
)
_MONTH = {name: k for names in _MONTH_NAMES for k, name in enumerate(names.split(), 1)}
_MONTH_WORD = "|".join(sorted(map(re.escape, _MONTH), key=len, reverse=True))
# a month named beside a day or a year ("12 March", "March 12", "12 Mart'ta"), not "may" alone
_MONTH_DATE = re.compile(
    rf"(?<!\w)\d{{1,4}}\.?\s*({_MONTH_WORD})|(?<!\w)({_MONTH_WORD})\.?\s*\d{{1,4}}(?!\d)",
    re.IGNORECASE,
)
_TR_CLOCK = re.compile(r"\b(sabah|öğleden\s+sonra|akşam|gece)\s+(\d{1,2})(?:[:.](\d{2}))?", re.I)
_TH_CLOCK = re.compile(r"(\d{1,2})\s*โมง\s*(เช้า|เย็น)|บ่าย\s*(\d{1,2})\s*โมง")
_AM_PM = re.compile(r"(?<![\d:.])(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_KO_CLOCK = re.compile(r"(오전|오후)\s*(\d{1,2})\s*시(?:\s*(\d{1,2})\s*분)?")


def _negative(plain: str, start: int, end: int) -> bool:
    """Whether the number at ``start:end`` is signed negative.

    "-18", "−18", "minus 18", "eksi 18", "영하 18", "ลบ 18", "18 degrees below zero" are; the
    dash of a range or a date ("5-18", "2026-03-01") is not.
    """
    before = plain[start - 1] if start else ""
    if before in _MINUS:
        return start < 2 or not (plain[start - 2].isalnum() or plain[start - 2] in ".,")
    if _BELOW_ZERO.match(plain, end):
        return True
    return bool(_SIGN_WORD.search(plain[max(0, start - 12) : start]))


def _months(plain: str) -> list[str]:
    """The month of each date written with its name, as its number ("12 March": "3").

    An English name counts written with its capital: "2 may enter" holds no month.
    """
    out = []
    for m in _MONTH_DATE.finditer(plain):
        name = m.group(1) or m.group(2)
        if not name.isascii() or name[0].isupper():
            out.append(str(_MONTH[name.casefold()]))
    return out


def _clock_times(plain: str) -> list[str]:
    """12-hour clock times as 24-hour ones ("7 pm", "오후 7시": "19:00"): 7 am is not 7 pm."""
    out = []
    for m in _AM_PM.finditer(plain):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), m.group(3).lower()
        if 1 <= hour <= 12 and minute < 60:
            out.append(f"{hour % 12 + (12 if half == 'p' else 0):02d}:{minute:02d}")
    for m in _KO_CLOCK.finditer(plain):
        hour, minute = int(m.group(2)), int(m.group(3) or 0)
        if 1 <= hour <= 12 and minute < 60:
            out.append(f"{hour % 12 + (12 if m.group(1) == '오후' else 0):02d}:{minute:02d}")
    for m in _TR_CLOCK.finditer(plain):  # sabah 7 is 07:00, akşam 7 19:00, gece 11 23:00
        part, hour, minute = m.group(1).casefold(), int(m.group(2)), int(m.group(3) or 0)
        later = part != "sabah" and not (part == "gece" and hour < 6)
        if 1 <= hour <= 12 and minute < 60:
            out.append(f"{hour % 12 + (12 if later else 0):02d}:{minute:02d}")
    for m in _TH_CLOCK.finditer(plain):  # 6 โมงเช้า 06:00, 6 โมงเย็น 18:00, บ่าย 3 โมง 15:00
        hour = int(m.group(1) or m.group(3))
        if 1 <= hour <= 12:
            out.append(f"{hour % 12 + (0 if m.group(2) == 'เช้า' else 12):02d}:00")
    return out


def _word_numbers(tokens: list[str], words: dict[str, int], language: str) -> list[str]:
    """Runs of number words as values: "on dört" is 14, "two hundred" 200, "yirmi bir" 21.

    ``one`` and ``bir`` count only inside a run: alone they are also the article.
    """
    unit = ONE[language]
    out: list[str] = []
    run: list[int] = []
    for w in [*tokens, ""]:
        if w in words or (w == unit and run):
            run.append(words.get(w, 1))
            continue
        if run:
            out.append(str(_combine(run)))
            run = []
    return out


def _combine(run: list[int]) -> int:
    """The value of a run of number words: hundreds multiply, thousands and up close a group."""
    total = current = 0
    for v in run:
        if v == 100:
            current = max(current, 1) * 100
        elif v >= 1000:
            total += max(current, 1) * v
            current = 0
        else:
            current += v
    return total + current


def content_units(text: str) -> list[str]:
    """The content words of a text (case folded, NFC), and trigrams of unspaced runs.

    Examples:
        >>> content_units("An annual leave request goes to the manager.")
        ['annual', 'leave', 'request', 'goes', 'manager']
        >>> content_units("Pensioners pay nothing.")
        ['pensioners', 'pay', 'nothing']
    """
    folded = unicodedata.normalize("NFC", text).casefold()
    units: list[str] = []
    for w in _WORD.findall(folded):
        if _UNSPACED.search(w):
            for run in _UNSPACED.findall(w):
                units.extend(run[i : i + 3] for i in range(max(len(run) - 2, 1)))
            rest = _UNSPACED.sub(" ", w).split()
            units.extend(r for r in rest if not r.isdigit() and r not in STOPWORDS)
        elif w not in STOPWORDS and not _digits(w).isdigit():
            units.append(w)
    return units


def stem(word: str) -> str:
    """The part two words must share to match: 4 letters (2 Hangul syllables), or all."""
    n = 2 if _HANGUL.match(word) else STEM
    return word[:n] if len(word) >= n else word + "\x00"


def carried(sentence_units: list[str], claim_units: set[str]) -> list[str]:
    """The sentence's content units that the claims' units carry (equal, or the same stem).

    Examples:
        >>> carried(["yıllık", "izin", "talebi", "yedi"], {"talep", "yedi"})
        ['talebi', 'yedi']
    """
    stems = {stem(u) for u in claim_units}
    return [u for u in sentence_units if u in claim_units or stem(u) in stems]


def alter_number(text: str, language: str = "en") -> str | None:
    """The text with its first number (digits or a number word) one higher; None: no number.

    Examples:
        >>> alter_number("sent 9 weeks ahead"), alter_number("en az yedi hafta", "tr")
        ('sent 10 weeks ahead', 'en az 8 hafta')
        >>> alter_number("no number here") is None
        True
    """
    digits = re.search(r"\d+", text)
    words = NUMBER_WORDS.get(language, {})
    word = next((m for m in _WORD.finditer(text) if m.group().casefold() in words), None)
    if digits is not None and (word is None or digits.start() < word.start()):
        value = int(_digits(digits.group())) + 1
        return f"{text[: digits.start()]}{value}{text[digits.end() :]}"
    if word is not None:
        value = words[word.group().casefold()] + 1
        return f"{text[: word.start()]}{value}{text[word.end() :]}"
    return None
