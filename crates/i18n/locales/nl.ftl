### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## E-mails

invitation-email-subject = { $reminder ->
        [yes] Herinnering: { $variant ->
            [access] { $company } nodigt je uit om je assessmentprofiel te delen
           *[assessment] { $company } nodigt je uit voor een assessment
        }
       *[no] { $variant ->
            [access] { $company } nodigt je uit om je assessmentprofiel te delen
           *[assessment] { $company } nodigt je uit voor een assessment
        }
    }
email-greeting = Hallo { $name },
email-greeting-anonymous = Hallo,
invitation-email-intro = { $variant ->
        [access] { $company } nodigt je uit om deel te nemen aan de talentenpool en het assessmentprofiel te delen dat je al hebt.
       *[assessment] { $company } nodigt je uit voor een assessment over wat jou motiveert in je werk.
    }
invitation-email-message = Bericht van { $company }:
invitation-email-link = Open deze link om te reageren:
invitation-email-valid-until = De link is geldig tot { $expiry }.
code-email-subject = Je bevestigingscode voor { $company }
code-email-intro = Met deze code bevestig je je antwoord op de uitnodiging van { $company }:
code-email-validity = { $minutes ->
        [one] De code is één minuut geldig. Vul hem in op de uitnodigingspagina.
       *[other] De code is { $minutes } minuten geldig. Vul hem in op de uitnodigingspagina.
    }
code-email-ignore = Heb je deze code niet aangevraagd? Dan kun je deze e-mail negeren: zonder de code verandert er niets.

## Aanpassingen voor het assessment

accommodations-intro = Voor het assessment krijg je de volgende aanpassingen:
accommodation-extra-time = { $percent }% meer tijd
accommodation-breaks = Pauzes tussen de onderdelen wanneer je die nodig hebt
accommodation-screen-reader = Volledige ondersteuning voor schermlezers
accommodation-notes = Verder afgesproken: { $notes }

## De uitnodigingspagina

page-invitation-title = Uitnodiging van { $company }
page-assessment-intro = { $company } nodigt je uit voor een assessment over wat jou motiveert in je werk.
page-assessment-consent = Als je de uitnodiging accepteert, word je met dit e-mailadres ({ $email }) opgenomen in de talentenpool van { $company }. Je kunt je later weer afmelden.
page-accept-button = Uitnodiging accepteren
page-access-intro = { $company } vraagt je om deel te nemen aan de talentenpool en het assessmentprofiel te delen dat je al hebt.
page-access-share-label = Ja, { $company } mag de resultaten zien van assessments die ik vóór mijn deelname heb gemaakt.
page-access-share-help = Laat je dit vakje leeg, dan ziet { $company } alleen de assessments die je vanaf nu maakt. Vink je het aan, dan sturen we eerst een code naar { $email } om te bevestigen dat het antwoord echt van jou is.
page-access-button = Accepteren
page-valid-until = Deze uitnodiging is geldig tot { $expiry }.
page-accommodations-title = Jouw aanpassingen
page-used-title = Uitnodiging al gebruikt
page-used-body = Deze uitnodiging van { $company } is al geaccepteerd. Je hoeft verder niets te doen.
page-expired-title = Uitnodiging verlopen
page-expired-body = Deze uitnodiging van { $company } is verlopen. Vraag { $company } om een nieuwe uitnodiging.
page-withdrawn-title = Uitnodiging ingetrokken
page-withdrawn-body = { $company } heeft deze uitnodiging ingetrokken.
page-not-found-title = Uitnodiging niet gevonden
page-not-found-body = Deze link is niet geldig. Controleer of je de volledige link hebt gekopieerd.
page-deactivated-title = Deelnemen niet mogelijk
page-deactivated-body = De organisatie heeft je deelname gedeactiveerd. Neem contact op met de organisatie.
page-full-title = Deelnemen is nu niet mogelijk
page-full-body = De organisatie kan op dit moment geen nieuwe deelnemers toelaten. Neem contact op met de organisatie.
page-no-longer-valid-title = Uitnodiging niet meer geldig
page-no-longer-valid-body = Deze uitnodiging kan niet meer worden geaccepteerd.
page-error-title = Er is iets misgegaan
page-error-body = Probeer het over een minuut opnieuw.

## De eenmalige code

page-code-title = Bevestig dat jij het bent
page-code-label = Code uit de e-mail
page-code-button = Bevestigen
page-code-help = { $minutes ->
        [one] Alleen jij kunt { $company } jouw toestemming geven: met de code laat je zien dat jij de e-mail op dit adres ontvangt. De code is één minuut geldig.
       *[other] Alleen jij kunt { $company } jouw toestemming geven: met de code laat je zien dat jij de e-mail op dit adres ontvangt. De code is { $minutes } minuten geldig.
    }
page-code-resend = Nieuwe code sturen
page-code-sent = We hebben een code van 6 cijfers naar { $email } gestuurd. Vul die hier in om te bevestigen.
page-code-not-sent = We konden de code op dit moment niet versturen. Vraag over een minuut een nieuwe code aan.
page-code-too-many = Er zijn te veel codes naar dit e-mailadres gestuurd. Gebruik de laatste code die je hebt ontvangen, of probeer het over een uur opnieuw.
page-code-no-live = Deze code is niet meer geldig (hij is verlopen, al gebruikt of te vaak verkeerd ingevuld). Vraag een nieuwe code aan.
page-code-wrong = { $tries ->
        [0] Dat is niet de juiste code. Met deze code kun je het niet meer opnieuw proberen.
        [one] Dat is niet de juiste code. Je hebt met deze code nog één poging.
       *[other] Dat is niet de juiste code. Je hebt met deze code nog { $tries } pogingen.
    }
page-code-malformed = De code bestaat uit 6 cijfers. Vul hem opnieuw in.

## Na het accepteren

page-welcome-title = Welkom
page-welcome-body = Je hebt de uitnodiging geaccepteerd. Je e-mailadres is { $email }. Je kunt deze pagina nu sluiten.
page-continue = Verder naar { $host }

## Het rapport

report-title = Assessmentrapport
report-completed = Afgerond op { $date }
report-needs = Behoeften per motivatie-as
report-competencies = Competenties: ondersteuning vanuit motivatie
report-personality = Persoonlijkheid
report-accommodations = Aanpassingen
report-footer = Dit rapport beschrijft één persoon. De scores geven aan hoe sterk motivatie elke competentie ondersteunt; ze zijn geen maat voor vaardigheid en worden nooit tussen personen vergeleken.
report-basis = { $assessments ->
        [one] Gebaseerd op één assessment met { $responses } antwoorden
       *[other] Gebaseerd op { $assessments } assessments met { $responses } antwoorden
    }
report-model = Model: { $model } { $version }, koppeling { $mapping }
report-anchor = anker
report-band-limited = beperkt
report-band-some = enigszins
report-band-moderate = redelijk
report-band-high = hoog

## De persoonlijkheidstekst van het rapport: samengesteld uit de eigen resultaten van de persoon.
## $needs en $competencies zijn lijsten van namen, al samengevoegd zoals gebruikelijk in de taal ("A, B en C").

personality-drives = Wat deze persoon drijft
personality-strongest = De sterkste drijfveren zijn { $needs }. Werk dat hierop aansluit, geeft deze persoon waarschijnlijk energie.
# $need: de naam van de sterkste drijfveer; $definition: wat die inhoudt (een volledige zin uit het model).
personality-means = { $need } betekent: { $definition }
personality-less-central = Minder bepalend zijn { $needs }; die spelen een kleinere rol bij het maken van keuzes.
personality-competencies = Competenties die door de motivatie worden ondersteund
personality-strong = Sterke ondersteuning: { $competencies }.
personality-moderate = Redelijke ondersteuning: { $competencies }.
personality-limited = Beperkte ondersteuning: { $competencies }.
personality-even = De motivatie ondersteunt alle competenties ongeveer even sterk.
personality-basis = Gebaseerd op { $assessments ->
        [one] één assessment
       *[other] { $assessments } assessments
    } en { $responses } antwoorden. De niveaus beschrijven de ondersteuning vanuit motivatie, niet de vaardigheid.

## De rapportpagina achter de link in het ATS (gelezen door de recruiters van de organisatie)

report-page-shared = Gedeeld door { $company } via het eigen recruitmentsysteem (ATS). Afgerond op { $date }.
report-page-match = Match met { $profile }
report-page-category = { $category ->
        [high] hoog
        [moderate] redelijk
       *[low] laag
    }
report-page-competency = Competentie
report-page-score = Score
report-page-band = Niveau
report-page-download = PDF-rapport downloaden
report-page-gone-title = Dit rapport is niet meer beschikbaar
report-page-gone-body = De link is verlopen of het rapport is ingetrokken. Vraag de organisatie die de link heeft gestuurd om een nieuwe.
report-page-not-found-title = Rapport niet gevonden
report-page-not-found-body = Deze link is niet geldig.
report-page-busy-title = Probeer het opnieuw
report-page-busy-body = Het rapport kan op dit moment niet worden weergegeven. Probeer het over een minuut opnieuw.
