"""What a mobile app does with the Python client generated from /api/schema/.

    python clients/python/mobile_app.py http://127.0.0.1:8000 DEVICE_FOLDER

``DEVICE_FOLDER`` is the phone and the mailbox the check gives the app (clients/check.py):
``subscription.json``, the phone's Web Push subscription (``PushSubscription.toJSON()``);
``pushes/``, each push the phone received, decrypted, as a JSON file; ``mail/``, each message the
SMTP server received, as an ``.eml`` file. Three players, each a client of their own:

1. Bob registers his phone for Web Push. Ada searches for Bob by the start of his name, opens
   his profile and asks him to be her friend; he accepts. She opens a match of two and invites
   her friend; his phone shows the invitation, its title and body naming her; he accepts, she
   wishes him good luck in the match's quick chat and he reads it from his seat; his app shows
   the board's picture (and its 304); they play it to the end, Bob's phone told of his turns.
2. Cy joins the quick play queue and is matched with Ada, who joins it too.
3. Ada forgets her password: she verified her address, asks for a reset, and sets a new password
   through the link in the mail; her old token stops working. Her app keeps the device
   credential her log-in gives it, and sends it back with her next log-in (a known device).
4. Ada uploads an avatar (a PNG, as the request's body); Bob sees it on her profile; anyone
   fetches it from its content address, and a second fetch with its ETag is a 304; she removes
   it and her initials show again.
5. Bob exports his data and deletes his account: the match's standings and Ada's rating stay.

Uses only the generated client's typed models (``mypy --strict`` checks it).
"""

from __future__ import annotations

import email
import email.policy
import io
import json
import re
import sys
import time
import uuid
from dataclasses import dataclass
from email.message import EmailMessage
from http import HTTPStatus
from pathlib import Path
from typing import TypeVar
from urllib.parse import parse_qs, urlsplit

from chickenfoot_client import AuthenticatedClient, Client
from chickenfoot_client.api.accounts import (
    avatar_file,
    avatar_remove,
    avatar_upload,
    email_set,
    email_verify,
    password_reset,
    password_reset_confirm,
    player_delete,
    player_export,
    player_me,
    player_profile,
    player_register,
    player_search,
    token_obtain,
)
from chickenfoot_client.api.friends import (
    friend_request_accept,
    friend_request_send,
    friend_requests,
    friends,
)
from chickenfoot_client.api.history import leaderboard, match_record
from chickenfoot_client.api.invitations import invitation_accept, invitation_create, invitation_list
from chickenfoot_client.api.matches import (
    chat_read,
    chat_send,
    match_board_svg,
    match_create,
    match_detail,
    match_start,
)
from chickenfoot_client.api.notifications import notification_list, push_device_register
from chickenfoot_client.api.play import legal_moves, move_submit
from chickenfoot_client.api.quick_play import queue_join, queue_read
from chickenfoot_client.models import (
    ChatPhraseEnum,
    ChatSendRequest,
    ChickenFootMatchCreateRequest,
    ChickenFootOptionsRequest,
    ChickenFootState,
    ChickenFootVariantEnum,
    CreatorSeatKindEnum,
    CreatorSeatRequest,
    EmailSetRequest,
    EmailVerifyRequest,
    FriendRequestCreateRequest,
    FriendStateEnum,
    InboxNotification,
    InvitationCreateRequest,
    InvitationStateEnum,
    LeaderboardVariant,
    MatchStatusEnum,
    MatchView,
    MexicanTrainState,
    MoveSubmitRequest,
    NotificationKindEnum,
    OpenSeatKindEnum,
    OpenSeatRequest,
    PasswordResetConfirmRequest,
    PasswordResetRequest,
    PlayerDeleteRequest,
    PlayerRegisterRequest,
    Problem,
    PushDeviceKindEnum,
    PushDeviceRegistrationRequest,
    QueueJoinRequest,
    QueuePresetEnum,
    QueueStatusEnum,
    TokenObtainRequest,
    VariantEnum,
    WebPushKeysRequest,
)
from chickenfoot_client.types import UNSET, File
from PIL import Image

T = TypeVar("T")
PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a brand new passphrase of hers"
WAIT_SECONDS = 30.0
MOVE_LIMIT = 5000


class Refused(Exception):
    """The server (or the phone, or the mailbox) did not give what the app expected."""


def _ok(answer: T | Problem | None, what: str) -> T:
    if isinstance(answer, Problem):
        raise Refused(f"{what}: {answer.status} {answer.code.value}: {answer.detail}")
    if answer is None:
        raise Refused(f"{what}: no answer the schema describes")
    return answer


@dataclass
class Person:
    name: str
    client: AuthenticatedClient
    player_id: int


@dataclass
class Device:
    """The phone's pushes and the mailbox, as the check writes them."""

    folder: Path

    def subscription(self) -> PushDeviceRegistrationRequest:
        raw = json.loads((self.folder / "subscription.json").read_text())
        return PushDeviceRegistrationRequest(
            kind=PushDeviceKindEnum.WEBPUSH,
            endpoint=str(raw["endpoint"]),
            keys=WebPushKeysRequest(
                p256dh=str(raw["keys"]["p256dh"]), auth=str(raw["keys"]["auth"])
            ),
        )

    def pushes(self) -> list[InboxNotification]:
        """What the phone showed, in order: each push is a notification as the inbox lists it,
        with the title and body the phone shows."""
        files = sorted((self.folder / "pushes").glob("*.json"))
        return [InboxNotification.from_dict(json.loads(path.read_text())) for path in files]

    def push(self, kind: NotificationKindEnum, match_id: int) -> InboxNotification:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            for pushed in self.pushes():
                if pushed.kind == kind and pushed.payload.match_id == match_id:
                    return pushed
            time.sleep(0.05)
        raise Refused(f"no {kind.value} push for match {match_id} in {WAIT_SECONDS:.0f} s")

    def mail_to(self, address: str, subject_word: str) -> EmailMessage:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            for path in sorted((self.folder / "mail").glob("*.eml")):
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                if (
                    isinstance(message, EmailMessage)
                    and address in str(message["To"])
                    and subject_word in str(message["Subject"]).lower()
                ):
                    return message
            time.sleep(0.05)
        raise Refused(f"no mail about {subject_word!r} to {address} in {WAIT_SECONDS:.0f} s")


def link_params(message: EmailMessage) -> dict[str, str]:
    """The query of the link in an account mail's plain text."""
    part = message.get_body(preferencelist=("plain",))
    text = part.get_content() if isinstance(part, EmailMessage) else ""
    found = re.search(r"https?://\S+", str(text))
    if found is None:
        raise Refused("an account mail without a link")
    return {name: values[0] for name, values in parse_qs(urlsplit(found[0]).query).items()}


def register(base_url: str, name: str) -> Person:
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    username = f"{name}-{uuid.uuid4().hex[:8]}"
    account = _ok(
        player_register.sync(
            client=anonymous, body=PlayerRegisterRequest(username=username, password=PASSWORD)
        ),
        f"register {name}",
    )
    client = AuthenticatedClient(
        base_url=base_url, token=account.token, raise_on_unexpected_status=True
    )
    me = _ok(player_me.sync(client=client), f"{name}: who am I")
    return Person(name=username, client=client, player_id=me.id)


def _turn(view: MatchView) -> int | None:
    state = view.state
    if isinstance(state, ChickenFootState | MexicanTrainState):
        return state.turn
    return None


@dataclass
class Held:
    """The match as an app holds it: the view and its ETag, to poll with."""

    view: MatchView
    etag: str


def read_match(match_id: int, person: Person, held: Held | None = None) -> Held:
    """The match as ``person`` sees it; with ``held``, polled with its ETag (``If-None-Match``):
    unchanged, the server answers 304, which the schema types as an empty text, and the held
    view stays."""
    etag = held.etag if held is not None else UNSET
    answer = match_detail.sync_detailed(match_id, client=person.client, if_none_match=etag)
    if isinstance(answer.parsed, str):
        if held is None or answer.status_code != HTTPStatus.NOT_MODIFIED:
            raise Refused(f"match {match_id}: {answer.status_code} and no view to a fresh read")
        return held
    return Held(_ok(answer.parsed, f"match {match_id}"), answer.headers["ETag"])


def play_to_the_end(match_id: int, seated: dict[int, Person]) -> MatchView:
    """Each player's client plays the first legal move on its turn, until the match is over;
    the app polls the match with the ETag it holds, and once it is over a poll is a 304."""
    anyone = next(iter(seated.values()))
    held = read_match(match_id, anyone)
    for _ in range(MOVE_LIMIT):
        view = held.view
        if view.status != MatchStatusEnum.PLAYING:
            if read_match(match_id, anyone, held) is not held:
                raise Refused(f"match {match_id}: over, yet changed since its ETag")
            return view
        turn = _turn(view)
        mover = seated.get(turn) if turn is not None else None
        if mover is None:
            raise Refused(f"match {match_id}: a turn of seat {turn}, which nobody here holds")
        asked = legal_moves.sync(match_id, client=mover.client)
        if isinstance(asked, str):  # the 304's type: not to a request without an ETag
            raise Refused(f"match {match_id}: legal moves 304 to a request that held no ETag")
        legal = _ok(asked, "legal moves")
        choice = legal.moves[0]
        _ok(
            move_submit.sync(
                match_id,
                client=mover.client,
                body=MoveSubmitRequest(
                    kind=choice.kind, tile=choice.tile, target=choice.target, version=legal.version
                ),
                idempotency_key=str(uuid.uuid4()),
            ),
            "move",
        )
        held = read_match(match_id, anyone, held)
    raise Refused(f"match {match_id} did not end in {MOVE_LIMIT} moves")


def inbox_of(person: Person) -> list[InboxNotification]:
    """Every notification in ``person``'s inbox, newest first, page by page (following
    ``next``, whose query holds the next page's cursor)."""
    out: list[InboxNotification] = []
    cursor: str | None = None
    while True:
        page = _ok(
            notification_list.sync(
                client=person.client, cursor=UNSET if cursor is None else cursor
            ),
            "the inbox",
        )
        out.extend(page.results)
        if page.next_ is None:
            return out
        cursor = parse_qs(urlsplit(page.next_).query)["cursor"][0]


def befriend(ada: Person, bob: Person) -> None:
    """Ada finds Bob by the start of his name, opens his profile and asks him to be her friend;
    Bob finds her request among his and accepts it."""
    found = _ok(player_search.sync(client=ada.client, search=bob.name[:6]), "ada searches")
    if bob.player_id not in [row.id for row in found.results]:
        raise Refused(f"ada's search for {bob.name[:6]!r} does not find bob")
    profile = _ok(player_profile.sync(bob.player_id, client=ada.client), "ada: bob's profile")
    if profile.id != bob.player_id or profile.friend or profile.friend_request is not None:
        raise Refused(f"ada: bob's profile before they are friends: {profile.to_dict()}")
    asked = _ok(
        friend_request_send.sync(
            client=ada.client, body=FriendRequestCreateRequest(player_id=bob.player_id)
        ),
        "ada asks bob to be her friend",
    )
    incoming = _ok(friend_requests.sync(client=bob.client), "bob's friend requests").incoming
    if [(r.id, r.sender.id) for r in incoming] != [(asked.id, ada.player_id)]:
        raise Refused(f"bob's friend requests: {[r.to_dict() for r in incoming]}")
    accepted = _ok(friend_request_accept.sync(asked.id, client=bob.client), "bob accepts")
    if accepted.state != FriendStateEnum.ACCEPTED:
        raise Refused(f"accepted, the friend request is {accepted.state.value}")
    listed = _ok(friends.sync(client=ada.client), "ada's friends").results
    again = _ok(player_profile.sync(bob.player_id, client=ada.client), "ada: bob's profile")
    if [f.player.id for f in listed] != [bob.player_id] or not again.friend:
        raise Refused(f"ada's friends after bob accepted: {[f.to_dict() for f in listed]}")
    print(f"friends: ada found {profile.name} ({found.count} found) and he accepted her request")


def chat(match_id: int, ada: Person, bob: Person) -> None:
    """Ada says a phrase of the quick chat in the match; Bob reads it from his seat."""
    said = _ok(
        chat_send.sync(
            match_id, client=ada.client, body=ChatSendRequest(phrase=ChatPhraseEnum.GOOD_LUCK)
        ),
        "ada chats",
    )
    read = _ok(chat_read.sync(match_id, client=bob.client), "bob reads the chat")
    heard = [m for m in read.messages if m.seq == said.seq]
    if [(m.player_id, m.seat, m.phrase) for m in heard] != [
        (ada.player_id, 0, ChatPhraseEnum.GOOD_LUCK)
    ] or not heard[0].text:
        raise Refused(f"bob's chat of match {match_id}: {[m.to_dict() for m in read.messages]}")
    print(f"chat: bob read ada's {heard[0].emoji} {heard[0].text!r} in match {match_id}")


def board_picture(match_id: int, bob: Person) -> None:
    """Bob's app shows the table as a picture (SVG bytes), then asks again with its ETag: 304,
    an empty body of the same type."""
    first = match_board_svg.sync_detailed(match_id, client=bob.client)
    picture = _ok(first.parsed, "bob: the board's picture").payload.read()
    if first.status_code != HTTPStatus.OK or b"<svg" not in picture:
        raise Refused(f"bob: the board's picture is not an SVG ({first.status_code})")
    again = match_board_svg.sync_detailed(
        match_id, client=bob.client, if_none_match=first.headers["ETag"]
    )
    unchanged = _ok(again.parsed, "bob: the board's picture again").payload.read()
    if again.status_code != HTTPStatus.NOT_MODIFIED or unchanged:
        raise Refused(f"bob: the board again with its ETag: {again.status_code}, not an empty 304")
    print(f"board: {len(picture)} bytes of SVG, then a 304 for its ETag")


def invite_and_play(ada: Person, bob: Person, phone: Device) -> int:
    _ok(push_device_register.sync(client=bob.client, body=phone.subscription()), "bob's phone")
    befriend(ada, bob)
    created = _ok(
        match_create.sync(
            client=ada.client,
            body=ChickenFootMatchCreateRequest(
                variant=ChickenFootVariantEnum.CHICKENFOOT,
                seats=[
                    CreatorSeatRequest(kind=CreatorSeatKindEnum.CREATOR),
                    OpenSeatRequest(kind=OpenSeatKindEnum.OPEN),
                ],
                options=ChickenFootOptionsRequest(rounds=2),
            ),
        ),
        "ada creates",
    )
    issued = _ok(
        invitation_create.sync(
            created.id, client=ada.client, body=InvitationCreateRequest(seat=1, username=bob.name)
        ),
        "ada invites her friend bob",
    )
    shown = phone.push(NotificationKindEnum.INVITED, created.id)
    if shown.payload.by_player_id != ada.player_id:
        raise Refused(f"the invitation's push names {shown.payload.by_player_id}, not ada")
    ada_name = _ok(player_me.sync(client=ada.client), "ada: who am I").name
    if shown.body != f"{ada_name} invited you to Chicken Foot" or not shown.title:
        raise Refused(f"the invitation's push says {shown.title!r}, {shown.body!r}")
    received = _ok(invitation_list.sync(client=bob.client), "bob's invitations")
    held = [i for i in received.results if i.match_id == created.id]
    if [i.id for i in held] != [issued.id] or held[0].state != InvitationStateEnum.PENDING:
        raise Refused(f"bob's invitations to match {created.id}: {held}")
    accepted = _ok(invitation_accept.sync(issued.id, client=bob.client), "bob accepts")
    if accepted.state != InvitationStateEnum.ACCEPTED:
        raise Refused(f"accepted, the invitation is {accepted.state.value}")
    _ok(match_start.sync(created.id, client=ada.client), "ada starts")
    chat(created.id, ada, bob)
    board_picture(created.id, bob)
    view = play_to_the_end(created.id, {0: ada, 1: bob})
    extra = [
        p.id for p in phone.pushes() if p.additional_properties or p.payload.additional_properties
    ]
    if extra:
        raise Refused(f"pushes {extra} carry more than their schema names")
    turns = [p for p in phone.pushes() if p.kind == NotificationKindEnum.YOUR_TURN]
    if not any(p.payload.match_id == created.id for p in turns):
        raise Refused("bob's phone was never told it was his turn")
    phone.push(NotificationKindEnum.MATCH_OVER, created.id)
    kinds = {n.kind for n in inbox_of(bob) if n.payload.match_id == created.id}
    if NotificationKindEnum.INVITED not in kinds or NotificationKindEnum.MATCH_OVER not in kinds:
        raise Refused(f"bob's inbox for match {created.id}: {sorted(k.value for k in kinds)}")
    places = [(s.place, s.name, s.total) for s in view.standings or []]
    print(f"invited: match {created.id} over, standings {places}; {len(turns)} turn pushes")
    return created.id


def quick_play(ada: Person, cy: Person) -> int:
    body = QueueJoinRequest(variant=VariantEnum.CHICKENFOOT, seats=2, preset=QueuePresetEnum.QUICK)
    waiting = _ok(queue_join.sync(client=cy.client, body=body), "cy joins the queue")
    if waiting.status != QueueStatusEnum.WAITING:
        raise Refused(f"cy alone in the queue is {waiting.status.value}")
    joined = _ok(queue_join.sync(client=ada.client, body=body), "ada joins the queue")
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        entry = _ok(queue_read.sync(client=cy.client), "cy's place in the queue")
        if entry.status == QueueStatusEnum.MATCHED and entry.match_id is not None:
            view = read_match(entry.match_id, cy).view
            seated = sorted(s.player_id for s in view.seats if s.player_id is not None)
            if view.status != MatchStatusEnum.PLAYING or seated != sorted(
                [ada.player_id, cy.player_id]
            ):
                raise Refused(f"the quick play match {view.id}: {view.status.value}, {seated}")
            waited = (entry.matched_at - entry.joined_at).total_seconds() if entry.matched_at else 0
            print(
                f"quick play: cy matched with ada at match {view.id}, {view.status.value}, "
                f"after {waited:.1f} s in the queue (ratings {waiting.rating} and {joined.rating})"
            )
            return view.id
        time.sleep(0.1)
    raise Refused(f"cy was not matched in {WAIT_SECONDS:.0f} s")


def reset_password(base_url: str, ada: Person, mailbox: Device) -> Person:
    address = f"{ada.name}@example.com"
    _ok(email_set.sync(client=ada.client, body=EmailSetRequest(email=address)), "ada's address")
    token = link_params(mailbox.mail_to(address, "confirm your e-mail"))["token"]
    verified = _ok(
        email_verify.sync(client=ada.client, body=EmailVerifyRequest(token=token)), "verify"
    )
    if verified.verified_at is None:
        raise Refused("ada's address is not verified after its link")
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    _ok(password_reset.sync(client=anonymous, body=PasswordResetRequest(email=address)), "reset")
    link = link_params(mailbox.mail_to(address, "reset your password"))
    _ok(
        password_reset_confirm.sync(
            client=anonymous,
            body=PasswordResetConfirmRequest(
                uid=link["uid"], token=link["token"], new_password=NEW_PASSWORD
            ),
        ),
        "the new password",
    )
    stale = player_me.sync_detailed(client=ada.client)
    if stale.status_code != 401:
        raise Refused(f"after the reset, ada's old token answers {stale.status_code}")
    logged_in = _ok(
        token_obtain.sync(
            client=anonymous, body=TokenObtainRequest(username=ada.name, password=NEW_PASSWORD)
        ),
        "ada logs in with the new password",
    )
    if logged_in.device_credential is None:
        raise Refused("ada's log-in gave her app no device credential")
    again = _ok(
        token_obtain.sync(
            client=anonymous,
            body=TokenObtainRequest(
                username=ada.name,
                password=NEW_PASSWORD,
                device_credential=logged_in.device_credential,
            ),
        ),
        "ada logs in again, from her known device",
    )
    if again.device_credential is None:
        raise Refused("ada's second log-in gave her app no device credential")
    client = AuthenticatedClient(
        base_url=base_url, token=again.token, raise_on_unexpected_status=True
    )
    print(f"password reset: ada logs in with the new password (mail to {address}), twice")
    return Person(name=ada.name, client=client, player_id=ada.player_id)


def avatar(base_url: str, ada: Person, bob: Person) -> None:
    picture = io.BytesIO()
    Image.new("RGB", (320, 240), (31, 95, 139)).save(picture, "PNG")
    upload = File(payload=io.BytesIO(picture.getvalue()), file_name="ada.png")
    mine = _ok(avatar_upload.sync(client=ada.client, body=upload), "ada: upload an avatar")
    if not mine.uploaded:
        raise Refused("ada: her upload is not her avatar")
    seen = _ok(player_profile.sync(ada.player_id, client=bob.client), "bob: ada's profile")
    if seen.avatar_url != mine.avatar_url:
        raise Refused("bob: ada's profile shows another picture")
    digest = mine.avatar_url.rsplit("/", 1)[1].removesuffix(".webp")
    anyone = Client(base_url=base_url, raise_on_unexpected_status=True)
    first = avatar_file.sync_detailed(digest, client=anyone)
    served = _ok(first.parsed, "anyone: ada's avatar")
    if first.status_code != HTTPStatus.OK or served.payload.read(4) != b"RIFF":
        raise Refused(f"anyone: ada's avatar is not a WebP ({first.status_code})")
    again = avatar_file.sync_detailed(digest, client=anyone, if_none_match=first.headers["ETag"])
    if again.status_code != HTTPStatus.NOT_MODIFIED:
        raise Refused(f"anyone: ada's avatar again with its ETag: {again.status_code}, not 304")
    initials = _ok(avatar_remove.sync(client=ada.client), "ada: remove her avatar")
    if initials.uploaded or not initials.avatar_url.endswith(".svg"):
        raise Refused("ada: her initials are not her avatar again")


def export_and_delete(ada: Person, bob: Person, match_id: int) -> None:
    def standings() -> list[tuple[int, int, int, float | None]]:
        record = _ok(match_record.sync(match_id, client=ada.client), "the match's record")
        return [
            (s.place, s.seat, s.total, s.rating.after if s.rating is not None else None)
            for s in record.results or []
        ]

    def ada_rating() -> tuple[int, float, int]:
        page = _ok(
            leaderboard.sync(
                LeaderboardVariant.CHICKENFOOT, client=ada.client, player=ada.player_id
            ),
            "the leaderboard",
        )
        row = next((r for r in page.results if r.player_id == ada.player_id), None)
        if row is None:
            raise Refused("ada is not on the leaderboard")
        return row.display, row.mu, row.matches

    before = standings(), ada_rating()
    exported = _ok(player_export.sync(client=bob.client), "bob's export")
    if exported.account.player_id != bob.player_id or not any(
        r.match_id == match_id for r in exported.results
    ):
        raise Refused("bob's export lacks his account or the match he played")
    if not exported.push_devices:
        raise Refused("bob's export lacks his phone")
    deleted = player_delete.sync_detailed(
        client=bob.client, body=PlayerDeleteRequest(password=PASSWORD)
    )
    if deleted.status_code != 204:
        raise Refused(f"deleting bob's account answered {deleted.status_code}")
    gone = player_me.sync_detailed(client=bob.client)
    if gone.status_code != 401:
        raise Refused(f"bob's token still answers {gone.status_code} after the deletion")
    after = standings(), ada_rating()
    if after != before:
        raise Refused(f"the deletion changed the standings: {before} then {after}")
    print(
        f"export and deletion: {len(exported.results)} results exported; "
        f"standings and ada's rating unchanged {after}"
    )


def main(argv: list[str]) -> int:
    base_url, folder = argv[1], Path(argv[2])
    device = Device(folder)
    ada, bob, cy = (register(base_url, name) for name in ("ada", "bob", "cy"))
    match_id = invite_and_play(ada, bob, device)
    quick_play(ada, cy)
    ada = reset_password(base_url, ada, device)
    avatar(base_url, ada, bob)
    export_and_delete(ada, bob, match_id)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
