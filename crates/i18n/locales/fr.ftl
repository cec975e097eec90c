### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## E-mails

invitation-email-subject = { $reminder ->
        [yes] Rappel : { $variant ->
            [access] { $company } vous invite à partager votre profil d’évaluation
           *[assessment] { $company } vous invite à passer une évaluation
        }
       *[no] { $variant ->
            [access] { $company } vous invite à partager votre profil d’évaluation
           *[assessment] { $company } vous invite à passer une évaluation
        }
    }
email-greeting = Bonjour { $name },
email-greeting-anonymous = Bonjour,
invitation-email-intro = { $variant ->
        [access] { $company } vous invite à rejoindre son vivier de talents et à partager le profil d’évaluation dont vous disposez déjà.
       *[assessment] { $company } vous invite à passer une évaluation de ce qui vous motive au travail.
    }
invitation-email-message = Message de { $company } :
invitation-email-link = Pour répondre, ouvrez ce lien :
invitation-email-valid-until = Ce lien est valable jusqu’au { $expiry }.
code-email-subject = Votre code de confirmation pour { $company }
code-email-intro = Voici votre code pour confirmer votre réponse à l’invitation de { $company } :
code-email-validity = { $minutes ->
        [one] Il est valable une minute. Saisissez-le sur la page de l’invitation.
        [many] Il est valable { $minutes } minutes. Saisissez-le sur la page de l’invitation.
       *[other] Il est valable { $minutes } minutes. Saisissez-le sur la page de l’invitation.
    }
code-email-ignore = Si vous n’avez pas demandé ce code, ignorez simplement cet e-mail : rien ne change sans lui.

## Aménagements accordés pour l’évaluation

accommodations-intro = Pour l’évaluation, les aménagements suivants vous ont été accordés :
accommodation-extra-time = { $percent } % de temps supplémentaire
accommodation-breaks = Des pauses entre les différentes parties, dès que vous en avez besoin
accommodation-screen-reader = Prise en charge complète des lecteurs d’écran
accommodation-notes = Également convenu : { $notes }

## La page d’invitation

page-invitation-title = Invitation de { $company }
page-assessment-intro = { $company } vous invite à passer une évaluation de ce qui vous motive au travail.
page-assessment-consent = En acceptant, vous rejoignez le vivier de talents de { $company } avec cette adresse e-mail ({ $email }). Vous pourrez retirer votre consentement ultérieurement.
page-accept-button = Accepter l’invitation
page-access-intro = { $company } vous propose de rejoindre son vivier de talents et de partager le profil d’évaluation dont vous disposez déjà.
page-access-share-label = Oui, { $company } peut consulter les résultats des évaluations que j’ai passées avant de rejoindre son vivier de talents.
page-access-share-help = Si vous ne cochez pas cette case, { $company } ne verra que les évaluations que vous passerez à partir de maintenant. Si vous la cochez, nous enverrons d’abord un code à { $email } pour confirmer que cette réponse vient bien de vous.
page-access-button = Accepter
page-valid-until = Cette invitation est valable jusqu’au { $expiry }.
page-accommodations-title = Vos aménagements
page-used-title = Invitation déjà utilisée
page-used-body = Cette invitation de { $company } a déjà été acceptée. Vous n’avez rien d’autre à faire.
page-expired-title = Invitation expirée
page-expired-body = Cette invitation de { $company } a expiré. Veuillez en demander une nouvelle à { $company }.
page-withdrawn-title = Invitation annulée
page-withdrawn-body = { $company } a annulé cette invitation.
page-not-found-title = Invitation introuvable
page-not-found-body = Ce lien n’est pas valide. Veuillez vérifier que vous avez bien copié le lien en entier.
page-deactivated-title = Inscription impossible
page-deactivated-body = Votre participation a été désactivée par l’organisation. Veuillez prendre contact avec elle.
page-full-title = Inscription impossible pour le moment
page-full-body = L’organisation ne peut pas accueillir de nouvelles personnes pour le moment. Veuillez prendre contact avec elle.
page-no-longer-valid-title = Cette invitation n’est plus valable
page-no-longer-valid-body = Elle ne peut plus être acceptée.
page-error-title = Une erreur s’est produite
page-error-body = Veuillez réessayer dans une minute.

## Le code à usage unique

page-code-title = Confirmez votre identité
page-code-label = Code reçu par e-mail
page-code-button = Confirmer
page-code-help = { $minutes ->
        [one] Personne d’autre que vous ne peut donner votre consentement à { $company } : le code prouve que vous avez bien accès à cette adresse e-mail. Le code est valable une minute.
        [many] Personne d’autre que vous ne peut donner votre consentement à { $company } : le code prouve que vous avez bien accès à cette adresse e-mail. Le code est valable { $minutes } minutes.
       *[other] Personne d’autre que vous ne peut donner votre consentement à { $company } : le code prouve que vous avez bien accès à cette adresse e-mail. Le code est valable { $minutes } minutes.
    }
page-code-resend = Envoyer un nouveau code
page-code-sent = Nous avons envoyé un code à 6 chiffres à { $email }. Saisissez-le ici pour confirmer.
page-code-not-sent = Nous n’avons pas pu envoyer le code pour le moment. Veuillez demander un nouveau code dans une minute.
page-code-too-many = Trop de codes ont été envoyés à cette adresse e-mail. Veuillez utiliser le dernier reçu ou réessayer dans une heure.
page-code-no-live = Ce code n’est plus valable (il a expiré, a déjà été utilisé ou a été mal saisi trop de fois). Veuillez demander un nouveau code.
page-code-wrong = { $tries ->
        [0] Ce code est incorrect. Aucune autre tentative n’est possible avec ce code.
        [one] Ce code est incorrect. Il vous reste une tentative avec ce code.
        [many] Ce code est incorrect. Il vous reste { $tries } tentatives avec ce code.
       *[other] Ce code est incorrect. Il vous reste { $tries } tentatives avec ce code.
    }
page-code-malformed = Le code comporte 6 chiffres. Veuillez le saisir à nouveau.

## Après l’acceptation

page-welcome-title = Bienvenue
page-welcome-body = Vous avez accepté l’invitation. Votre adresse e-mail est { $email }. Vous pouvez fermer cette page.
page-continue = Continuer vers { $host }

## Le rapport

report-title = Rapport d’évaluation
report-completed = Évaluation terminée le { $date }
report-needs = Besoins par axe de motivation
report-competencies = Compétences : soutien motivationnel
report-personality = Personnalité
report-accommodations = Aménagements
report-footer = Ce rapport décrit une seule personne. Les scores indiquent dans quelle mesure la motivation soutient chaque compétence ; ils ne mesurent pas les aptitudes et ne sont jamais comparés d’une personne à l’autre.
report-basis = { $assessments ->
        [one] Sur la base d’une évaluation comportant { $responses } réponses
        [many] Sur la base de { $assessments } évaluations comportant { $responses } réponses
       *[other] Sur la base de { $assessments } évaluations comportant { $responses } réponses
    }
report-model = Modèle : { $model } { $version }, correspondance { $mapping }
report-anchor = ancrage
report-band-limited = limité
report-band-some = léger
report-band-moderate = modéré
report-band-high = élevé

## Le texte de personnalité du rapport : rédigé à partir des propres résultats de la personne.
## $needs et $competencies sont des listes de noms, déjà assemblées selon les règles de la langue (« A, B et C »).

personality-drives = Ce qui anime cette personne
personality-strongest = Les leviers de motivation les plus puissants sont { $needs }. Un travail qui répond à ces besoins sera vraisemblablement vécu comme une source d’énergie.
# $need : le nom du levier de motivation le plus puissant ; $definition : sa signification (une phrase tirée du modèle).
personality-means = { $need } signifie : { $definition }
personality-less-central = Les besoins moins centraux sont { $needs } ; ils pèsent moins dans le choix entre plusieurs options.
personality-competencies = Compétences soutenues par sa motivation
personality-strong = Soutien élevé : { $competencies }.
personality-moderate = Soutien modéré : { $competencies }.
personality-limited = Soutien limité : { $competencies }.
personality-even = La motivation soutient toutes les compétences de manière à peu près égale.
personality-basis = Cette analyse repose sur { $assessments ->
        [one] { $assessments } évaluation
        [many] { $assessments } évaluations
       *[other] { $assessments } évaluations
    } comportant au total { $responses } réponses. Les niveaux décrivent le soutien motivationnel, et non les aptitudes.

## La page du rapport accessible par le lien de l’ATS (lue par l’équipe de recrutement de l’organisation)

report-page-shared = Partagé par { $company } via son logiciel de gestion des candidatures. Évaluation terminée le { $date }.
report-page-match = Adéquation au profil { $profile }
report-page-category = { $category ->
        [high] élevée
        [moderate] modérée
       *[low] faible
    }
report-page-competency = Compétence
report-page-score = Score
report-page-band = Niveau
report-page-download = Télécharger le rapport PDF
report-page-gone-title = Ce rapport n’est plus disponible
report-page-gone-body = Le lien a expiré ou le rapport a été retiré. Veuillez demander un nouveau lien à l’organisation qui vous l’a envoyé.
report-page-not-found-title = Rapport introuvable
report-page-not-found-body = Ce lien n’est pas valide.
report-page-busy-title = Veuillez réessayer
report-page-busy-body = Le rapport ne peut pas être affiché pour le moment. Veuillez réessayer dans une minute.
