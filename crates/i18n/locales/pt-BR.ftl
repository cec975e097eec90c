### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## E-mails

invitation-email-subject = { $reminder ->
        [yes] Lembrete: { $variant ->
            [access] { $company } convida você a compartilhar seu perfil de avaliação
           *[assessment] { $company } convida você para uma avaliação
        }
       *[no] { $variant ->
            [access] { $company } convida você a compartilhar seu perfil de avaliação
           *[assessment] { $company } convida você para uma avaliação
        }
    }
email-greeting = Olá, { $name },
email-greeting-anonymous = Olá,
invitation-email-intro = { $variant ->
        [access] { $company } convida você a fazer parte do banco de talentos da organização e a compartilhar o perfil de avaliação que você já tem.
       *[assessment] { $company } convida você a fazer uma avaliação sobre o que motiva você no trabalho.
    }
invitation-email-message = Mensagem de { $company }:
invitation-email-link = Para responder, acesse este link:
invitation-email-valid-until = O link é válido até { $expiry }.
code-email-subject = Seu código de confirmação para { $company }
code-email-intro = Este é o seu código para confirmar a resposta ao convite de { $company }:
code-email-validity = { $minutes ->
        [one] O código é válido por um minuto. Digite-o na página do convite.
        [many] O código é válido por { $minutes } minutos. Digite-o na página do convite.
       *[other] O código é válido por { $minutes } minutos. Digite-o na página do convite.
    }
code-email-ignore = Se você não pediu este código, pode ignorar este e-mail: nada será alterado sem ele.

## Adaptações concedidas para a avaliação

accommodations-intro = Para a avaliação, você terá direito a:
accommodation-extra-time = { $percent }% a mais de tempo
accommodation-breaks = Pausas entre as etapas sempre que você precisar
accommodation-screen-reader = Suporte completo a leitores de tela
accommodation-notes = Também foi combinado: { $notes }

## A página do convite

page-invitation-title = Convite de { $company }
page-assessment-intro = { $company } convida você a fazer uma avaliação sobre o que motiva você no trabalho.
page-assessment-consent = Ao aceitar, você passa a fazer parte do banco de talentos de { $company } com este endereço de e-mail ({ $email }). Você pode sair depois, se quiser.
page-accept-button = Aceitar o convite
page-access-intro = { $company } pede que você faça parte do banco de talentos da organização e compartilhe o perfil de avaliação que você já tem.
page-access-share-label = Sim, { $company } pode ver os resultados das avaliações que fiz antes de entrar.
page-access-share-help = Se você deixar esta opção desmarcada, { $company } verá apenas as avaliações que você fizer a partir de agora. Se você marcá-la, primeiro enviaremos um código para { $email } para confirmar que a resposta é mesmo sua.
page-access-button = Aceitar
page-valid-until = Este convite é válido até { $expiry }.
page-accommodations-title = Suas adaptações
page-used-title = Convite já utilizado
page-used-body = Este convite de { $company } já foi aceito. Não é preciso fazer mais nada.
page-expired-title = Convite expirado
page-expired-body = Este convite de { $company } expirou. Peça um novo convite a { $company }.
page-withdrawn-title = Convite cancelado
page-withdrawn-body = { $company } cancelou este convite.
page-not-found-title = Convite não encontrado
page-not-found-body = Este link não é válido. Verifique se você copiou o link completo.
page-deactivated-title = Não é possível participar
page-deactivated-body = Sua participação foi desativada pela organização. Entre em contato com ela.
page-full-title = Não é possível participar no momento
page-full-body = No momento, a organização não está aceitando novos participantes. Entre em contato com ela.
page-no-longer-valid-title = Convite não é mais válido
page-no-longer-valid-body = Este convite não pode mais ser aceito.
page-error-title = Algo deu errado
page-error-body = Tente novamente daqui a um minuto.

## O código de uso único

page-code-title = Confirme que é você
page-code-label = Código recebido por e-mail
page-code-button = Confirmar
page-code-help = { $minutes ->
        [one] Só você pode dar seu consentimento a { $company }: o código comprova que você tem acesso a este endereço de e-mail. O código é válido por um minuto.
        [many] Só você pode dar seu consentimento a { $company }: o código comprova que você tem acesso a este endereço de e-mail. O código é válido por { $minutes } minutos.
       *[other] Só você pode dar seu consentimento a { $company }: o código comprova que você tem acesso a este endereço de e-mail. O código é válido por { $minutes } minutos.
    }
page-code-resend = Enviar um novo código
page-code-sent = Enviamos um código de 6 dígitos para { $email }. Digite-o aqui para confirmar.
page-code-not-sent = Não foi possível enviar o código agora. Peça um novo código daqui a um minuto.
page-code-too-many = Muitos códigos foram enviados para este endereço de e-mail. Use o último que você recebeu ou tente novamente daqui a uma hora.
page-code-no-live = Este código não é mais válido (expirou, já foi usado ou foi digitado errado muitas vezes). Peça um novo código.
page-code-wrong = { $tries ->
        [0] Código incorreto. Não há mais tentativas disponíveis para este código.
        [one] Código incorreto. Você ainda tem uma tentativa com este código.
        [many] Código incorreto. Você ainda tem { $tries } tentativas com este código.
       *[other] Código incorreto. Você ainda tem { $tries } tentativas com este código.
    }
page-code-malformed = O código tem 6 dígitos. Digite-o novamente.

## Depois de aceitar

page-welcome-title = Boas-vindas
page-welcome-body = Você aceitou o convite. Seu endereço de e-mail é { $email }. Você já pode fechar esta página.
page-continue = Continuar para { $host }

## O relatório

report-title = Relatório de avaliação
report-completed = Concluída em { $date }
report-needs = Necessidades por eixo motivacional
report-competencies = Competências: apoio motivacional
report-personality = Personalidade
report-accommodations = Adaptações
report-footer = Este relatório descreve uma única pessoa. As pontuações indicam o quanto a motivação sustenta cada competência; elas não medem habilidade e nunca são comparadas entre pessoas.
report-basis = { $assessments ->
        [one] Baseado em uma avaliação com { $responses } respostas
        [many] Baseado em { $assessments } avaliações com { $responses } respostas
       *[other] Baseado em { $assessments } avaliações com { $responses } respostas
    }
report-model = Modelo: { $model } { $version }, mapeamento { $mapping }
report-anchor = âncora
report-band-limited = limitado
report-band-some = leve
report-band-moderate = moderado
report-band-high = alto

## O texto de personalidade do relatório: composto a partir dos resultados da própria pessoa.
## $needs e $competencies são listas de nomes, já unidas do jeito usual do idioma ("A, B e C").

personality-drives = O que motiva esta pessoa
personality-strongest = Os fatores motivacionais mais fortes são { $needs }. Um trabalho que ofereça esses elementos tende a ser energizante.
# $need: o nome do fator motivacional mais forte; $definition: o que ele significa (uma frase completa do modelo).
personality-means = { $need } significa: { $definition }
personality-less-central = Com papel menos central aparecem { $needs }, que pesam menos na hora de escolher entre alternativas.
personality-competencies = Competências apoiadas pela motivação
personality-strong = Apoio forte: { $competencies }.
personality-moderate = Apoio moderado: { $competencies }.
personality-limited = Apoio limitado: { $competencies }.
personality-even = A motivação sustenta todas as competências de maneira mais ou menos uniforme.
personality-basis = Com base em { $assessments ->
        [one] { $assessments } avaliação
        [many] { $assessments } avaliações
       *[other] { $assessments } avaliações
    } e { $responses } respostas. Os níveis descrevem o apoio motivacional, não a habilidade.

## A página do relatório aberta pelo link do ATS (lida pela equipe de recrutamento da organização)

report-page-shared = Compartilhado por { $company } por meio do sistema de gestão de candidatos da organização. Avaliação concluída em { $date }.
report-page-match = Aderência ao perfil { $profile }
report-page-category = { $category ->
        [high] alta
        [moderate] moderada
       *[low] baixa
    }
report-page-competency = Competência
report-page-score = Pontuação
report-page-band = Nível
report-page-download = Baixar o relatório em PDF
report-page-gone-title = Este relatório não está mais disponível
report-page-gone-body = O link expirou ou o relatório foi retirado. Peça um novo link à organização que o enviou.
report-page-not-found-title = Relatório não encontrado
report-page-not-found-body = Este link não é válido.
report-page-busy-title = Tente novamente
report-page-busy-body = Não é possível exibir o relatório agora. Tente novamente daqui a um minuto.
