"""The admin lists the end-of-match markers the sweeper gave up on, with why."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Player
from scoring.models import MatchFinalisation, RoundResult
from scoring.services import match_finalise
from tests.scoring.conftest import FinishedMatch

pytestmark = pytest.mark.django_db


def test_failed_finalisations_are_listed_with_their_error(
    players: list[Player], finished_match: FinishedMatch
) -> None:
    # given: one match finalised, one whose round rows are incomplete
    good = finished_match(seated=players[:2], scores=[[0, 4]])
    bad = finished_match(seated=players[:2], scores=[[0, 4], [3, 0]])
    RoundResult.objects.filter(match=bad, round_number=2).delete()
    assert match_finalise(match_id=good.pk).written
    assert match_finalise(match_id=bad.pk).failed
    admin = User.objects.create_superuser("admin", "admin@example.com", "a long admin passphrase")
    browser = Client()
    browser.force_login(admin)

    # when: an administrator lists the failed ones
    page = browser.get("/admin/scoring/matchfinalisation/?state=failed")

    # then: the bad match is there with its error; the good one is not
    assert page.status_code == HTTPStatus.OK
    assert f"Match {bad.pk}: failed" in page.text
    assert "[1] rounds recorded, 2 played" in page.text
    assert f"Match {good.pk}:" not in page.text
    assert MatchFinalisation.objects.filter(failed_at__isnull=False).count() == 1
