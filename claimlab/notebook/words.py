"""The words a lesson shows around a file's content, in the file's language (English the fallback).

One mechanism for every text a lesson, a view, a game or a handout shows: a catalogue maps a key
to its texts by language (the ``language`` tag's primary subtag: "en", "tr", "th"), each a
:meth:`str.format` template whose ``{placeholders}`` are the same in every language. English is
always there and is what a language the catalogue does not know gets. Each lab keeps its own
catalogue beside its lesson prose; :data:`WORDS` holds what several labs and the handouts share.
Values are formatted in as given: a caller escapes them for where they are shown.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

Catalogue = Mapping[str, Mapping[str, str]]
"""Key -> language (primary subtag) -> text or template; "en" always present."""

FALLBACK = "en"
LANGUAGES = ("en", "tr", "th")  # every catalogue entry is written in each of these


def primary_language(tag: str) -> str:
    """A language tag's primary subtag, lower case ("" gives the fallback, English).

    Examples:
        >>> primary_language("tr-TR"), primary_language(""), primary_language("TH")
        ('tr', 'en', 'th')
    """
    primary = tag.strip().replace("_", "-").split("-")[0].lower()
    return primary or FALLBACK


def say(
    catalogue: Catalogue, key: str, language: str, values: Mapping[str, object] | None = None
) -> str:
    """The text for ``key`` in ``language`` (else English), its placeholders filled from ``values``.

    Examples:
        >>> table = {"n": {"en": "{n} units", "tr": "{n} birim"}}
        >>> say(table, "n", "tr", {"n": 3}), say(table, "n", "ko", {"n": 3})
        ('3 birim', '3 units')
    """
    texts = catalogue[key]
    template = texts.get(primary_language(language), texts[FALLBACK])
    return template.format_map(dict(values)) if values is not None else template


def counted(catalogue: Catalogue, key: str, n: int, language: str) -> str:
    """A count with its noun: the entry ``key.one`` when ``n`` is 1, else ``key.other``.

    Examples:
        >>> table = {"unit.one": {"en": "{n} unit"}, "unit.other": {"en": "{n} units"}}
        >>> counted(table, "unit", 1, "en"), counted(table, "unit", 0, "tr")
        ('1 unit', '0 units')
    """
    return say(catalogue, f"{key}.{'one' if n == 1 else 'other'}", language, {"n": n})


def placeholders(template: str) -> set[str]:
    """The names a template's ``{placeholders}`` use.

    Examples:
        >>> sorted(placeholders("{a} of {b} ({a})"))
        ['a', 'b']
    """
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


WORDS: Catalogue = {
    # the handouts' title page and page footer (tooling/handouts.py)
    "handout.student": {
        "en": "student handout",
        "tr": "öğrenci notları",
        "th": "เอกสารสำหรับผู้เรียน",
    },
    "handout.instructor": {
        "en": "instructor handout",
        "tr": "öğretmen notları",
        "th": "เอกสารสำหรับผู้สอน",
    },
    "handout.notebook": {"en": "notebook", "tr": "not defteri", "th": "สมุดบันทึก"},
    "handout.made_by": {
        "en": "Made by claimlab {version} from the executed notebook; the numbers are the ones\n"
        "    recorded in <code>{records}</code> and checked by the regression tests.",
        "tr": "claimlab {version} ile, çalıştırılmış not defterinden üretildi; sayılar\n"
        "    <code>{records}</code> dosyasına kaydedilen ve regresyon testlerinin denetlediği "
        "sayılardır.",
        "th": "สร้างโดย claimlab {version} จากสมุดบันทึกที่รันแล้ว ตัวเลขทั้งหมดคือค่าที่บันทึกไว้ใน\n"
        "    <code>{records}</code> และผ่านการตรวจของการทดสอบถดถอย",
    },
    "handout.no_records": {
        "en": "(no records file)",
        "tr": "(kayıt dosyası yok)",
        "th": "(ไม่มีไฟล์บันทึกผล)",
    },
    "handout.parameters": {"en": "Parameters", "tr": "Parametreler", "th": "พารามิเตอร์"},
    "handout.none": {"en": "none", "tr": "yok", "th": "ไม่มี"},
    "handout.data_files": {
        "en": "Data files and provenance",
        "tr": "Veri dosyaları ve kaynakları",
        "th": "ไฟล์ข้อมูลและที่มา",
    },
    "handout.no_data_files": {
        "en": "no data file parameters",
        "tr": "veri dosyası parametresi yok",
        "th": "ไม่มีพารามิเตอร์ที่เป็นไฟล์ข้อมูล",
    },
    "handout.user_file": {
        "en": "user-supplied file (provenance as given by the user)",
        "tr": "kullanıcının verdiği dosya (kaynağı kullanıcının belirttiği gibidir)",
        "th": "ไฟล์ที่ผู้ใช้ให้มา (ที่มาตามที่ผู้ใช้ระบุ)",
    },
    "handout.fixture": {
        "en": "claimlab teaching fixture (SIMULATION: made up for teaching)",
        "tr": "claimlab öğretim dosyası (BENZETİM: öğretim için kurgulanmıştır)",
        "th": "ไฟล์สำหรับสอนของ claimlab (จำลอง: แต่งขึ้นเพื่อการสอน)",
    },
    "handout.page": {
        "en": "page {page} of {pages}",
        "tr": "sayfa {page} / {pages}",
        "th": "หน้า {page} จาก {pages}",
    },
    # exercises (notebook/display.py)
    "exercises.none": {
        "en": "*No exercise for this file.*",
        "tr": "*Bu dosya için alıştırma yok.*",
        "th": "*ไม่มีแบบฝึกหัดสำหรับไฟล์นี้*",
    },
    "exercises.solutions": {"en": "**Solutions.**", "tr": "**Çözümler.**", "th": "**เฉลย**"},
    "exercises.no_solution": {
        "en": "(no solution given)",
        "tr": "(çözüm verilmemiş)",
        "th": "(ไม่มีเฉลย)",
    },
    # the games' shared widget texts (notebook/widgets.py)
    "game.student_note": {
        "en": "Classroom view: statuses, errors and metrics are not shown here. Play the game "
        "below; Check tells you what is right and why.",
        "tr": "Sınıf görünümü: durumlar, hatalar ve ölçütler burada gösterilmez. Aşağıdaki oyunu "
        "oynayın; neyin doğru olduğunu ve nedenini Check söyler.",
        "th": "มุมมองในชั้นเรียน: ที่นี่ไม่แสดงสถานะ ข้อผิดพลาด และตัวชี้วัด เล่นเกมด้านล่าง "
        "แล้ว Check จะบอกว่าอะไรถูกและเพราะอะไร",
    },
    "game.nothing_selected": {
        "en": "nothing selected",
        "tr": "hiçbir şey seçilmedi",
        "th": "ยังไม่ได้เลือกอะไร",
    },
    "game.version": {
        "en": " (version {version})",
        "tr": " (sürüm {version})",
        "th": " (รุ่น {version})",
    },
    "game.no_references": {
        "en": "The file has no references: every status is NOT_IN_REFERENCE.",
        "tr": "Dosyada hiç kaynak yok: her durum NOT_IN_REFERENCE.",
        "th": "ไฟล์นี้ไม่มีเอกสารอ้างอิง: ทุกสถานะเป็น NOT_IN_REFERENCE",
    },
    # table headers and cells both labs show
    "col.id": {"en": "id", "tr": "kimlik", "th": "รหัส"},
    "col.text": {"en": "text", "tr": "metin", "th": "ข้อความ"},
    "col.status": {"en": "status", "tr": "durum", "th": "สถานะ"},
    "col.round": {"en": "round", "tr": "tur", "th": "รอบ"},
    "col.title": {"en": "title", "tr": "başlık", "th": "ชื่อ"},
    "col.note": {"en": "note", "tr": "not", "th": "หมายเหตุ"},
    "col.question": {"en": "question", "tr": "soru", "th": "คำถาม"},
    "cell.yes": {"en": "yes", "tr": "evet", "th": "ใช่"},
    "cell.no": {"en": "no", "tr": "hayır", "th": "ไม่"},
    "cell.empty": {"en": "(empty)", "tr": "(boş)", "th": "(ว่าง)"},
}
