"""Thirty generated Korean recipe answers, each split into 6 atomic subclaims.

Each sentence joins two ingredients with 과/와 ("간장과 설탕을 넣는다"); the atomic subclaims
name each ingredient on its own, so the first one's particle changes (간장과 -> 간장을): word
by word, 간장을 and 간장과 differ, which is what stopped Korean subclaims from being placed.
"""

DISHES = ["불고기", "잡채", "된장찌개", "김치전", "미역국", "떡볶이"]
INGREDIENTS = ["간장", "설탕", "마늘", "양파", "당근", "두부", "대파", "고추장", "참기름",
               "버섯", "감자", "소금", "후추", "애호박", "달걀", "깨소금"]  # fmt: skip


def _final(word):
    """Whether the last syllable has a final consonant (받침): it chooses the particle."""
    return (ord(word[-1]) - 0xAC00) % 28 != 0


def _and(word):
    return word + ("과" if _final(word) else "와")


def _obj(word):
    return word + ("을" if _final(word) else "를")


def _topic(word):
    return word + ("은" if _final(word) else "는")


def korean_answer(i):
    """One answer (three sentences) and its six atomic subclaims."""
    n = [INGREDIENTS[(i * 5 + k * 3) % len(INGREDIENTS)] for k in range(6)]
    dish, minutes = DISHES[i % len(DISHES)], 5 + i % 20
    answer = " ".join(
        [
            f"{dish}에는 {_and(n[0])} {_obj(n[1])} 넣는다.",
            f"{_and(n[2])} {_topic(n[3])} 미리 썬다.",
            f"{minutes}분 동안 {_and(n[4])} {_obj(n[5])} 함께 끓인다.",
        ]
    )
    subclaims = [
        f"{dish}에는 {_obj(n[0])} 넣는다.",
        f"{dish}에는 {_obj(n[1])} 넣는다.",
        f"{_topic(n[2])} 미리 썬다.",
        f"{_topic(n[3])} 미리 썬다.",
        f"{_obj(n[4])} 함께 끓인다.",
        f"{_obj(n[5])} 함께 끓인다.",
    ]
    return answer, subclaims


def korean_records(count=30):
    out = []
    for i in range(count):
        answer, subclaims = korean_answer(i)
        out.append({"id": f"k{i + 1:02d}", "answer": answer, "subclaims": subclaims})
    return out
