"""The sufficiency lab's words (notebooks 02 and 07): explanations, headers, game, exercises.

One entry per text, each in English, Turkish and Thai (see :mod:`claimlab.notebook.words`);
``{placeholders}`` are filled with this file's ids, values and numbers. The English entries are
word for word what the metric floor says (:mod:`claimlab.metrics.sufficiency`), which stays
language-free: a view words a result by its codes (``reason``, a rejection's ``reason`` and
``problems``). Status words, metric names, N/A and counts stay as they are in every language.
The texts name no fixture's content.
"""

from __future__ import annotations

from claimlab.notebook.words import Catalogue

WORDS: Catalogue = {
    # a check's heading and status line (views.py)
    "selected": {
        "en": "Selected by the parameters",
        "tr": "Parametrelerin seçtiği",
        "th": "ที่พารามิเตอร์เลือก",
    },
    "check": {
        "en": "Question {question}: {text} · context {context} ({raw} raw, {unique} unique){mode}",
        "tr": "Soru {question}: {text} · bağlam {context} ({raw} ham, {unique} tekil){mode}",
        "th": "คำถาม {question}: {text} · บริบท {context} (ดิบ {raw}, ไม่ซ้ำ {unique}){mode}",
    },
    "check.ignored": {
        "en": " · **metadata rules ignored (demo)**",
        "tr": " · **üst veri kuralları yok sayıldı (gösterim)**",
        "th": " · **ไม่ใช้กฎเมทาดาทา (สาธิต)**",
    },
    "no_scenarios": {
        "en": "*This file has no scenarios.*",
        "tr": "*Bu dosyada senaryo yok.*",
        "th": "*ไฟล์นี้ไม่มีสถานการณ์*",
    },
    # a result's explanation, by its reason code (SufficiencyResult.reason)
    "explain.unanswerable": {
        "en": "the question is marked unanswerable: no context is sufficient, whatever it holds",
        "tr": "soru yanıtlanamaz olarak işaretlenmiş: içinde ne olursa olsun hiçbir bağlam "
        "yeterli değildir",
        "th": "คำถามนี้ถูกระบุว่าตอบไม่ได้: ไม่มีบริบทใดเพียงพอ ไม่ว่าจะมีอะไรอยู่ก็ตาม",
    },
    "explain.conditional": {
        "en": "a complete witness, but on conditions the question's circumstances do not meet "
        "({unmet}): it answers only if they hold",
        "tr": "eksiksiz bir tanık var, ama sorunun koşullarının karşılamadığı koşullara bağlı "
        "({unmet}): yalnızca bu koşullar geçerliyse yanıt verir",
        "th": "มีพยานที่ครบถ้วน แต่ขึ้นกับเงื่อนไขที่สถานการณ์ของคำถามไม่ได้ระบุ ({unmet}): "
        "จะตอบได้ก็ต่อเมื่อเงื่อนไขเหล่านั้นเป็นจริง",
    },
    "explain.only_if": {
        "en": "{id} only if {conditions}",
        "tr": "{id} yalnızca şu koşulda: {conditions}",
        "th": "{id} เฉพาะเมื่อ {conditions}",
    },
    "explain.witness": {
        "en": "complete witness: {witnesses}",
        "tr": "eksiksiz tanık: {witnesses}",
        "th": "พยานที่ครบถ้วน: {witnesses}",
    },
    "explain.unmapped": {
        "en": "no complete witness, and {ids} could not be mapped to any premise: it might be "
        "the missing one, so the result is UNKNOWN, not INSUFFICIENT",
        "tr": "eksiksiz tanık yok ve {ids} hiçbir öncüle eşlenemedi: eksik olan o olabilir, bu "
        "yüzden sonuç INSUFFICIENT değil UNKNOWN",
        "th": "ไม่มีพยานที่ครบถ้วน และจับคู่ {ids} กับข้ออ้างตั้งต้นใดไม่ได้: "
        "มันอาจเป็นข้อที่ขาดอยู่ ผลจึงเป็น UNKNOWN ไม่ใช่ INSUFFICIENT",
    },
    "explain.open_list": {
        "en": "the context completes none of the listed alternatives, and the file says the "
        "list may be incomplete: another set of texts might answer, so the result is UNKNOWN, "
        "not INSUFFICIENT",
        "tr": "bağlam listelenen alternatiflerin hiçbirini tamamlamıyor ve dosya listenin eksik "
        "olabileceğini söylüyor: başka bir metin kümesi yanıt verebilir, bu yüzden sonuç "
        "INSUFFICIENT değil UNKNOWN",
        "th": "บริบทไม่ทำให้ทางเลือกใดในรายการครบ และไฟล์ระบุว่ารายการอาจไม่ครบ: "
        "ข้อความชุดอื่นอาจตอบได้ ผลจึงเป็น UNKNOWN ไม่ใช่ INSUFFICIENT",
    },
    "explain.gaps": {
        "en": "this selection is not enough (not: the claim is false). {gaps}",
        "tr": "bu seçim yeterli değil (bu, iddianın yanlış olduğu anlamına gelmez). {gaps}",
        "th": "สิ่งที่เลือกนี้ยังไม่พอ (ไม่ได้แปลว่าข้ออ้างเป็นเท็จ) {gaps}",
    },
    "explain.gap": {
        "en": "{alternative} missing {missing}",
        "tr": "{alternative} için eksik: {missing}",
        "th": "{alternative} ขาด {missing}",
    },
    "explain.a_link": {"en": "a link", "tr": "bir bağlantı", "th": "ข้อเชื่อม"},
    # a conflict, a link error, a rejection (the metric's details, by code)
    "conflict": {
        "en": "{what} {relation} one value, but the context gives {shown}: a conflict to "
        "resolve (by authority and scope), not a side to pick",
        "tr": "{what} için {relation} ilişkisi tek bir değer alır, ama bağlam {shown} veriyor: "
        "bu, taraf seçilecek değil (yetki ve kapsamla) çözülecek bir çelişkidir",
        "th": "{what} มีความสัมพันธ์ {relation} ได้ค่าเดียว แต่บริบทให้ {shown}: "
        "นี่คือความขัดแย้งที่ต้องคลี่คลาย (ด้วยอำนาจและขอบเขต) ไม่ใช่การเลือกข้าง",
    },
    "conflict.value": {
        "en": "{value} from {ids}",
        "tr": "{ids} kaydından {value}",
        "th": "{value} จาก {ids}",
    },
    "conflict.of": {
        "en": "the {item} of {subject}",
        "tr": "{subject} için {item}",
        "th": "{item} ของ {subject}",
    },
    "link.no_lead": {
        "en": "{left} does not lead to {right}",
        "tr": "{left}, {right} kaydına götürmüyor",
        "th": "{left} ไม่นำไปสู่ {right}",
    },
    "link.ends": {
        "en": "{left} ends at {end} but {right} starts at {start}: they do not link",
        "tr": "{left} {end} noktasında bitiyor ama {right} {start} noktasında başlıyor: "
        "birbirine bağlanmıyorlar",
        "th": "{left} จบที่ {end} แต่ {right} เริ่มที่ {start}: ทั้งสองเชื่อมกันไม่ได้",
    },
    "reject.duplicate": {
        "en": "{id} is already in the context: a copy adds no premise",
        "tr": "{id} zaten bağlamda: bir kopya öncül eklemez",
        "th": "{id} อยู่ในบริบทแล้ว: สำเนาไม่ได้เพิ่มข้ออ้างตั้งต้น",
    },
    "reject.off_topic": {
        "en": "{id} is about {topic}, the question about {question_topic}",
        "tr": "{id} {topic} konusunda, soru ise {question_topic} konusunda",
        "th": "{id} เป็นเรื่อง {topic} แต่คำถามเป็นเรื่อง {question_topic}",
    },
    "reject.not_a_premise": {
        "en": "{id} is in no alternative of {question} (it asks for {asks}): on its own it "
        "cannot answer this question",
        "tr": "{id}, {question} sorusunun hiçbir alternatifinde yok (soru şunları soruyor: "
        "{asks}): tek başına bu soruyu yanıtlayamaz",
        "th": "{id} ไม่อยู่ในทางเลือกใดของ {question} (คำถามถามถึง {asks}): ลำพังตัวมันเองตอบคำถามนี้ไม่ได้",
    },
    "reject.metadata": {
        "en": "{id} fails the metadata rules: {problems}",
        "tr": "{id} üst veri kurallarını geçemiyor: {problems}",
        "th": "{id} ไม่ผ่านกฎเมทาดาทา: {problems}",
    },
    "reject.unsafe": {
        "en": "{detail} (shown because metadata rules are ignored; never a witness)",
        "tr": "{detail} (üst veri kuralları yok sayıldığı için gösteriliyor; asla tanık olmaz)",
        "th": "{detail} (แสดงเพราะไม่ใช้กฎเมทาดาทา ไม่มีวันเป็นพยาน)",
    },
    "problem.status": {
        "en": "status {status} (needs {required})",
        "tr": "durum {status} (gereken {required})",
        "th": "สถานะ {status} (ต้องเป็น {required})",
    },
    "problem.not_current": {
        "en": "not CURRENT",
        "tr": "CURRENT değil",
        "th": "ไม่ใช่ CURRENT",
    },
    "reason.duplicate": {"en": "duplicate", "tr": "yineleme", "th": "ซ้ำ"},
    "reason.off_topic": {"en": "off-topic", "tr": "konu dışı", "th": "นอกเรื่อง"},
    "reason.metadata": {"en": "metadata", "tr": "üst veri", "th": "เมทาดาทา"},
    "reason.not_a_premise": {"en": "not a premise", "tr": "öncül değil", "th": "ไม่ใช่ข้ออ้างตั้งต้น"},
    "reason.unsafe": {
        "en": "unsafe: metadata ignored",
        "tr": "güvensiz: üst veri yok sayıldı",
        "th": "ไม่ปลอดภัย: ไม่ใช้เมทาดาทา",
    },
    # tables (views.py)
    "col.relation": {"en": "relation", "tr": "ilişki", "th": "ความสัมพันธ์"},
    "col.current": {"en": "current", "tr": "güncel", "th": "ปัจจุบัน"},
    "col.topic": {"en": "topic", "tr": "konu", "th": "หัวข้อ"},
    "col.alternative": {"en": "alternative", "tr": "alternatif", "th": "ทางเลือก"},
    "col.complete_witness": {
        "en": "complete witness",
        "tr": "eksiksiz tanık",
        "th": "พยานครบถ้วน",
    },
    "col.present": {"en": "present", "tr": "mevcut", "th": "มีอยู่"},
    "col.missing_premises": {
        "en": "missing premises",
        "tr": "eksik öncüller",
        "th": "ข้ออ้างตั้งต้นที่ขาด",
    },
    "col.link_errors": {"en": "link errors", "tr": "bağlantı hataları", "th": "ข้อเชื่อมที่ผิด"},
    "col.kind": {"en": "kind", "tr": "tür", "th": "ชนิด"},
    "col.reason": {"en": "reason", "tr": "neden", "th": "เหตุผล"},
    "col.detail": {"en": "detail", "tr": "ayrıntı", "th": "รายละเอียด"},
    "col.finding": {"en": "finding", "tr": "bulgu", "th": "สิ่งที่พบ"},
    "col.about": {"en": "about", "tr": "konu", "th": "เกี่ยวกับ"},
    "cell.rejected": {"en": "rejected", "tr": "reddedildi", "th": "ถูกปฏิเสธ"},
    "cell.unsafe": {
        "en": "UNSAFE CANDIDATE (never a witness)",
        "tr": "UNSAFE CANDIDATE (asla tanık olmaz)",
        "th": "UNSAFE CANDIDATE (ไม่มีวันเป็นพยาน)",
    },
    "cell.unknown": {"en": "unknown", "tr": "bilinmiyor", "th": "ไม่รู้จัก"},
    "cell.cannot_map": {
        "en": "cannot be mapped",
        "tr": "eşlenemiyor",
        "th": "จับคู่ไม่ได้",
    },
    "cell.not_a_record": {
        "en": "not a record of this fixture",
        "tr": "bu dosyanın bir kaydı değil",
        "th": "ไม่ใช่ระเบียนของไฟล์นี้",
    },
    "cell.condition_not_met": {
        "en": "condition not met",
        "tr": "koşul karşılanmadı",
        "th": "ไม่ตรงเงื่อนไข",
    },
    "cell.only_if": {
        "en": "only if {conditions}",
        "tr": "yalnızca şu koşulda: {conditions}",
        "th": "เฉพาะเมื่อ {conditions}",
    },
    "cell.asked_item": {
        "en": "asked item: {status}",
        "tr": "sorulan öğe: {status}",
        "th": "รายการที่ถาม: {status}",
    },
    "cell.value_from": {
        "en": "{value} (from {ids})",
        "tr": "{value} (kaynak: {ids})",
        "th": "{value} (จาก {ids})",
    },
    "cell.search_next": {"en": "search next", "tr": "sıradaki arama", "th": "ค้นหาต่อไป"},
    "cell.what": {
        "en": "what {subject} {relation}",
        "tr": "{subject} —{relation}→ ?",
        "th": "{subject} —{relation}→ ?",
    },
    "col.scenario": {"en": "scenario", "tr": "senaryo", "th": "สถานการณ์"},
    "col.answered": {"en": "answered", "tr": "yanıtlandı", "th": "ตอบแล้ว"},
    "col.correct": {"en": "correct", "tr": "doğru", "th": "ถูกต้อง"},
    "col.evidence_complete": {
        "en": "evidence complete",
        "tr": "kanıt eksiksiz",
        "th": "หลักฐานครบ",
    },
    "col.confidence": {"en": "confidence", "tr": "güven", "th": "ความมั่นใจ"},
    "cell.with_gaps": {
        "en": "answered with gaps",
        "tr": "boşluklarla yanıtlandı",
        "th": "ตอบทั้งที่มีช่องว่าง",
    },
    "cell.abstained": {
        "en": "abstained with complete evidence",
        "tr": "kanıt eksiksizken yanıt verilmedi",
        "th": "งดตอบทั้งที่หลักฐานครบ",
    },
    "selective": {
        "en": "Accuracy on answered **{accuracy}** · answered **{coverage}** · answered with "
        "gaps: {gaps} · abstained with complete evidence: {abstained}",
        "tr": "Yanıtlananlarda doğruluk **{accuracy}** · yanıtlanan **{coverage}** · "
        "boşluklarla yanıtlananlar: {gaps} · kanıt eksiksizken yanıt verilmeyenler: {abstained}",
        "th": "ความแม่นยำบนข้อที่ตอบ **{accuracy}** · ตอบแล้ว **{coverage}** · "
        "ตอบทั้งที่มีช่องว่าง: {gaps} · งดตอบทั้งที่หลักฐานครบ: {abstained}",
    },
    "col.threshold": {"en": "threshold", "tr": "eşik", "th": "เกณฑ์"},
    "col.answered_total": {
        "en": "answered / total",
        "tr": "yanıtlanan / toplam",
        "th": "ตอบแล้ว / ทั้งหมด",
    },
    "col.accuracy": {
        "en": "accuracy on answered",
        "tr": "yanıtlananlarda doğruluk",
        "th": "ความแม่นยำบนข้อที่ตอบ",
    },
    "col.risk": {
        "en": "risk on answered",
        "tr": "yanıtlananlarda risk",
        "th": "ความเสี่ยงบนข้อที่ตอบ",
    },
    # figures (views.py)
    "plot.risk_title": {
        "en": "Selective answering: coverage and accuracy per confidence threshold",
        "tr": "Seçici yanıtlama: güven eşiğine göre kapsam ve doğruluk",
        "th": "การตอบแบบเลือกตอบ: ความครอบคลุมและความแม่นยำตามเกณฑ์ความมั่นใจ",
    },
    "plot.threshold": {
        "en": "confidence threshold",
        "tr": "güven eşiği",
        "th": "เกณฑ์ความมั่นใจ",
    },
    "plot.chains": {
        "en": "{question}: {status} · context {context} ({raw} raw / {unique} unique)",
        "tr": "{question}: {status} · bağlam {context} ({raw} ham / {unique} tekil)",
        "th": "{question}: {status} · บริบท {context} (ดิบ {raw} / ไม่ซ้ำ {unique})",
    },
    "plot.in_context": {"en": "in context", "tr": "bağlamda", "th": "อยู่ในบริบท"},
    "plot.missing_premise": {
        "en": "missing premise",
        "tr": "eksik öncül",
        "th": "ข้ออ้างตั้งต้นที่ขาด",
    },
    "plot.conflict_side": {
        "en": "a side of a conflict",
        "tr": "bir çelişkinin bir tarafı",
        "th": "ฝ่ายหนึ่งของความขัดแย้ง",
    },
    "plot.complete": {
        "en": "complete\nwitness",
        "tr": "eksiksiz\ntanık",
        "th": "พยาน\nครบถ้วน",
    },
    "plot.missing": {"en": "missing {n}", "tr": "{n} eksik", "th": "ขาด {n}"},
    "plot.vs": {"en": " vs ", "tr": " / ", "th": " กับ "},
    "plot.unmet": {
        "en": "◆ {id} holds only if {conditions} (not met)",
        "tr": "◆ {id} yalnızca şu koşulda geçerli: {conditions} (karşılanmadı)",
        "th": "◆ {id} เป็นจริงเฉพาะเมื่อ {conditions} (ไม่ตรงเงื่อนไข)",
    },
    "plot.rejected": {
        "en": "rejected {id} ({reason})",
        "tr": "reddedildi: {id} ({reason})",
        "th": "ถูกปฏิเสธ {id} ({reason})",
    },
    "plot.unsafe": {
        "en": "⚠ UNSAFE CANDIDATE {id}: fails metadata rules, never a witness",
        "tr": "⚠ UNSAFE CANDIDATE {id}: üst veri kurallarını geçemiyor, asla tanık olmaz",
        "th": "⚠ UNSAFE CANDIDATE {id}: ไม่ผ่านกฎเมทาดาทา ไม่มีวันเป็นพยาน",
    },
    # a scripted round (views.py)
    "round": {
        "en": "Round {name}{solver}: **{verdict}**{reported} with {spent} of {budget} units "
        "spent, citing {ids} · {reasons}",
        "tr": "{name} turu{solver}: **{verdict}**{reported}; {budget} birimin {spent} birimi "
        "harcandı, gösterilen kayıtlar: {ids} · {reasons}",
        "th": "รอบ {name}{solver}: **{verdict}**{reported} ใช้งบไป {spent} จาก {budget} หน่วย "
        "โดยอ้าง {ids} · {reasons}",
    },
    "round.solver": {
        "en": " (the solver's round)",
        "tr": " (çözücünün turu)",
        "th": " (รอบของตัวแก้)",
    },
    "round.reported": {
        "en": " by reporting the conflict",
        "tr": " (çelişki bildirilerek)",
        "th": " ด้วยการรายงานความขัดแย้ง",
    },
    "round.won": {"en": "WON", "tr": "KAZANILDI", "th": "ชนะ"},
    "round.not_won": {"en": "not won", "tr": "kazanılmadı", "th": "ไม่ชนะ"},
    "round.all_met": {
        "en": "every rule met",
        "tr": "bütün kurallar karşılandı",
        "th": "ผ่านทุกกฎ",
    },
    "round.no_conflict": {
        "en": "*No round of this file starts on a conflict.*",
        "tr": "*Bu dosyada çelişkiyle başlayan bir tur yok.*",
        "th": "*ไม่มีรอบใดในไฟล์นี้ที่เริ่มด้วยความขัดแย้ง*",
    },
    # the explorer (widgets.py)
    "panel.status": {"en": "status: ", "tr": "durum: ", "th": "สถานะ: "},
    "panel.context": {
        "en": "context {raw} raw / {unique} unique",
        "tr": "bağlam {raw} ham / {unique} tekil",
        "th": "บริบท ดิบ {raw} / ไม่ซ้ำ {unique}",
    },
    "panel.missing": {"en": "missing {ids}", "tr": "{ids} eksik", "th": "ขาด {ids}"},
    "panel.link_error": {
        "en": "; link error: {explanation}",
        "tr": "; bağlantı hatası: {explanation}",
        "th": "; ข้อเชื่อมผิด: {explanation}",
    },
    "panel.rejected": {"en": "rejected:", "tr": "reddedilenler:", "th": "ที่ถูกปฏิเสธ:"},
    "label.copies_of": {"en": "copies of", "tr": "kopyalanan", "th": "สำเนาของ"},
    "label.how_many": {"en": "how many", "tr": "kaç tane", "th": "จำนวน"},
    "label.ignore": {
        "en": "ignore the metadata rules (demo: shows unsafe candidates, never witnesses)",
        "tr": "üst veri kurallarını yok say (gösterim: güvensiz adayları gösterir, asla tanıkları "
        "değil)",
        "th": "ไม่ใช้กฎเมทาดาทา (สาธิต: แสดงตัวเลือกที่ไม่ปลอดภัย ไม่ใช่พยาน)",
    },
    # the game (widgets.py)
    "game.report_conflict": {
        "en": "the evidence disagrees: report a conflict",
        "tr": "kanıtlar çelişiyor: çelişkiyi bildir",
        "th": "หลักฐานขัดแย้งกัน: รายงานความขัดแย้ง",
    },
    "game.search": {"en": "search ({cost})", "tr": "ara ({cost})", "th": "ค้นหา ({cost})"},
    "game.search_tip": {"en": "search {id}", "tr": "{id} kaydını ara", "th": "ค้นหา {id}"},
    "game.copy": {"en": "copy ({cost})", "tr": "kopyala ({cost})", "th": "คัดลอก ({cost})"},
    "game.copy_tip": {"en": "copy {id}", "tr": "{id} kaydını kopyala", "th": "คัดลอก {id}"},
    "game.cite": {"en": "cite", "tr": "göster", "th": "อ้าง"},
    "game.given": {"en": "given", "tr": "verildi", "th": "ให้มา"},
    "game.found": {"en": "found", "tr": "bulundu", "th": "พบแล้ว"},
    "copy.one": {"en": " +{n} copy", "tr": " +{n} kopya", "th": " +สำเนา {n}"},
    "copy.other": {"en": " +{n} copies", "tr": " +{n} kopya", "th": " +สำเนา {n}"},
    "game.not_current": {"en": ", not current", "tr": ", güncel değil", "th": ", ไม่ใช่ปัจจุบัน"},
    "game.must_name": {
        "en": "The answer must name: {asks}.",
        "tr": "Yanıt şunları adlandırmalı: {asks}.",
        "th": "คำตอบต้องระบุ: {asks}",
    },
    "game.how": {
        "en": "Budget {budget}: each search costs what its button says; the starting evidence is "
        "free. Cite the records that prove your answer, name every asked item, then Check. If "
        "approved records disagree, do not pick one: cite both and report the conflict.",
        "tr": "Bütçe {budget}: her arama düğmesinde yazan kadar tutar; başlangıç kanıtı "
        "ücretsizdir. Yanıtınızı kanıtlayan kayıtları gösterin, sorulan her öğeyi adlandırın, "
        "sonra Check'e basın. Onaylı kayıtlar çelişiyorsa birini seçmeyin: ikisini de gösterin "
        "ve çelişkiyi bildirin.",
        "th": "งบ {budget}: การค้นหาแต่ละครั้งใช้งบตามที่ปุ่มระบุ หลักฐานเริ่มต้นไม่เสียค่าใช้จ่าย "
        "อ้างระเบียนที่พิสูจน์คำตอบของคุณ ระบุทุกรายการที่ถาม แล้วกด Check "
        "ถ้าระเบียนที่ได้รับอนุมัติขัดแย้งกัน อย่าเลือกข้างใดข้างหนึ่ง: อ้างทั้งสองและรายงานความขัดแย้ง",
    },
    "game.board": {
        "en": "budget left: {left} of {budget} · context: {context}",
        "tr": "kalan bütçe: {left} / {budget} · bağlam: {context}",
        "th": "งบที่เหลือ: {left} จาก {budget} · บริบท: {context}",
    },
    "game.nothing_yet": {"en": "nothing yet", "tr": "henüz yok", "th": "ยังไม่มี"},
    "game.over": {
        "en": "round over: {verdict}; press Reset to play again",
        "tr": "tur bitti: {verdict}; yeniden oynamak için Reset'e basın",
        "th": "จบรอบ: {verdict} กด Reset เพื่อเล่นอีกครั้ง",
    },
    "game.you_won": {"en": "you won", "tr": "kazandınız", "th": "คุณชนะ"},
    "game.not_won": {
        "en": "not won (see why below)",
        "tr": "kazanılmadı (nedeni aşağıda)",
        "th": "ไม่ชนะ (ดูเหตุผลด้านล่าง)",
    },
    "paper.intro": {
        "en": "<strong>Sufficiency game on paper.</strong> Budget {budget}; the starting "
        "evidence of a round is free. Tick what you search (pay its cost), cite the records "
        "that prove your answer and write down every asked item.",
        "tr": "<strong>Kâğıt üzerinde yeterlilik oyunu.</strong> Bütçe {budget}; bir turun "
        "başlangıç kanıtı ücretsizdir. Aradığınız kaydı işaretleyin (maliyetini ödeyin), "
        "yanıtınızı kanıtlayan kayıtları gösterin ve sorulan her öğeyi yazın.",
        "th": "<strong>เกมความเพียงพอบนกระดาษ</strong> งบ {budget} หลักฐานเริ่มต้นของแต่ละรอบ"
        "ไม่เสียค่าใช้จ่าย ทำเครื่องหมายสิ่งที่คุณค้นหา (จ่ายตามราคา) "
        "อ้างระเบียนที่พิสูจน์คำตอบของคุณ และเขียนทุกรายการที่ถาม",
    },
    "col.name": {"en": "name", "tr": "adlandırılacak", "th": "สิ่งที่ต้องระบุ"},
    "col.start": {"en": "start", "tr": "başlangıç", "th": "เริ่ม"},
    "col.record": {"en": "record", "tr": "kayıt", "th": "ระเบียน"},
    "col.metadata": {"en": "metadata", "tr": "üst veri", "th": "เมทาดาทา"},
    "col.search_cost": {"en": "search cost", "tr": "arama maliyeti", "th": "ค่าค้นหา"},
    "col.copy_cost": {"en": "copy cost", "tr": "kopya maliyeti", "th": "ค่าคัดลอก"},
    "col.searched_cited": {
        "en": "searched / cited",
        "tr": "arandı / gösterildi",
        "th": "ค้นแล้ว / อ้างแล้ว",
    },
    "cell.none": {"en": "(none)", "tr": "(yok)", "th": "(ไม่มี)"},
    # the game's rules (lesson.py)
    "rules": {
        "en": "Budget **{budget} units**: {costs}; {copies}; the starting evidence of a round is "
        "free. Win with a proof set holding a complete, valid witness, within budget, and every "
        "asked item answered with the value **that same witness derives** from its own texts "
        "(and the answer key accepts). Naming the right answer without a witness, citing pieces "
        "of two different chains, or citing a record the rules refuse does not win; evidence "
        "that disagrees wins only by reporting the conflict, each side's whole witness cited. "
        "With the budget spent no search is possible, but Check and Reset still work. Rounds in "
        "this file: {rounds}.",
        "tr": "Bütçe **{budget} birim**: {costs}; {copies}; bir turun başlangıç kanıtı "
        "ücretsizdir. Bütçeyi aşmadan, eksiksiz ve geçerli bir tanık içeren bir kanıt kümesiyle "
        "ve sorulan her öğeyi **aynı tanığın** kendi metinlerinden **çıkardığı** değerle (ve "
        "yanıt anahtarının kabul ettiği değerle) yanıtlayarak kazanırsınız. Doğru yanıtı tanık "
        "olmadan söylemek, iki farklı zincirin parçalarını göstermek ya da kuralların reddettiği "
        "bir kaydı göstermek kazandırmaz; birbiriyle çelişen kanıtla ancak çelişkiyi bildirip her "
        "tarafın tanığını bütünüyle göstererek kazanılır. Bütçe bitince arama yapılamaz, ama "
        "Check ve Reset çalışmaya devam eder. Bu dosyadaki turlar: {rounds}.",
        "th": "งบ **{budget} หน่วย**: {costs}; {copies}; หลักฐานเริ่มต้นของแต่ละรอบไม่เสียค่าใช้จ่าย "
        "ชนะได้ด้วยชุดหลักฐานที่มีพยานครบถ้วนและถูกต้อง ภายในงบ และตอบทุกรายการที่ถามด้วยค่าที่"
        "**พยานตัวเดียวกันนั้นได้มา**จากข้อความของมันเอง (และกุญแจคำตอบยอมรับ) "
        "การบอกคำตอบที่ถูกโดยไม่มีพยาน การอ้างชิ้นส่วนจากสองสายโซ่ที่ต่างกัน "
        "หรือการอ้างระเบียนที่กฎปฏิเสธ ไม่ทำให้ชนะ หลักฐานที่ขัดแย้งกันชนะได้ก็ต่อเมื่อรายงาน"
        "ความขัดแย้งและอ้างพยานของแต่ละฝ่ายครบทั้งหมด เมื่องบหมดจะค้นหาไม่ได้อีก "
        "แต่ Check และ Reset ยังใช้ได้ รอบในไฟล์นี้: {rounds}",
    },
    "rules.cost": {
        "en": "searching a record costs {cost}",
        "tr": "bir kaydı aramak {cost} birim tutar",
        "th": "การค้นหาระเบียนหนึ่งใช้ {cost}",
    },
    "rules.special": {
        "en": "{id} costs {cost}",
        "tr": "{id} için {cost}",
        "th": "{id} ใช้ {cost}",
    },
    "rules.copies": {
        "en": "copying {ids} costs {cost} (a copy adds no premise)",
        "tr": "{ids} kaydını kopyalamak {cost} birim tutar (bir kopya öncül eklemez)",
        "th": "การคัดลอก {ids} ใช้ {cost} (สำเนาไม่ได้เพิ่มข้ออ้างตั้งต้น)",
    },
    "rules.no_copies": {
        "en": "nothing can be copied",
        "tr": "hiçbir şey kopyalanamaz",
        "th": "คัดลอกอะไรไม่ได้",
    },
    # exercises of notebook 02 (lesson.py)
    "or": {"en": " or ", "tr": " ya da ", "th": " หรือ "},
    "and": {"en": " and ", "tr": " ve ", "th": " และ "},
    "ex.silent.q": {
        "en": "At the confidence threshold {threshold} nothing is answered. What is the "
        "accuracy, and why is neither 0% nor 100% right?",
        "tr": "{threshold} güven eşiğinde hiçbir şey yanıtlanmıyor. Doğruluk nedir ve neden ne "
        "%0 ne de %100 doğrudur?",
        "th": "ที่เกณฑ์ความมั่นใจ {threshold} ไม่มีข้อใดถูกตอบ ความแม่นยำคือเท่าใด "
        "และทำไมทั้ง 0% และ 100% จึงไม่ถูก",
    },
    "ex.silent.a": {
        "en": "N/A (0/0): no answered question exists to be right or wrong; the report shows "
        "{coverage} answered next to it.",
        "tr": "N/A (0/0): doğru ya da yanlış sayılabilecek yanıtlanmış bir soru yok; rapor "
        "yanında yanıtlanan oranını da verir: {coverage}.",
        "th": "N/A (0/0): ไม่มีคำถามที่ตอบแล้วให้ถูกหรือผิด รายงานแสดง ตอบแล้ว {coverage} ไว้ข้างกัน",
    },
    "ex.short.q": {
        "en": "Scenario {name}: with the question {question} and the context {context}, which "
        "single record completes a witness?",
        "tr": "{name} senaryosu: {question} sorusu ve {context} bağlamıyla hangi tek kayıt bir "
        "tanığı tamamlar?",
        "th": "สถานการณ์ {name}: กับคำถาม {question} และบริบท {context} ระเบียนเดียวใดที่ทำให้พยานครบ",
    },
    "ex.short.a": {
        "en": "Add {records}{more}.",
        "tr": "{records} ekleyin{more}.",
        "th": "เพิ่ม {records}{more}",
    },
    "ex.short.more": {
        "en": "; a branch needing more would be {ids}",
        "tr": "; daha fazlasına ihtiyaç duyan dal {ids} olurdu",
        "th": " กิ่งที่ต้องการมากกว่านี้คือ {ids}",
    },
    "ex.question.q": {
        "en": "Why is the context {context} enough for {yes} but not for {no}?",
        "tr": "{context} bağlamı neden {yes} için yeterli de {no} için değil?",
        "th": "ทำไมบริบท {context} จึงพอสำหรับ {yes} แต่ไม่พอสำหรับ {no}",
    },
    "ex.question.a": {
        "en": "{why} Sufficiency is always for a question.",
        "tr": "{why} Yeterlilik her zaman bir soru içindir.",
        "th": "{why} ความเพียงพอเป็นเรื่องของคำถามใดคำถามหนึ่งเสมอ",
    },
    "why.head": {
        "en": "{question} asks for {asks}; only {alternatives} answer it",
        "tr": "{question} şunları soruyor: {asks}; onu yalnızca {alternatives} yanıtlar",
        "th": "{question} ถามถึง {asks} มีเพียง {alternatives} ที่ตอบได้",
    },
    "why.conditional": {
        "en": "{head}. The context completes {done}, but {unmet}, which the question does not "
        "state: CONDITIONAL, not SUFFICIENT.",
        "tr": "{head}. Bağlam {done} tamamlıyor, ama {unmet}; soru bunu belirtmiyor: "
        "SUFFICIENT değil CONDITIONAL.",
        "th": "{head} บริบททำให้ {done} ครบ แต่ {unmet} ซึ่งคำถามไม่ได้ระบุ: CONDITIONAL ไม่ใช่ SUFFICIENT",
    },
    "why.holds": {
        "en": "{id} holds only if {conditions}",
        "tr": "{id} yalnızca şu koşulda geçerli: {conditions}",
        "th": "{id} เป็นจริงเฉพาะเมื่อ {conditions}",
    },
    "why.conflict": {
        "en": "{head}. The context completes {done}, but {shown}: CONFLICT.",
        "tr": "{head}. Bağlam {done} tamamlıyor, ama {shown}: CONFLICT.",
        "th": "{head} บริบททำให้ {done} ครบ แต่ {shown}: CONFLICT",
    },
    "why.a_witness": {"en": "a witness", "tr": "bir tanığı", "th": "พยานหนึ่ง"},
    "why.unanswerable": {
        "en": "{head}, and the file marks the question unanswerable.",
        "tr": "{head} ve dosya soruyu yanıtlanamaz olarak işaretliyor.",
        "th": "{head} และไฟล์ระบุว่าคำถามนี้ตอบไม่ได้",
    },
    "why.unknown": {
        "en": "{head}, and the context completes none of them: {explanation}.",
        "tr": "{head} ve bağlam bunların hiçbirini tamamlamıyor: {explanation}.",
        "th": "{head} และบริบทไม่ทำให้ชุดใดครบ: {explanation}",
    },
    "why.none": {
        "en": "{head}, and the context completes none of them.",
        "tr": "{head} ve bağlam bunların hiçbirini tamamlamıyor.",
        "th": "{head} และบริบทไม่ทำให้ชุดใดครบ",
    },
    "ex.meta.q": {
        "en": "Scenario {name}: why is {id} never part of a witness, even where its chain links?",
        "tr": "{name} senaryosu: {id}, zinciri bağlansa bile neden hiçbir zaman bir tanığın "
        "parçası olmaz?",
        "th": "สถานการณ์ {name}: ทำไม {id} จึงไม่เคยเป็นส่วนหนึ่งของพยาน แม้ในที่ที่สายโซ่ของมันเชื่อมกัน",
    },
    "ex.meta.a": {
        "en": "{detail}. Every member of a witness must pass the file's rules; a record that "
        "fails them is rejected whatever it says.",
        "tr": "{detail}. Bir tanığın her üyesi dosyanın kurallarını geçmelidir; geçemeyen bir "
        "kayıt ne söylerse söylesin reddedilir.",
        "th": "{detail} สมาชิกทุกตัวของพยานต้องผ่านกฎของไฟล์ ระเบียนที่ไม่ผ่านจะถูกปฏิเสธ ไม่ว่าจะกล่าวอะไรก็ตาม",
    },
    # exercises of notebook 07 (lesson.py)
    "ex.no_evidence": {"en": "no evidence", "tr": "kanıtsız", "th": "ไม่มีหลักฐาน"},
    "ex.lost.q": {
        "en": "Round {name} starts with {start}. Can it be won within the budget?",
        "tr": "{name} turu şununla başlıyor: {start}. Bütçe içinde kazanılabilir mi?",
        "th": "รอบ {name} เริ่มด้วย {start} ชนะภายในงบได้หรือไม่",
    },
    "ex.lost.a": {
        "en": "No: no complete, valid witness fits in {budget} units.",
        "tr": "Hayır: hiçbir eksiksiz ve geçerli tanık {budget} birime sığmıyor.",
        "th": "ไม่ได้: ไม่มีพยานที่ครบถ้วนและถูกต้องใดที่อยู่ในงบ {budget} หน่วย",
    },
    "ex.cheap.q": {
        "en": "Round {name} starts with {start}. What is the cheapest win?",
        "tr": "{name} turu şununla başlıyor: {start}. En ucuz galibiyet nedir?",
        "th": "รอบ {name} เริ่มด้วย {start} วิธีชนะที่ถูกที่สุดคืออะไร",
    },
    "ex.cheap.q_many": {
        "en": "Round {name} starts with {start}. What is the cheapest win, and why is there more "
        "than one?",
        "tr": "{name} turu şununla başlıyor: {start}. En ucuz galibiyet nedir ve neden birden "
        "fazla var?",
        "th": "รอบ {name} เริ่มด้วย {start} วิธีชนะที่ถูกที่สุดคืออะไร และทำไมจึงมีมากกว่าหนึ่งวิธี",
    },
    "ex.cheap.a": {
        "en": "{why}{count}, for {cost} of {budget}: {ways}.{many}",
        "tr": "{why}{count} {cost} tutar ({budget} birimlik bütçeden): {ways}.{many}",
        "th": "{why}{count} ใช้ {cost} จาก {budget}: {ways}{many}",
    },
    "ex.cheap.start": {
        "en": "The start alone is no witness. ",
        "tr": "Başlangıç tek başına bir tanık değildir. ",
        "th": "ลำพังจุดเริ่มต้นไม่ใช่พยาน ",
    },
    "ex.cheap.one": {"en": "The cheapest win", "tr": "En ucuz galibiyet", "th": "วิธีชนะที่ถูกที่สุด"},
    "ex.cheap.other": {
        "en": "{n} cheapest wins",
        "tr": "En ucuz {n} galibiyet",
        "th": "วิธีชนะที่ถูกที่สุด {n} วิธี",
    },
    "ex.cheap.many": {
        "en": " Each complete chain is its own witness; the answer must come from the one cited.",
        "tr": " Her eksiksiz zincir kendi başına bir tanıktır; yanıt, gösterilen tanıktan "
        "gelmelidir.",
        "th": " สายโซ่ที่ครบแต่ละสายเป็นพยานของตัวเอง คำตอบต้องมาจากพยานที่อ้าง",
    },
    "ex.way": {
        "en": "search {searches} and cite {witness}, answering {answers}",
        "tr": "{searches} arayın ve {witness} gösterin; yanıt: {answers}",
        "th": "ค้นหา {searches} แล้วอ้าง {witness} โดยตอบ {answers}",
    },
    "ex.way_none": {
        "en": "search nothing and cite {witness}, answering {answers}",
        "tr": "hiçbir şey aramadan {witness} gösterin; yanıt: {answers}",
        "th": "ไม่ต้องค้นหาอะไร อ้าง {witness} โดยตอบ {answers}",
    },
    "ex.way.or": {"en": "; or ", "tr": "; ya da ", "th": " หรือ "},
    "unit.one": {"en": "{n} unit", "tr": "{n} birim", "th": "{n} หน่วย"},
    "unit.other": {"en": "{n} units", "tr": "{n} birim", "th": "{n} หน่วย"},
}
