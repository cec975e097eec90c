### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## Correos electrónicos

invitation-email-subject = { $reminder ->
        [yes] Recordatorio: { $variant ->
            [access] { $company } le invita a compartir su perfil de evaluación
           *[assessment] { $company } le invita a realizar una evaluación
        }
       *[no] { $variant ->
            [access] { $company } le invita a compartir su perfil de evaluación
           *[assessment] { $company } le invita a realizar una evaluación
        }
    }
email-greeting = Hola, { $name }:
email-greeting-anonymous = Hola:
invitation-email-intro = { $variant ->
        [access] { $company } le invita a unirse a su banco de talento y a compartir el perfil de evaluación que ya tiene.
       *[assessment] { $company } le invita a realizar una evaluación sobre lo que le motiva en el trabajo.
    }
invitation-email-message = Mensaje de { $company }:
invitation-email-link = Para responder, abra este enlace:
invitation-email-valid-until = El enlace es válido hasta el { $expiry }.
code-email-subject = Su código de confirmación para { $company }
code-email-intro = Este es su código para confirmar su respuesta a la invitación de { $company }:
code-email-validity = { $minutes ->
        [one] Es válido durante un minuto. Introdúzcalo en la página de la invitación.
       *[other] Es válido durante { $minutes } minutos. Introdúzcalo en la página de la invitación.
    }
code-email-ignore = Si no ha solicitado este código, ignore este correo: sin él no cambia nada.

## Adaptaciones concedidas para la evaluación

accommodations-intro = Para la evaluación se le han concedido las siguientes adaptaciones:
accommodation-extra-time = un { $percent } % más de tiempo
accommodation-breaks = Pausas entre las distintas partes siempre que las necesite
accommodation-screen-reader = Compatibilidad total con lectores de pantalla
accommodation-notes = También se ha acordado: { $notes }

## La página de invitación

page-invitation-title = Invitación de { $company }
page-assessment-intro = { $company } le invita a realizar una evaluación sobre lo que le motiva en el trabajo.
page-assessment-consent = Al aceptar, pasará a formar parte del banco de talento de { $company } con esta dirección de correo electrónico ({ $email }). Puede retirar su consentimiento más adelante.
page-accept-button = Aceptar la invitación
page-access-intro = { $company } le invita a unirse a su banco de talento y a compartir el perfil de evaluación que ya tiene.
page-access-share-label = Sí, { $company } puede ver los resultados de las evaluaciones que realicé antes de unirme.
page-access-share-help = Si deja esta casilla sin marcar, { $company } solo verá las evaluaciones que realice a partir de ahora. Si la marca, primero enviaremos un código a { $email } para confirmar que la respuesta es suya.
page-access-button = Aceptar
page-valid-until = Esta invitación es válida hasta el { $expiry }.
page-accommodations-title = Sus adaptaciones
page-used-title = Invitación ya utilizada
page-used-body = Esta invitación de { $company } ya se ha aceptado. No tiene que hacer nada más.
page-expired-title = Invitación caducada
page-expired-body = Esta invitación de { $company } ha caducado. Solicite una nueva a { $company }.
page-withdrawn-title = Invitación retirada
page-withdrawn-body = { $company } ha retirado esta invitación.
page-not-found-title = Invitación no encontrada
page-not-found-body = Este enlace no es válido. Compruebe que ha copiado el enlace completo.
page-deactivated-title = No es posible unirse
page-deactivated-body = La organización ha desactivado su participación. Póngase en contacto con ella.
page-full-title = No es posible unirse en este momento
page-full-body = En este momento, la organización no puede aceptar a nuevas personas. Póngase en contacto con ella.
page-no-longer-valid-title = La invitación ya no es válida
page-no-longer-valid-body = Esta invitación ya no se puede aceptar.
page-error-title = Algo ha salido mal
page-error-body = Vuelva a intentarlo dentro de un minuto.

## El código de un solo uso

page-code-title = Confirme su identidad
page-code-label = Código recibido por correo
page-code-button = Confirmar
page-code-help = { $minutes ->
        [one] Solo usted puede dar su consentimiento a { $company }: el código demuestra que tiene acceso a esta dirección de correo electrónico. El código es válido durante un minuto.
       *[other] Solo usted puede dar su consentimiento a { $company }: el código demuestra que tiene acceso a esta dirección de correo electrónico. El código es válido durante { $minutes } minutos.
    }
page-code-resend = Enviar un código nuevo
page-code-sent = Hemos enviado un código de 6 dígitos a { $email }. Introdúzcalo aquí para confirmar.
page-code-not-sent = No hemos podido enviar el código en este momento. Solicite un código nuevo dentro de un minuto.
page-code-too-many = Se han enviado demasiados códigos a esta dirección de correo electrónico. Utilice el último que haya recibido o vuelva a intentarlo dentro de una hora.
page-code-no-live = Este código ya no es válido (ha caducado, ya se ha utilizado o se ha introducido mal demasiadas veces). Solicite un código nuevo.
page-code-wrong = { $tries ->
        [0] El código no es correcto. Ya no quedan intentos con este código.
        [one] El código no es correcto. Queda un intento más con este código.
       *[other] El código no es correcto. Quedan { $tries } intentos más con este código.
    }
page-code-malformed = El código tiene 6 dígitos. Vuelva a introducirlo.

## Después de aceptar

page-welcome-title = Le damos la bienvenida
page-welcome-body = Ha aceptado la invitación. Su dirección de correo electrónico es { $email }. Ya puede cerrar esta página.
page-continue = Continuar a { $host }

## El informe

report-title = Informe de evaluación
report-completed = Realizada el { $date }
report-needs = Necesidades por eje de motivación
report-competencies = Competencias: apoyo motivacional
report-personality = Personalidad
report-accommodations = Adaptaciones
report-footer = Este informe describe a una sola persona. Las puntuaciones indican en qué medida la motivación respalda cada competencia; no miden la capacidad y nunca se comparan entre personas.
report-basis = { $assessments ->
        [one] Basado en una evaluación con { $responses } respuestas
       *[other] Basado en { $assessments } evaluaciones con { $responses } respuestas
    }
report-model = Modelo: { $model } { $version }, correspondencia { $mapping }
report-anchor = ancla
report-band-limited = limitado
report-band-some = leve
report-band-moderate = moderado
report-band-high = alto

## El texto de personalidad del informe: elaborado a partir de los resultados de la propia persona.
## $needs y $competencies son listas de nombres, ya unidas según las reglas del idioma («A, B y C»).

personality-drives = Qué impulsa a esta persona
personality-strongest = Sus principales fuentes de motivación son { $needs }. Es probable que un trabajo que satisfaga estas necesidades le resulte estimulante.
# $need: el nombre de la fuente de motivación más fuerte; $definition: su significado (una frase del modelo).
personality-means = { $need } significa: { $definition }
personality-less-central = Las necesidades menos centrales son { $needs }; pesan menos a la hora de elegir entre distintas opciones.
personality-competencies = Competencias respaldadas por su motivación
personality-strong = Apoyo alto: { $competencies }.
personality-moderate = Apoyo moderado: { $competencies }.
personality-limited = Apoyo limitado: { $competencies }.
personality-even = La motivación respalda todas las competencias aproximadamente por igual.
personality-basis = Este análisis se basa en { $assessments ->
        [one] una evaluación
       *[other] { $assessments } evaluaciones
    } con un total de { $responses } respuestas. Los niveles describen el apoyo motivacional, no la capacidad.

## La página del informe a la que lleva el enlace del ATS (la consulta el equipo de selección de la organización)

report-page-shared = Compartido por { $company } a través de su sistema de seguimiento de candidatos. Evaluación realizada el { $date }.
report-page-match = Adecuación al perfil { $profile }
report-page-category = { $category ->
        [high] alta
        [moderate] moderada
       *[low] baja
    }
report-page-competency = Competencia
report-page-score = Puntuación
report-page-band = Nivel
report-page-download = Descargar el informe en PDF
report-page-gone-title = Este informe ya no está disponible
report-page-gone-body = El enlace ha caducado o el informe se ha retirado. Solicite uno nuevo a la organización que se lo envió.
report-page-not-found-title = Informe no encontrado
report-page-not-found-body = Este enlace no es válido.
report-page-busy-title = Vuelva a intentarlo
report-page-busy-body = No es posible mostrar el informe en este momento. Vuelva a intentarlo dentro de un minuto.
