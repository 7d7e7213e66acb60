"""URLs of the games API, mounted under ``/api/`` by the root urls."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path, register_converter

from games.api.account_data import PlayerExportApi
from games.api.account_email import EmailApi, EmailVerifyApi
from games.api.account_passwords import PasswordChangeApi, PasswordResetApi, PasswordResetConfirmApi
from games.api.analysis import HintApi, MatchAnalysisApi, MatchReplayApi
from games.api.avatars import AvatarApi, AvatarFileApi, AvatarInitialsApi
from games.api.chat import ChatApi, ChatMuteApi, ChatPhrasesApi
from games.api.competition_export import CompetitionExportApi, CompetitionExportCSVApi
from games.api.entrant_claims import EntrantClaimCodeApi
from games.api.friends import (
    BlockApi,
    BlocksApi,
    FriendApi,
    FriendRequestAcceptApi,
    FriendRequestDeclineApi,
    FriendRequestsApi,
    FriendsApi,
)
from games.api.invitations import (
    InvitationAcceptApi,
    InvitationCodeAcceptApi,
    InvitationCreateApi,
    InvitationDeclineApi,
    InvitationListApi,
    InvitationWithdrawApi,
    RematchApi,
)
from games.api.leaving import MatchAbandonApi, SeatResignApi
from games.api.live import LiveTicketApi
from games.api.matches import (
    MatchCreateApi,
    MatchDetailApi,
    MatchMineListApi,
    MatchOpenListApi,
    MatchStartApi,
    SeatJoinApi,
)
from games.api.moves import LegalMovesApi, MoveLogApi, MoveSubmitApi
from games.api.notifications import (
    NotificationListApi,
    NotificationPreferencesApi,
    NotificationReadApi,
    NotificationTicketApi,
)
from games.api.paper import ScoreSheetApi
from games.api.pictures import BoardSvgApi, ScoresSvgApi
from games.api.players import PlayerDeleteApi, PlayerMeApi, TokenObtainApi
from games.api.profiles import PlayerProfileApi, PlayersApi
from games.api.push import PushDeviceDeleteApi, PushDeviceRegisterApi, VapidPublicKeyApi
from games.api.quick_play import QueueApi
from games.api.records import MatchFinaliseApi, MatchRecordApi
from games.api.round_reviews import (
    RoundConfirmApi,
    RoundDisputeApi,
    RoundResolveApi,
    TableSettingsApi,
)
from games.api.rounds import MatchRoundsApi
from games.api.scorer_links import ScorerContextApi, ScorerLinkRevokeApi, ScorerLinksApi
from games.api.table_corrections import (
    MatchReopenApi,
    RoundScoresCorrectionApi,
    ScoreLogApi,
)
from games.api.table_scores import ClaimCodeApi, ClaimRedeemApi
from games.api.tokens import LogoutAllApi, LogoutApi, TokenListApi, TokenRevokeApi


class DigestConverter:
    """A content address in a path: a SHA-256 in lower-case hex (a shorter run of hex digits
    names nothing, and is answered so by the view)."""

    regex = "[0-9a-f]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(DigestConverter, "digest")


urlpatterns: list[URLPattern | URLResolver] = [
    # A turn's requests first: a path is matched against each pattern in order.
    path("matches/<int:match_id>/legal-moves", LegalMovesApi.as_view(), name="legal-moves"),
    path("matches/<int:match_id>/moves", MoveSubmitApi.as_view(), name="move-submit"),
    path("matches/<int:match_id>", MatchDetailApi.as_view(), name="match-detail"),
    path("players", PlayersApi.as_view(), name="player-register"),
    path("players/<int:player_id>", PlayerProfileApi.as_view(), name="player-profile"),
    path("players/me", PlayerMeApi.as_view(), name="player-me"),
    path("players/<int:player_id>/block", BlockApi.as_view(), name="player-block"),
    path("players/me/blocks", BlocksApi.as_view(), name="player-blocks"),
    path("friends", FriendsApi.as_view(), name="friends"),
    path("friends/<int:player_id>", FriendApi.as_view(), name="friend"),
    path("friends/requests", FriendRequestsApi.as_view(), name="friend-requests"),
    path(
        "friends/requests/<int:request_id>/accept",
        FriendRequestAcceptApi.as_view(),
        name="friend-request-accept",
    ),
    path(
        "friends/requests/<int:request_id>/decline",
        FriendRequestDeclineApi.as_view(),
        name="friend-request-decline",
    ),
    path("players/me/delete", PlayerDeleteApi.as_view(), name="player-delete"),
    path("players/me/avatar", AvatarApi.as_view(), name="avatar"),
    path(
        "players/<int:player_id>/avatar/<digest:digest>.svg",
        AvatarInitialsApi.as_view(),
        name="avatar-initials",
    ),
    path("avatars/<digest:digest>.webp", AvatarFileApi.as_view(), name="avatar-file"),
    path("players/me/email", EmailApi.as_view(), name="email"),
    path("players/me/email/verify", EmailVerifyApi.as_view(), name="email-verify"),
    path("players/me/password", PasswordChangeApi.as_view(), name="password-change"),
    path("players/me/export", PlayerExportApi.as_view(), name="player-export"),
    path("auth/token", TokenObtainApi.as_view(), name="token-obtain"),
    path("auth/password-reset", PasswordResetApi.as_view(), name="password-reset"),
    path(
        "auth/password-reset/confirm",
        PasswordResetConfirmApi.as_view(),
        name="password-reset-confirm",
    ),
    path("auth/logout", LogoutApi.as_view(), name="logout"),
    path("auth/logout-all", LogoutAllApi.as_view(), name="logout-all"),
    path("auth/tokens", TokenListApi.as_view(), name="token-list"),
    path("auth/tokens/<int:token_id>", TokenRevokeApi.as_view(), name="token-revoke"),
    path("queue", QueueApi.as_view(), name="queue"),
    path("matches", MatchCreateApi.as_view(), name="match-create"),
    path("matches/open", MatchOpenListApi.as_view(), name="match-open-list"),
    path("matches/mine", MatchMineListApi.as_view(), name="match-mine-list"),
    path("matches/<int:match_id>/join", SeatJoinApi.as_view(), name="seat-join"),
    path("matches/<int:match_id>/start", MatchStartApi.as_view(), name="match-start"),
    path("matches/<int:match_id>/log", MoveLogApi.as_view(), name="move-log"),
    path("matches/<int:match_id>/board.svg", BoardSvgApi.as_view(), name="match-board-svg"),
    path("matches/<int:match_id>/scores.svg", ScoresSvgApi.as_view(), name="match-scores-svg"),
    path("matches/<int:match_id>/rounds", MatchRoundsApi.as_view(), name="match-rounds"),
    path("matches/<int:match_id>/record", MatchRecordApi.as_view(), name="match-record"),
    path("matches/<int:match_id>/chat", ChatApi.as_view(), name="chat"),
    path("matches/<int:match_id>/chat/mute", ChatMuteApi.as_view(), name="chat-mute"),
    path("chat/phrases", ChatPhrasesApi.as_view(), name="chat-phrases"),
    path("matches/<int:match_id>/analysis", MatchAnalysisApi.as_view(), name="match-analysis"),
    path("matches/<int:match_id>/replay", MatchReplayApi.as_view(), name="match-replay"),
    path("matches/<int:match_id>/hint", HintApi.as_view(), name="match-hint"),
    path("matches/<int:match_id>/finalise", MatchFinaliseApi.as_view(), name="match-finalise"),
    path("matches/<int:match_id>/ticket", LiveTicketApi.as_view(), name="live-ticket"),
    path("matches/<int:match_id>/resign", SeatResignApi.as_view(), name="seat-resign"),
    path("matches/<int:match_id>/abandon", MatchAbandonApi.as_view(), name="match-abandon"),
    path(
        "matches/<int:match_id>/invitations",
        InvitationCreateApi.as_view(),
        name="invitation-create",
    ),
    path("matches/<int:match_id>/rematch", RematchApi.as_view(), name="match-rematch"),
    path("invitations", InvitationListApi.as_view(), name="invitation-list"),
    path("invitations/accept", InvitationCodeAcceptApi.as_view(), name="invitation-code-accept"),
    path(
        "invitations/<int:invitation_id>",
        InvitationWithdrawApi.as_view(),
        name="invitation-withdraw",
    ),
    path(
        "invitations/<int:invitation_id>/accept",
        InvitationAcceptApi.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline",
        InvitationDeclineApi.as_view(),
        name="invitation-decline",
    ),
    path(
        "matches/<int:match_id>/rounds/<int:number>/scores",
        RoundScoresCorrectionApi.as_view(),
        name="round-scores",
    ),
    path(
        "matches/<int:match_id>/seats/<int:position>/claim-code",
        ClaimCodeApi.as_view(),
        name="claim-code",
    ),
    path("players/me/claims", ClaimRedeemApi.as_view(), name="claim-redeem"),
    path("matches/<int:match_id>/reopen", MatchReopenApi.as_view(), name="match-reopen"),
    path("matches/<int:match_id>/score-log", ScoreLogApi.as_view(), name="score-log"),
    path("matches/<int:match_id>/score-sheet.pdf", ScoreSheetApi.as_view(), name="score-sheet-pdf"),
    path("scorer", ScorerContextApi.as_view(), name="scorer-context"),
    path("matches/<int:match_id>/scorer-links", ScorerLinksApi.as_view(), name="scorer-links"),
    path(
        "matches/<int:match_id>/scorer-links/<int:link_id>",
        ScorerLinkRevokeApi.as_view(),
        name="scorer-link-revoke",
    ),
    path(
        "matches/<int:match_id>/table-settings", TableSettingsApi.as_view(), name="table-settings"
    ),
    path(
        "matches/<int:match_id>/rounds/<int:number>/confirm",
        RoundConfirmApi.as_view(),
        name="round-confirm",
    ),
    path(
        "matches/<int:match_id>/rounds/<int:number>/dispute",
        RoundDisputeApi.as_view(),
        name="round-dispute",
    ),
    path(
        "matches/<int:match_id>/rounds/<int:number>/resolve",
        RoundResolveApi.as_view(),
        name="round-resolve",
    ),
    path(
        "competitions/<int:competition_id>/entrants/<int:player_id>/claim-code",
        EntrantClaimCodeApi.as_view(),
        name="competition-entrant-claim-code",
    ),
    path(
        "competitions/<int:competition_id>/export.json",
        CompetitionExportApi.as_view(),
        name="competition-export",
    ),
    path(
        "competitions/<int:competition_id>/export.csv",
        CompetitionExportCSVApi.as_view(),
        name="competition-export-csv",
    ),
    path("notifications", NotificationListApi.as_view(), name="notifications"),
    path("notifications/read", NotificationReadApi.as_view(), name="notifications-read"),
    path(
        "notifications/preferences",
        NotificationPreferencesApi.as_view(),
        name="notification-preferences",
    ),
    path("notifications/ticket", NotificationTicketApi.as_view(), name="notifications-ticket"),
    path("push/vapid-public-key", VapidPublicKeyApi.as_view(), name="push-vapid-public-key"),
    path("push/devices", PushDeviceRegisterApi.as_view(), name="push-devices"),
    path("push/devices/<int:device_id>", PushDeviceDeleteApi.as_view(), name="push-device"),
]
