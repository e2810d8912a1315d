"""The sufficiency lab's lesson prose (notebooks 02 and 07), one entry per section and language.

Each key maps a language (the file's ``language``, primary subtag) to Markdown; English is
always present and is the fallback. The texts name no fixture's ids, questions or answers.
"""

from __future__ import annotations

from claimlab.labs.teaching import Prose

PROSE: Prose = {
    "02.intro": {
        "en": """# 02 · Evidence sufficiency

Is the retrieved evidence enough **for this question**? Evidence is sufficient when at least one
alternative evidence set is **complete** (AND inside a set), its chain **links** (each record ends
where the next begins), and every member passes the **scope and metadata rules**; alternatives are
OR-ed. When nothing is complete, the report names what is missing per branch. "Not enough" is
never "false", and a record that cannot be mapped to a premise makes the result UNKNOWN.

Relations are the file's labels: nothing here infers a relation from similar words.""",
        "tr": """# 02 · Kanıtın yeterliliği

Getirilen kanıt **bu soru için** yeterli mi? En az bir alternatif kanıt kümesi **eksiksizse**
(küme içinde VE), zinciri **bağlanıyorsa** (her kayıt bir sonrakinin başladığı yerde biter) ve
her üyesi **kapsam ve üst veri kurallarını** geçiyorsa kanıt yeterlidir; alternatifler VEYA ile
birleşir. Hiçbiri eksiksiz değilse rapor, her dal için neyin eksik olduğunu söyler. "Yetersiz"
asla "yanlış" demek değildir; bir öncüle eşlenemeyen bir kayıt sonucu UNKNOWN yapar.

İlişkiler dosyanın etiketleridir: burada hiçbir şey benzer kelimelerden bir ilişki çıkarmaz.""",
        "th": """# 02 · ความเพียงพอของหลักฐาน

หลักฐานที่ค้นมาเพียงพอ **สำหรับคำถามนี้** หรือไม่ หลักฐานเพียงพอเมื่อมีชุดหลักฐานทางเลือกอย่างน้อยหนึ่งชุดที่
**ครบถ้วน** (AND ภายในชุด) สายโซ่ของมัน **เชื่อมกัน** (แต่ละระเบียนจบตรงที่ระเบียนถัดไปเริ่ม)
และสมาชิกทุกตัวผ่าน **กฎขอบเขตและเมทาดาทา** ทางเลือกต่าง ๆ เชื่อมด้วย OR เมื่อไม่มีชุดใดครบ
รายงานจะระบุสิ่งที่ขาดในแต่ละกิ่ง "ไม่พอ" ไม่เคยแปลว่า "เท็จ" และระเบียนที่จับคู่กับข้ออ้างตั้งต้นไม่ได้ทำให้ผลเป็น UNKNOWN

ความสัมพันธ์เป็นป้ายกำกับของไฟล์: ไม่มีสิ่งใดในที่นี้อนุมานความสัมพันธ์จากคำที่คล้ายกัน""",
    },
    "02.evidence": {
        "en": "## The evidence records",
        "tr": "## Kanıt kayıtları",
        "th": "## ระเบียนหลักฐาน",
    },
    "02.selection": {
        "en": "## Your selection\n\nThe parameters `QUESTION`, `CONTEXT` and `IGNORE_METADATA` "
        "choose this check; change them to try others.",
        "tr": "## Sizin seçiminiz\n\nBu denetimi `QUESTION`, `CONTEXT` ve `IGNORE_METADATA` "
        "parametreleri seçer; başkalarını denemek için onları değiştirin.",
        "th": "## สิ่งที่คุณเลือก\n\nพารามิเตอร์ `QUESTION`, `CONTEXT` และ `IGNORE_METADATA` "
        "กำหนดการตรวจนี้ เปลี่ยนค่าเพื่อลองแบบอื่น",
    },
    "02.scenarios": {
        "en": "## Walking the scenarios\n\nEach scenario of the file changes one thing: the "
        "context, the question, or whether metadata rules are applied.",
        "tr": "## Senaryoları tek tek gezmek\n\nDosyanın her senaryosu tek bir şeyi değiştirir: "
        "bağlamı, soruyu ya da üst veri kurallarının uygulanıp uygulanmadığını.",
        "th": "## ไล่ดูสถานการณ์ทีละข้อ\n\nแต่ละสถานการณ์ของไฟล์เปลี่ยนสิ่งเดียว: บริบท คำถาม หรือการใช้กฎเมทาดาทา",
    },
    "02.hard": {
        "en": """## Conflicts and conditions

Two hard cases, from a second file. A **conflict**: two usable texts give one subject and a
single-valued relation (the file's `rules.single_valued`) two different values. The result is
CONFLICT with both values and their ids, never SUFFICIENT: which text holds is a question of
authority and scope, not of which one came first or last. A **condition**: a witness whose
text holds only in some circumstance is CONDITIONAL unless the question's circumstances meet
it: a witness that drops the condition is not complete.""",
        "tr": """## Çelişkiler ve koşullar

İkinci bir dosyadan iki zor durum. **Çelişki**: kullanılabilir iki metin, tek değerli bir
ilişkiye (dosyanın `rules.single_valued` alanı) aynı konu için iki farklı değer verir. Sonuç,
iki değer ve kimlikleriyle birlikte CONFLICT olur, asla SUFFICIENT değil: hangi metnin geçerli
olduğu, hangisinin önce ya da sonra geldiği değil, yetki ve kapsam sorusudur. **Koşul**:
metni yalnızca belirli bir durumda geçerli olan bir tanık, sorunun koşulları onu karşılamadıkça
CONDITIONAL olur: koşulu düşüren bir tanık eksiksiz değildir.""",
        "th": """## ความขัดแย้งและเงื่อนไข

กรณียากสองแบบจากไฟล์ที่สอง **ความขัดแย้ง**: ข้อความที่ใช้ได้สองข้อความให้ค่าที่ต่างกันสองค่า
แก่เรื่องเดียวกันและความสัมพันธ์ที่มีค่าเดียว (`rules.single_valued` ของไฟล์) ผลคือ CONFLICT
พร้อมทั้งสองค่าและรหัสของมัน ไม่ใช่ SUFFICIENT: ข้อความใดใช้ได้เป็นเรื่องของอำนาจและขอบเขต
ไม่ใช่เรื่องว่าข้อความใดมาก่อนหรือหลัง **เงื่อนไข**: พยานที่ข้อความเป็นจริงเฉพาะบางสถานการณ์
เป็น CONDITIONAL เว้นแต่สถานการณ์ของคำถามตรงตามนั้น: พยานที่ตัดเงื่อนไขทิ้งไม่ครบถ้วน""",
    },
    "02.selective": {
        "en": """## Selective answering

A (simulated) system answered some scenarios and abstained on others. Accuracy is reported on the
answered questions **together with answered/total**; when nothing is answered, accuracy is N/A, not
perfect. Evidence completeness comes from the witness core above, so the two mismatches can be
counted apart: answering with gaps (a lucky guess is still a guess) and abstaining although the
evidence was complete.""",
        "tr": """## Seçici yanıtlama

(Benzetimli) bir sistem bazı senaryoları yanıtladı, bazılarında yanıt vermekten kaçındı.
Doğruluk, yanıtlanan sorular üzerinde **yanıtlanan/toplam ile birlikte** verilir; hiçbir şey
yanıtlanmadıysa doğruluk kusursuz değil N/A'dır. Kanıtın eksiksizliği yukarıdaki tanık
çekirdeğinden gelir; böylece iki uyumsuzluk ayrı ayrı sayılabilir: boşluklarla yanıtlamak
(şanslı bir tahmin yine de tahmindir) ve kanıt eksiksizken yanıttan kaçınmak.""",
        "th": """## การตอบแบบเลือกตอบ

ระบบ (จำลอง) ตอบบางสถานการณ์และงดตอบบางสถานการณ์ ความแม่นยำรายงานบนคำถามที่ตอบ
**พร้อมกับ ตอบแล้ว/ทั้งหมด** เมื่อไม่ได้ตอบเลย ความแม่นยำคือ N/A ไม่ใช่สมบูรณ์แบบ
ความครบถ้วนของหลักฐานมาจากแกนพยานข้างต้น จึงนับความไม่ตรงกันสองแบบแยกกันได้:
ตอบทั้งที่หลักฐานมีช่องว่าง (การเดาถูกก็ยังเป็นการเดา) และงดตอบทั้งที่หลักฐานครบ""",
    },
    "exercises": {
        "en": "## Exercises\n\nEach exercise is about this file's own content; the solutions "
        "are in the instructor handout.",
        "tr": "## Alıştırmalar\n\nHer alıştırma bu dosyanın kendi içeriğiyle ilgilidir; "
        "çözümler öğretmen notlarındadır.",
        "th": "## แบบฝึกหัด\n\nแบบฝึกหัดแต่ละข้อเกี่ยวกับเนื้อหาของไฟล์นี้เอง เฉลยอยู่ในเอกสารสำหรับผู้สอน",
    },
    "07.intro": {
        "en": """# 07 · Sufficiency game: spend a search budget on the missing link

**Explorer.** Toggle evidence, switch the question, add copies, or ignore the metadata rules (a
demo that shows a record failing them as an *unsafe candidate*, never as a witness).

**Game.** Choose a round, search for evidence within the budget, cite the records that prove your
answer, name every asked item, then **Check**. The rules, with this file's budget and costs, are
below.""",
        "tr": """# 07 · Yeterlilik oyunu: arama bütçenizi eksik halkaya harcayın

**Keşif.** Kanıtları açıp kapatın, soruyu değiştirin, kopya ekleyin ya da üst veri kurallarını
yok sayın (kuralları geçemeyen bir kaydı asla tanık olarak değil, *güvensiz aday* olarak
gösteren bir gösterim).

**Oyun.** Bir tur seçin, bütçe içinde kanıt arayın, yanıtınızı kanıtlayan kayıtları gösterin,
sorulan her öğeyi adlandırın, sonra **Check** düğmesine basın. Bu dosyanın bütçesi ve
maliyetleriyle kurallar aşağıdadır.""",
        "th": """# 07 · เกมความเพียงพอ: ใช้งบค้นหากับข้อเชื่อมที่ขาดหาย

**สำรวจ** เปิดปิดหลักฐาน เปลี่ยนคำถาม เพิ่มสำเนา หรือไม่ใช้กฎเมทาดาทา (การสาธิตที่แสดงระเบียนซึ่งไม่ผ่านกฎ
เป็น *ตัวเลือกที่ไม่ปลอดภัย* ไม่ใช่พยาน)

**เกม** เลือกรอบ ค้นหาหลักฐานภายในงบ อ้างระเบียนที่พิสูจน์คำตอบ ระบุทุกรายการที่ถาม แล้วกด **Check**
กฎพร้อมงบและค่าใช้จ่ายของไฟล์นี้อยู่ด้านล่าง""",
    },
    "07.explorer": {"en": "## Explorer", "tr": "## Keşif", "th": "## สำรวจ"},
    "07.game": {"en": "## The game", "tr": "## Oyun", "th": "## เกม"},
    "hard.own": {
        "en": "*Your file is the whole lesson: no shipped hard case is added. Name a file of your "
        "own in `HARD_CASES` to add its rounds here.*",
        "tr": "*Dosyanız dersin tamamıdır: hazır gelen zor durumlar eklenmez. Buraya kendi "
        "turlarınızı eklemek için `HARD_CASES` parametresinde kendi dosyanızı verin.*",
        "th": "*ไฟล์ของคุณคือบทเรียนทั้งหมด: ไม่มีการเพิ่มกรณียากที่มากับ claimlab "
        "ระบุไฟล์ของคุณเองใน `HARD_CASES` เพื่อเพิ่มรอบของมันที่นี่*",
    },
    "07.hard": {
        "en": "## A round on a conflict\n\nIn a second file, the starting evidence of a round "
        "holds two approved texts that give one value two ways. Picking either side loses the "
        "round (PICKED_A_SIDE), however recent or official it looks; the round is won by ticking "
        "*report a conflict* and citing every side.",
        "tr": "## Çelişkili bir tur\n\nİkinci bir dosyada bir turun başlangıç kanıtı, bir değeri "
        "iki farklı biçimde veren iki onaylı metin içerir. Ne kadar yeni ya da resmî görünürse "
        "görünsün, taraflardan birini seçmek turu kaybettirir (PICKED_A_SIDE); tur, *report a "
        "conflict* kutusunu işaretleyip her tarafı göstererek kazanılır.",
        "th": "## รอบที่มีความขัดแย้ง\n\nในไฟล์ที่สอง หลักฐานเริ่มต้นของรอบหนึ่งมีข้อความที่ได้รับอนุมัติ"
        "สองข้อความที่ให้ค่าเดียวกันสองแบบ การเลือกข้างใดข้างหนึ่งทำให้แพ้รอบ (PICKED_A_SIDE) "
        "ไม่ว่าจะดูใหม่หรือเป็นทางการเพียงใด รอบนี้ชนะได้ด้วยการติ๊ก *report a conflict* และอ้างทุกฝ่าย",
    },
    "07.scripted": {
        "en": "## A scripted round",
        "tr": "## Betikle oynanan bir tur",
        "th": "## รอบที่เล่นตามสคริปต์",
    },
    "07.hard_scripted": {
        "en": "### The conflict round, scripted",
        "tr": "### Çelişkili tur, betikle oynanmış",
        "th": "### รอบที่มีความขัดแย้ง เล่นตามสคริปต์",
    },
}
