"""Two decomposers' drafts of the same answers (ids shared), as the README lays them out."""

from claimlab.io.files import write_json
from claimlab.io.raw import read_raw_answer
from claimlab.labs.annotation.draft import draft_document

ANSWERS = {
    "k01": "The ferry leaves at 7 am. It carries bicycles.",
    "k02": "The museum opens on Sunday. Entry is free for pupils.",
}
SUBCLAIMS = {  # A keeps each sentence; B splits differently and adds a claim of its own
    "A": {
        k: [s.strip() + "." for s in text.split(".") if s.strip()] for k, text in ANSWERS.items()
    },
    "B": {
        "k01": ["The ferry leaves at 7 am.", "The ferry has a café."],
        "k02": ["Entry is free for pupils.", "The museum opens on Sunday."],
    },
}


def raw_records(decomposer):
    return [
        {
            "id": k,
            "answer": text,
            "subclaims": SUBCLAIMS[decomposer][k],
            "units": [s.strip() + "." for s in text.split(".") if s.strip()],
        }
        for k, text in ANSWERS.items()
    ]


def write_shared_drafts(folder):
    """drafts/A/k01.json ... drafts/B/k02.json; returns the folder."""
    for name in ("A", "B"):
        for n, rec in enumerate(raw_records(name), 1):
            raw = read_raw_answer(rec, source=f"{name}.jsonl", line=n)
            doc, _ = draft_document(raw, decomposer=name)
            (folder / name).mkdir(parents=True, exist_ok=True)
            write_json(folder / name / f"{raw.id}.json", doc)
    return folder
