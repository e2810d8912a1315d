"""The decomposition lab's words (notebooks 01 and 06): explanations, exercises, game, headers.

One entry per text, each in English, Turkish and Thai (see :mod:`claimlab.notebook.words`);
``{placeholders}`` are filled with this file's ids and numbers, already escaped. Metric names,
status words and N/A stay as they are in every language. The texts name no fixture's content.
"""

from __future__ import annotations

from claimlab.notebook.words import Catalogue

_TAIL_EN = (
    "The subclaim no longer says what the answer said, so it preserves no unit and whatever the "
    "references say about it is about a different claim."
)

WORDS: Catalogue = {
    # what a selection shows (explain.py)
    "explain.common": {
        "en": "Preservation {preservation}, coverage {coverage}, confirmed support {confirmed}, "
        "raw support {raw}; {contradicted} CONTRADICTED and {nir} NOT_IN_REFERENCE.",
        "tr": "Toy Preservation {preservation}, Toy Original Coverage {coverage}, Toy Confirmed "
        "Support {confirmed}, Toy Raw Support {raw}; {contradicted} CONTRADICTED ve {nir} "
        "NOT_IN_REFERENCE.",
        "th": "Toy Preservation {preservation}, Toy Original Coverage {coverage}, Toy Confirmed "
        "Support {confirmed}, Toy Raw Support {raw}; CONTRADICTED {contradicted} ข้อ และ "
        "NOT_IN_REFERENCE {nir} ข้อ",
    },
    "explain.empty": {
        "en": "**Empty selection.** Nothing was selected, so there is nothing to check: "
        "preservation and support have a zero denominator and are **N/A**, not 0% and not 100%. "
        "Coverage still has a denominator (the original's units) and is {coverage}. {common}",
        "tr": "**Boş seçim.** Hiçbir şey seçilmedi, yani denetlenecek bir şey yok: korumanın ve "
        "desteğin paydası sıfırdır; değerleri %0 ya da %100 değil, **N/A**'dır. Kapsamın paydası "
        "(özgün yanıtın birimleri) yine de vardır ve kapsam {coverage} olur. {common}",
        "th": "**ชุดที่ว่างเปล่า** ไม่ได้เลือกอะไรเลย จึงไม่มีอะไรให้ตรวจ: การคงไว้และการสนับสนุน"
        "มีตัวหารเป็นศูนย์ จึงเป็น **N/A** ไม่ใช่ 0% และไม่ใช่ 100% ส่วนความครอบคลุมยังมีตัวหาร "
        "(หน่วยของต้นฉบับ) และมีค่า {coverage} {common}",
    },
    "explain.not_kept": {
        "en": "**Units {ids} not kept.** Nothing selected says what they said; coverage is "
        "{coverage}.",
        "tr": "**{ids} birimleri tutulmadı.** Seçilenlerin hiçbiri onların söylediğini "
        "söylemiyor; kapsam {coverage}.",
        "th": "**ไม่ได้คงหน่วย {ids} ไว้** ไม่มีข้อที่เลือกใดกล่าวสิ่งที่หน่วยเหล่านั้นกล่าว ความครอบคลุมคือ {coverage}",
    },
    "explain.dropped": {
        "en": "**Support looks perfect ({confirmed}) while coverage is only {coverage}.** Units "
        "{ids} were dropped; dropping hard claims makes support look better without checking "
        "more.",
        "tr": "**Destek kusursuz görünüyor ({confirmed}), oysa kapsam yalnızca {coverage}.** "
        "{ids} birimleri atıldı; zor iddiaları atmak, daha fazlasını denetlemeden desteği daha "
        "iyi gösterir.",
        "th": "**การสนับสนุนดูสมบูรณ์แบบ ({confirmed}) ขณะที่ความครอบคลุมมีเพียง {coverage}** "
        "หน่วย {ids} ถูกตัดทิ้ง การตัดข้ออ้างที่ยากทิ้งทำให้การสนับสนุนดูดีขึ้นโดยไม่ได้ตรวจอะไรเพิ่ม",
    },
    "explain.introduced": {
        "en": "**Introduced claim {ids}.** It may be supported by a reference, but the original "
        "answer never said it (no source span): it raises support without preserving anything.",
        "tr": "**Eklenmiş iddia {ids}.** Bir kaynak onu destekliyor olabilir, ama özgün yanıt "
        "bunu hiç söylemedi (kaynak aralığı yok): hiçbir şeyi korumadan desteği yükseltir.",
        "th": "**ข้ออ้างที่เพิ่มเข้ามา {ids}** อาจมีเอกสารอ้างอิงสนับสนุน แต่คำตอบต้นฉบับไม่เคยกล่าวไว้ "
        "(ไม่มีช่วงข้อความต้นทาง): มันเพิ่มการสนับสนุนโดยไม่ได้คงสิ่งใดไว้",
    },
    "explain.error.qualifier": {
        "en": "**Qualifier error in {ids}:** a qualifier was broadened, narrowed or dropped. "
        + _TAIL_EN,
        "tr": "**{ids} içinde niteleyici hatası:** bir niteleyici genişletilmiş, daraltılmış ya "
        "da atılmış. Alt iddia artık yanıtın söylediğini söylemiyor; bu yüzden hiçbir birimi "
        "korumaz ve kaynakların onun hakkında söyledikleri başka bir iddiayla ilgilidir.",
        "th": "**ข้อผิดพลาดด้านเงื่อนไขใน {ids}:** เงื่อนไขถูกขยาย ทำให้แคบลง หรือตัดทิ้ง "
        "ข้ออ้างย่อยไม่ได้กล่าวสิ่งที่คำตอบกล่าวอีกต่อไป จึงไม่คงหน่วยใดไว้ "
        "และสิ่งที่เอกสารอ้างอิงกล่าวถึงมันก็เป็นเรื่องของข้ออ้างอื่น",
    },
    "explain.error.entity": {
        "en": "**Entity error in {ids}:** the claim was given to another entity. " + _TAIL_EN,
        "tr": "**{ids} içinde varlık hatası:** iddia başka bir varlığa mal edilmiş. Alt iddia "
        "artık yanıtın söylediğini söylemiyor; bu yüzden hiçbir birimi korumaz ve kaynakların "
        "onun hakkında söyledikleri başka bir iddiayla ilgilidir.",
        "th": "**ข้อผิดพลาดด้านสิ่งที่กล่าวถึงใน {ids}:** ข้ออ้างถูกยกให้สิ่งอื่น "
        "ข้ออ้างย่อยไม่ได้กล่าวสิ่งที่คำตอบกล่าวอีกต่อไป จึงไม่คงหน่วยใดไว้ "
        "และสิ่งที่เอกสารอ้างอิงกล่าวถึงมันก็เป็นเรื่องของข้ออ้างอื่น",
    },
    "explain.error.version": {
        "en": "**Version error in {ids}:** the version was changed. " + _TAIL_EN,
        "tr": "**{ids} içinde sürüm hatası:** sürüm değiştirilmiş. Alt iddia artık yanıtın "
        "söylediğini söylemiyor; bu yüzden hiçbir birimi korumaz ve kaynakların onun hakkında "
        "söyledikleri başka bir iddiayla ilgilidir.",
        "th": "**ข้อผิดพลาดด้านรุ่นใน {ids}:** รุ่นถูกเปลี่ยน "
        "ข้ออ้างย่อยไม่ได้กล่าวสิ่งที่คำตอบกล่าวอีกต่อไป จึงไม่คงหน่วยใดไว้ "
        "และสิ่งที่เอกสารอ้างอิงกล่าวถึงมันก็เป็นเรื่องของข้ออ้างอื่น",
    },
    "explain.duplicate": {
        "en": "**Duplicate {ids}.** Same fingerprint as an earlier candidate: the raw list grows "
        "(raw support {raw}) but the unique selection, confirmed support ({confirmed}) and "
        "coverage ({coverage}) do not change.",
        "tr": "**Yineleme {ids}.** Daha önceki bir adayla aynı parmak izi: ham liste büyür (ham "
        "destek {raw}), ama tekil seçim, doğrulanmış destek ({confirmed}) ve kapsam ({coverage}) "
        "değişmez.",
        "th": "**ข้อซ้ำ {ids}** ลายนิ้วมือเดียวกับตัวเลือกก่อนหน้า: รายการดิบยาวขึ้น "
        "(การสนับสนุนดิบ {raw}) แต่ชุดที่ไม่ซ้ำ การสนับสนุนที่ยืนยันแล้ว ({confirmed}) "
        "และความครอบคลุม ({coverage}) ไม่เปลี่ยน",
    },
    "explain.compound": {
        "en": "**Compound claim {ids}.** It preserves its units but is not atomic: one verdict "
        "now covers two statements, so a partial failure would be hidden.",
        "tr": "**Bileşik iddia {ids}.** Birimlerini korur ama atomik değildir: artık tek bir "
        "karar iki ifadeyi kapsar, bu yüzden kısmi bir başarısızlık gizlenir.",
        "th": "**ข้ออ้างผสม {ids}** คงหน่วยของมันไว้แต่ไม่เป็นอะตอม: คำตัดสินเดียวครอบคลุม"
        "สองข้อความ ความล้มเหลวบางส่วนจึงถูกซ่อนไว้",
    },
    "explain.faithful": {
        "en": "**Faithful selection.** Every unit is kept, each once.",
        "tr": "**Sadık seçim.** Her birim tutuldu, her biri bir kez.",
        "th": "**ชุดที่ซื่อตรง** ทุกหน่วยถูกคงไว้ หน่วยละหนึ่งครั้ง",
    },
    "explain.faithful_low": {
        "en": " Support is below 100% because the answer itself has {contradicted} contradicted "
        "and {nir} unreferenced claim(s), and those must stay visible: a good decomposition "
        "reports them rather than dropping them.",
        "tr": " Destek %100'ün altında, çünkü yanıtın kendisinde {contradicted} çelişen ve {nir} "
        "kaynaklarda bulunmayan iddia var ve bunlar görünür kalmalı: iyi bir ayrıştırma onları "
        "atmaz, bildirir.",
        "th": " การสนับสนุนต่ำกว่า 100% เพราะตัวคำตอบเองมีข้ออ้างที่ขัดแย้ง {contradicted} ข้อ "
        "และที่ไม่มีในเอกสารอ้างอิง {nir} ข้อ ซึ่งต้องยังมองเห็นได้: "
        "การแยกที่ดีรายงานข้ออ้างเหล่านี้แทนที่จะตัดทิ้ง",
    },
    # the original and its offsets (lesson.py, views.py)
    "original": {
        "en": "**Original** {id} ({version}): ",
        "tr": "**Özgün yanıt** {id} ({version}): ",
        "th": "**ต้นฉบับ** {id} ({version}): ",
    },
    "character.one": {"en": "{n} character", "tr": "{n} karakter", "th": "{n} ตัว"},
    "character.other": {"en": "{n} characters", "tr": "{n} karakter", "th": "{n} ตัว"},
    "offsets.wide": {
        "en": "This original holds {count} beyond U+FFFF ({shown}): each is two UTF-16 units but "
        "one Python character, so an offset counted in code points drifts by up to {n} and is "
        "caught when the file loads.",
        "tr": "Bu özgün yanıtta U+FFFF'in ötesinde {count} var ({shown}): her biri iki UTF-16 "
        "birimi ama tek bir Python karakteridir; bu yüzden kod noktalarıyla sayılan bir konum en "
        "çok {n} kayar ve bu, dosya yüklenirken yakalanır.",
        "th": "ต้นฉบับนี้มีอักขระที่อยู่เกิน U+FFFF จำนวน {count} ({shown}): แต่ละตัวเป็นสองหน่วย "
        "UTF-16 แต่เป็นอักขระ Python ตัวเดียว ตำแหน่งที่นับเป็นจุดรหัสจึงคลาดได้สูงสุด {n} "
        "และจะถูกตรวจพบเมื่อโหลดไฟล์",
    },
    "offsets.narrow": {
        "en": "Every character of this original is a single UTF-16 unit, so code-point and "
        "UTF-16 offsets coincide here; in a text with a character beyond U+FFFF they differ, and "
        "an offset counted the wrong way is caught when the file loads.",
        "tr": "Bu özgün yanıtın her karakteri tek bir UTF-16 birimidir, bu yüzden kod noktası ve "
        "UTF-16 konumları burada örtüşür; U+FFFF'in ötesinde bir karakter içeren bir metinde "
        "farklılaşırlar ve yanlış sayılmış bir konum dosya yüklenirken yakalanır.",
        "th": "อักขระทุกตัวของต้นฉบับนี้เป็นหน่วย UTF-16 เดียว ตำแหน่งแบบจุดรหัสและแบบ UTF-16 "
        "จึงตรงกันที่นี่ ในข้อความที่มีอักขระเกิน U+FFFF ทั้งสองจะต่างกัน "
        "และตำแหน่งที่นับผิดวิธีจะถูกตรวจพบเมื่อโหลดไฟล์",
    },
    # views.py
    "mode": {
        "en": "### Mode {name}: {ids}",
        "tr": "### Seçim {name}: {ids}",
        "th": "### ชุดที่เลือก {name}: {ids}",
    },
    "mode.figure": {"en": "mode: {name}", "tr": "seçim: {name}", "th": "ชุดที่เลือก: {name}"},
    "mode.status_note": {
        "en": "status over the unique selection: {line}",
        "tr": "tekil seçimdeki durumlar: {line}",
        "th": "สถานะในชุดที่ไม่ซ้ำ: {line}",
    },
    "col.selection": {"en": "selection", "tr": "seçim", "th": "ชุดที่เลือก"},
    "col.unit": {"en": "unit", "tr": "birim", "th": "หน่วย"},
    "col.start": {"en": "start", "tr": "başlangıç", "th": "เริ่ม"},
    "col.end": {"en": "end", "tr": "bitiş", "th": "สิ้นสุด"},
    "col.preserves": {"en": "preserves", "tr": "korur", "th": "คงไว้"},
    "col.faithful": {"en": "faithful", "tr": "sadık", "th": "ซื่อตรง"},
    "col.atomic": {"en": "atomic", "tr": "atomik", "th": "เป็นอะตอม"},
    "col.errors": {"en": "errors", "tr": "hatalar", "th": "ข้อผิดพลาด"},
    "col.references": {"en": "references", "tr": "kaynaklar", "th": "เอกสารอ้างอิง"},
    "col.proposed_unconfirmed": {
        "en": "proposed (not confirmed)",
        "tr": "önerilen (doğrulanmamış)",
        "th": "ที่เสนอ (ยังไม่ยืนยัน)",
    },
    "col.counted": {"en": "counted", "tr": "sayılır", "th": "นับ"},
    "col.spans": {"en": "spans (UTF-16)", "tr": "aralıklar (UTF-16)", "th": "ช่วงข้อความ (UTF-16)"},
    "col.original_layer": {
        "en": "original → subclaim",
        "tr": "özgün yanıt → alt iddia",
        "th": "ต้นฉบับ → ข้ออ้างย่อย",
    },
    "col.reference_layer": {
        "en": "reference → subclaim",
        "tr": "kaynak → alt iddia",
        "th": "เอกสารอ้างอิง → ข้ออ้างย่อย",
    },
    "col.draft": {"en": "draft", "tr": "taslak", "th": "ฉบับร่าง"},
    "col.proposed": {"en": "proposed", "tr": "önerilen", "th": "ที่เสนอ"},
    "col.candidates": {"en": "candidates", "tr": "adaylar", "th": "ตัวเลือก"},
    "col.missing_units": {"en": "missing units", "tr": "eksik birimler", "th": "หน่วยที่ขาด"},
    "col.duplicates": {"en": "duplicates", "tr": "yinelemeler", "th": "ข้อซ้ำ"},
    "col.entity": {"en": "entity", "tr": "varlık", "th": "สิ่งที่กล่าวถึง"},
    "col.with_errors": {"en": "with errors", "tr": "hatalı olanlar", "th": "ที่มีข้อผิดพลาด"},
    "col.decompscore": {
        "en": "DecompScore (count)",
        "tr": "DecompScore (sayı)",
        "th": "DecompScore (จำนวน)",
    },
    "col.coverage": {"en": "coverage", "tr": "kapsam", "th": "ความครอบคลุม"},
    "col.coherence": {
        "en": "coherence (= Toy Preservation)",
        "tr": "tutarlılık (= Toy Preservation)",
        "th": "ความสอดคล้อง (= Toy Preservation)",
    },
    "col.atomicity": {"en": "atomicity", "tr": "atomiklik", "th": "ความเป็นอะตอม"},
    "col.core_keeps": {"en": "Core keeps", "tr": "Core'un tuttukları", "th": "Core เก็บไว้"},
    "col.core_drops": {
        "en": "Core drops (why)",
        "tr": "Core'un attıkları (neden)",
        "th": "Core ตัดทิ้ง (เหตุผล)",
    },
    "col.coverage_after": {
        "en": "coverage after Core",
        "tr": "Core'dan sonra kapsam",
        "th": "ความครอบคลุมหลัง Core",
    },
    "cell.repeats": {
        "en": "no (repeats {id} (the same fingerprint))",
        "tr": "hayır ({id} adayını yineler (aynı parmak izi))",
        "th": "ไม่ (ซ้ำกับ {id} (ลายนิ้วมือเดียวกัน))",
    },
    "cell.not_counted": {"en": "no ({reason})", "tr": "hayır ({reason})", "th": "ไม่ ({reason})"},
    "cell.no_source_span": {
        "en": "(no source span)",
        "tr": "(kaynak aralığı yok)",
        "th": "(ไม่มีช่วงข้อความต้นทาง)",
    },
    "cell.not_backed": {
        "en": "{unit} (not backed: not counted)",
        "tr": "{unit} (dayanaksız: sayılmaz)",
        "th": "{unit} (ไม่มีช่วงข้อความรองรับ: ไม่นับ)",
    },
    # the explorer's panel for the teacher (widgets.py)
    "panel.selection": {"en": "selection: ", "tr": "seçim: ", "th": "ชุดที่เลือก: "},
    "panel.counts": {
        "en": "missing units: {missing} · duplicates: {duplicates} · introduced: {introduced} · "
        "non-atomic: {compound}",
        "tr": "eksik birimler: {missing} · yinelemeler: {duplicates} · eklenenler: {introduced} · "
        "atomik olmayanlar: {compound}",
        "th": "หน่วยที่ขาด: {missing} · ข้อซ้ำ: {duplicates} · ที่เพิ่มเข้ามา: {introduced} · "
        "ที่ไม่เป็นอะตอม: {compound}",
    },
    "panel.dup_of": {"en": "dup of {id}", "tr": "{id} yinelemesi", "th": "ซ้ำกับ {id}"},
    # the game on paper (widgets.py)
    "raw_slot.one": {"en": "{n} raw slot", "tr": "{n} ham yuvanız", "th": "ช่องว่าง {n} ช่อง"},
    "raw_slot.other": {"en": "{n} raw slots", "tr": "{n} ham yuvanız", "th": "ช่องว่าง {n} ช่อง"},
    "paper.intro": {
        "en": "<strong>Decomposition game on paper.</strong> {slots}; mark the candidates you "
        "select (a duplicate takes a slot too) and write the evidence status of each "
        "({statuses}).",
        "tr": "<strong>Kâğıt üzerinde ayrıştırma oyunu.</strong> {slots} var; seçtiğiniz adayları "
        "işaretleyin (bir yineleme de bir yuva kullanır) ve her birinin kanıt durumunu yazın "
        "({statuses}).",
        "th": "<strong>เกมแยกข้ออ้างบนกระดาษ</strong> คุณมี{slots} ทำเครื่องหมายตัวเลือกที่คุณเลือก "
        "(ข้อที่ซ้ำก็ใช้หนึ่งช่อง) และเขียนสถานะหลักฐานของแต่ละข้อ ({statuses})",
    },
    "paper.answer": {
        "en": "<strong>The answer</strong> {id}{version}, each of its units marked:",
        "tr": "<strong>Yanıt</strong> {id}{version}, her birimi işaretlenmiş olarak:",
        "th": "<strong>คำตอบ</strong> {id}{version} โดยทำเครื่องหมายทุกหน่วย:",
    },
    "paper.references": {
        "en": "<strong>The references</strong> (what the evidence statuses are judged on):",
        "tr": "<strong>Kaynaklar</strong> (kanıt durumlarının neye göre değerlendirildiği):",
        "th": "<strong>เอกสารอ้างอิง</strong> (สิ่งที่ใช้ตัดสินสถานะหลักฐาน):",
    },
    "col.candidate": {"en": "candidate", "tr": "aday", "th": "ตัวเลือก"},
    "col.selected": {"en": "selected", "tr": "seçildi", "th": "เลือก"},
    "col.starting_selection": {
        "en": "starting selection",
        "tr": "başlangıç seçimi",
        "th": "ชุดเริ่มต้น",
    },
    "col.what_the_answer_says": {
        "en": "what the answer says",
        "tr": "yanıtın söylediği",
        "th": "สิ่งที่คำตอบกล่าว",
    },
    # the game's rules (notebook 06): {slots} and {units} are counts with their nouns
    "unit.one": {"en": "{n} unit", "tr": "{n} birim", "th": "{n} หน่วย"},
    "unit.other": {"en": "{n} units", "tr": "{n} birim", "th": "{n} หน่วย"},
    "rules": {
        "en": "You have **{slots}**: every selected candidate takes one (a duplicate too); "
        "deselecting frees it; annotating an evidence status takes none. Win by covering all "
        "{units} of the answer with atomic, faithful candidates, with no duplicate and no "
        "candidate that has an error, and every selected candidate annotated with its evidence "
        "status ({statuses}), even when that keeps support below 100%. An empty selection never "
        "wins. **Check** ends a round; **Reset** starts it again. Rounds in this file: {rounds}.",
        "tr": "**{slots}** var: seçilen her aday bir yuva kullanır (bir yineleme de); "
        "seçimi kaldırmak yuvayı boşaltır; kanıt durumu etiketlemek yuva kullanmaz. Yanıtın "
        "bütün birimlerini ({units}) atomik ve sadık adaylarla, yinelemesiz ve hatalı aday "
        "olmadan kapsayıp seçilen her adayı kanıt durumuyla ({statuses}) etiketleyerek "
        "kazanırsınız; destek %100'ün altında kalsa bile. Boş bir seçim asla kazanmaz. **Check** "
        "bir turu bitirir; **Reset** yeniden başlatır. Bu dosyadaki turlar: {rounds}.",
        "th": "คุณมี **{slots}**: ตัวเลือกที่เลือกแต่ละข้อใช้หนึ่งช่อง (ข้อที่ซ้ำก็เช่นกัน) "
        "การยกเลิกการเลือกคืนช่อง การกำกับสถานะหลักฐานไม่ใช้ช่อง ชนะได้ด้วยการครอบคลุมหน่วยทั้งหมด "
        "({units}) ของคำตอบด้วยตัวเลือกที่เป็นอะตอมและซื่อตรง ไม่มีข้อซ้ำและไม่มีตัวเลือกที่มีข้อผิดพลาด "
        "และกำกับสถานะหลักฐานของทุกตัวเลือกที่เลือก ({statuses}) แม้การสนับสนุนจะต่ำกว่า 100% "
        "ชุดที่ว่างเปล่าไม่มีทางชนะ **Check** จบรอบ **Reset** เริ่มรอบใหม่ รอบในไฟล์นี้: {rounds}",
    },
    # a scripted round (notebook 06, instructor)
    "after_script": {"en": "after the script", "tr": "betikten sonra", "th": "หลังเล่นตามสคริปต์"},
    "outcome": {
        "en": "Round {name}{solver}: **{verdict}** · {reasons}",
        "tr": "{name} turu{solver}: **{verdict}** · {reasons}",
        "th": "รอบ {name}{solver}: **{verdict}** · {reasons}",
    },
    "outcome.solver": {
        "en": " (the solver's round)",
        "tr": " (çözücünün turu)",
        "th": " (รอบของตัวแก้)",
    },
    "outcome.won": {"en": "WON", "tr": "KAZANILDI", "th": "ชนะ"},
    "outcome.not_won": {"en": "not won", "tr": "kazanılmadı", "th": "ไม่ชนะ"},
    "outcome.all_met": {
        "en": "every rule met",
        "tr": "bütün kurallar karşılandı",
        "th": "ผ่านทุกกฎ",
    },
    # exercises of notebook 01 (lesson.py)
    "ex.empty.q": {
        "en": 'A colleague reports "support 100%" for an empty selection. What should the report '
        "have said, and why is 0% just as wrong?",
        "tr": 'Bir meslektaşınız boş bir seçim için "destek %100" bildiriyor. Rapor ne demeliydi '
        "ve %0 neden aynı derecede yanlıştır?",
        "th": 'เพื่อนร่วมงานรายงานว่า "การสนับสนุน 100%" สำหรับชุดที่ว่างเปล่า รายงานควรบอกว่าอะไร '
        "และทำไม 0% ก็ผิดพอกัน",
    },
    "ex.empty.a": {
        "en": "N/A (0/0): nothing was checked. 0% would claim every checked item failed; 100% "
        "would claim every checked item passed. Coverage is still defined: 0/{units}.",
        "tr": "N/A (0/0): hiçbir şey denetlenmedi. %0, denetlenen her öğenin başarısız olduğunu; "
        "%100, denetlenen her öğenin geçtiğini iddia ederdi. Kapsam yine de tanımlıdır: "
        "0/{units}.",
        "th": "N/A (0/0): ไม่มีสิ่งใดถูกตรวจ 0% จะหมายความว่าทุกรายการที่ตรวจไม่ผ่าน "
        "100% จะหมายความว่าทุกรายการที่ตรวจผ่าน ความครอบคลุมยังนิยามได้: 0/{units}",
    },
    "ex.dropped.q": {
        "en": "In {name}, confirmed support is {support}, against {ref_support} in {ref}. Which "
        "units were lost, and which single number on the page tells you so?",
        "tr": "{name} seçiminde doğrulanmış destek {support}, {ref} seçiminde ise {ref_support}. "
        "Hangi birimler kayboldu ve bunu sayfadaki hangi tek sayı söylüyor?",
        "th": "ใน {name} การสนับสนุนที่ยืนยันแล้วคือ {support} เทียบกับ {ref_support} ใน {ref} "
        "หน่วยใดหายไป และตัวเลขใดเพียงตัวเดียวบนหน้านี้บอกคุณ",
    },
    "ex.dropped.a": {
        "en": "{ids}: coverage drops from {ref_coverage} to {coverage} while support rises from "
        "{ref_support} to {support}. Dropping claims makes support look better without checking "
        "anything more.",
        "tr": "{ids}: destek {ref_support} değerinden {support} değerine çıkarken kapsam "
        "{ref_coverage} değerinden {coverage} değerine düşer. İddiaları atmak, daha fazla bir şey "
        "denetlemeden desteği daha iyi gösterir.",
        "th": "{ids}: ความครอบคลุมลดจาก {ref_coverage} เป็น {coverage} ขณะที่การสนับสนุนเพิ่มจาก "
        "{ref_support} เป็น {support} การตัดข้ออ้างทิ้งทำให้การสนับสนุนดูดีขึ้นโดยไม่ได้ตรวจอะไรเพิ่ม",
    },
    "ex.dup.pair": {
        "en": "{id} (of {of})",
        "tr": "{id} ({of} yinelemesi)",
        "th": "{id} (ซ้ำกับ {of})",
    },
    "ex.dup.q": {
        "en": "Why does {name} change raw support but not confirmed support or coverage?",
        "tr": "{name} seçimi neden ham desteği değiştiriyor da doğrulanmış desteği ya da "
        "kapsamı değiştirmiyor?",
        "th": "ทำไม {name} เปลี่ยนการสนับสนุนดิบ แต่ไม่เปลี่ยนการสนับสนุนที่ยืนยันแล้วหรือความครอบคลุม",
    },
    "ex.dup.a": {
        "en": "{pairs} share a fingerprint with an earlier candidate, so the unique selection "
        "and the preserved units are unchanged (confirmed support {confirmed}, coverage "
        "{coverage}); only the raw list grows to {n} items (raw support {raw}).",
        "tr": "{pairs} daha önceki bir adayla aynı parmak izini taşır, bu yüzden tekil seçim ve "
        "korunan birimler değişmez (doğrulanmış destek {confirmed}, kapsam {coverage}); yalnızca "
        "ham liste {n} öğeye çıkar (ham destek {raw}).",
        "th": "{pairs} มีลายนิ้วมือเดียวกับตัวเลือกก่อนหน้า ชุดที่ไม่ซ้ำและหน่วยที่คงไว้จึงไม่เปลี่ยน "
        "(การสนับสนุนที่ยืนยันแล้ว {confirmed} ความครอบคลุม {coverage}) "
        "มีเพียงรายการดิบที่ยาวขึ้นเป็น {n} รายการ (การสนับสนุนดิบ {raw})",
    },
    "ex.layer.q": {
        "en": "In {name}, candidate {id} is labelled {status} by the references. Why does that "
        "label say nothing about the answer?",
        "tr": "{name} seçiminde {id} adayı kaynaklarca {status} olarak etiketlenmiş. Bu etiket "
        "neden yanıt hakkında hiçbir şey söylemez?",
        "th": "ใน {name} ตัวเลือก {id} ถูกเอกสารอ้างอิงกำกับว่า {status} "
        "ทำไมป้ายกำกับนั้นจึงไม่บอกอะไรเกี่ยวกับคำตอบเลย",
    },
    "ex.layer.a": {
        "en": "{id} has a {kind} error: it no longer says what the answer said, so it preserves "
        "no unit (coverage {coverage}) and whatever the references say about it is about a "
        "different claim. The original layer decides first.",
        "tr": "{id} adayında bir {kind} hatası var: artık yanıtın söylediğini söylemiyor, bu "
        "yüzden hiçbir birimi korumaz (kapsam {coverage}) ve kaynakların onun hakkında "
        "söyledikleri başka bir iddiayla ilgilidir. Önce özgün yanıt katmanı karar verir.",
        "th": "{id} มีข้อผิดพลาดแบบ {kind}: มันไม่ได้กล่าวสิ่งที่คำตอบกล่าวอีกต่อไป "
        "จึงไม่คงหน่วยใดไว้ (ความครอบคลุม {coverage}) และสิ่งที่เอกสารอ้างอิงกล่าวถึงมัน"
        "ก็เป็นเรื่องของข้ออ้างอื่น ชั้นต้นฉบับตัดสินก่อน",
    },
    "kind.qualifier": {"en": "qualifier", "tr": "niteleyici", "th": "เงื่อนไข"},
    "kind.entity": {"en": "entity", "tr": "varlık", "th": "สิ่งที่กล่าวถึง"},
    "kind.version": {"en": "version", "tr": "sürüm", "th": "รุ่น"},
    # exercises of notebook 06 (lesson.py)
    "ex.round.q": {
        "en": "Round {name} ({title}) starts with {start}. Win it.",
        "tr": "{name} turu ({title}) {start} ile başlıyor. Turu kazanın.",
        "th": "รอบ {name} ({title}) เริ่มด้วย {start} จงเอาชนะรอบนี้",
    },
    "ex.round.a": {
        "en": "{moves}, then Check.",
        "tr": "{moves}; ardından Check'e basın.",
        "th": "{moves} แล้วกด Check",
    },
    "ex.round.empty_start": {
        "en": "an empty selection",
        "tr": "boş bir seçim",
        "th": "ชุดที่ว่างเปล่า",
    },
    "ex.unwinnable.q": {
        "en": "Round {name} ({title}): can it be won?",
        "tr": "{name} turu ({title}): kazanılabilir mi?",
        "th": "รอบ {name} ({title}): ชนะได้หรือไม่",
    },
    "ex.unwinnable.a": {
        "en": "No: some unit has no atomic, faithful, error-free candidate, or the slots are too "
        "few.",
        "tr": "Hayır: bir birimin atomik, sadık ve hatasız bir adayı yok ya da yuvalar yetmiyor.",
        "th": "ไม่ได้: บางหน่วยไม่มีตัวเลือกที่เป็นอะตอม ซื่อตรง และไม่มีข้อผิดพลาด หรือช่องว่างมีไม่พอ",
    },
    "move.deselect": {
        "en": "deselect {ids}",
        "tr": "seçimi kaldırın: {ids}",
        "th": "ยกเลิกการเลือก {ids}",
    },
    "move.select": {"en": "select {ids}", "tr": "seçin: {ids}", "th": "เลือก {ids}"},
    "move.annotate": {
        "en": "annotate {notes}",
        "tr": "etiketleyin: {notes}",
        "th": "กำกับสถานะ {notes}",
    },
    "ex.low.q": {
        "en": "Why can a winning selection show confirmed support below 100%?",
        "tr": "Kazanan bir seçim neden %100'ün altında doğrulanmış destek gösterebilir?",
        "th": "ทำไมชุดที่ชนะจึงแสดงการสนับสนุนที่ยืนยันแล้วต่ำกว่า 100% ได้",
    },
    "ex.low.a": {
        "en": "Support is about the answer, not the decomposition: the answer has {contradicted} "
        "CONTRADICTED and {nir} NOT_IN_REFERENCE claims ({ids}); a faithful decomposition keeps "
        "them visible, so a win shows confirmed support {confirmed}.",
        "tr": "Destek ayrıştırmayla değil, yanıtla ilgilidir: yanıtta {contradicted} CONTRADICTED "
        "ve {nir} NOT_IN_REFERENCE iddia var ({ids}); sadık bir ayrıştırma onları görünür tutar, "
        "bu yüzden bir galibiyet {confirmed} doğrulanmış destek gösterir.",
        "th": "การสนับสนุนเป็นเรื่องของคำตอบ ไม่ใช่ของการแยก: คำตอบมีข้ออ้าง CONTRADICTED "
        "{contradicted} ข้อ และ NOT_IN_REFERENCE {nir} ข้อ ({ids}) การแยกที่ซื่อตรงยังคงให้เห็น"
        "ข้ออ้างเหล่านี้ ชุดที่ชนะจึงแสดงการสนับสนุนที่ยืนยันแล้ว {confirmed}",
    },
}
