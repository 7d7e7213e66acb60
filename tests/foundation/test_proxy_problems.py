"""The problem documents nginx answers itself (``deploy/nginx/problem_texts.js``): what
``make messages`` writes from the catalogs, one for each ``/_problems/`` name the nginx
configuration uses, each in every language with the limits it names as nginx has them.
tests/foundation/test_reverse_proxy.py asks nginx for them in each language."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import translation

from chickenfoot.i18n.languages import LANGUAGE_CODES
from chickenfoot.i18n.proxy_problems import (
    HEADERS_KIB,
    LINE_BYTES,
    MAX_FIELDS,
    PROXY_PROBLEMS,
    TEXTS_FILE,
    table,
    texts,
)
from chickenfoot.problem_types import problem_type
from tests.foundation.live_server import ROOT

NGINX = ROOT / "deploy" / "nginx"


def test_the_committed_file_is_what_make_messages_writes() -> None:
    assert TEXTS_FILE.read_text(encoding="utf-8") == texts(), (
        "deploy/nginx/problem_texts.js is stale: run `make messages`"
    )


def test_every_problem_the_configuration_names_is_there_and_no_other() -> None:
    template = (NGINX / "chickenfoot.conf.template").read_text(encoding="utf-8")
    named = set(re.findall(r"/_problems/([a-z-]+)", template))
    assert named == {problem.name for problem in PROXY_PROBLEMS}
    assert set(table()["problems"]) == named


@pytest.mark.parametrize("language", LANGUAGE_CODES)
def test_each_document_is_whole_in_each_language(language: str) -> None:
    written = table()
    assert written["languages"] == list(LANGUAGE_CODES)
    for problem in PROXY_PROBLEMS:
        entry = written["problems"][problem.name]
        assert entry["status"] == problem.status
        document = json.loads(entry["bodies"][language])
        assert set(document) == {"type", "title", "status", "detail", "code"}
        assert (document["status"], document["code"]) == (problem.status, problem.code)
        assert document["type"] == problem_type(problem.code)
        assert "%(" not in document["detail"]
        # the catalog's translation, as the application would give it
        with translation.override(language):
            assert document["title"] == translation.gettext(problem.title)
        if language != "en":
            english = json.loads(entry["bodies"]["en"])
            assert document["detail"] != english["detail"], (problem.name, language)


def test_the_limits_named_are_nginx_s() -> None:
    template = (NGINX / "chickenfoot.conf.template").read_text(encoding="utf-8")
    refusals = (NGINX / "refusals.js").read_text(encoding="utf-8")
    assert f"var MAX_FIELDS = {MAX_FIELDS};" in refusals
    buffers = set(re.findall(r"large_client_header_buffers (\d+) (\d+)k;", template))
    assert buffers == {(str(HEADERS_KIB * 1024 // LINE_BYTES), str(LINE_BYTES // 1024))}
    english = {
        p.name: json.loads(table()["problems"][p.name]["bodies"]["en"]) for p in PROXY_PROBLEMS
    }
    assert "4,096 bytes" in english["uri-too-long"]["detail"]
    assert "16 KiB" in english["header-too-large"]["detail"]
    assert "more than 64 of them" in english["header-too-large"]["detail"]
