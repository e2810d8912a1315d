"""What a clause asserts beyond its content words: negation, quantifiers and scope words.

Half of a sentence's content words must never outvote a missing "not": a claim carries a
clause only when both say the same thing about it. Three things are read here, each by a small
pure rule, so that every check (sentence against claims, claim against quote) reuses them:

* **clauses**: a sentence split at ``;`` and at the conjunctions that join two statements
  (English ``and``, ``but``, ``or``, ``while``, ...; Turkish ``ve``, ``ama``, ``fakat``,
  ``ancak``, ``veya``, ...), each piece with its own words;
* **marks**: whether a clause is negated (English ``not``, ``n't``, ``no``, ``never``,
  ``nothing``; Turkish ``değil``, ``yok``, ``hiç``, ``asla`` and the negative verb suffixes
  ``-mez``/``-maz``, ``-mıyor``, ``-medi``, ``-meyecek``, ``-memiş``, ...; Thai ``ไม่``
  and the formal ``มิได้``, ``มิใช่``, ``มิอาจ``; Korean ``않``, ``안``, ``못`` (alone or joined
  to 하다: ``못한다``, ``못합니다``), ``없``, ``아니`` (``아닙니다`` too), but not ``없이``, "without", which negates
  no verb: "처방전 없이 살 수 있다" is affirmative; Thai and Korean negations are also counted,
  as a clause there can hold two, "내지 않고 ... 내지 않는다", where English or Turkish is
  split in two at "and"/"ve") and which scope words it holds, by kind
  (``all``: every, everyone, herkes, tüm; ``some``: some, bazı; ``only``: only, yalnızca;
  ``at least``: en az; ``at most``: at most, en fazla, up to; ``more``/``less``), each with
  the word it scopes: a determiner ("every", "tüm", "her", "only", "at least") scopes the
  next content word ("every visit", "at least 7"), the others ("everyone", "herkes",
  "always") stand for themselves. Two texts agree on scope when they hold the same scope
  words on the same words as many times each, so "every visit" never covers "all members";
  Thai and Korean marks written inside a word are compared by kind and count alone;
* **a clause or list number at the head of a quote**: a number with an optional sub-number
  or letter (``7``, ``7.2``, ``7b``, ``7/b``), in brackets ``(7)`` or followed by ``)``,
  ``.)``, ``.``, ``-``, ``–``, ``:`` or ``/`` (a dash, colon or slash only before a word, so
  a range "5 - 10 days" stays a value), optionally after ``madde``, ``article``, ``§``, ...:
  a label, not a value.

It is a word list, not a parser: it sees a negation or a quantifier written as one of its
words, not one expressed by the meaning of other words ("free" and "for nothing"), and it
cannot tell what a clause is about. The Turkish ``-me``/``-ma`` alone is also the verbal noun
(``ödeme``, "payment"; ``çalışma``, "work") and ``-madan önce`` means "before": neither counts.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from claimlab.core.content import STOPWORDS, numbers, stem

# phrases first (longest match), so "no more than" is a bound, not a negation
_PHRASES: dict[tuple[str, ...], str] = {
    ("at", "least"): "at least",
    ("no", "less", "than"): "at least",
    ("not", "less", "than"): "at least",
    ("no", "fewer", "than"): "at least",
    ("at", "most"): "at most",
    ("no", "more", "than"): "at most",
    ("not", "more", "than"): "at most",
    ("no", "later", "than"): "at most",
    ("not", "later", "than"): "at most",
    ("up", "to"): "at most",
    ("more", "than"): "more",
    ("less", "than"): "less",
    ("fewer", "than"): "less",
    ("en", "az"): "at least",
    ("en", "fazla"): "at most",
    ("en", "çok"): "at most",
    ("en", "geç"): "at most",
    ("her", "zaman"): "all",
    ("hiçbir", "zaman"): "not",
    ("for", "nothing"): "free",
}
_WORDS: dict[str, str] = {
    **dict.fromkeys(
        "not no never none nobody nothing neither nor nowhere cannot değil değildir değildi"
        " değiller değilse yok yoktur yoktu hiç hiçbir hiçbiri hiçkimse asla".split(),
        "not",
    ),
    **dict.fromkeys(
        "all every everyone everybody everything always herkes herkese herkesin herkesi hepsi"
        " tüm tümü bütün hep daima".split(),
        "all",
    ),
    **dict.fromkeys(
        "some several many most few sometimes often usually rarely seldom occasionally bazı"
        " bazıları bazen birkaç çoğu kimi birçok genellikle çoğunlukla nadiren".split(),
        "some",
    ),
    **dict.fromkeys("only solely exclusively yalnızca sadece yalnız".split(), "only"),
    **dict.fromkeys("minimum asgari".split(), "at least"),
    **dict.fromkeys("maximum azami kadar".split(), "at most"),
    "fazla": "more",
    "az": "less",
}
_BY_LANGUAGE = {"tr": {"her": "all"}}  # English "her" is a pronoun
# words that scope the word after them ("every visit", "tüm üyeler", "at least 7"); the others
# ("everyone", "herkes", "always", "kadar") stand for what they scope
_DETERMINERS = frozenset(
    "all every tüm bütün her some several many most few bazı birkaç çoğu kimi birçok only"
    " solely exclusively yalnızca sadece yalnız minimum asgari maximum azami".split()
)
_SELF_PHRASES = frozenset({("her", "zaman"), ("hiçbir", "zaman"), ("for", "nothing")})
# Thai runs have no spaces and Korean attaches endings: these are found inside a word
_INSIDE: tuple[tuple[str, str], ...] = (
    ("ไม่เกิน", "at most"),
    ("อย่างน้อย", "at least"),
    ("ไม่", "not"),
    ("ห้าม", "not"),  # "forbidden": ห้ามนำสุนัขเข้า says dogs may not come in
    ("มิได้", "not"),  # formal: มิ before ได้, ใช่, อาจ (มิถุนายน, June, holds no negation)
    ("มิใช่", "not"),
    ("มิอาจ", "not"),
    ("ทุก", "all"),
    ("ทั้งหมด", "all"),
    ("เสมอ", "all"),
    ("บาง", "some"),
    ("เท่านั้น", "only"),
    ("เพียง", "only"),
    ("않", "not"),
    ("없이", ""),  # "without" (처방전 없이, 끊임없이): no negation of the verb
    ("없", "not"),
    ("아니", "not"),
    ("아닙", "not"),  # 아닙니다, the formal 아니다
    ("아닌", "not"),
    ("모든", "all"),
    ("모두", "all"),
    ("항상", "all"),
    ("누구나", "all"),
    ("일부", "some"),
    ("적어도", "at least"),
    ("최소", "at least"),
    ("최대", "at most"),
    ("이상", "at least"),
    ("이하", "at most"),
    ("오직", "only"),
)
_KO_WORDS = {"안": "not", "못": "not"}
# 못 joined to 하다 (들어가지 못한다, 못합니다, 못해요, 못했다); 잘못 ("wrongly") starts otherwise
_KO_MOT = re.compile("^못[하한합해했할함]")
_THAI_NOT = ("ไม่", "มิได้", "มิใช่", "มิอาจ")
# "it is not (true) that ...": a negation over a clause, so one inside it nests (Korean
# 열지 않는 것은 아니다, Thai ไม่จริงที่...ไม่เปิด), not a second statement beside it
_NESTING = ("것은 아니", "것이 아니", "건 아니", "게 아니", "ไม่จริงที่", "ไม่จริงว่า", "ไม่ใช่ว่า")
_HANGUL = re.compile("[\uac00-\ud7a3]")
# a Turkish negative verb: the stem (2 letters at least), -me/-ma and a tense or person
_TR_NEGATIVE = re.compile(
    r"\w\w(?:[ae]m[ae]z|m[ae]z(?:s[ae]|d[ıi]|l[ae]r|s[ıi]n(?:[ıi]z)?|[ıi]z)?"
    r"|m[ae]y(?:[ae]c[ae]k|[ıi]n(?:[ıi]z)?|[ae]n|[ıi]z|[ıi]m)\w*|m[ıiuü]yor\w*"
    r"|m[ae]d[ıi](?:m|n|k|n[ıi]z|l[ae]r)?|m[ae]d[ıi]ğ\w*|m[ae]m[ıiuü]ş\w*|m[ae]m[ae]l[ıi]\w*)$"
)
_TR_NOT_NEGATIVE = frozenset({"namaz", "komedi", "komedisi"})
_APOSTROPHE_NOT = re.compile(r"n['’]t\b")
_IRREGULAR_NOT = re.compile(r"\b(wo|ca|sha)n['’]t\b", re.IGNORECASE)  # won't, can't, shan't
_IRREGULAR = {"wo": "will", "ca": "can", "sha": "shall"}
_WORD = re.compile(r"[\w\u0e00-\u0e7f]+")  # Thai vowel and tone marks are not \w
_CLAUSE_BREAK = re.compile(
    r"\s*[;:](?=\s)\s*|,?\s+\b(?:and|but|or|while|whereas|although|though|because|unless"
    r"|ve|ama|fakat|ancak|lakin|veya|ya\s+da|yahut|oysa|halbuki|çünkü)\b\s+",
    re.IGNORECASE,
)
# a clause number: digits, optional sub-numbers and a letter ("7", "7.2", "7b", "7/b", "7.b")
_LABEL_NUMBER = r"\d+(?:[./]\d+)*(?:[./]?[a-zçğıöşü](?![\w]))?"
_LABEL_WORD = r"(?:madde|md\.|bölüm|fıkra|article|art\.|section|clause|§)"
_DASH = "\\-\u2010-\u2015\u2212"
_HEAD_LABEL = re.compile(
    rf"^\s*(?:\(\s*{_LABEL_NUMBER}\s*\)"  # (7), (7b)
    rf"|(?:{_LABEL_WORD}\s*)?{_LABEL_NUMBER}\s*(?:\.?\s*\)|\.(?=\s)"  # 7) 7.) 7.
    rf"|[:/{_DASH}](?=\s+[^\d\s]))"  # 7 - 7: 7/ (not a range "5 - 10" nor a time "18:45")
    rf"|{_LABEL_WORD}\s*{_LABEL_NUMBER}\b)",  # madde 7b, §2
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Marks:
    """What a clause asserts besides its words: negated or not, and its scope words.

    ``scope`` holds the kinds; ``scoped`` each scope word as (kind, the word it scopes), in
    order, and ``keys`` the same pairs as compared (the scoped word's stem, a number's value).
    """

    negated: bool
    scope: frozenset[str]
    scoped: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    keys: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    negations: int = field(default=0, compare=False, repr=False)  # Thai and Korean, counted
    # negation words of spaced scripts (English, Turkish): two in one clause nest ("it is not
    # true that it does not open"), as "and"/"ve" split two negated statements apart
    spaced_negations: int = field(default=0, compare=False, repr=False)

    def describe(self) -> str:
        """``negated; at least (7), only (adults)`` or ``affirmative; no scope word``.

        Where Thai or Korean negations are counted and there are more than one:
        ``negated (2 negations); ...``.
        """
        words = ", ".join(f"{k} ({w})" if w else k for k, w in self.scoped)
        counted = f" ({self.negations} negations)" if self.negations > 1 else ""
        polarity = f"negated{counted}" if self.negated else "affirmative"
        return f"{polarity}; {words or 'no scope word'}"

    def same_scope(self, other: Marks) -> bool:
        """Whether both hold the same scope words on the same words, as many times each."""
        return Counter(self.keys) == Counter(other.keys)

    def same_scope_kinds(self, other: Marks) -> bool:
        """Whether both hold the same kinds of scope word as many times each, on any words."""
        return Counter(k for k, _ in self.keys) == Counter(k for k, _ in other.keys)

    def scope_difference(self, other: Marks) -> list[str]:
        """The kinds of scope word one side holds (on some word) and the other does not."""
        diff = (Counter(self.keys) - Counter(other.keys)) + (
            Counter(other.keys) - Counter(self.keys)
        )
        return sorted({kind for kind, _ in diff})


def fold(text: str) -> str:
    r"""NFC, case folded, with the Turkish dotted capital's dot dropped (``İ`` folds to ``i``).

    Examples:
        >>> fold("DEĞİL İzin")
        'değil izin'
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold()).replace(
        "i\u0307", "i"
    )


def expand_not(text: str) -> str:
    """English contractions of "not" written out: "doesn't" is "does not", "won't" "will not".

    Examples:
        >>> expand_not("It doesn't stop, won't wait and can’t park.")
        'It does not stop, will not wait and can not park.'
    """
    text = _IRREGULAR_NOT.sub(lambda m: _IRREGULAR[m.group(1).lower()] + "n't", text)
    return _APOSTROPHE_NOT.sub(" not", text)


# Korean -지 말다 forbids (피우지 마세요: do not smoke), read as the -지 않다 it means
_KO_PROHIBIT = re.compile(r"지\s+(?=마세요|마십시오|마라|마요|말아|말고|말자|맙시다|말라|맙니다)")


def _tokens(text: str) -> list[str]:
    return _WORD.findall(_KO_PROHIBIT.sub("지 않", expand_not(fold(text))))


def _word_kind(word: str, language: str) -> str | None:
    """The kind of one word: a listed word, a Turkish negative verb, or a mark inside it."""
    kind = _WORDS.get(word) or _BY_LANGUAGE.get(language, {}).get(word) or _KO_WORDS.get(word)
    if kind is not None:
        return kind
    if word not in _TR_NOT_NEGATIVE and _TR_NEGATIVE.search(word):
        return "not"
    if _KO_MOT.match(word):
        return "not"
    return None


def _inside_kinds(word: str) -> list[str]:
    """Marks written inside a word (Thai runs, Korean endings), longest first, not overlapping."""
    found: list[str] = []
    if word.isascii():  # every mark is Thai or Hangul
        return found
    for mark, kind in _INSIDE:
        found += [kind] * word.count(mark) if kind else []
        word = word.replace(mark, " ")
    return found


@functools.lru_cache(maxsize=1 << 18)  # a clause or word is read again for every claim on it
def marks(text: str, language: str = "en") -> Marks:
    """Whether a text is negated and which scope words it holds (see the module note).

    Examples:
        >>> marks("Pensioners do not pay the museum fee.").negated
        True
        >>> marks("Emekliler müze ücretini ödemez.", "tr").negated, marks("Emekliler öder.", "tr")
        (True, Marks(negated=False, scope=frozenset(), scoped=()))
        >>> sorted(marks("Herkes en az 5 avro öder.", "tr").scope)
        ['all', 'at least']
        >>> marks("Pay no more than 5 euros.").describe()
        'affirmative; at most (5)'
        >>> marks("All members get a towel at every visit.").scoped
        (('all', 'members'), ('all', 'visit'))
        >>> marks("Uzaktan çalışma talebi izne çıkmadan önce iletilir.", "tr").negated
        False
    """
    words = _tokens(text)
    found = _found(words, language)
    kinds = [k for k, _ in found]
    scoped = tuple((k, w) for k, w in found if k not in ("not", "free"))
    keys = tuple(sorted((k, _key(w, language)) for k, w in scoped))
    counted = sum(len(_word_negations(w)) for w in words if _unspaced(w))
    spaced = _spaced_negations(found)
    if spaced > 1:  # a comma lists statements ("ödemez, ... ödemez"): one piece nests them
        spaced = max(_spaced_negations(_found(_tokens(p), language)) for p in text.split(","))
    if counted > 1 and any(n in fold(text) for n in _NESTING):  # "it is not that ... not"
        spaced = max(spaced, counted)
    return Marks("not" in kinds, frozenset(k for k, _ in scoped), scoped, keys, counted, spaced)


def _found(words: list[str], language: str) -> list[tuple[str, str]]:
    """Every mark of a run of words, as (kind, the word it scopes; "" inside a word)."""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        used, here = _marks_at(words, i, language)
        found += here
        i += used
    return found


def _spaced_negations(found: list[tuple[str, str]]) -> int:
    """The negation words of spaced scripts among marks (one inside a word scopes "")."""
    return sum(1 for k, w in found if k == "not" and w)


def _unspaced(word: str) -> bool:
    """Whether a word is Thai or Hangul: a script whose negations are counted (see the note)."""
    return any("\u0e00" <= c <= "\u0e7f" or "\uac00" <= c <= "\ud7a3" for c in word)


def _word_negations(word: str) -> list[str]:
    """The negations one Thai or Korean word holds (Korean 안, 못 alone; marks inside it)."""
    if _KO_WORDS.get(word) == "not" or _KO_MOT.match(word):
        return ["not"]
    return [k for k in _inside_kinds(word) if k == "not"]


def without_negations(text: str) -> str:
    """The text with its Thai and Korean negations taken out.

    A Korean word holding one goes, with the verb it negates in ``-지`` before it (written
    otherwise when affirmative: 내지 않는다, 낸다).

    What a clause says besides those negations: it tells a claim restating the whole of a
    clause (which must hold as many) from one that states a part of it.

    Examples:
        >>> without_negations("학생은 식비를 내지 않는다.")
        '학생은 식비를'
        >>> without_negations("ห้องสมุดไม่เปิดวันเสาร์")
        'ห้องสมุดเปิดวันเสาร์'
    """
    out: list[str] = []
    for word in _tokens(text):
        if not _unspaced(word) or not _word_negations(word):
            out.append(word)
        elif not _HANGUL.search(word):
            for mark in _THAI_NOT:  # joined: the run reads as without it
                word = word.replace(mark, "")
            out.append(word)
        elif out and out[-1].endswith("지"):  # 내지 않는다: the verb goes with it (낸다, 내고)
            out.pop()
    return " ".join(out)


def _marks_at(words: list[str], i: int, language: str) -> tuple[int, list[tuple[str, str]]]:
    """The marks read at word ``i``: how many words they use, and each (kind, scoped word)."""
    for n in (3, 2):
        phrase = tuple(words[i : i + n])
        kind = _PHRASES.get(phrase)
        if kind is not None:
            scoped = " ".join(phrase) if phrase in _SELF_PHRASES else _next_word(words, i + n)
            return n, [(kind, scoped)]
    word = words[i]
    kind = _word_kind(word, language)
    if kind is None:  # marks inside a word (Thai, Korean) are compared by kind alone
        return 1, [(k, "") for k in _inside_kinds(word)]
    determiner = word in _DETERMINERS or word in _BY_LANGUAGE.get(language, {})
    return 1, [(kind, _next_word(words, i + 1) if determiner else word)]


def _next_word(words: list[str], at: int) -> str:
    """The first word from ``at`` that is neither a function word nor a listed mark."""
    return next((w for w in words[at:] if w not in STOPWORDS and w not in _WORDS), "")


def _key(word: str, language: str) -> str:
    """A scoped word as compared: a number's value, else its stem ("members" and "member")."""
    if not word:
        return ""
    values = numbers(word, language)
    return f"#{min(values)}" if values else stem(word)


def clause_spans(sentence: str) -> list[tuple[int, int]]:
    """Where each clause of a sentence starts and ends (see :func:`clauses`).

    Examples:
        >>> clause_spans("a b; c d")
        [(0, 3), (5, 8)]
    """
    out: list[tuple[int, int]] = []
    at = 0
    for m in [*_CLAUSE_BREAK.finditer(sentence), None]:
        end = len(sentence) if m is None else m.start()
        piece = sentence[at:end]
        lead, trail = len(piece) - len(piece.lstrip()), len(piece.rstrip())
        if trail > lead:
            out.append((at + lead, at + trail))
        at = len(sentence) if m is None else m.end()
    return out


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence: split at ``;``, ``:`` and the conjunctions joining statements.

    Examples:
        >>> clauses("Requests go to the manager, and the manager always approves them.")
        ['Requests go to the manager', 'the manager always approves them.']
        >>> clauses("Talep yedi gün önce iletilir ve her zaman onaylanır.")
        ['Talep yedi gün önce iletilir', 'her zaman onaylanır.']
        >>> clauses("Opens at 18:45 daily.")
        ['Opens at 18:45 daily.']
    """
    return [sentence[a:b] for a, b in clause_spans(sentence)]


def head_label(quote: str) -> str:
    """The clause or list number at the head of a quote (``7)``, ``7/b)``, ``madde 7b``), or "".

    Examples:
        >>> [head_label(q) for q in ["7) Ödünç süresi", "7/b) Yıllık", "(7) x", "7. Ödünç"]]
        ['7)', '7/b)', '(7)', '7.']
        >>> head_label("madde 7b uyarınca"), head_label("7 gün önce"), head_label("7.5 euros")
        ('madde 7b', '', '')
        >>> [head_label(q) for q in ["2.) Refunds", "2 - Refunds", "2b – İadeler", "3: x"]]
        ['2.)', '2 -', '2b –', '3:']
        >>> head_label("5 - 10 days"), head_label("18:45 daily")
        ('', '')
    """
    m = _HEAD_LABEL.match(quote)
    return m.group().strip() if m else ""


def without_head_label(quote: str) -> str:
    """The quote without the clause or list number at its head.

    Examples:
        >>> without_head_label("7) Ödünç süresi on dört gündür.")
        'Ödünç süresi on dört gündür.'
    """
    m = _HEAD_LABEL.match(quote)
    return quote[m.end() :].lstrip() if m else quote


# a label inside a text: "rule 7", "Article 12b", "§ 4", "7. maddesine", "제7조", "ข้อ 7"
_INNER_LABEL = re.compile(
    rf"\b(?:{_LABEL_WORD}|rule|paragraph|chapter|kural)\s*({_LABEL_NUMBER})\b"
    rf"|\b({_LABEL_NUMBER})\.\s*(?:madde|bölüm|fıkra|kural)\w*"
    r"|제\s*(\d+)\s*조|(?:ข้อ|มาตรา)\s*(\d+)",
    re.IGNORECASE,
)


def split_labels(text: str) -> tuple[str, frozenset[str]]:
    """The text with its clause labels taken out, and the labels ("rule 7" as ``§7``).

    A label names a rule, not a quantity: "under rule 9, kilns cool for 30 hours" says nothing
    about 9 hours. Labels are compared as labels (``§9`` is not ``§8``).

    Examples:
        >>> split_labels("Under rule 9, kilns cool for 30 hours.")
        ('Under  , kilns cool for 30 hours.', frozenset({'§9'}))
        >>> split_labels("Yönetmeliğin 7. maddesine göre 14 gün")[1]
        frozenset({'§7'})
    """
    labels: set[str] = set()

    def take(m: re.Match[str]) -> str:
        labels.add("§" + next(g for g in m.groups() if g).casefold())
        return " "

    return _INNER_LABEL.sub(take, text), frozenset(labels)


def apply_synonyms(text: str, groups: tuple[tuple[str, ...], ...]) -> str:
    """The text folded, each declared synonym written as the first phrase of its group.

    Examples:
        >>> apply_synonyms("Kids get in for nothing.", (("children", "kids"), ("free", "for nothing"), ("enter", "get in")))
        'children enter free.'
        >>> apply_synonyms("Children", ())
        'children'
    """
    out = fold(text)
    for group in groups:
        first = fold(group[0])
        for phrase in sorted(group[1:], key=len, reverse=True):
            out = re.sub(rf"(?<!\w){re.escape(fold(phrase))}(?!\w)", first, out)
    return out
