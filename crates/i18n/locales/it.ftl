### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## Email

invitation-email-subject = { $reminder ->
        [yes] Promemoria: { $variant ->
            [access] { $company } La invita a condividere il Suo profilo di valutazione
           *[assessment] { $company } La invita a svolgere una valutazione
        }
       *[no] { $variant ->
            [access] { $company } La invita a condividere il Suo profilo di valutazione
           *[assessment] { $company } La invita a svolgere una valutazione
        }
    }
email-greeting = Gentile { $name },
email-greeting-anonymous = Buongiorno,
invitation-email-intro = { $variant ->
        [access] { $company } La invita a entrare nel proprio talent pool e a condividere il profilo di valutazione che ha già.
       *[assessment] { $company } La invita a svolgere una valutazione di ciò che La motiva nel lavoro.
    }
invitation-email-message = Messaggio da parte di { $company }:
invitation-email-link = Per rispondere, apra questo link:
invitation-email-valid-until = Scadenza del link: { $expiry }
code-email-subject = Il Suo codice di conferma per { $company }
code-email-intro = Ecco il Suo codice per confermare la risposta all'invito di { $company }:
code-email-validity = { $minutes ->
        [one] Il codice è valido per un minuto. Lo inserisca nella pagina dell'invito.
        [many] Il codice è valido per { $minutes } minuti. Lo inserisca nella pagina dell'invito.
       *[other] Il codice è valido per { $minutes } minuti. Lo inserisca nella pagina dell'invito.
    }
code-email-ignore = Se non ha richiesto questo codice, può ignorare questa email: senza il codice non cambia nulla.

## Adattamenti previsti per la valutazione

accommodations-intro = Per la valutazione sono previsti per Lei i seguenti adattamenti:
accommodation-extra-time = { $percent }% di tempo in più
accommodation-breaks = Pause tra le diverse parti, ogni volta che ne ha bisogno
accommodation-screen-reader = Supporto completo per gli screen reader
accommodation-notes = Inoltre è stato concordato: { $notes }

## La pagina dell'invito

page-invitation-title = Invito da parte di { $company }
page-assessment-intro = { $company } La invita a svolgere una valutazione di ciò che La motiva nel lavoro.
page-assessment-consent = Accettando, entrerà a far parte del talent pool di { $company } con questo indirizzo email ({ $email }). Potrà ritirare la Sua adesione in seguito.
page-accept-button = Accetta l'invito
page-access-intro = { $company } Le chiede di entrare nel proprio talent pool e di condividere il profilo di valutazione che ha già.
page-access-share-label = Sì, { $company } può vedere i risultati delle valutazioni che ho svolto prima di aderire.
page-access-share-help = Se lascia la casella vuota, { $company } vedrà solo le valutazioni che svolgerà da ora in poi. Se la seleziona, invieremo prima un codice a { $email } per confermare che la risposta è davvero Sua.
page-access-button = Accetta
page-valid-until = Scadenza dell'invito: { $expiry }
page-accommodations-title = I Suoi adattamenti
page-used-title = Invito già utilizzato
page-used-body = Questo invito di { $company } è già stato accettato. Non deve fare altro.
page-expired-title = Invito scaduto
page-expired-body = Questo invito di { $company } è scaduto. Ne chieda uno nuovo a { $company }.
page-withdrawn-title = Invito ritirato
page-withdrawn-body = { $company } ha ritirato questo invito.
page-not-found-title = Invito non trovato
page-not-found-body = Questo link non è valido. Verifichi di aver copiato il link per intero.
page-deactivated-title = Impossibile aderire
page-deactivated-body = La Sua partecipazione è stata disattivata dall'organizzazione. La invitiamo a contattarla direttamente.
page-full-title = Al momento non è possibile aderire
page-full-body = Al momento l'organizzazione non può accogliere nuovi partecipanti. La invitiamo a contattarla direttamente.
page-no-longer-valid-title = Invito non più valido
page-no-longer-valid-body = Questo invito non può più essere accettato.
page-error-title = Si è verificato un errore
page-error-body = Riprovi tra un minuto.

## Il codice monouso

page-code-title = Confermi la Sua identità
page-code-label = Codice ricevuto via email
page-code-button = Conferma
page-code-help = { $minutes ->
        [one] Solo Lei può dare il Suo consenso a { $company }: il codice dimostra che ha accesso a questo indirizzo email. Il codice è valido per un minuto.
        [many] Solo Lei può dare il Suo consenso a { $company }: il codice dimostra che ha accesso a questo indirizzo email. Il codice è valido per { $minutes } minuti.
       *[other] Solo Lei può dare il Suo consenso a { $company }: il codice dimostra che ha accesso a questo indirizzo email. Il codice è valido per { $minutes } minuti.
    }
page-code-resend = Invia un nuovo codice
page-code-sent = Abbiamo inviato un codice di 6 cifre a { $email }. Lo inserisca qui per confermare.
page-code-not-sent = Al momento non è stato possibile inviare il codice. Ne richieda uno nuovo tra un minuto.
page-code-too-many = Sono stati inviati troppi codici a questo indirizzo email. Utilizzi l'ultimo ricevuto oppure riprovi tra un'ora.
page-code-no-live = Questo codice non è più valido (è scaduto, è già stato usato oppure è stato inserito in modo errato troppe volte). Richieda un nuovo codice.
page-code-wrong = { $tries ->
        [0] Il codice non è corretto. Con questo codice non sono possibili altri tentativi.
        [one] Il codice non è corretto. Con questo codice ha ancora un tentativo.
        [many] Il codice non è corretto. Con questo codice ha ancora { $tries } tentativi.
       *[other] Il codice non è corretto. Con questo codice ha ancora { $tries } tentativi.
    }
page-code-malformed = Il codice è composto da 6 cifre. Lo inserisca di nuovo.

## Dopo l'accettazione

page-welcome-title = Le diamo il benvenuto
page-welcome-body = Ha accettato l'invito. Il Suo indirizzo email è { $email }. Ora può chiudere questa pagina.
page-continue = Continua su { $host }

## Il report

report-title = Report di valutazione
report-completed = Data di completamento: { $date }
report-needs = Bisogni per asse motivazionale
report-competencies = Competenze: sostegno motivazionale
report-personality = Personalità
report-accommodations = Adattamenti
report-footer = Questo report descrive una sola persona. I punteggi indicano quanto la motivazione sostiene ciascuna competenza: non misurano le capacità e non vengono mai confrontati tra persone diverse.
report-basis = { $assessments ->
        [one] Sulla base di una valutazione con { $responses } risposte
        [many] Sulla base di { $assessments } valutazioni con { $responses } risposte
       *[other] Sulla base di { $assessments } valutazioni con { $responses } risposte
    }
report-model = Modello: { $model } { $version }, mappatura { $mapping }
report-anchor = àncora
report-band-limited = limitato
report-band-some = lieve
report-band-moderate = moderato
report-band-high = alto

## Il testo sulla personalità nel report: composto a partire dai risultati della persona stessa.
## $needs e $competencies sono elenchi di nomi, già uniti secondo l'uso della lingua ("A, B e C").

personality-drives = Che cosa motiva questa persona
personality-strongest = I fattori motivazionali più forti sono { $needs }. Un lavoro che offra questi elementi sarà probabilmente fonte di energia.
# $need: il nome del fattore motivazionale più forte; $definition: che cosa significa (una frase completa tratta dal modello).
personality-means = { $need } significa: { $definition }
personality-less-central = Hanno un ruolo meno centrale { $needs }, che incidono meno quando si tratta di scegliere tra più opzioni.
personality-competencies = Competenze sostenute dalla motivazione
personality-strong = Sostegno forte: { $competencies }.
personality-moderate = Sostegno moderato: { $competencies }.
personality-limited = Sostegno limitato: { $competencies }.
personality-even = La motivazione sostiene tutte le competenze in misura pressoché uguale.
personality-basis = Sulla base di { $assessments ->
        [one] una valutazione
        [many] { $assessments } valutazioni
       *[other] { $assessments } valutazioni
    } e { $responses } risposte. I livelli descrivono il sostegno motivazionale, non le capacità.

## La pagina del report aperta dal link dell'ATS (letta dal team di selezione dell'organizzazione)

report-page-shared = Condiviso da { $company } tramite il proprio sistema di gestione delle candidature. Data di completamento: { $date }
report-page-match = Corrispondenza con il profilo { $profile }
report-page-category = { $category ->
        [high] alta
        [moderate] moderata
       *[low] bassa
    }
report-page-competency = Competenza
report-page-score = Punteggio
report-page-band = Livello
report-page-download = Scarica il report in PDF
report-page-gone-title = Questo report non è più disponibile
report-page-gone-body = Il link è scaduto oppure il report è stato ritirato. Ne chieda uno nuovo all'organizzazione che l'ha inviato.
report-page-not-found-title = Report non trovato
report-page-not-found-body = Questo link non è valido.
report-page-busy-title = La preghiamo di riprovare
report-page-busy-body = Al momento non è possibile visualizzare il report. Riprovi tra un minuto.
