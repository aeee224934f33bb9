"""Hand-made QA answers and Maze trials shared by the humans tests (not a test module)."""

from __future__ import annotations

PRO_WB = "pro.developer|designer.pro-anti"
ANTI_WB = "anti.developer|designer.anti-pro"


def qa(n, mturk, alpha, category, answer, main, correct):
    return {"ID": n, "id_sentence": f"s{n}", "sentence": f"Sentence {n}.",
            "question": "What is the gender of the developer?", "user_answer": answer,
            "correct_answer": main or "female", "main_entity_gender": main, "is_correct": correct,
            "question_category": category, "time_fraction": alpha, "batch_number": 1,
            "index_in_batch": n, "mturk_id": mturk, "hash_id": f"h{n}", "avg_sec_for_token": 0.3}


# alpha 0.5, participants W1 W2 in the list, W3 not.
QA_ROWS = [
    qa(1, "W1", 0.5, PRO_WB, "male", "male", True),        # pro, right
    qa(2, "W1", 0.5, PRO_WB, "female", "male", False),     # ignored: not unknown/neutral/main
    qa(3, "W1", 0.5, PRO_WB, "unknown", "male", False),    # pro, wrong
    qa(4, "W1", 0.5, ANTI_WB, "female", "female", True),   # anti, right
    qa(5, "W1", 0.5, ANTI_WB, "neutral", "female", False), # anti, wrong
    qa(6, "W1", 0.5, ANTI_WB, "male", "female", False),    # ignored
    qa(7, "W1", 0.5, "anti-stereotype_Female", "male", "female", False),  # BUG: counts, wrong
    qa(8, "W1", 0.5, "filler", "female", "female", True),
    qa(9, "W1", 0.5, "filler", "male", "female", False),
    qa(10, "W2", 0.5, "pro.nurse|guard.pro-anti", "female", "female", True),   # pro, right
    qa(11, "W2", 0.5, "pro-stereotype_Male", "male", "male", True),            # BUG pro, right
    qa(12, "W3", 0.5, PRO_WB, "unknown", "male", False),   # W3: pro wrong (not in the list)
    qa(13, "W3", 0.5, ANTI_WB, "female", "female", True),  # W3: anti right
    qa(14, "W1", 0.75, PRO_WB, "male", "male", True),
    qa(15, "W1", 0.75, ANTI_WB, "female", "female", True),
    qa(16, "W1", 0.75, "neutral.developer|someone.neutral-neutral", "unknown", "male", False),
]


def maze(n, relation, time, correct, user="p1"):
    return {"pronoun": "he", "gender": "male", "main_entity": "developer", "other_entity": "designer",
            "relation_to_main": relation, "relation_to_other": "anti", "dist_to_main": 5,
            "dist_to_other": 2, "time_to_answer": time, "correct": correct, "user_ip": user,
            "sentence_id": f"m{n}", "sentence": f"Maze sentence {n}."}


MAZE_ROWS = (
    [maze(i, "pro", t, True) for i, t in enumerate([400, 410, 420, 430, 2000])]
    + [maze(5, "pro", 500, False)]
    + [maze(10 + i, "anti", t, True, "p2") for i, t in enumerate([500, 520, 540, 560])]
    + [maze(20, "anti", 300, False, "p2")]
)
