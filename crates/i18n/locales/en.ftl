### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## Emails

invitation-email-subject = { $reminder ->
        [yes] Reminder: { $variant ->
            [access] { $company } invites you to share your assessment profile
           *[assessment] { $company } invites you to take an assessment
        }
       *[no] { $variant ->
            [access] { $company } invites you to share your assessment profile
           *[assessment] { $company } invites you to take an assessment
        }
    }
email-greeting = Hello { $name },
email-greeting-anonymous = Hello,
invitation-email-intro = { $variant ->
        [access] { $company } invites you to join its talent pool and to share the assessment profile you already have.
       *[assessment] { $company } invites you to take an assessment of what motivates you at work.
    }
invitation-email-message = Message from { $company }:
invitation-email-link = Open this link to respond:
invitation-email-valid-until = The link is valid until { $expiry }.
code-email-subject = Your confirmation code for { $company }
code-email-intro = Your code to confirm your answer to the invitation from { $company } is:
code-email-validity = { $minutes ->
        [one] It is valid for one minute. Enter it on the invitation page.
       *[other] It is valid for { $minutes } minutes. Enter it on the invitation page.
    }
code-email-ignore = If you did not ask for this code, ignore this email: nothing changes without it.

## Accommodations granted for the assessment

accommodations-intro = For the assessment you have been granted:
accommodation-extra-time = { $percent }% more time
accommodation-breaks = Breaks between the parts whenever you need them
accommodation-screen-reader = Full support for screen readers
accommodation-notes = Also agreed: { $notes }

## The invitation page

page-invitation-title = Invitation from { $company }
page-assessment-intro = { $company } invites you to take an assessment of what motivates you at work.
page-assessment-consent = Accepting adds you to the talent pool of { $company } with this email address ({ $email }). You can withdraw later.
page-accept-button = Accept the invitation
page-access-intro = { $company } asks you to join its talent pool and to share the assessment profile you already have.
page-access-share-label = Yes, { $company } may see the results of assessments I took before joining.
page-access-share-help = If you leave this unticked, { $company } sees only assessments you take from now on. If you tick it, we first send a code to { $email } to confirm that the answer is yours.
page-access-button = Accept
page-valid-until = This invitation is valid until { $expiry }.
page-accommodations-title = Your accommodations
page-used-title = Invitation already used
page-used-body = This invitation from { $company } has already been accepted. Nothing more to do.
page-expired-title = Invitation expired
page-expired-body = This invitation from { $company } has expired. Please ask { $company } for a new one.
page-withdrawn-title = Invitation withdrawn
page-withdrawn-body = { $company } has withdrawn this invitation.
page-not-found-title = Invitation not found
page-not-found-body = This link is not valid. Please check that you copied the whole link.
page-deactivated-title = Cannot join
page-deactivated-body = Your participation was deactivated by the organization. Please contact them.
page-full-title = Cannot join right now
page-full-body = The organization cannot accept new people at the moment. Please contact them.
page-no-longer-valid-title = Invitation no longer valid
page-no-longer-valid-body = This invitation can no longer be accepted.
page-error-title = Something went wrong
page-error-body = Please try again in a minute.

## The one-time code

page-code-title = Confirm it is you
page-code-label = Code from the email
page-code-button = Confirm
page-code-help = { $minutes ->
        [one] Only you can answer { $company } with your consent: the code proves that you read this email address. The code is valid for one minute.
       *[other] Only you can answer { $company } with your consent: the code proves that you read this email address. The code is valid for { $minutes } minutes.
    }
page-code-resend = Send a new code
page-code-sent = We sent a 6-digit code to { $email }. Enter it here to confirm.
page-code-not-sent = We could not send the code just now. Please ask for a new code in a minute.
page-code-too-many = Too many codes were sent to this email address. Please use the last one, or try again in an hour.
page-code-no-live = This code is no longer valid (it expired, was used, or was entered wrongly too often). Please ask for a new code.
page-code-wrong = { $tries ->
        [0] That is not the code. No more tries are possible with this code.
        [one] That is not the code. One more try is possible with this code.
       *[other] That is not the code. { $tries } more tries are possible with this code.
    }
page-code-malformed = The code has 6 digits. Please enter it again.

## After accepting

page-welcome-title = Welcome
page-welcome-body = You accepted the invitation. Your email address is { $email }. You can close this page.
page-continue = Continue to { $host }

## The report

report-title = Assessment report
report-completed = Completed on { $date }
report-needs = Needs by motivation axis
report-competencies = Competencies: motivational support
report-personality = Personality
report-accommodations = Accommodations
report-footer = This report describes one person. Scores describe how strongly motivation supports each competency; they are not a measure of skill and are never compared between persons.
report-basis = { $assessments ->
        [one] Based on one assessment with { $responses } answers
       *[other] Based on { $assessments } assessments with { $responses } answers
    }
report-model = Model: { $model } { $version }, mapping { $mapping }
report-anchor = anchor
report-band-limited = limited
report-band-some = some
report-band-moderate = moderate
report-band-high = high

## The personality text of the report: composed from the person's own results.
## $needs and $competencies are lists of names, already joined in the language's way ("A, B and C").

personality-drives = What drives this person
personality-strongest = The strongest motivators are { $needs }. Work that offers these is likely to feel energising.
# $need: the strongest motivator's name; $definition: what it means (a phrase from the model).
personality-means = { $need } means: { $definition }
personality-less-central = Less central are { $needs }; they matter less in choosing between options.
personality-competencies = Competencies their motivation supports
personality-strong = Strong support: { $competencies }.
personality-moderate = Moderate support: { $competencies }.
personality-limited = Limited support: { $competencies }.
personality-even = Motivation supports every competency about evenly.
personality-basis = Based on { $assessments ->
        [one] { $assessments } assessment
       *[other] { $assessments } assessments
    } and { $responses } responses. Bands describe motivational support, not skill.

## The report page behind an ATS's link (read by the organization's recruiters)

report-page-shared = Shared by { $company } through its applicant tracking system. Completed on { $date }.
report-page-match = Match with { $profile }
report-page-category = { $category ->
        [high] high
        [moderate] moderate
       *[low] low
    }
report-page-competency = Competency
report-page-score = Score
report-page-band = Band
report-page-download = Download the PDF report
report-page-gone-title = This report is no longer available
report-page-gone-body = The link has expired, or the report was withdrawn. Ask the organization that sent it for a new one.
report-page-not-found-title = Report not found
report-page-not-found-body = This link is not valid.
report-page-busy-title = Please try again
report-page-busy-body = The report cannot be shown right now. Try again in a minute.
