"""Keep the message catalogues in step with the source (``make catalog``).

Extracts every marked string of ``poissonnier_tui/`` (``_``, ``N_``,
``ngettext``, ``pgettext``) with Babel, merges it into each language's
``poissonnier.po`` (translations kept; new messages added untranslated;
messages gone from the source dropped), and compiles each ``.po`` into the
``.mo`` the app reads. ``--check`` changes nothing and exits 1 when a ``.po``
or ``.mo`` is out of step (the test suite runs the same check).

Usage::

    python scripts/catalog.py            # extract, update, compile
    python scripts/catalog.py --check    # say what is out of step
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "poissonnier_tui"
LOCALE = PACKAGE / "locale"
DOMAIN = "poissonnier"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
PLURALS = {"fr": "nplurals=2; plural=(n > 1);"}
"""Plural rules of each translated language, as GNU gettext writes them (French: 0 and 1
are singular)."""
NAMES = {"fr": "French"}
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Header dates: fixed, so that a catalogue changes only when its messages do."""


def extract() -> Catalog:
    """Every marked message of the package, with where it is used."""
    catalog = Catalog(domain=DOMAIN, project="poissonnier", charset="utf-8")
    found: Iterable[tuple[str, int, str | tuple[str, ...], list[str], str | None]]
    found = extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",)
    )
    for filename, lineno, message, comments, context in found:
        path = f"poissonnier_tui/{filename}"
        catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    """The ``.po`` catalogue of ``lang`` (an empty one if it does not exist yet)."""
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="poissonnier", charset="utf-8")
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def po_bytes(catalog: Catalog) -> bytes:
    """The ``.po`` text of ``catalog``, stable (sorted, no dates that change each run)."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, omit_header=False, ignore_obsolete=True)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    """The compiled ``.mo`` of ``catalog`` (fuzzy entries left out, as gettext expects)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def updated(lang: str, template: Catalog) -> Catalog:
    """``lang``'s catalogue merged with ``template``: what the source marks now."""
    catalog = read(lang)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    catalog.fuzzy = False
    catalog.header_comment = (
        f"# {NAMES[lang]} messages of Poissonnier (scripts/catalog.py keeps them in step)."
    )
    catalog.project, catalog.version = "poissonnier", ""
    catalog.msgid_bugs_address = ""
    catalog.last_translator = catalog.language_team = "Poissonnier developers"
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    catalog.mime_headers = [("Plural-Forms", PLURALS[lang])]
    return catalog


def entries(catalog: Catalog) -> dict[object, object]:
    """``catalog``'s translated messages, id -> string (plural ids and strings as tuples)."""
    return {
        (m.context, _strings(m.id)): _strings(m.string)
        for m in catalog
        if m.id and not m.fuzzy and all(_strings(m.string))
    }


def compiled(path: Path) -> dict[object, object]:
    """The translated messages of a compiled ``.mo`` (empty if there is none)."""
    if not path.exists():
        return {}
    with path.open("rb") as f:
        return entries(read_mo(f))


def main(argv: list[str] | None = None) -> int:
    """Update (or with ``--check`` verify) every language's ``.po`` and ``.mo``.

    Out of step: the ``.po`` lacks a message the source marks or keeps one it no
    longer marks; the ``.mo`` differs from the ``.po``'s translated messages.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    template = extract()
    wanted = {(m.context, m.id) for m in template if m.id}
    stale: list[str] = []
    for lang in PLURALS:
        po_file = po_path(lang)
        mo_file = po_file.with_suffix(".mo")
        have = {(m.context, m.id) for m in read(lang) if m.id} if po_file.exists() else None
        catalog = updated(lang, template)
        if have != wanted:
            stale.append(str(po_file.relative_to(ROOT)))
            if not args.check:
                po_file.parent.mkdir(parents=True, exist_ok=True)
                po_file.write_bytes(po_bytes(catalog))
        if not mo_file.exists() or compiled(mo_file) != entries(catalog):
            stale.append(str(mo_file.relative_to(ROOT)))
            if not args.check:
                mo_file.write_bytes(mo_bytes(catalog))
        missing = [m.id for m in catalog if m.id and not all(_strings(m.string))]
        if missing:
            print(f"{lang}: {len(missing)} message(s) without a translation")
    if stale:
        print(("out of step: " if args.check else "written: ") + ", ".join(stale))
    return 1 if stale and args.check else 0


def _strings(string: str | Sequence[str] | None) -> tuple[str, ...]:
    """A message's id or string as a tuple (one item unless it has plural forms)."""
    if string is None:
        return ()
    return (string,) if isinstance(string, str) else tuple(string)


if __name__ == "__main__":
    sys.exit(main())
