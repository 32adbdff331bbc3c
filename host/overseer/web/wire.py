"""The JSON of the events a press makes most (its steps, answers, actions, the party's and the
glass's change), each in one f-string of its fields: the same text, byte for byte, as the
json module's compact encoder writes (web/feed.py's ``dumps``) of the watcher's dicts (their
keys in the order written here), in about half its instructions (it walks every key and
value of every event: a key's string costs as much as a value's). A field of a type its
encoder does not write raises TypeError, and the event is encoded the json way
(``Event.wire``). tests/web/test_web_parts.py checks each against the json module on
arbitrary fields; tests/web/test_load.py on every event of a room played.

Strings that come back event after event (a rule's section, the activation a step is in, a
step's kind) are kept encoded (``kept``); the rest is escaped by the json module's own C
function.
"""

from __future__ import annotations

from json.encoder import encode_basestring as text  # a str (subclasses too) in JSON, else TypeError
from typing import Any

KEPT = 4096  # strings kept encoded; the whole set is dropped when full (a long game's names)
_kept: dict[str, str] = {}


def kept(value: str) -> str:
    """``value`` in JSON, kept for the next time it comes."""
    out = _kept.get(value)
    if out is None:
        if len(_kept) >= KEPT:
            _kept.clear()
        out = _kept[value] = text(value)
    return out


_NUMBERS = frozenset({int, type(None)})  # a field that is a number or null (not a bool)


# Each encoder below reads its fields once, checks the types of those it writes itself, and
# takes each string from the kept ones (a lookup) before encoding it (``kept``).

def step(d: dict[str, Any]) -> str:
    """``{"n", "kind", "rule", "text", "verified", "round", "actor"}``."""
    n, r, v, kind, rule, actor = d["n"], d["round"], d["verified"], d["kind"], d["rule"], d["actor"]
    if n.__class__ is not int or r.__class__ not in _NUMBERS or v.__class__ is not bool:
        raise TypeError("a field of another type")
    get = _kept.get
    return (f'{{"n":{n},"kind":{get(kind) or kept(kind)},"rule":{get(rule) or kept(rule)},'
            f'"text":{text(d["text"])},"verified":{"true" if v else "false"},'
            f'"round":{"null" if r is None else r},"actor":{get(actor) or kept(actor)}}}')


def answer(d: dict[str, Any]) -> str:
    """``{"seq", "key", "question", "answer", "by"}``."""
    seq, key, question, by = d["seq"], d["key"], d["question"], d["by"]
    if seq.__class__ is not int:
        raise TypeError("a field of another type")
    get = _kept.get
    return (f'{{"seq":{seq},"key":{get(key) or kept(key)},'
            f'"question":{get(question) or kept(question)},"answer":{text(d["answer"])},'
            f'"by":{get(by) or kept(by)}}}')


def action(d: dict[str, Any]) -> str:
    """``{"seq", "do"}``."""
    seq, do = d["seq"], d["do"]
    if seq.__class__ is not int:
        raise TypeError("a field of another type")
    return f'{{"seq":{seq},"do":{_kept.get(do) or kept(do)}}}'


def party(d: dict[str, Any]) -> str:
    """``{"head", "finished"}``."""
    head, finished = d["head"], d["finished"]
    if head.__class__ is not int or finished.__class__ is not bool:
        raise TypeError("a field of another type")
    return f'{{"head":{head},"finished":{"true" if finished else "false"}}}'


def ask(d: dict[str, Any] | None) -> str:
    """``{"asked", "key", "kind", "short", "prompt", "phone", "options"}`` (each option
    ``{"value", "label"}``, its value a str, an int or a bool), or null; a question of another
    shape (a number's bounds, a secret's) raises TypeError."""
    if d is None:
        return "null"
    asked, key, kind, short, prompt, phone = (d["asked"], d["key"], d["kind"], d["short"],
                                              d["prompt"], d["phone"])
    options = d["options"]  # KeyError: another shape
    if len(d) != 7 or asked.__class__ is not int or phone.__class__ is not bool \
            or options.__class__ is not list:
        raise TypeError("a field of another type")
    get = _kept.get
    return (f'{{"asked":{asked},"key":{get(key) or kept(key)},"kind":{get(kind) or kept(kind)},'
            f'"short":{get(short) or kept(short)},"prompt":{get(prompt) or kept(prompt)},'
            f'"phone":{"true" if phone else "false"},"options":['
            + ",".join([f'{{"value":{_scalar(o["value"])},"label":{text(o["label"])}}}'
                        if len(o) == 2 else _other() for o in options]) + "]}")


def _scalar(value: Any) -> str:
    kind = value.__class__
    if kind is str:
        return _kept.get(value) or kept(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    raise TypeError("a field of another type")


def _other() -> str:
    raise TypeError("a field of another shape")


def glass(d: dict[str, Any]) -> str:
    """``{"v", "title", "key", "mark", "lines", "rows", "number"}``."""
    return glass_again(glass_fields(d), d)


def glass_fields(d: dict[str, Any]) -> str:
    """A glass's JSON after its ``v``: its screen's, the same each time the screen comes back
    (web/watch.py keeps it by screen)."""
    title, key, mark, lines, rows, number = (d["title"], d["key"], d["mark"], d["lines"],
                                             d["rows"], d["number"])
    if number.__class__ not in _NUMBERS or lines.__class__ is not list \
            or rows.__class__ is not list or len(d) != 7:
        raise TypeError("a field of another type")
    get = _kept.get
    return (f'"title":{get(title) or kept(title)},"key":{get(key) or kept(key)},'
            f'"mark":{get(mark) or kept(mark)},"lines":[{",".join(map(text, lines))}],'
            f'"rows":[{",".join(map(text, rows))}],'
            f'"number":{"null" if number is None else number}}}')


def glass_again(fields: str, d: dict[str, Any]) -> str:
    """A glass's JSON from its screen's (``glass_fields``) and its ``v``."""
    v = d["v"]
    if v.__class__ is not int:
        raise TypeError("a field of another type")
    return f'{{"v":{v},{fields}'
