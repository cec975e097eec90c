"""Contains all the data models used in inputs/outputs"""

from .accommodations import Accommodations
from .accommodations_request import AccommodationsRequest
from .accommodations_request_extra_time_percent_type_1 import (
    AccommodationsRequestExtraTimePercentType1,
)
from .accommodations_request_extra_time_percent_type_2_type_1 import (
    AccommodationsRequestExtraTimePercentType2Type1,
)
from .accommodations_request_extra_time_percent_type_3_type_1 import (
    AccommodationsRequestExtraTimePercentType3Type1,
)
from .archive_reason import ArchiveReason
from .assessment_completed_data import AssessmentCompletedData
from .assessment_completed_event import AssessmentCompletedEvent
from .assessment_started_data import AssessmentStartedData
from .assessment_started_event import AssessmentStartedEvent
from .assessment_status import AssessmentStatus
from .attempt import Attempt
from .band import Band
from .competencies import Competencies
from .competency_score import CompetencyScore
from .delivery import Delivery
from .delivery_detail import DeliveryDetail
from .delivery_page import DeliveryPage
from .delivery_status import DeliveryStatus
from .error import Error
from .error_code import ErrorCode
from .error_details_type_0 import ErrorDetailsType0
from .event import Event
from .event_data import EventData
from .event_page import EventPage
from .event_type import EventType
from .invitation import Invitation
from .invitation_accepted_event import InvitationAcceptedEvent
from .invitation_create_request import InvitationCreateRequest
from .invitation_created_event import InvitationCreatedEvent
from .invitation_expired_event import InvitationExpiredEvent
from .invitation_page import InvitationPage
from .invitation_reminded_event import InvitationRemindedEvent
from .invitation_resend_request import InvitationResendRequest
from .invitation_revoked_event import InvitationRevokedEvent
from .invitation_status import InvitationStatus
from .invitation_variant import InvitationVariant
from .joined_via import JoinedVia
from .key_identity import KeyIdentity
from .label import Label
from .label_filter import LabelFilter
from .locale_tag import LocaleTag
from .match import Match
from .match_category import MatchCategory
from .match_page import MatchPage
from .motivation_axis import MotivationAxis
from .need import Need
from .nested_invitation_request import NestedInvitationRequest
from .organization import Organization
from .organization_role import OrganizationRole
from .pagination import Pagination
from .person import Person
from .person_archived_data import PersonArchivedData
from .person_archived_event import PersonArchivedEvent
from .person_assessment import PersonAssessment
from .person_batch_item import PersonBatchItem
from .person_batch_request import PersonBatchRequest
from .person_batch_result import PersonBatchResult
from .person_created_event import PersonCreatedEvent
from .person_import_request import PersonImportRequest
from .person_imported import PersonImported
from .person_joined_event import PersonJoinedEvent
from .person_page import PersonPage
from .person_patch_request import PersonPatchRequest
from .person_results import PersonResults
from .person_status import PersonStatus
from .person_status_filter import PersonStatusFilter
from .person_updated_data import PersonUpdatedData
from .person_updated_data_previous_attributes import PersonUpdatedDataPreviousAttributes
from .person_updated_event import PersonUpdatedEvent
from .person_usage import PersonUsage
from .personality import Personality
from .ping_data import PingData
from .ping_event import PingEvent
from .profile import Profile
from .profile_competency import ProfileCompetency
from .profile_page import ProfilePage
from .profile_usage import ProfileUsage
from .scope_name import ScopeName
from .subscription import Subscription
from .subscription_status import SubscriptionStatus
from .test_clock_advance import TestClockAdvance
from .test_clock_advance_request import TestClockAdvanceRequest
from .test_completion_request import TestCompletionRequest
from .test_email import TestEmail
from .test_email_list import TestEmailList
from .test_target_category import TestTargetCategory
from .totals import Totals
from .usage import Usage
from .webhook_disabled_data import WebhookDisabledData
from .webhook_disabled_event import WebhookDisabledEvent
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_create_request import WebhookEndpointCreateRequest
from .webhook_endpoint_page import WebhookEndpointPage
from .webhook_endpoint_patch_request import WebhookEndpointPatchRequest
from .webhook_endpoint_with_secret import WebhookEndpointWithSecret
from .webhook_replay import WebhookReplay
from .webhook_replay_request import WebhookReplayRequest
from .webhook_test_result import WebhookTestResult

__all__ = (
    "Accommodations",
    "AccommodationsRequest",
    "AccommodationsRequestExtraTimePercentType1",
    "AccommodationsRequestExtraTimePercentType2Type1",
    "AccommodationsRequestExtraTimePercentType3Type1",
    "ArchiveReason",
    "AssessmentCompletedData",
    "AssessmentCompletedEvent",
    "AssessmentStartedData",
    "AssessmentStartedEvent",
    "AssessmentStatus",
    "Attempt",
    "Band",
    "Competencies",
    "CompetencyScore",
    "Delivery",
    "DeliveryDetail",
    "DeliveryPage",
    "DeliveryStatus",
    "Error",
    "ErrorCode",
    "ErrorDetailsType0",
    "Event",
    "EventData",
    "EventPage",
    "EventType",
    "Invitation",
    "InvitationAcceptedEvent",
    "InvitationCreatedEvent",
    "InvitationCreateRequest",
    "InvitationExpiredEvent",
    "InvitationPage",
    "InvitationRemindedEvent",
    "InvitationResendRequest",
    "InvitationRevokedEvent",
    "InvitationStatus",
    "InvitationVariant",
    "JoinedVia",
    "KeyIdentity",
    "Label",
    "LabelFilter",
    "LocaleTag",
    "Match",
    "MatchCategory",
    "MatchPage",
    "MotivationAxis",
    "Need",
    "NestedInvitationRequest",
    "Organization",
    "OrganizationRole",
    "Pagination",
    "Person",
    "Personality",
    "PersonArchivedData",
    "PersonArchivedEvent",
    "PersonAssessment",
    "PersonBatchItem",
    "PersonBatchRequest",
    "PersonBatchResult",
    "PersonCreatedEvent",
    "PersonImported",
    "PersonImportRequest",
    "PersonJoinedEvent",
    "PersonPage",
    "PersonPatchRequest",
    "PersonResults",
    "PersonStatus",
    "PersonStatusFilter",
    "PersonUpdatedData",
    "PersonUpdatedDataPreviousAttributes",
    "PersonUpdatedEvent",
    "PersonUsage",
    "PingData",
    "PingEvent",
    "Profile",
    "ProfileCompetency",
    "ProfilePage",
    "ProfileUsage",
    "ScopeName",
    "Subscription",
    "SubscriptionStatus",
    "TestClockAdvance",
    "TestClockAdvanceRequest",
    "TestCompletionRequest",
    "TestEmail",
    "TestEmailList",
    "TestTargetCategory",
    "Totals",
    "Usage",
    "WebhookDisabledData",
    "WebhookDisabledEvent",
    "WebhookEndpoint",
    "WebhookEndpointCreateRequest",
    "WebhookEndpointPage",
    "WebhookEndpointPatchRequest",
    "WebhookEndpointWithSecret",
    "WebhookReplay",
    "WebhookReplayRequest",
    "WebhookTestResult",
)
