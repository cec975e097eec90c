### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## E-Mails

invitation-email-subject = { $reminder ->
        [yes] Erinnerung: { $variant ->
            [access] { $company } lädt Sie ein, Ihr Assessment-Profil zu teilen
           *[assessment] { $company } lädt Sie zu einem Assessment ein
        }
       *[no] { $variant ->
            [access] { $company } lädt Sie ein, Ihr Assessment-Profil zu teilen
           *[assessment] { $company } lädt Sie zu einem Assessment ein
        }
    }
email-greeting = Hallo { $name },
email-greeting-anonymous = Guten Tag,
invitation-email-intro = { $variant ->
        [access] { $company } lädt Sie ein, Teil des Talentpools zu werden und Ihr bereits vorhandenes Assessment-Profil zu teilen.
       *[assessment] { $company } lädt Sie zu einem Assessment ein, das zeigt, was Sie bei der Arbeit motiviert.
    }
invitation-email-message = Nachricht von { $company }:
invitation-email-link = Über diesen Link können Sie antworten:
invitation-email-valid-until = Der Link ist gültig bis zum { $expiry }.
code-email-subject = Ihr Bestätigungscode für { $company }
code-email-intro = Ihr Code zur Bestätigung Ihrer Antwort auf die Einladung von { $company } lautet:
code-email-validity = { $minutes ->
        [one] Er ist eine Minute lang gültig. Bitte geben Sie ihn auf der Einladungsseite ein.
       *[other] Er ist { $minutes } Minuten lang gültig. Bitte geben Sie ihn auf der Einladungsseite ein.
    }
code-email-ignore = Falls Sie diesen Code nicht angefordert haben, ignorieren Sie diese E-Mail einfach: Ohne den Code ändert sich nichts.

## Für das Assessment gewährter Nachteilsausgleich

accommodations-intro = Für das Assessment wurde Ihnen Folgendes gewährt:
accommodation-extra-time = { $percent } % mehr Zeit
accommodation-breaks = Pausen zwischen den einzelnen Teilen, wann immer Sie sie brauchen
accommodation-screen-reader = Volle Unterstützung für Screenreader
accommodation-notes = Außerdem vereinbart: { $notes }

## Die Einladungsseite

page-invitation-title = Einladung von { $company }
page-assessment-intro = { $company } lädt Sie zu einem Assessment ein, das zeigt, was Sie bei der Arbeit motiviert.
page-assessment-consent = Wenn Sie annehmen, werden Sie mit dieser E-Mail-Adresse ({ $email }) in den Talentpool von { $company } aufgenommen. Sie können Ihre Zustimmung später widerrufen.
page-accept-button = Einladung annehmen
page-access-intro = { $company } bittet Sie, Teil des Talentpools zu werden und Ihr bereits vorhandenes Assessment-Profil zu teilen.
page-access-share-label = Ja, { $company } darf die Ergebnisse der Assessments sehen, die ich vor meiner Aufnahme absolviert habe.
page-access-share-help = Wenn Sie dieses Kästchen nicht ankreuzen, sieht { $company } nur die Assessments, die Sie ab jetzt absolvieren. Wenn Sie es ankreuzen, senden wir zunächst einen Code an { $email }, um zu bestätigen, dass die Antwort von Ihnen stammt.
page-access-button = Annehmen
page-valid-until = Diese Einladung ist gültig bis zum { $expiry }.
page-accommodations-title = Ihr Nachteilsausgleich
page-used-title = Einladung bereits verwendet
page-used-body = Diese Einladung von { $company } wurde bereits angenommen. Sie müssen nichts weiter tun.
page-expired-title = Einladung abgelaufen
page-expired-body = Diese Einladung von { $company } ist abgelaufen. Bitte fordern Sie bei { $company } eine neue Einladung an.
page-withdrawn-title = Einladung zurückgezogen
page-withdrawn-body = { $company } hat diese Einladung zurückgezogen.
page-not-found-title = Einladung nicht gefunden
page-not-found-body = Dieser Link ist ungültig. Bitte prüfen Sie, ob Sie den vollständigen Link kopiert haben.
page-deactivated-title = Teilnahme nicht möglich
page-deactivated-body = Ihre Teilnahme wurde von der Organisation deaktiviert. Bitte wenden Sie sich direkt an die Organisation.
page-full-title = Teilnahme derzeit nicht möglich
page-full-body = Die Organisation kann im Moment keine neuen Personen aufnehmen. Bitte wenden Sie sich direkt an die Organisation.
page-no-longer-valid-title = Einladung nicht mehr gültig
page-no-longer-valid-body = Diese Einladung kann nicht mehr angenommen werden.
page-error-title = Etwas ist schiefgelaufen
page-error-body = Bitte versuchen Sie es in einer Minute erneut.

## Der Einmalcode

page-code-title = Bestätigen Sie Ihre Identität
page-code-label = Code aus der E-Mail
page-code-button = Bestätigen
page-code-help = { $minutes ->
        [one] Nur Sie selbst können { $company } Ihre Zustimmung geben: Der Code belegt, dass Sie Zugriff auf diese E-Mail-Adresse haben. Der Code ist eine Minute lang gültig.
       *[other] Nur Sie selbst können { $company } Ihre Zustimmung geben: Der Code belegt, dass Sie Zugriff auf diese E-Mail-Adresse haben. Der Code ist { $minutes } Minuten lang gültig.
    }
page-code-resend = Neuen Code senden
page-code-sent = Wir haben einen 6-stelligen Code an { $email } gesendet. Bitte geben Sie ihn hier zur Bestätigung ein.
page-code-not-sent = Der Code konnte gerade nicht gesendet werden. Bitte fordern Sie in einer Minute einen neuen Code an.
page-code-too-many = An diese E-Mail-Adresse wurden zu viele Codes gesendet. Bitte verwenden Sie den zuletzt erhaltenen Code oder versuchen Sie es in einer Stunde erneut.
page-code-no-live = Dieser Code ist nicht mehr gültig (er ist abgelaufen, wurde bereits verwendet oder zu oft falsch eingegeben). Bitte fordern Sie einen neuen Code an.
page-code-wrong = { $tries ->
        [0] Dieser Code ist nicht korrekt. Mit diesem Code sind keine weiteren Versuche möglich.
        [one] Dieser Code ist nicht korrekt. Sie haben mit diesem Code noch einen Versuch.
       *[other] Dieser Code ist nicht korrekt. Sie haben mit diesem Code noch { $tries } Versuche.
    }
page-code-malformed = Der Code besteht aus 6 Ziffern. Bitte geben Sie ihn erneut ein.

## Nach der Annahme

page-welcome-title = Willkommen
page-welcome-body = Sie haben die Einladung angenommen. Ihre E-Mail-Adresse lautet { $email }. Sie können diese Seite jetzt schließen.
page-continue = Weiter zu { $host }

## Der Bericht

report-title = Assessment-Bericht
report-completed = Abgeschlossen am { $date }
report-needs = Bedürfnisse nach Motivationsachse
report-competencies = Kompetenzen: motivationale Unterstützung
report-personality = Persönlichkeit
report-accommodations = Nachteilsausgleich
report-footer = Dieser Bericht beschreibt eine einzelne Person. Die Werte geben an, wie stark die Motivation die jeweilige Kompetenz unterstützt; sie sind kein Maß für Fähigkeiten und werden nie zwischen Personen verglichen.
report-basis = { $assessments ->
        [one] Auf Basis eines Assessments mit { $responses } Antworten
       *[other] Auf Basis von { $assessments } Assessments mit { $responses } Antworten
    }
report-model = Modell: { $model } { $version }, Zuordnung { $mapping }
report-anchor = Anker
report-band-limited = gering
report-band-some = etwas
report-band-moderate = mittel
report-band-high = hoch

## Der Persönlichkeitstext des Berichts: aus den eigenen Ergebnissen der Person zusammengesetzt.
## $needs und $competencies sind Listen von Namen, bereits nach den Regeln der Sprache verbunden („A, B und C“).

personality-drives = Was diese Person antreibt
personality-strongest = Die stärksten Motivatoren sind { $needs }. Tätigkeiten, die diese Bedürfnisse erfüllen, werden voraussichtlich als motivierend und energiespendend erlebt.
# $need: Name des stärksten Motivators; $definition: seine Bedeutung (ein Satz aus dem Modell).
personality-means = { $need } bedeutet: { $definition }
personality-less-central = Weniger zentral sind { $needs }; sie fallen bei der Entscheidung zwischen Alternativen weniger ins Gewicht.
personality-competencies = Welche Kompetenzen ihre Motivation unterstützt
personality-strong = Starke Unterstützung: { $competencies }.
personality-moderate = Mittlere Unterstützung: { $competencies }.
personality-limited = Geringe Unterstützung: { $competencies }.
personality-even = Die Motivation unterstützt alle Kompetenzen in etwa gleich stark.
personality-basis = Diese Auswertung beruht auf { $assessments ->
        [one] einem Assessment
       *[other] { $assessments } Assessments
    } mit insgesamt { $responses } Antworten. Die Ausprägungen beschreiben die motivationale Unterstützung, nicht die Fähigkeiten.

## Die Berichtsseite hinter dem Link im ATS (für das Recruiting-Team der Organisation)

report-page-shared = Von { $company } über das eigene Bewerbermanagementsystem geteilt. Abgeschlossen am { $date }.
report-page-match = Übereinstimmung mit dem Profil { $profile }
report-page-category = { $category ->
        [high] hoch
        [moderate] mittel
       *[low] gering
    }
report-page-competency = Kompetenz
report-page-score = Wert
report-page-band = Ausprägung
report-page-download = PDF-Bericht herunterladen
report-page-gone-title = Dieser Bericht ist nicht mehr verfügbar
report-page-gone-body = Der Link ist abgelaufen oder der Bericht wurde zurückgezogen. Bitte fordern Sie bei der Organisation, die ihn gesendet hat, einen neuen Link an.
report-page-not-found-title = Bericht nicht gefunden
report-page-not-found-body = Dieser Link ist ungültig.
report-page-busy-title = Bitte versuchen Sie es erneut
report-page-busy-body = Der Bericht kann im Moment nicht angezeigt werden. Bitte versuchen Sie es in einer Minute erneut.
