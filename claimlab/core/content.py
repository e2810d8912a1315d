"""What a sentence states: its content words and its numbers, compared as values.

A claim *carries* a sentence when it holds what the sentence says, not merely some of its
letters. Two things are read from a text:

* **numbers, dates and amounts as values.** Digits of any script (``7``, ``๗``), a decimal
  point or comma (``5.00`` = ``5``, Turkish ``2,10`` = ``2.1``), a separator followed by
  exactly three digits as thousands (``1,000`` = ``1.000`` = ``1000``), a date or time as its
  parts (``2026-03-01`` is 2026, 3 and 1; ``18:45`` is 18 and 45), and the number words of the
  text's language (English ``seven``, Turkish ``yedi``; ``one`` and ``bir`` are left out, being
  also the article), ordinals (``third``, ``üçüncü``; not ``first`` or ``second``) and Korean
  native numbers (``다섯``). ``7`` ≠ ``14`` however alike they look. A range (``5-7``,
  :func:`range_ends`) is read apart, for a check that wants a value stated alone.
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

import functools
import re
import unicodedata
from collections.abc import Callable

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
# ordinals as their values ("the third floor" is the 3rd); English "first" and "second" are
# left out, being also "at first" and a unit of time
ORDINAL_WORDS = {
    "en": dict(zip(
        "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
        "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth "
        "fortieth fiftieth sixtieth seventieth eightieth ninetieth hundredth thousandth".split(),
        [*range(3, 21), 30, 40, 50, 60, 70, 80, 90, 100, 1000], strict=True,
    )),
    "tr": dict(zip(
        "birinci ikinci üçüncü dördüncü beşinci altıncı yedinci sekizinci dokuzuncu onuncu "
        "yirminci otuzuncu kırkıncı ellinci altmışıncı yetmişinci sekseninci doksanıncı "
        "yüzüncü bininci".split(),
        [*range(1, 11), 20, 30, 40, 50, 60, 70, 80, 90, 100, 1000], strict=True,
    )),
}  # fmt: skip
WORDS = {
    language: {**NUMBER_WORDS[language], **ORDINAL_WORDS[language]} for language in NUMBER_WORDS
}
# Korean native numbers, read in a text of any language (Hangul is no other language's word):
# a tens word, a units word or both ("스물두"), alone ("다섯 시간") or before a counter ("세 명",
# "열 살", "다섯명"); 하나, 한, 세, 네 and 열 also mean "but", "one/a", "tax", "yes", "heat":
# read only before a counter. Counters that glue into other words ("세대", "한층") are left out.
_KO_UNIT = dict(zip("하나 한 둘 두 셋 세 넷 네 다섯 여섯 일곱 여덟 아홉".split(),
                    [1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9], strict=True))  # fmt: skip
_KO_TEN = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50}
_KO_ONLY_COUNTED = frozenset({"하나", "한", "세", "네", "열"})
_KO_COUNTER = "명|사람|살|시간|개|번|잔|권|마리|곳|가지|시|병|장|켤레|그릇|개월|달|주일"
_KO_NUMBER = re.compile(
    rf"(?<![가-힣])({'|'.join(_KO_TEN)})?({'|'.join(sorted(_KO_UNIT, key=len, reverse=True))})?"
    rf"(?:\s*({_KO_COUNTER})|(?![가-힣]))"
)
# English "first" and "second" count only inside a run ("twenty-first"), as "one" and "bir"
IN_RUN = {"en": {"one": 1, "first": 1, "second": 2}, "tr": {"bir": 1}}
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


@functools.lru_cache(maxsize=1 << 18)  # a sentence or quote is read again for every claim on it
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
    words = WORDS.get(language)
    if words:
        found.update(_word_numbers(_WORD.findall(plain.casefold()), words, language))
    if _HANGUL.search(plain):
        found.update(_korean_numbers(plain))
    return frozenset(found)


def _korean_numbers(plain: str) -> list[str]:
    """Korean native numbers as values ("다섯 시간" 5, "스물두 살" 22, "세 명" 3)."""
    out = []
    for m in _KO_NUMBER.finditer(plain):
        ten, unit, counter = m.groups()
        if not (ten or unit):
            continue
        if counter is None and (ten or unit) in _KO_ONLY_COUNTED and not (ten and unit):
            continue
        out.append(str(_KO_TEN.get(ten or "", 0) + _KO_UNIT.get(unit or "", 0)))
    return out


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


_CUR = r"[$€£¥₩₺฿₹]?"
_NUM = rf"{_CUR}(\d+(?:[.,]\d+)*)(?!\d|[:./\-]\d)"  # a high end: no clock time or date
_SIGNED = r"((?:(?<![\w.,])[-−])?\d+(?:[.,]\d+)*)"  # a low end may be negative: -5 to 3
_LOW = rf"(?<![\d.,:/])(?<!\d[-−]){_SIGNED}(?:\s*[%°]|\s*[^\W\d_]\S*)?"  # and its unit
_DASH = rf"\s*[-–—~〜～]\s*{_CUR}"
_UNIT = r"(?!(?i:[ap]\.?m)\b)(?P<unit>[^\W\d_]{1,5})"  # a unit after both ends: 5km-7km, 5일~7일
_RANGES = (  # written only as a range
    rf"(?<![\d.,:/\-−]){_SIGNED}%?{_DASH}{_NUM}(?![-/]\d)",  # 5-7, 5–7, 5~7, $20–$35
    rf"(?<![\d.,:/\-−]){_SIGNED}\s*{_UNIT}{_DASH}{_NUM}\s*(?P=unit)(?!\w)",
    rf"\b(?:between|entre)\s+{_CUR}{_LOW}\s+(?:and|y|et|e)\s+{_NUM}",
    rf"{_LOW}\s+ile\s+{_NUM}\s*\w*\s+ara(?:sı|sında|lığında)",
    rf"{_LOW}\s+(?:ila|bis|đến|से)\s+{_NUM}",  # 2 ila 4, 5 bis 7, 5 से 7
    rf"\b(?:de|từ)\s+{_LOW}\s+(?:a|à|đến)\s+{_NUM}|من\s+{_LOW}\s+[إا]لى\s+{_NUM}",
    rf"(?<![\d.,]){_SIGNED}\s*ถึง\s*{_NUM}",
)
# may also say a change ("rose from 5 to 7", "5에서 7로 늘었다"): a range unless a change is said
_CHANGEABLE = (
    rf"{_LOW}\s+(?:to|through|thru)\s+{_NUM}",
    rf"(?<![\d.,]){_SIGNED}[^\W\d_]{{0,2}}\s*(?:에서|부터)\s*{_NUM}",
)
_CHANGE = re.compile(
    r"(?:\b(?:ris|rose|increas|rais|grow|grew|fell|fall|drop|decreas|cut|reduc|lower|chang|"
    r"mov|went|gone|go|up|down|extend|shorten|jump|climb|doubl|halv|shift)\w*"
    r"\s+(?:\w+\s+){0,2}(?:from\s+)?$)",
    re.IGNORECASE,
)
_CHANGE_AFTER = re.compile(r"[^\W\d_]{0,2}\s*(?:으로|로)")
_STRICT_RANGE = re.compile("|".join(_RANGES), re.IGNORECASE)
_CHANGEABLE_RANGE = re.compile("|".join(_CHANGEABLE), re.IGNORECASE)
_LOOSE_RANGE = re.compile(  # a claim's range: any of them, change or not
    "|".join(
        (
            *_RANGES,
            *_CHANGEABLE,
            rf"{_LOW}\s+(?:until|till|ile|or|a|à|y)\s+{_NUM}",
            rf"(?<![\d.,:]){_SIGNED}\s*\S*?\s*(?:에서|부터)\s*{_NUM}",
        )
    ),
    re.IGNORECASE,
)
_CLOCK_LIKE = re.compile(r"(?:0\d|1\d|2[0-4]|\d)[.]([0-5]\d)")


def range_ends(
    text: str, *, loose: bool = False, language: str = "en"
) -> tuple[frozenset[str], str]:
    """The values written as an end of a range, and the text with its ranges blanked out.

    A range is two numbers, the first the smaller: joined by a dash or a tilde (``5-7``,
    ``5–7 gün``, ``5~7일``, ``$20–$35``, ``5km-7km``), "between/entre ... and/y/et", "5 to 7",
    "5 through 7", Turkish "... ile ... arası" and "ila", German "bis", Vietnamese "đến", Hindi
    "से", Arabic "من ... إلى", Korean "에서/부터", Thai ถึง. Dates (``2026-03-01``) and clock
    times (``9:00-17:00``, ``09.00-18.00``) are none, nor a change ("rose from 5 to 7",
    "5에서 7로"). ``loose`` reads a change as a range too ("5 or 7" and "until" as well): a
    claim written so states its range.

    Examples:
        >>> range_ends("delivery in 5-7 working days, not 2026-03-01")[0] == {"5", "7"}
        True
        >>> sorted(range_ends("5 ile 7 gün arasında")[0]), range_ends("rose from 5 to 7 %")[0]
        (['5', '7'], frozenset())
        >>> sorted(range_ends("between -5 and 3 °C")[0]), range_ends("won 3-2")[0]
        (['-5', '3'], frozenset())
    """
    ends: set[str] = set()

    def take(low: str, high: str) -> str:
        ends.update((low, high))
        return " "

    rest = _each_range(text, take, loose=loose, language=language)
    return frozenset(ends), rest


def dashed_ranges(text: str, *, loose: bool = False, language: str = "en") -> str:
    """The text with each range (see :func:`range_ends`) written ``low-high``.

    A range said in words ("between 5 and 7") is then one piece of a clause, not two.

    Examples:
        >>> dashed_ranges("between 5 and 8 weeks, and 9 to 12 more", loose=True)
        '5-8 weeks, and 9-12 more'
    """
    return _each_range(text, lambda low, high: f"{low}-{high}", loose=loose, language=language)


def _each_range(text: str, write: Callable[[str, str], str], *, loose: bool, language: str) -> str:
    """The text with each range replaced by ``write(low, high)``, else the text as given.

    A text with a range comes back with its digits in ASCII, in NFC and its number words in
    digits ("five to seven" is 5 to 7).
    """
    plain = _words_as_digits(_digits(unicodedata.normalize("NFC", text)), language)

    def one(m: re.Match[str]) -> str:
        ends = _ends(m)
        return m.group() if ends is None else write(*ends)

    def unchanged(m: re.Match[str]) -> str:
        said = m.string
        if _CHANGE.search(said, max(0, m.start() - 40), m.start()) or _CHANGE_AFTER.match(
            said, m.end()
        ):
            return m.group()
        return one(m)

    if loose:
        out = _LOOSE_RANGE.sub(one, plain)
    else:
        out = _CHANGEABLE_RANGE.sub(unchanged, _STRICT_RANGE.sub(one, plain))
    return text if out == plain else out


_WORD_RUNS: dict[str, re.Pattern[str]] = {}


def _words_as_digits(plain: str, language: str) -> str:
    """Each run of a language's number words written in digits, when it is one value."""
    words = WORDS.get(language)
    if not words:
        return plain
    run = _WORD_RUNS.get(language)
    if run is None:
        one = "|".join(sorted(map(re.escape, [*words, *IN_RUN.get(language, {})]), key=len)[::-1])
        run = _WORD_RUNS[language] = re.compile(
            rf"(?<!\w)(?:{one})(?:[\s-]+(?:{one}))*(?!\w)", re.IGNORECASE
        )

    def digits(m: re.Match[str]) -> str:
        values = _word_numbers(_WORD.findall(m.group().casefold()), words, language)
        return values[0] if len(values) == 1 else m.group()

    return run.sub(digits, plain)


def _ends(m: re.Match[str]) -> tuple[str, str] | None:
    """A matched range's two ends as values (None: not a range, or clock times "09.00-18.00")."""
    if _MONTH_DATE.search(m.group()):  # "from 1 May to 30 September": two dates
        return None
    low_text, high_text = [g for g in m.groups() if g is not None and g[-1].isdigit()][:2]
    sign = "-" if low_text[0] in "-−" else ""
    low, high = _values(low_text.lstrip("-−")), _values(high_text)
    clock = all(_CLOCK_LIKE.fullmatch(t.lstrip("-−")) for t in (low_text, high_text))
    if clock and any(
        t.endswith(("00", "15", "30", "45")) or t[0] == "0" for t in (low_text, high_text)
    ):
        return None
    if len(low) != 1 or len(high) != 1:
        return None
    low_value = f"{sign}{low[0]}" if sign and low[0] != "0" else low[0]
    return (low_value, high[0]) if float(low_value) < float(high[0]) else None


def _word_numbers(tokens: list[str], words: dict[str, int], language: str) -> list[str]:
    """Runs of number words as values: "on dört" is 14, "two hundred" 200, "yirmi bir" 21.

    ``one``, ``bir``, ``first`` and ``second`` count only inside a run (:data:`IN_RUN`): alone
    they are also the article, "at first" and a unit of time ("twenty-first" is 21).
    """
    in_run = IN_RUN.get(language, {})
    out: list[str] = []
    run: list[int] = []
    for w in [*tokens, ""]:
        if w in words or (w in in_run and run):
            run.append(words[w] if w in words else in_run[w])
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
