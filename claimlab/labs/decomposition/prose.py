"""The decomposition lab's lesson prose (notebooks 01 and 06), one entry per section and language.

Each key maps a language (the file's ``language``, primary subtag) to Markdown; English is
always present and is the fallback. The texts name no fixture's ids, questions or answers.
"""

from __future__ import annotations

from claimlab.labs.teaching import Prose

PROSE: Prose = {
    "01.intro": {
        "en": """# 01 · Claim decomposition pitfalls

Before a long answer can be checked claim by claim, it is split into subclaims. A splitter can make
the numbers look better without checking anything more: it can **drop** hard claims, **add** claims
the answer never made, **broaden a qualifier**, **swap an entity or version**, **duplicate** an easy
claim, or leave a **compound** claim unsplit.

This lab keeps two questions apart:

* *original → subclaim*: does the subclaim say what the answer said (source spans, preserved units)?
* *reference → subclaim*: what do the references say about it (SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE)?

With A = the original's units, D = the selection as given, D\\* = D unique by fingerprint, P = the
faithful members of D\\*:

| metric | definition |
|---|---|
| Toy Preservation | \\|P\\| / \\|D\\*\\| |
| Toy Original Coverage | \\|units preserved by P\\| / \\|A\\| |
| Toy Confirmed Support | #SUPPORTED in D\\* / \\|D\\*\\| |
| Toy Raw Support | #SUPPORTED in D / \\|D\\| |

Every ratio is shown with its counts; a zero denominator is **N/A**, never 0% or 100%. The
relations (preserves, faithful, status) are the file's labels, not the output of a model.""",
        "tr": """# 01 · İddia ayrıştırmanın tuzakları

Uzun bir yanıt iddia iddia denetlenmeden önce alt iddialara bölünür. Bir bölücü, hiçbir şeyi daha
fazla denetlemeden sayıları daha iyi gösterebilir: zor iddiaları **atabilir**, yanıtın hiç söylemediği
iddiaları **ekleyebilir**, bir **niteleyiciyi genişletebilir**, bir **varlığı ya da sürümü
değiştirebilir**, kolay bir iddiayı **yineleyebilir** ya da **bileşik** bir iddiayı bölmeden
bırakabilir.

Bu ders iki soruyu birbirinden ayrı tutar:

* *özgün yanıt → alt iddia*: alt iddia, yanıtın söylediğini mi söylüyor (kaynak aralıkları, korunan birimler)?
* *kaynak → alt iddia*: kaynaklar onun hakkında ne diyor (SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE)?

A = özgün yanıtın birimleri, D = verilen seçim, D\\* = parmak izine göre tekilleştirilmiş D,
P = D\\* içindeki sadık üyeler olmak üzere:

| ölçüt | tanım |
|---|---|
| Toy Preservation | \\|P\\| / \\|D\\*\\| |
| Toy Original Coverage | \\|P'nin koruduğu birimler\\| / \\|A\\| |
| Toy Confirmed Support | D\\* içinde SUPPORTED sayısı / \\|D\\*\\| |
| Toy Raw Support | D içinde SUPPORTED sayısı / \\|D\\| |

Her oran sayılarıyla birlikte gösterilir; paydası sıfır olan oran **N/A**'dır, asla %0 ya da
%100 değildir. İlişkiler (korur, sadık, durum) dosyanın etiketleridir, bir modelin çıktısı değil.""",
        "th": """# 01 · กับดักของการแยกข้ออ้าง

ก่อนจะตรวจคำตอบยาว ๆ ทีละข้ออ้าง คำตอบจะถูกแยกเป็นข้ออ้างย่อย ตัวแยกอาจทำให้ตัวเลขดูดีขึ้นโดยไม่ได้ตรวจอะไรเพิ่ม:
อาจ **ตัด** ข้ออ้างที่ยากทิ้ง **เพิ่ม** ข้ออ้างที่คำตอบไม่เคยกล่าว **ขยายเงื่อนไข** ให้กว้างขึ้น **สลับสิ่งที่กล่าวถึงหรือรุ่น**
**ซ้ำ** ข้ออ้างที่ง่าย หรือปล่อยข้ออ้าง **ผสม** ไว้โดยไม่แยก

บทเรียนนี้แยกคำถามสองข้อออกจากกัน:

* *ต้นฉบับ → ข้ออ้างย่อย*: ข้ออ้างย่อยกล่าวสิ่งที่คำตอบกล่าวหรือไม่ (ช่วงข้อความต้นทาง หน่วยที่คงไว้)
* *เอกสารอ้างอิง → ข้ออ้างย่อย*: เอกสารอ้างอิงกล่าวถึงมันอย่างไร (SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE)

ให้ A = หน่วยของต้นฉบับ, D = ชุดที่เลือกตามที่ให้มา, D\\* = D ที่ไม่ซ้ำตามลายนิ้วมือ, P = สมาชิกที่ซื่อตรงของ D\\*:

| ตัวชี้วัด | นิยาม |
|---|---|
| Toy Preservation | \\|P\\| / \\|D\\*\\| |
| Toy Original Coverage | \\|หน่วยที่ P คงไว้\\| / \\|A\\| |
| Toy Confirmed Support | จำนวน SUPPORTED ใน D\\* / \\|D\\*\\| |
| Toy Raw Support | จำนวน SUPPORTED ใน D / \\|D\\| |

ทุกอัตราส่วนแสดงพร้อมจำนวนนับ ตัวหารที่เป็นศูนย์คือ **N/A** ไม่ใช่ 0% หรือ 100%
ความสัมพันธ์ (คงไว้ ซื่อตรง สถานะ) เป็นป้ายกำกับของไฟล์ ไม่ใช่ผลลัพธ์ของโมเดล""",
    },
    "01.original": {
        "en": "## The original answer and its units\n\nSpans count UTF-16 code units, end "
        "exclusive, as the file states (`offset_unit`).",
        "tr": "## Özgün yanıt ve birimleri\n\nAralıklar, dosyanın belirttiği gibi (`offset_unit`) "
        "UTF-16 kod birimleriyle sayılır; bitiş hariçtir.",
        "th": "## คำตอบต้นฉบับและหน่วยของมัน\n\nช่วงข้อความนับเป็นหน่วยรหัส UTF-16 "
        "ไม่รวมตำแหน่งสิ้นสุด ตามที่ไฟล์ระบุ (`offset_unit`)",
    },
    "01.candidates": {
        "en": "## The candidate subclaims and their labels",
        "tr": "## Aday alt iddialar ve etiketleri",
        "th": "## ข้ออ้างย่อยที่เป็นตัวเลือกและป้ายกำกับ",
    },
    "01.walk": {
        "en": "## Walking the selections\n\nEach named selection of the file (its `modes`, or all "
        "candidates when it names none). For each: what it shows, the audit table (the two layers "
        "under separate headings), and the four metrics with their counts.",
        "tr": "## Seçimleri tek tek gezmek\n\nDosyanın adlandırılmış her seçimi (`modes`; hiç "
        "yoksa tüm adaylar). Her biri için: ne gösterdiği, denetim tablosu (iki katman ayrı "
        "başlıklar altında) ve sayılarıyla dört ölçüt.",
        "th": "## ไล่ดูชุดที่เลือกทีละชุด\n\nชุดที่เลือกซึ่งมีชื่อในไฟล์ (`modes` หรือตัวเลือกทั้งหมด "
        "เมื่อไฟล์ไม่ได้ระบุ) แต่ละชุดแสดง: สิ่งที่มันชี้ให้เห็น ตารางตรวจสอบ (สองชั้นแยกหัวข้อ) "
        "และตัวชี้วัดทั้งสี่พร้อมจำนวนนับ",
    },
    "01.side_by_side": {
        "en": "## All selections side by side\n\nThe same four metrics for every selection. Read "
        "the counts on the bars, not only their lengths: a 100% bar over 3/3 after two units were "
        "dropped is not the same finding as 100% over 5/5.",
        "tr": "## Bütün seçimler yan yana\n\nHer seçim için aynı dört ölçüt. Çubukların yalnızca "
        "uzunluğunu değil, üzerlerindeki sayıları okuyun: iki birim atıldıktan sonra 3/3 üzerinden "
        "%100, 5/5 üzerinden %100 ile aynı bulgu değildir.",
        "th": "## ทุกชุดที่เลือกเทียบกัน\n\nตัวชี้วัดทั้งสี่เดียวกันสำหรับทุกชุด อ่านจำนวนนับบนแท่ง "
        "ไม่ใช่แค่ความยาว: แท่ง 100% จาก 3/3 หลังจากตัดไปสองหน่วย ไม่ใช่ข้อค้นพบเดียวกับ 100% จาก 5/5",
    },
    "01.papers": {
        "en": """## The cited methods on the same selections

**DecompScore** (Wanner et al., *SEM 2024) counts the subclaims the passage supports: a count,
not a percentage, and a repeated supported claim counts again, so duplication raises it and
dropping hard claims lowers it while support looks better. It is not on the scale of DnDScore's
or the Toy metrics' percentages: compare counts with counts. The same paper splits a
decomposition's quality into three figures that do not stand in for one another: **coverage**
(is the original's content all there), **coherence** (do the subclaims still agree with what
the original says: what Toy Preservation counts) and **atomicity** (a ratio over the unique
selection). **Core-style selection** (Jiang et al., Findings ACL 2025) sits between
decomposition and verification: it keeps one of each group of repeats (by the file's
fingerprints) and drops subclaims the file marks uninformative (weight 0), each with its reason;
de-duplication does not promise that every unit survives, so the coverage after it is shown.""",
        "tr": """## Aynı seçimler üzerinde kaynak gösterilen yöntemler

**DecompScore** (Wanner vd., *SEM 2024) metnin desteklediği alt iddiaları sayar: bir yüzde
değil bir sayıdır ve yinelenen desteklenmiş bir iddia yeniden sayılır; bu yüzden yineleme onu
yükseltir, zor iddiaları atmak ise destek daha iyi görünürken onu düşürür. DnDScore'un ya da
Toy ölçütlerinin yüzdeleriyle aynı ölçekte değildir: sayıları sayılarla karşılaştırın. Aynı
makale bir ayrıştırmanın kalitesini birbirinin yerini tutmayan üç değere böler: **kapsam**
(özgün içeriğin tamamı orada mı), **tutarlılık** (alt iddialar özgün yanıtın söylediğiyle hâlâ
uyuşuyor mu: Toy Preservation'ın saydığı) ve **atomiklik** (tekil seçim üzerinde bir oran).
**Core tarzı seçim** (Jiang vd., Findings ACL 2025) ayrıştırma ile doğrulama arasında durur:
her yineleme grubundan birini tutar (dosyanın parmak izlerine göre) ve dosyanın bilgi
taşımayan olarak işaretlediği alt iddiaları (ağırlık 0) gerekçesiyle birlikte atar;
tekilleştirme her birimin kalacağını vaat etmez, bu yüzden sonrasındaki kapsam gösterilir.""",
        "th": """## วิธีที่อ้างถึงบนชุดที่เลือกชุดเดียวกัน

**DecompScore** (Wanner และคณะ, *SEM 2024) นับข้ออ้างย่อยที่ข้อความสนับสนุน: เป็นจำนวน
ไม่ใช่ร้อยละ และข้ออ้างที่ได้รับการสนับสนุนซึ่งซ้ำกันจะถูกนับอีก การทำซ้ำจึงเพิ่มค่า
ส่วนการตัดข้ออ้างที่ยากจะลดค่าลงขณะที่การสนับสนุนดูดีขึ้น มันไม่ได้อยู่บนสเกลร้อยละของ DnDScore
หรือตัวชี้วัด Toy: เทียบจำนวนกับจำนวน บทความเดียวกันแบ่งคุณภาพของการแยกเป็นสามค่าที่แทนกันไม่ได้:
**ความครอบคลุม** (เนื้อหาของต้นฉบับอยู่ครบหรือไม่) **ความสอดคล้อง** (ข้ออ้างย่อยยังตรงกับสิ่งที่ต้นฉบับกล่าว:
สิ่งที่ Toy Preservation นับ) และ **ความเป็นอะตอม** (อัตราส่วนบนชุดที่ไม่ซ้ำ)
**การเลือกแบบ Core** (Jiang และคณะ, Findings ACL 2025) อยู่ระหว่างการแยกกับการตรวจสอบ:
เก็บไว้หนึ่งรายการจากแต่ละกลุ่มที่ซ้ำ (ตามลายนิ้วมือของไฟล์) และตัดข้ออ้างย่อยที่ไฟล์ระบุว่าไม่ให้ข้อมูล
(น้ำหนัก 0) พร้อมเหตุผล การตัดรายการซ้ำไม่ได้รับประกันว่าทุกหน่วยจะยังอยู่ จึงแสดงความครอบคลุมหลังการเลือกด้วย""",
    },
    "01.entities": {
        "en": "### Per entity (after D-FActScore)\n\nPooling every claim hides which product a "
        "mistake is about. Grouped by the entity and version each candidate names, a claim that "
        "the original makes about one product but that is attached to another counts against "
        "the group it names.",
        "tr": "### Varlık başına (D-FActScore'dan sonra)\n\nBütün iddiaları tek havuzda toplamak, "
        "bir hatanın hangi ürünle ilgili olduğunu gizler. Her adayın adını verdiği varlık ve "
        "sürüme göre gruplandığında, özgün yanıtın bir ürün hakkında söyleyip başka bir ürüne "
        "bağlanmış bir iddia, adını verdiği grubun aleyhine sayılır.",
        "th": "### ตามสิ่งที่กล่าวถึง (ตาม D-FActScore)\n\nการรวมทุกข้ออ้างเข้าด้วยกันซ่อนว่าความผิดพลาด"
        "เกี่ยวกับผลิตภัณฑ์ใด เมื่อจัดกลุ่มตามสิ่งที่กล่าวถึงและรุ่นที่ตัวเลือกแต่ละข้อระบุ "
        "ข้ออ้างที่ต้นฉบับกล่าวถึงผลิตภัณฑ์หนึ่งแต่ถูกผูกกับอีกผลิตภัณฑ์หนึ่ง จะนับเป็นผลเสียของกลุ่มที่มันระบุ",
    },
    "01.revision": {
        "en": "### A revised answer, audited again\n\nA revision is a new version of the answer "
        "with its own file, audited from scratch; both versions' figures are shown side by side. "
        "Candidates whose mapping to the original is AMBIGUOUS (their source cannot be fixed, "
        "e.g. an unresolved pronoun) stay in the audit above, marked, and are never counted.",
        "tr": "### Düzeltilmiş bir yanıt, yeniden denetlenir\n\nDüzeltme, yanıtın kendi dosyası "
        "olan yeni bir sürümüdür ve baştan denetlenir; iki sürümün değerleri yan yana gösterilir. "
        "Özgün yanıta eşlemesi AMBIGUOUS olan adaylar (kaynakları belirlenemez, örneğin "
        "çözümlenmemiş bir zamir) yukarıdaki denetimde işaretli olarak kalır ve asla sayılmaz.",
        "th": "### คำตอบฉบับแก้ไข ตรวจสอบอีกครั้ง\n\nฉบับแก้ไขคือคำตอบรุ่นใหม่ที่มีไฟล์ของตัวเอง "
        "ตรวจสอบใหม่ตั้งแต่ต้น และแสดงค่าของทั้งสองรุ่นเทียบกัน ตัวเลือกที่การจับคู่กับต้นฉบับเป็น "
        "AMBIGUOUS (ระบุต้นทางไม่ได้ เช่น สรรพนามที่ไม่ชัดเจน) ยังอยู่ในการตรวจสอบข้างต้นพร้อมเครื่องหมาย "
        "และไม่ถูกนับเลย",
    },
    "exercises": {
        "en": "## Exercises\n\nEach exercise is about this file's own content; the solutions "
        "are in the instructor handout.",
        "tr": "## Alıştırmalar\n\nHer alıştırma bu dosyanın kendi içeriğiyle ilgilidir; "
        "çözümler öğretmen notlarındadır.",
        "th": "## แบบฝึกหัด\n\nแบบฝึกหัดแต่ละข้อเกี่ยวกับเนื้อหาของไฟล์นี้เอง เฉลยอยู่ในเอกสารสำหรับผู้สอน",
    },
    "06.intro": {
        "en": """# 06 · Decomposition game: keep the claims that have no evidence yet

**Explorer.** Toggle the candidates and watch the four Toy metrics (with their counts, and N/A
when a denominator is zero) and the audit table follow.

**Game.** Choose a round, select candidates and annotate each with its evidence status, then
**Check**: every rule that is not met is named. The rules, with this file's numbers, are below.""",
        "tr": """# 06 · Ayrıştırma oyunu: henüz kanıtı olmayan iddiaları da tutun

**Keşif.** Adayları açıp kapatın; dört Toy ölçütünün (sayılarıyla; payda sıfırsa N/A) ve
denetim tablosunun nasıl değiştiğini izleyin.

**Oyun.** Bir tur seçin, adayları seçip her birini kanıt durumuyla etiketleyin, sonra
**Check** düğmesine basın: karşılanmayan her kural adıyla söylenir. Bu dosyanın sayılarıyla
kurallar aşağıdadır.""",
        "th": """# 06 · เกมแยกข้ออ้าง: เก็บข้ออ้างที่ยังไม่มีหลักฐานไว้ด้วย

**สำรวจ** เปิดปิดตัวเลือกแล้วดูตัวชี้วัด Toy ทั้งสี่ (พร้อมจำนวนนับ และ N/A เมื่อตัวหารเป็นศูนย์)
และตารางตรวจสอบเปลี่ยนตาม

**เกม** เลือกรอบ เลือกตัวเลือกและกำกับสถานะหลักฐานของแต่ละข้อ แล้วกด **Check**:
ทุกกฎที่ไม่ผ่านจะถูกระบุชื่อ กฎพร้อมตัวเลขของไฟล์นี้อยู่ด้านล่าง""",
    },
    "06.explorer": {"en": "## Explorer", "tr": "## Keşif", "th": "## สำรวจ"},
    "06.game": {"en": "## The game", "tr": "## Oyun", "th": "## เกม"},
}
