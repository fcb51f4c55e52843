"""The German message catalog: complete, faithful to its placeholders, and compiled.

A tiny .po reader lives here (no new dependency). It knows what ``makemessages``
writes: comments and flags, ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr`` and
``msgstr[n]``, strings continued over several lines, and the C escapes of PO strings.
Obsolete entries (``#~``) are skipped. Plural entries are read but the catalog has none
yet; the checks below skip them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games.engines import EngineUserError, get_engine
from games.messages import render

LOCALE = Path(settings.LOCALE_PATHS[0])
DE_PO = LOCALE / "de" / "LC_MESSAGES" / "django.po"

# --------------------------------------------------------------------------- the .po reader

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}


def _unquote(text: str, where: str) -> str:
    """The value of one PO string literal ``"…"`` with its escapes resolved."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: not a quoted string: {text!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _ESCAPES:
                raise ValueError(f"{where}: bad escape in {text!r}")
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        elif char == '"':
            raise ValueError(f"{where}: unescaped quote in {text!r}")
        else:
            out.append(char)
            i += 1
    return "".join(out)


@dataclass
class Entry:
    msgid: str = ""
    msgstr: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr_plural: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')


def parse_po(text: str) -> list[Entry]:
    """Every entry of a PO file, the header (``msgid ""``) included, in file order."""
    entries: list[Entry] = []
    entry = Entry()
    seen_msgid = False
    target: tuple[str, int | None] | None = None  # where continuation lines go

    def finish() -> None:
        nonlocal entry, seen_msgid, target
        if seen_msgid:
            entries.append(entry)
        elif entry.msgctxt is not None or entry.msgstr:
            raise ValueError(f"line {entry.line}: entry without msgid")
        entry, seen_msgid, target = Entry(), False, None

    def append(value: str) -> None:
        name, index = target
        if name == "msgstr" and index is not None:
            entry.msgstr_plural[index] += value
        else:
            setattr(entry, name, (getattr(entry, name) or "") + value)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"line {number}"
        if not line:
            finish()
        elif line.startswith("#~"):
            continue  # obsolete entry
        elif line.startswith("#"):
            if seen_msgid:
                finish()  # a comment starts the next entry even without a blank line
            if line.startswith("#,"):
                entry.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            elif line.startswith("#:"):
                entry.references.extend(line[2:].split())
        elif line.startswith('"'):
            if target is None:
                raise ValueError(f"{where}: a string continues nothing")
            append(_unquote(line, where))
        else:
            match = _KEYWORD.match(line)
            if not match:
                raise ValueError(f"{where}: cannot read {raw!r}")
            keyword, index, literal = match.groups()
            if keyword in ("msgctxt", "msgid") and seen_msgid:
                finish()  # the next entry, not separated by a blank line
            if not entry.line:
                entry.line = number
            value = _unquote(literal, where)
            if index is not None:  # msgstr[n]
                entry.msgstr_plural[int(index)] = value
                target = ("msgstr", int(index))
            else:
                if keyword == "msgid":
                    seen_msgid = True
                setattr(entry, keyword, value)
                target = (keyword, None)
    finish()
    return entries


def _catalog() -> list[Entry]:
    return parse_po(DE_PO.read_text(encoding="utf-8"))


def _messages() -> list[Entry]:
    """The translatable entries: no header, no plural entries."""
    return [e for e in _catalog() if not e.is_header and e.msgid_plural is None]


def _label(entry: Entry) -> str:
    where = entry.references[0] if entry.references else f"line {entry.line}"
    return f"{where}: {entry.msgid!r}"


# --------------------------------------------------------------------------- the reader itself


def test_parser_reads_the_po_syntax_makemessages_writes():
    sample = r'''# a translator comment
#, fuzzy
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
#: a.py:1 b.py:2
#, python-format
msgid "Say “%(word)s”."
msgstr "Sag „%(word)s“."

msgctxt "card"
msgid "Jack"
msgstr "Bube"

#: c.py:3
msgid ""
"A long "
"\"quoted\"\n"
"text\\"
msgstr ""
"Ein langer "
"\"zitierter\"\n"
"Text\\"

msgid "one deal"
msgid_plural "%(n)s deals"
msgstr[0] "ein Spiel"
msgstr[1] "%(n)s Spiele"

#~ msgid "gone"
#~ msgstr "weg"
'''
    header, word, jack, long, plural = parse_po(sample)
    assert header.is_header and header.fuzzy
    assert header.msgstr == "Language: de\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
    assert (word.msgid, word.msgstr) == ("Say “%(word)s”.", "Sag „%(word)s“.")
    assert word.flags == {"python-format"} and word.references == ["a.py:1", "b.py:2"]
    assert not word.fuzzy
    assert (jack.msgctxt, jack.msgid, jack.msgstr) == ("card", "Jack", "Bube")
    assert long.msgid == 'A long "quoted"\ntext\\'
    assert long.msgstr == 'Ein langer "zitierter"\nText\\'
    assert plural.msgid_plural == "%(n)s deals"
    assert plural.msgstr_plural == {0: "ein Spiel", 1: "%(n)s Spiele"}


def test_parser_refuses_a_broken_string():
    with pytest.raises(ValueError):
        parse_po('msgid "unterminated\nmsgstr ""\n')
    with pytest.raises(ValueError):
        parse_po('msgid "bad \\q escape"\nmsgstr ""\n')


# --------------------------------------------------------------------------- the catalog


def test_header_names_the_language_and_is_not_fuzzy():
    header = next(e for e in _catalog() if e.is_header)
    assert "Language: de\n" in header.msgstr
    assert "charset=UTF-8" in header.msgstr
    assert not header.fuzzy


def test_every_german_entry_is_translated_and_not_fuzzy():
    entries = _messages()
    assert len(entries) > 100, "the German catalog looks empty"
    untranslated = [_label(e) for e in entries if not e.msgstr.strip()]
    fuzzy = [_label(e) for e in _catalog() if e.fuzzy]
    assert not untranslated, "untranslated:\n" + "\n".join(untranslated)
    assert not fuzzy, "fuzzy:\n" + "\n".join(fuzzy)


def test_every_string_marked_in_the_code_is_in_the_catalog(tmp_path, settings, monkeypatch):
    """What ``makemessages`` finds in the code and the templates is all in the German
    catalog, and the catalog holds nothing else: a string marked after the catalog was last
    made would show in English, and one marked through an alias that makemessages cannot
    see would be dropped by its next run. It runs on a copy of the sources (it writes its
    catalog beside the files it reads)."""
    import shutil

    from django.core.management import call_command

    root = Path(settings.BASE_DIR)
    skipped = {"node_modules", "tests", "bench", "test-artifacts", "static", "locale", "docs",
               "deploy"}
    for source in root.iterdir():  # not the hidden ones either: .git, .venv, caches
        if source.is_dir() and source.name not in skipped and not source.name.startswith("."):
            shutil.copytree(source, tmp_path / source.name,
                            ignore=shutil.ignore_patterns("__pycache__"))
    copy = tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"
    copy.parent.mkdir(parents=True)
    shutil.copy(DE_PO, copy)
    settings.LOCALE_PATHS = [str(tmp_path / "locale")]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["de"], verbosity=0, no_obsolete=True)
    known = {(e.msgctxt, e.msgid) for e in _messages() if e.msgstr.strip()}
    found = [e for e in parse_po(copy.read_text(encoding="utf-8"))
             if not e.is_header and e.msgid_plural is None]
    assert len(found) > 100, "makemessages found no strings"
    missing = [_label(e) for e in found if (e.msgctxt, e.msgid) not in known]
    assert not missing, "run makemessages and translate:\n" + "\n".join(missing)
    gone = {(e.msgctxt, e.msgid) for e in found}
    unseen = [_label(e) for e in _messages() if (e.msgctxt, e.msgid) not in gone]
    assert not unseen, "in the catalog, not found in the code:\n" + "\n".join(unseen)


_PLACEHOLDER = re.compile(r"%\(([^)]*)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


def test_placeholders_are_kept():
    wrong = []
    for entry in _messages():
        expected = set(_PLACEHOLDER.findall(entry.msgid))
        got = set(_PLACEHOLDER.findall(entry.msgstr))
        # the full spelling too: %(n)s must not become %(n)d
        if expected != got or (set(m.group() for m in _PLACEHOLDER.finditer(entry.msgid))
                               != set(m.group() for m in _PLACEHOLDER.finditer(entry.msgstr))):
            wrong.append(f"{_label(entry)}: {sorted(expected)} != {sorted(got)}")
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_german_quotes_where_english_uses_curly_quotes():
    wrong = [_label(e) for e in _messages()
             if "“" in e.msgid and ("„" not in e.msgstr or "”" in e.msgstr)]
    assert not wrong, "use „…“ in German:\n" + "\n".join(wrong)


def test_compiled_catalog_is_current():
    """Fails when the .po was edited without running msgfmt (or compilemessages)."""
    stale = []
    with translation.override("de"):
        for entry in _messages():
            if entry.msgctxt is None:
                got = translation.gettext(entry.msgid)
            else:
                got = translation.pgettext(entry.msgctxt, entry.msgid)
            if got != entry.msgstr:
                stale.append(f"{_label(entry)}: .mo has {got!r}, .po has {entry.msgstr!r}")
    assert not stale, "recompile the German catalog:\n" + "\n".join(stale)


def test_english_falls_back_to_the_msgids():
    with translation.override("en"):
        for entry in _messages():
            if entry.msgctxt is None:
                assert translation.gettext(entry.msgid) == entry.msgid, _label(entry)


# --------------------------------------------------------------------------- engine errors


def _engine_error() -> EngineUserError:
    with pytest.raises(EngineUserError) as caught:
        get_engine("skat").score_sheet(
            [{"declarer": 1, "game": "clubs", "matadors": 0, "won": True}], 3)
    return caught.value


def test_engine_errors_speak_the_request_language():
    error = _engine_error()
    [matadors] = [e for e in error.errors if e.field == "matadors"]
    with translation.override("de"):
        german = render(matadors)
    with translation.override("en"):
        english = render(matadors)
    assert english == "Must be 1 to 11 (mit) or −1 to −11 (ohne)."
    assert german == "Muss 1 bis 11 (mit) oder −1 bis −11 (ohne) sein."
    assert german != english
