"""``python -m chickenfoot.i18n compile [PO...]`` (``make install``: every catalog, or those
named) or ``extract`` (``make messages``: the catalogs, then the problem documents nginx answers
itself, deploy/nginx/problem_texts.js, from their translations)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("compile", "extract") or (argv[0] == "extract" and argv[1:]):
        sys.stderr.write("usage: python -m chickenfoot.i18n compile [PO...] | extract\n")
        return 2
    if argv == ["extract"]:
        # the templates are read through Django's own template lexer
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")
        import django

        django.setup()
    from chickenfoot.i18n.catalogs import compile_all, update

    if argv == ["extract"]:
        from chickenfoot.i18n.proxy_problems import write_texts

        written = update()
        written.append(write_texts())
    else:
        written = compile_all(paths=[Path(p) for p in argv[1:]])
    sys.stdout.write(f"{len(written)} file(s) written\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
